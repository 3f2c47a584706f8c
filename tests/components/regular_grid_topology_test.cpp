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

TEST_F(RegularGridTopologySizes, P0IsTheFirstPointWhenGiven) {
  // SOFA: point (i, j, k) = p0 + i·dx + j·dy + k·dz with dx = (max − min)/(n − 1) along x (0.5
  // here): p0 moves the grid, min and max give its spacing only.
  const Simulation simulation =
      LoadScene(GridScene(R"(n="3 1 1" min="0 0 0" max="1 0 0" p0="-10 2 3")"));
  const auto& x = simulation.objects()[0].position;
  ASSERT_EQ(x.size(), 9);
  EXPECT_EQ(x[0], -10.0);
  EXPECT_EQ(x[3], -9.5);
  EXPECT_EQ(x[6], -9.0);
  EXPECT_EQ(x[7], 2.0);
  EXPECT_EQ(x[8], 3.0);
}

TEST_F(RegularGridTopologySizes, PositionLinkedBackToTheObjectIsTheGridsOutput) {
  // SOFA's examples (AffineMovementProjectiveConstraint.scn) write the object first, with no
  // positions, and link the grid's `position` back to it: GridTopology::init overwrites that data
  // with the grid's points (computePointList) and the object takes them. The object must have
  // the 3×2 grid's six points, x = 0, 0.5, 1 along x and y = 0, 2 along y (dy = (2 − 0)/1).
  const Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs"/>
  <RegularGridTopology nx="3" ny="2" nz="1" xmin="0" xmax="1" ymin="0" ymax="2" zmin="0" zmax="0"
                       position="@dofs.position"/>
  <UniformMass vertexMass="1"/>
</Node>)");
  const auto& x = simulation.objects()[0].position;
  ASSERT_EQ(x.size(), 18);
  const double expected[18] = {0, 0, 0, 0.5, 0, 0, 1, 0, 0, 0, 2, 0, 0.5, 2, 0, 1, 2, 0};
  for (int i = 0; i < 18; ++i) EXPECT_EQ(x[i], expected[i]) << "coordinate " << i;
}

TEST_F(RegularGridTopologySizes, ComputeTriangleListOffLeavesTheGridLines) {
  // A 3×2×1 grid: 2 quads; with triangles (SOFA's default) the edges are the triangles' — the 7
  // grid lines and each quad's q0–q2 diagonal, 9; computeTriangleList="false" leaves no
  // triangles and the 7 lines, x-lines first: (0,1) (1,2) (3,4) (4,5), then (0,3) (1,4) (2,5).
  const auto grid = [](const std::string& extra) {
    return *LoadScene(GridScene(R"(n="3 2 1" )" + extra)).objects()[0].topology;
  };
  const Topology full = grid("");
  EXPECT_EQ(full.triangles.size(), 4u);
  EXPECT_EQ(full.edges.size(), 9u);
  EXPECT_EQ(full.quads.size(), 2u);
  const Topology lines = grid(R"(computeTriangleList="false")");
  EXPECT_TRUE(lines.triangles.empty());
  EXPECT_EQ(lines.quads.size(), 2u);
  const std::vector<std::array<Index, 2>> expected = {{0, 1}, {1, 2}, {3, 4}, {4, 5},
                                                      {0, 3}, {1, 4}, {2, 5}};
  EXPECT_EQ(lines.edges, expected);
  // SOFA's triangles build the quads they split: the quads go only with both lists off.
  EXPECT_EQ(grid(R"(computeQuadList="0")").quads.size(), 2u);
  EXPECT_TRUE(grid(R"(computeQuadList="0" computeTriangleList="0")").quads.empty());
  EXPECT_TRUE(grid(R"(computeEdgeList="0")").edges.empty());
}

TEST_F(RegularGridTopologySizes, WithoutTrianglesMeshBoundaryROIFindsTheGridsBorder) {
  // SOFA's MeshBoundaryROI.scn relies on computeTriangleList="false": a 3×3 grid's 4 quads alone
  // have the 8 outer points on their boundary; the centre point 4, fixed by nothing, falls under
  // gravity (v = −10·h after one step) while the border stays.
  Simulation simulation = LoadScene(R"(<Node name="root" gravity="0 -10 0" dt="0.1">
  <EulerExplicitSolver/>
  <RegularGridTopology n="3 3 1" min="0 0 0" max="2 2 0" computeTriangleList="false"/>
  <MechanicalObject/>
  <UniformMass vertexMass="1"/>
  <MeshBoundaryROI name="roi"/>
  <FixedProjectiveConstraint indices="@roi.indices"/>
</Node>)");
  simulation.Step();
  for (int point = 0; point < 9; ++point)
    EXPECT_DOUBLE_EQ(simulation.velocity(0)[3 * point + 1], point == 4 ? -1.0 : 0.0) << point;
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

// SOFA's DataDisplay.scn builds its simulated grid with src="@/Mesh/Grid": the data of the same
// names (n, min, max; p0 when given) come from that grid, those the scene gives stay. The grid
// given in the legacy words nx="3" ny="2" nz="1" xmin="0" xmax="2" ymin="0" ymax="1" has points
// (0..2, 0..1, 0) 1 m apart; the copy has the same six, and a copy that gives its own n="2 2 1"
// keeps its four points between the same corners.
TEST_F(RegularGridTopologySizes, SrcTakesAnotherGridsSizeAndCorners) {
  const auto scene = [](const std::string& own) {
    return R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <Node name="Mesh">
    <RegularGridTopology name="Grid" nx="3" ny="2" nz="1" xmin="0" xmax="2" ymin="0" ymax="1"
                         zmin="0" zmax="0"/>
    <MechanicalObject/>
  </Node>
  <Node name="Simulation">
    <EulerExplicitSolver/>
    <RegularGridTopology src="@/Mesh/Grid" )" +
           own + R"(/>
    <MechanicalObject/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>)";
  };
  const Simulation copied = LoadScene(scene(""));
  ASSERT_EQ(copied.objects()[1].num_points, 6);
  const double expected[18] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0};
  for (int i = 0; i < 18; ++i) EXPECT_EQ(copied.objects()[1].position[i], expected[i]) << i;
  const Simulation own = LoadScene(scene(R"(n="2 2 1")"));
  ASSERT_EQ(own.objects()[1].num_points, 4);
  EXPECT_EQ(own.objects()[1].position[3], 2.0);   // point 1 at x = max
  EXPECT_EQ(own.objects()[1].position[10], 1.0);  // point 3 at y = max
}

}  // namespace
}  // namespace fluxion
