// SOFA's component catalog in the read pass (framework/src/registry/sofa_catalog.*,
// build/read_pass.cpp): a real SOFA component Fluxion does not implement is "not supported" with
// its category, all of them at once, never "did you mean"; draw-only components are ignored;
// nodes that only draw are skipped whole; SOFA's old names of components Fluxion implements work.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;
using ::testing::Not;

std::vector<std::string> Errors(const std::string& xml) {
  try {
    LoadScene(xml, "s.scn");
  } catch (const SceneError& error) {
    std::vector<std::string> messages;
    for (const SceneDiagnostic& d : error.diagnostics()) messages.push_back(d.Format());
    return messages;
  }
  return {};
}

constexpr const char* kFalling = R"(<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
)";

class SofaCatalog : public testing::QuietTest {};

TEST_F(SofaCatalog, UnsupportedComponentsAreNamedWithTheirCategoryAllAtOnce) {
  const std::vector<std::string> errors =
      Errors(std::string(kFalling) + R"(  <CompositeCollisionPipeline/>
  <TriangularAnisotropicFEMForceField youngModulus="1000"/>
  <SparseGridMultipleTopology n="3 3 3"/>
  <DynamicSparseGridTopologyModifier/>
  <Mechanicalobject/>
</Node>)");
  EXPECT_THAT(
      errors,
      ElementsAre("s.scn:5: SOFA component 'CompositeCollisionPipeline' is not supported by "
                  "Fluxion "
                  "(category: Collision)",
                  "s.scn:6: SOFA component 'TriangularAnisotropicFEMForceField' is not supported "
                  "by Fluxion (category: SolidMechanics)",
                  "s.scn:7: SOFA component 'SparseGridMultipleTopology' is not supported by "
                  "Fluxion (category: Topology)",
                  "s.scn:8: SOFA component 'DynamicSparseGridTopologyModifier' is not supported "
                  "by Fluxion (category: Topology)",
                  HasSubstr("s.scn:9: unknown component 'Mechanicalobject' (did you mean "
                            "'MechanicalObject'?)")));
}

TEST_F(SofaCatalog, DrawOnlyComponentsAndVisualNodesAreSkipped) {
  const Simulation plain = LoadScene(std::string(kFalling) + "</Node>");
  Simulation decorated = LoadScene(std::string(kFalling) + R"(  <OglLabel label="hello"/>
  <VisualStyle displayFlags="showVisual"/>
  <NaturalOrderingMethod/>
  <Node name="Visual">
    <MeshOBJLoader name="skin" filename="no/such/file.obj" handleSeams="1"/>
    <OglModel name="model" src="@skin" color="red"/>
    <BarycentricMapping input="@../dofs" output="@model"/>
    <Node name="Shine">
      <OglModel name="again"/>
      <IdentityMapping input="@../../dofs" output="@again"/>
    </Node>
    <Node name="Surface">
      <QuadSetTopologyContainer name="Container"/>
      <QuadSetTopologyModifier/>
      <Hexa2QuadTopologicalMapping input="@../../nowhere" output="@Container"/>
      <OglModel name="skin" quads="@Container.quads"/>
      <IdentityMapping input="@../../dofs" output="@skin"/>
    </Node>
  </Node>
</Node>)");
  // The visual node is not built at all (its loader's missing file is never read, nor the
  // topology a visual model draws, as SOFA's EulerExplicitSolver_diagonal.scn has it), and the
  // run is the same as without it.
  EXPECT_EQ(decorated.objects().size(), 1u);
  Simulation reference = LoadScene(std::string(kFalling) + "</Node>");
  for (int step = 0; step < 3; ++step) {
    decorated.Step();
    reference.Step();
  }
  EXPECT_EQ(Vector(decorated.position(0)), Vector(reference.position(0)));
  (void)plain;
}

TEST_F(SofaCatalog, AMappingNextToAMechanicalObjectIsNotSkipped) {
  // A mechanical mapping Fluxion implements makes the object a mapped one...
  const Simulation mapped = LoadScene(std::string(kFalling) + R"(  <Node name="mapped">
    <MechanicalObject name="copy"/>
    <IdentityMapping input="@../dofs" output="@copy"/>
  </Node>
</Node>)");
  ASSERT_EQ(mapped.objects().size(), 2u);
  EXPECT_EQ(mapped.objects()[1].mapped_from, 0);
  // ...and one it does not implement is refused, not skipped.
  const std::vector<std::string> errors = Errors(std::string(kFalling) + R"(  <Node name="mapped">
    <MechanicalObject name="copy"/>
    <TubularMapping input="@../dofs" output="@copy"/>
  </Node>
</Node>)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            "s.scn:7: SOFA component 'TubularMapping' is not supported by Fluxion (category: "
            "Mapping)");
}

TEST_F(SofaCatalog, NamesSofaRetiredLongAgoSayWhatReplacedThem) {
  // SOFA's examples still write CGImplicit/CGImplicitSolver, which neither SOFA's catalog nor its
  // ComponentChange table knows any more: one line naming today's pair, not "did you mean".
  EXPECT_THAT(Errors(std::string(kFalling) + "  <CGImplicitSolver iterations=\"25\"/>\n</Node>"),
              ElementsAre("s.scn:5: 'CGImplicitSolver' is a component SOFA no longer has, nor "
                          "Fluxion (SOFA's old implicit Euler with its own conjugate gradient: "
                          "write EulerImplicitSolver with a CGLinearSolver)"));
  EXPECT_THAT(Errors(std::string(kFalling) + "  <CGImplicit/>\n</Node>"),
              ElementsAre(HasSubstr("s.scn:5: 'CGImplicit' is a component SOFA no longer has")));
  // PlaneConstraint (examples/Component/Constraint/Projective/PlaneConstraint.scn): SOFA's
  // factory has no such name, nor its ComponentChange table; the message names today's
  // projective plane constraints.
  EXPECT_THAT(Errors(std::string(kFalling) + "  <PlaneConstraint plane=\"0 0 1\"/>\n</Node>"),
              ElementsAre(HasSubstr("s.scn:5: 'PlaneConstraint' is a component SOFA no longer "
                                    "has, nor Fluxion (SOFA has no component of this name either, "
                                    "and skips it with an error: for points kept on a plane write "
                                    "PlaneProjectiveConstraint")));
}

TEST_F(SofaCatalog, SofasOldNamesOfImplementedComponentsWork) {
  // FixedConstraint is an alias Fluxion registers; PartialFixedConstraint is SOFA's old name of
  // PartialFixedProjectiveConstraint (SOFA's ComponentChange list); AttachConstraint is the old
  // name of a component Fluxion does not implement: named with SOFA's new name.
  Simulation simulation = LoadScene(std::string(kFalling) + R"(  <FixedConstraint indices="0"/>
  <PartialFixedConstraint indices="1" fixedDirections="0 1 0"/>
</Node>)");
  simulation.Step();
  EXPECT_EQ(simulation.position(0)[1], 0.0);
  EXPECT_EQ(simulation.position(0)[4], 0.0);
  const std::vector<std::string> errors =
      Errors(std::string(kFalling) + "  <AttachConstraint/>\n</Node>");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("(category: renamed AttachProjectiveConstraint in SOFA)"));
  EXPECT_THAT(errors[0], Not(HasSubstr("did you mean")));
}

}  // namespace
}  // namespace fluxion
