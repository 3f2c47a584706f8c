// SOFA's older ways of writing a component in XML (framework/src/scene/xml_reader.cpp):
// <Object type="X"> and attributes given as child elements,
// <Attribute type="name"><Data value="…"/></Attribute> (SOFA's simulation/common/xml/
// AttributeElement.cpp and DataElement.cpp), which replace the same attribute written inline.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class XmlForms : public testing::QuietTest {};

TEST_F(XmlForms, AttributeChildElementsSetTheComponentsFields) {
  // A point of mass 2 with velocity (0, 10, 0) given the old way, h = 0.5, no gravity: after one
  // symplectic Euler step x = h·v = (0, 5, 0). The inline velocity is replaced.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject template="Vec3" velocity="9 9 9">
    <Attribute type="name">
      <Data value="particle" />
    </Attribute>
    <Attribute type="position"><Data value="0 0 0" /></Attribute>
    <Attribute type="velocity"><Data value="0 10 0" /></Attribute>
  </MechanicalObject>
  <Object type="UniformMass" totalMass="2"/>
</Node>)");
  EXPECT_EQ(simulation.model().objects[0].id, "root/particle");
  simulation.Step();
  const auto x = simulation.position(0);
  EXPECT_EQ(x[0], 0.0);
  EXPECT_EQ(x[1], 5.0);
  EXPECT_EQ(x[2], 0.0);
}

TEST_F(XmlForms, OtherChildElementsAreOneLineErrors) {
  try {
    LoadScene(R"(<Node name="root">
  <MechanicalObject>
    <Attribute type="position"><Value v="1"/></Attribute>
  </MechanicalObject>
</Node>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("inline.scn:3: component <MechanicalObject> has a child "
                                        "element <Attribute>"));
  }
}

}  // namespace
}  // namespace fluxion
