// A scene generated from a Python scene names the Python calls in every message
// (LoadOptions::python_origins, framework/src/scene/python_origins.h): errors, warnings and the
// lines a message refers to — issue #28's bug "a Python scene's error cross-reference names the
// generated XML's line". The origins are untrusted text: malformed ones leave the XML line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scene/python_origins.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// What fluxion/scene_graph.py's to_xml writes for a graph whose calls are at lines 3–11 of
// scene.py (two topologies: a warning; two masses: an error referring to the first).
const char* const kGenerated = R"(<Node name="root" dt="0.01"> <!--python scene.py:3-->
  <EulerExplicitSolver/> <!--python scene.py:4-->
  <Node name="n"> <!--python scene.py:5-->
    <MechanicalObject position="0 0 0"/> <!--python scene.py:6-->
    <UniformMass vertexMass="1"/> <!--python scene.py:8-->
    <PointSetTopologyContainer position="0 0 0"/> <!--python scene.py:9-->
    <PointSetTopologyContainer name="t2" position="0 0 0"/> <!--python scene.py:10-->
    <DiagonalMass vertexMass="1"/> <!--python scene.py:11-->
  </Node>
</Node>
)";

class PythonOrigins : public testing::QuietTest {};

TEST_F(PythonOrigins, ErrorsAndTheirCrossReferencesNameThePythonLines) {
  LoadOptions options;
  options.python_origins = true;
  ExpectWarnings(1);  // the second topology (the error is thrown, not logged)
  ::testing::internal::CaptureStderr();
  const std::vector<std::string> errors = testing::LoadErrors(kGenerated, "scene.py", options);
  const std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(errors, ElementsAre(HasSubstr(
                          "scene.py:11: a second mass <DiagonalMass> in node 'root/n' (expected "
                          "at most one per node; the first is <UniformMass> at line 8)")));
  EXPECT_THAT(logged, HasSubstr("warning: scene.py:10: a second topology "
                                "<PointSetTopologyContainer> in node 'root/n' replaces "
                                "<PointSetTopologyContainer> of line 9"));
}

TEST_F(PythonOrigins, WithoutTheOptionTheXmlLinesStay) {
  ExpectWarnings(1);
  ::testing::internal::CaptureStderr();
  const std::vector<std::string> errors = testing::LoadErrors(kGenerated, "scene.py");
  const std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(errors, ElementsAre(HasSubstr("scene.py:8: a second mass <DiagonalMass> in node "
                                            "'root/n' (expected at most one per node; the first "
                                            "is <UniformMass> at line 5)")));
  EXPECT_THAT(logged, HasSubstr("warning: scene.py:7: a second topology"));
}

// Only well-formed origins count: a file name with a control byte would reach a terminal, a
// line must be a positive int, the comment must end the line.
TEST_F(PythonOrigins, MalformedOriginsAreIgnored) {
  const auto origins = internal::PythonOrigins(
      "<a/> <!--python good.py:12-->\n"
      "<b/> <!--python bad\x1b[2J.py:3-->\n"
      "<c/> <!--python x.py:-4-->\n"
      "<d/> <!--python x.py:99999999999-->\n"
      "<e/> <!--python x.py:7--> trailing\n"
      "<f/> <!--python :7-->\n"
      "<g/> <!--python dir:with:colons.py:5-->\r\n"
      "<h/> <!--python x.py:1e3-->\n");
  using Sorted = std::map<int, std::pair<std::string, int>>;
  EXPECT_THAT(Sorted(origins.begin(), origins.end()),
              ElementsAre(Pair(1, Pair("good.py", 12)), Pair(7, Pair("dir:with:colons.py", 5))));
}

}  // namespace
}  // namespace fluxion
