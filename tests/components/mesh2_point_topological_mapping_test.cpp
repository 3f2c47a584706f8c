// Mesh2PointTopologicalMapping (components/mesh2_point_topological_mapping.h): the points it
// creates from one tetrahedron, one quad and one hexahedron, worked by hand from SOFA's formulas
// (Mesh2PointTopologicalMapping.cpp). The output node's MechanicalObject takes the points.
//
// Tetrahedron (0, 1, 2, 3) at p0 = (0, 0, 0), p1 = (1, 0, 0), p2 = (0, 1, 0), p3 = (0, 0, 1); its
// container derives the edges in SOFA's order inside a tetrahedron: (0 1) (0 2) (0 3) (1 2) (1 3)
// (2 3). Every coordinate is a multiple of 1/8, so every expected value is exact.
#include <gmock/gmock.h>

#include <array>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using testing::LoadScene;
using P = std::array<double, 3>;

// The root (no gravity, an explicit solver), a node with `container` and a unit mass per point,
// and its child "points" with the mapping's output container, `mapping` and an object.
std::string Scene(const std::string& container, const std::string& mapping) {
  return R"(<Node name="root" dt="0.1" gravity="0 0 0">
  <EulerExplicitSolver/>
  <Node name="mesh">
    )" + container +
         R"(
    <MechanicalObject/><UniformMass vertexMass="1"/>
    <Node name="points">
      <PointSetTopologyContainer name="Container2"/>
      <PointSetTopologyModifier/>
      )" +
         mapping +
         R"(
      <MechanicalObject name="dofs"/><UniformMass vertexMass="1"/>
    </Node>
  </Node>
</Node>)";
}

constexpr const char* kTetrahedron =
    R"(<TetrahedronSetTopologyContainer name="Container" position="0 0 0  1 0 0  0 1 0  0 0 1"
        tetrahedra="0 1 2 3"/>)";

std::vector<P> PointsOf(const Simulation& simulation) {
  const ObjectModel& object = simulation.model().objects.at(1);
  std::vector<P> points;
  for (Index i = 0; i < object.num_points; ++i)
    points.push_back(
        {object.position[3 * i], object.position[3 * i + 1], object.position[3 * i + 2]});
  return points;
}

class Mesh2PointTopologicalMapping : public testing::QuietTest {};

