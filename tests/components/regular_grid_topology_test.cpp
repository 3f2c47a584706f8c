// SOFA's RegularGridTopology sizes (components/regular_grid_topology.h): `n`, or the legacy
// nx ny nz all together. SOFA silently ignores a partial legacy size and keeps n = 2 2 2; Fluxion
// refuses it with one line instead of building a grid of another size than the one written.
#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using testing::LoadScene;

std::string GridScene(const std::string& sizes) {
  return R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <RegularGridTopology )" +
         sizes + R"(/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
</Node>)";
}

class RegularGridTopologySizes : public testing::QuietTest {};

TEST_F(RegularGridTopologySizes, NOrAllThreeLegacySizesGiveTheGrid) {
  EXPECT_EQ(LoadScene(GridScene(R"(n="3 2 2")")).objects()[0].num_points, 12);
  EXPECT_EQ(LoadScene(GridScene(R"(nx="3" ny="4" nz="2")")).objects()[0].num_points, 24);
  EXPECT_EQ(LoadScene(GridScene("")).objects()[0].num_points, 8);  // SOFA's default 2 2 2
}

TEST_F(RegularGridTopologySizes, PartialLegacySizesAreRefused) {
  try {
    LoadScene(GridScene(R"(nx="5" nz="3")"), "grid.scn");
    FAIL() << "expected a SceneError";
  } catch (const SceneError& error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_EQ(error.diagnostics()[0].Format(),
              "grid.scn:3: RegularGridTopology has 'nx', 'nz' but not 'ny' (SOFA ignores the "
              "legacy sizes unless all three are given; expected nx, ny and nz together, or 'n')");
  }
}

}  // namespace
}  // namespace fluxion
