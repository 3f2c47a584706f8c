// SOFA's sphere files (.sph, framework/src/meshio/sphere_reader.cpp) on files written here, read
// as SOFA's SphereLoader reads them: spheres in file order whatever their index, `nums` and
// comments ignored, other keywords skipped; and the one-line errors where SOFA reads on with
// defaults.
#include <gmock/gmock.h>

#include "fluxion/errors.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Point = std::array<double, 3>;

TEST(SphereReader, SpheresInFileOrderCommentsAndUnknownLines) {
  const SphereList spheres = ReadSphereFile(
      "sph 1.0\r\n"
      "#nums is only a hint\n"
      "nums 3\n"
      "\n"
      "sphe 7 -4 1.25 0 0.85\n"
      "sphe 1 1e-1 -2 3.5 0.35\r\n"
      "cone 1 2 3\n"
      "  sphe 0 0 0 0 2\n",
      "tree.sph");
  EXPECT_THAT(spheres.centres,
              ElementsAre(Point{-4, 1.25, 0}, Point{0.1, -2, 3.5}, Point{0, 0, 0}));
  EXPECT_THAT(spheres.radii, ElementsAre(0.85, 0.35, 2));
  EXPECT_EQ(spheres.unknown_statements, 1);
}

std::string ErrorOf(const std::string& text) {
  try {
    ReadSphereFile(text, "bad.sph");
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "no error";
}

TEST(SphereReader, MalformedFilesAreOneLineErrorsWithTheirLine) {
  EXPECT_THAT(ErrorOf(""), StartsWith("bad.sph:1: is not a sphere file (expected 'sph 1.0'"));
  EXPECT_THAT(ErrorOf("solid x\nsphe 0 0 0 0 1\n"), StartsWith("bad.sph:1: is not a sphere file"));
  EXPECT_THAT(ErrorOf("sph 1.0\nsphe 0 1 2 3\n"),
              StartsWith("bad.sph:2: 'sphe' has 4 number(s) (expected: index x y z radius)"));
  EXPECT_THAT(ErrorOf("sph 1.0\nsphe 0 0 0 0 1\nsphe 1 0 nan 0 1\n"),
              AllOf(StartsWith("bad.sph:3: y 'nan'"), HasSubstr("expected a finite number")));
  EXPECT_THAT(ErrorOf("sph 1.0\nnums -2\n"), StartsWith("bad.sph:2: the sphere count '-2'"));
  EXPECT_THAT(ErrorOf("sph 1.0\nnums\n"), StartsWith("bad.sph:2: 'nums' has no count"));
  EXPECT_THAT(ErrorOf("sph 1.0\nsphe x 0 0 0 1\n"), StartsWith("bad.sph:2: the sphere's index"));
}

}  // namespace
}  // namespace fluxion::internal