TEST_F(Mesh2PointTopologicalMapping, CreatesPointsAtVerticesEdgesAndTetrahedra) {
  // Vertices: p + (0 0 0) and p + (0 0 1) each, vertex by vertex. Edges, fx = 1/4:
  // (1 − fx)·p_a + fx·p_b. The tetrahedron, (1/4, 1/8, 1/2): p0·(1/8) + p1/4 + p2/8 + p3/2.
  const Simulation simulation = LoadScene(Scene(
      kTetrahedron, R"(<Mesh2PointTopologicalMapping input="@../Container" output="@Container2"
        pointBaryCoords="0 0 0  0 0 1" edgeBaryCoords="0.25 0 0"
        tetraBaryCoords="0.25 0.125 0.5"/>)"));
  EXPECT_THAT(PointsOf(simulation),
              ElementsAre(P{0, 0, 0}, P{0, 0, 1}, P{1, 0, 0}, P{1, 0, 1}, P{0, 1, 0}, P{0, 1, 1},
                          P{0, 0, 1}, P{0, 0, 2},  // the vertices
                          P{0.25, 0, 0}, P{0, 0.25, 0}, P{0, 0, 0.25}, P{0.75, 0.25, 0},
                          P{0.75, 0, 0.25}, P{0, 0.75, 0.25},  // the edges
                          P{0.25, 0.125, 0.5}));               // the tetrahedron
  // No element is copied without copy*: a point set.
  const Topology& output = *simulation.model().objects.at(1).topology;
  EXPECT_TRUE(output.edges.empty());
  EXPECT_EQ(output.points.size(), 15u);
}

TEST_F(Mesh2PointTopologicalMapping, TakesSofasCornerOrderInQuadsAndHexahedra) {
  // Quad (0, 1, 2, 3) at (0 0 0) (1 0 0) (1 1 0) (0 1 0), (fx, fy) = (1/4, 1/2): SOFA weighs q0
  // by (1−fx)(1−fy) = 3/8, q1 by fx(1−fy) = 1/8, q2 by (1−fx)fy = 3/8, q3 by fx·fy = 1/8 — q2
  // being the opposite corner, the point is (1/2, 1/2, 0), not (1/4, 1/2, 0).
  const Simulation quad = LoadScene(Scene(
      R"(<QuadSetTopologyContainer name="Container" position="0 0 0  1 0 0  1 1 0  0 1 0"
          quads="0 1 2 3"/>)",
      R"(<Mesh2PointTopologicalMapping input="@../Container" output="@Container2"
          quadBaryCoords="0.25 0.5 0"/>)"));
  EXPECT_THAT(PointsOf(quad), ElementsAre(P{0.5, 0.5, 0}));
  // The unit cube as a hexahedron (0 … 7) in SOFA's order: bottom (0 0 0) (1 0 0) (1 1 0)
  // (0 1 0), top the same at z = 1. SOFA's corners h0 h1 h3 h2 h4 h5 h7 h6 make the trilinear
  // point (fx, fy, fz) itself.
  const Simulation hexahedron = LoadScene(Scene(
      R"(<HexahedronSetTopologyContainer name="Container"
          position="0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1"
          hexahedra="0 1 2 3 4 5 6 7"/>)",
      R"(<Mesh2PointTopologicalMapping input="@../Container" output="@Container2"
          hexaBaryCoords="0.25 0.5 0.75  0.5 0.5 0.5"/>)"));
  EXPECT_THAT(PointsOf(hexahedron), ElementsAre(P{0.25, 0.5, 0.75}, P{0.5, 0.5, 0.5}));
}

TEST_F(Mesh2PointTopologicalMapping, CopiesElementsOntoEachVertexsFirstPoint) {
  // Two points per vertex: vertex v's first is 2v. Triangles of a tetrahedron's container are
  // its faces; with copyTriangles the output's triangles are those renamed, its edges derived.
  const Simulation simulation = LoadScene(Scene(
      R"(<TriangleSetTopologyContainer name="Container" position="0 0 0  1 0 0  0 1 0"
          triangles="0 1 2"/>)",
      R"(<Mesh2PointTopologicalMapping input="@../Container" output="@Container2"
          pointBaryCoords="0 0 0  0 0 1" triangleBaryCoords="0.25 0.5 0" copyTriangles="1"/>)"));
  const Topology& output = *simulation.model().objects.at(1).topology;
  EXPECT_THAT(output.triangles, ElementsAre(std::array<Index, 3>{0, 2, 4}));
  // The triangle's point: (1 − 3/4)·p0 + p1/4 + p2/2.
  EXPECT_EQ(PointsOf(simulation).back(), (P{0.25, 0.5, 0}));
  EXPECT_EQ(PointsOf(simulation).size(), 7u);
}

TEST_F(Mesh2PointTopologicalMapping, RefusesWhatSofaWouldDrop) {
  testing::ExpectSceneError(
      Scene(kTetrahedron, R"(<Mesh2PointTopologicalMapping input="@../Container"
              output="@Container2" copyEdges="1" edgeBaryCoords="0.5 0 0"/>)"),
      "'copyEdges' needs pointBaryCoords");
  testing::ExpectSceneError(
      Scene(kTetrahedron, R"(<Mesh2PointTopologicalMapping input="@../Container"
              output="@Container2" edgeBaryCoords="0.5 0"/>)"),
      "'edgeBaryCoords' has 2 numbers (expected three per point created");
}

}  // namespace
}  // namespace fluxion
