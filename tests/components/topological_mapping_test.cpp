// SOFA's topological mappings (components/*2*_topological_mapping.cpp), the faces containers
// derive from volumes, and topology="@path" links, on scenes whose element lists are worked by
// hand (tests/framework/topology_elements_test.cpp works the same grids element by element).
//
// Grid: 2×2×1 hexahedra on [0, 2]×[0, 2]×[0, 1], point i + 3j + 9k at (i, j, k); hexahedron
// (x, y) = (p, p+1, p+4, p+3, p+9, p+10, p+13, p+12), p = x + 3y. A node's mapped topology is
// read from a MechanicalObject in that node (it takes the node's topology).
#include <gmock/gmock.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::LoadScene;
using Quad = std::array<Index, 4>;
using Triangle = std::array<Index, 3>;
using Edge = std::array<Index, 2>;

// The 2×2×1 grid as a HexahedronSetTopologyContainer (quads and edges derived by the container).
std::string HexahedronContainer() {
  std::string position, hexahedra;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        position += std::to_string(i) + " " + std::to_string(j) + " " + std::to_string(k) + "  ";
  for (const int p : {0, 1, 3, 4})
    for (const int v : {p, p + 1, p + 4, p + 3, p + 9, p + 10, p + 13, p + 12})
      hexahedra += std::to_string(v) + " ";
  return R"(<HexahedronSetTopologyContainer name="Container" position=")" + position +
         R"(" hexahedra=")" + hexahedra + R"("/>)";
}

// A scene: root with a solver, then `body` (nodes with objects and unit masses).
Simulation Scene(const std::string& body) {
  return LoadScene(R"(<Node name="root" dt="0.5" gravity="0 0 0">
  <EulerExplicitSolver/>
  )" + body + "\n</Node>\n");
}

// A node's object with a unit mass per point (it takes the node's topology).
constexpr const char* kObject = R"(<MechanicalObject/><UniformMass vertexMass="1"/>)";

std::array<double, 3> Point(Index i) {
  return {static_cast<double>(i % 3), static_cast<double>((i / 3) % 3), static_cast<double>(i / 9)};
}

class TopologicalMapping : public testing::QuietTest {};

TEST_F(TopologicalMapping, Hexa2QuadKeepsTheBorderQuadsInTheContainersOrder) {
  // The container's 20 quads (SOFA's createQuadSetArray order) less the 4 inner ones (3, 4, 10,
  // 13): 16 quads.
  const std::string body = R"(<Node name="volume">
    )" + HexahedronContainer() +
                           kObject + R"(
    <Node name="surface">
      <QuadSetTopologyContainer name="Container"/>
      <QuadSetTopologyModifier name="Modifier"/>
      <Hexa2QuadTopologicalMapping input="@../Container" output="@Container" FLIP/>
      )" + kObject + R"(
    </Node>
  </Node>)";
  const auto with = [&](const std::string& flip) {
    std::string text = body;
    text.replace(text.find("FLIP"), 4, flip);
    return text;
  };
  Simulation plain = Scene(with(""));
  ASSERT_EQ(plain.objects().size(), 2u);
  EXPECT_EQ(plain.objects()[0].topology->quads.size(), 20u);
  const Topology& surface = *plain.objects()[1].topology;
  EXPECT_THAT(
      surface.quads,
      ElementsAre(Quad{0, 3, 4, 1}, Quad{9, 10, 13, 12}, Quad{0, 1, 10, 9}, Quad{0, 9, 12, 3},
                  Quad{1, 4, 5, 2}, Quad{10, 11, 14, 13}, Quad{1, 2, 11, 10}, Quad{2, 5, 14, 11},
                  Quad{3, 6, 7, 4}, Quad{12, 13, 16, 15}, Quad{6, 15, 16, 7}, Quad{3, 12, 15, 6},
                  Quad{4, 7, 8, 5}, Quad{13, 14, 17, 16}, Quad{5, 8, 17, 14}, Quad{7, 16, 17, 8}));
  // The same points; edges from the quads: a closed surface of 18 points and 16 faces has
  // 18 + 16 − 2 = 32 edges (Euler).
  EXPECT_EQ(surface.points.size(), 18u);
  EXPECT_EQ(surface.edges.size(), 32u);
  Simulation flipped = Scene(with(R"(flipNormals="1")"));
  EXPECT_EQ(flipped.objects()[1].topology->quads.front(), (Quad{1, 4, 3, 0}));
}

TEST_F(TopologicalMapping, AStatelessNodesMappedContainerCopiedByAnotherNodeIsRead) {
  // SOFA's BarycentricTetraMapping.scn: a node with a grid and a Hexa2Tetra mapping but no
  // state (nothing in it moves or draws), whose container another node copies through src=.
  // The tetrahedra are the mapping's (6 per hexahedron, the first worked by hand above); the
  // node is read, not skipped as a drawing-only one. (SOFA's warning: the container follows
  // the grid as the node's topology.)
  ExpectWarnings(1);
  Simulation simulation = Scene(R"(<Node name="MeshVolume">
    <RegularGridTopology name="grid" n="3 3 2" min="0 0 0" max="2 2 1"/>
    <TetrahedronSetTopologyContainer name="Container" position="@grid.position"/>
    <TetrahedronSetTopologyModifier name="Modifier"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@Container"/>
  </Node>
  <Node name="Deformable">
    <TetrahedronSetTopologyContainer name="Container" src="@../MeshVolume/Container"/>
    )" + std::string(kObject) + R"(
  </Node>)");
  ASSERT_EQ(simulation.objects().size(), 1u);
  const Topology& tetra = *simulation.objects()[0].topology;
  EXPECT_EQ(tetra.points.size(), 18u);
  ASSERT_EQ(tetra.tetrahedra.size(), 24u);
  EXPECT_EQ(tetra.tetrahedra[0], (std::array<Index, 4>{0, 10, 1, 13}));
  EXPECT_EQ(tetra.tetrahedra[5], (std::array<Index, 4>{12, 10, 9, 0}));
}

TEST_F(TopologicalMapping, Hexa2TetraThenTetra2TriangleGiveTheBoxSurface) {
  Simulation simulation = Scene(R"(<Node name="grid">
    <RegularGridTopology name="grid" n="3 3 2" min="0 0 0" max="2 2 1"/>
    )" + std::string(kObject) + R"(
    <Node name="Tetra">
      <TetrahedronSetTopologyContainer name="Container"/>
      <Hexa2TetraTopologicalMapping input="@../grid" output="@Container"/>
      )" + kObject + R"(
      <Node name="Triangles">
        <TriangleSetTopologyContainer name="Container"/>
        <Tetra2TriangleTopologicalMapping input="@../Container" output="@Container"/>
        )" + kObject + R"(
      </Node>
    </Node>
  </Node>)");
  ASSERT_EQ(simulation.objects().size(), 3u);
  const Topology& tetra = *simulation.objects()[1].topology;
  ASSERT_EQ(tetra.tetrahedra.size(), 24u);
  EXPECT_EQ(tetra.tetrahedra[0], (std::array<Index, 4>{0, 10, 1, 13}));
  EXPECT_EQ(tetra.tetrahedra[5], (std::array<Index, 4>{12, 10, 9, 0}));
  // The tetrahedral container derives its triangles (SOFA's createTriangleSetArray): the first
  // are hexahedron 0's, worked by hand.
  ASSERT_GE(tetra.triangles.size(), 18u);
  EXPECT_EQ(tetra.triangles[0], (Triangle{1, 13, 10}));
  EXPECT_EQ(tetra.triangles[17], (Triangle{9, 10, 12}));
  // The border: 16 unit squares of the box, 2 triangles each, outward; the first 8 are
  // hexahedron 0's faces on the box (its faces x = 1 and y = 1 are inside the grid).
  const Topology& surface = *simulation.objects()[2].topology;
  ASSERT_EQ(surface.triangles.size(), 32u);
  EXPECT_THAT(std::vector<Triangle>(surface.triangles.begin(), surface.triangles.begin() + 8),
              ElementsAre(Triangle{0, 1, 10}, Triangle{0, 3, 1}, Triangle{1, 3, 4},
                          Triangle{0, 12, 3}, Triangle{10, 13, 12}, Triangle{0, 10, 9},
                          Triangle{0, 9, 12}, Triangle{9, 10, 12}));
  for (const Triangle& t : surface.triangles) {
    const auto a = Point(t[0]), b = Point(t[1]), c = Point(t[2]);
    const std::array<double, 3> u = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const std::array<double, 3> w = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const std::array<double, 3> normal = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                                          u[0] * w[1] - u[1] * w[0]};
    double outward = 0;
    for (int k = 0; k < 3; ++k)
      outward += normal[k] * ((a[k] + b[k] + c[k]) / 3 - (k == 2 ? 0.5 : 1.0));
    EXPECT_GT(outward, 0.0);
  }
}

TEST_F(TopologicalMapping, Tetra2TriangleOptions) {
  const auto surface = [](const std::string& options) {
    Simulation simulation = Scene(R"(<Node name="volume">
    <TetrahedronSetTopologyContainer name="Container" position="0 0 0  1 0 0  0 1 0  0 0 1"
                                     tetrahedra="0 1 2 3"/>
    )" + std::string(kObject) + R"(
    <Node name="surface">
      <TriangleSetTopologyContainer name="Container"/>
      <Tetra2TriangleTopologicalMapping input="@../Container" output="@Container" )" +
                                  options + R"(/>
      )" + kObject + R"(
    </Node>
  </Node>)");
    return simulation.objects()[1].topology->triangles;
  };
  // Faces {1,2,3} {0,3,2} {1,3,0} {0,2,1}, smallest vertex first: all on the border.
  EXPECT_THAT(surface(""), ElementsAre(Triangle{1, 2, 3}, Triangle{0, 3, 2}, Triangle{0, 1, 3},
                                       Triangle{0, 2, 1}));
  EXPECT_THAT(
      surface(R"(flipNormals="1" noNewTriangles="1")"),
      ElementsAre(Triangle{1, 3, 2}, Triangle{0, 2, 3}, Triangle{0, 3, 1}, Triangle{0, 1, 2}));
  EXPECT_TRUE(surface(R"(noInitialTriangles="1")").empty());
}

TEST_F(TopologicalMapping, Quad2TriangleThenTriangle2EdgeOnAGrid) {
  // A 3×3 grid: 2 cells along x, so quads 1 and 2 take the other diagonal (swapping, SOFA's
  // default); the border is the square's 8 edges, in the triangle container's edge order.
  Simulation simulation = Scene(R"(<Node name="quads">
    <RegularGridTopology name="grid" n="3 3 1" min="0 0 0" max="2 2 0"/>
    )" + std::string(kObject) + R"(
    <Node name="T">
      <TriangleSetTopologyContainer name="Container"/>
      <Quad2TriangleTopologicalMapping input="@../grid" output="@Container"/>
      )" + kObject + R"(
      <Node name="E">
        <EdgeSetTopologyContainer name="Container"/>
        <Triangle2EdgeTopologicalMapping input="@../Container" output="@Container"/>
        )" + kObject + R"(
      </Node>
    </Node>
  </Node>)");
  EXPECT_THAT(
      simulation.objects()[1].topology->triangles,
      ElementsAre(Triangle{1, 4, 0}, Triangle{3, 0, 4}, Triangle{1, 2, 4}, Triangle{5, 4, 2},
                  Triangle{3, 4, 6}, Triangle{7, 6, 4}, Triangle{5, 8, 4}, Triangle{7, 4, 8}));
  EXPECT_EQ(simulation.objects()[1].topology->edges.size(), 16u);
  EXPECT_THAT(simulation.objects()[2].topology->edges,
              ElementsAre(Edge{0, 1}, Edge{3, 0}, Edge{1, 2}, Edge{2, 5}, Edge{6, 3}, Edge{7, 6},
                          Edge{5, 8}, Edge{8, 7}));
}

TEST_F(TopologicalMapping, LinkedDataSeeTheMappedTopology) {
  // BoxROI takes the mapped triangles through a data link: of the tetrahedron's faces (1 2 3),
  // (0 3 2), (0 1 3), (0 2 1), centers at x = 1/3, 0, 1/3, 1/3, those with x ≥ 0.3 are 0, 2 and
  // 3 — used here as point indices to fix: only point 1 moves, by h²·F/m = 0.25.
  Simulation simulation = Scene(R"(<Node name="volume">
    <TetrahedronSetTopologyContainer name="Container" position="0 0 0  1 0 0  0 1 0  0 0 1"
                                     tetrahedra="0 1 2 3"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="1"/>
    <Node name="surface">
      <TriangleSetTopologyContainer name="Container"/>
      <Tetra2TriangleTopologicalMapping input="@../Container" output="@Container"/>
      <BoxROI name="box" position="@../dofs.rest_position" triangles="@Container.triangles"
              box="0.3 -0.1 -0.1  1.1 1.1 1.1" strict="0"/>
    </Node>
    <FixedProjectiveConstraint indices="@surface/box.triangleIndices"/>
    <ConstantForceField force="1 0 0"/>
  </Node>)");
  simulation.Step();
  const auto x = simulation.position(0);
  const auto& x0 = simulation.objects()[0].position;
  for (Index i = 0; i < 4; ++i) EXPECT_EQ(x[3 * i], x0[3 * i] + (i == 1 ? 0.25 : 0.0)) << i;
}

TEST_F(TopologicalMapping, TopologyLinksOnMassesAndSprings) {
  // DiagonalMass over the 16 border quads of the grid (area 1 each, totalMass 16: density 1):
  // each point gets 1/4 per border quad it belongs to: a box corner 3/4, any other border point
  // 1, and the grid has no inner point. One step from rest under 1 N: v = h/m = 0.5/m.
  Simulation simulation = Scene(R"(<Node name="volume">
    )" + HexahedronContainer() + R"(
    <MechanicalObject/>
    <DiagonalMass totalMass="16" topology="@surface/Container"/>
    <ConstantForceField force="1 0 0"/>
    <Node name="surface">
      <QuadSetTopologyContainer name="Container"/>
      <Hexa2QuadTopologicalMapping input="@../Container" output="@Container"/>
    </Node>
  </Node>)");
  simulation.Step();
  const auto v = simulation.velocity(0);
  for (Index i = 0; i < 18; ++i) {
    const auto p = Point(i);
    const bool corner = (p[0] == 0 || p[0] == 2) && (p[1] == 0 || p[1] == 2);
    EXPECT_DOUBLE_EQ(v[3 * i], corner ? 0.5 / 0.75 : 0.5) << i;
  }
  // A link to something that is not a topology is reported.
  try {
    Scene(R"(<MeshTopology position="0 0 0  1 0 0" edges="0 1"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="1"/>
  <MeshSpringForceField linesStiffness="1" topology="@dofs"/>)");
    FAIL() << "expected a scene error";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("names <MechanicalObject> 'dofs' (expected a topology"));
  }
}

TEST_F(TopologicalMapping, TriangularBendingSpringsOnTetrahedraOrTheirMappedSurface) {
  // SOFA's tetrahedral container has triangles (its 4 faces), so bending springs apply: each
  // edge has two faces around it and a spring joins their far vertices, the opposite edge.
  // Springs on point 3: (0 3), (1 3), (2 3), rest lengths 1, √2, √2. Point 3 lifted from
  // (0, 0, 1) to (0, 0, 2): lengths 2, √5, √5; one explicit step from rest, m = 1, h = 0.5:
  // v_3 = h·Σ ks·(L − L0)·(x_j − x_3)/L and v_0 = −h·ks·(2 − 1)·(0, 0, −1) = (0, 0, 5).
  // The same springs when they sit in a child node on the mapped surface (4 triangles, the same
  // 6 edges), acting on the object above them as in SOFA.
  const auto velocity = [](const std::string& springs, const std::string& child) {
    Simulation simulation = Scene(R"(<TetrahedronSetTopologyContainer name="Container"
      position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>
  <MechanicalObject position="0 0 0  1 0 0  0 1 0  0 0 2"
                    rest_position="0 0 0  1 0 0  0 1 0  0 0 1"/>
  <UniformMass vertexMass="1"/>
  )" + springs + R"(
  <Node name="surface">
    <TriangleSetTopologyContainer name="Container"/>
    <Tetra2TriangleTopologicalMapping input="@../Container" output="@Container"/>
    )" + child + R"(
  </Node>)");
    EXPECT_EQ(simulation.objects()[0].topology->triangles.size(), 4u);
    simulation.Step();
    return Vector(simulation.velocity(0));
  };
  const std::string tbs = R"(<TriangularBendingSprings stiffness="10" damping="0"/>)";
  const double side = 10 * (std::sqrt(5.0) - std::sqrt(2.0)) / std::sqrt(5.0);
  for (const auto& v : {velocity(tbs, ""), velocity("", tbs)}) {
    EXPECT_NEAR(v[9], 0.5 * side, 1e-14);
    EXPECT_NEAR(v[10], 0.5 * side, 1e-14);
    EXPECT_NEAR(v[11], 0.5 * (-10.0 - 4 * side), 1e-14);
    EXPECT_NEAR(v[2], 5.0, 1e-14);
    EXPECT_NEAR(v[0], 0.0, 1e-14);
    EXPECT_NEAR(v[3], -0.5 * side, 1e-14);
  }
}

TEST_F(TopologicalMapping, BadLinksAreReported) {
  const auto error = [](const std::string& mapping) {
    try {
      Scene(R"(<Node name="a">
    <TetrahedronSetTopologyContainer name="Container" position="0 0 0  1 0 0  0 1 0  0 0 1"
                                     tetrahedra="0 1 2 3"/>
    <MechanicalObject name="dofs"/><UniformMass vertexMass="1"/>
    <Node name="b">
      <TriangleSetTopologyContainer name="Container"/>
      )" + mapping +
            R"(
    </Node>
  </Node>)");
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error(R"(<Tetra2TriangleTopologicalMapping output="@Container"/>)"),
              HasSubstr("'input' is empty (expected a link to a topology"));
  EXPECT_THAT(
      error(R"(<Tetra2TriangleTopologicalMapping input="@../nothing" output="@Container"/>)"),
      HasSubstr("does not resolve"));
  EXPECT_THAT(error(R"(<Hexa2QuadTopologicalMapping input="@../Container" output="@Container"/>)"),
              HasSubstr("has no hexahedra (expected a topology with hexahedra)"));
  EXPECT_THAT(
      error(R"(<Tetra2TriangleTopologicalMapping input="@../Container" output="@../dofs"/>)"),
      HasSubstr("(expected a topology"));
  // A link to a node names the node's one topology (SOFA: its only object of the link's type).
  EXPECT_THAT(error(R"(<Tetra2TriangleTopologicalMapping input="@/" output="@Container"/>)"),
              HasSubstr("'input' = '@/' names node 'root', which has no topology (expected a "
                        "node with one topology, or the topology's own name)"));
  EXPECT_THAT(error(R"(<Tetra2TriangleTopologicalMapping input="@../../" output="@Container"/>)"),
              HasSubstr("names node 'root', which has no topology"));
  EXPECT_THAT(error(R"(<Tetra2TriangleTopologicalMapping input="@../x/" output="@Container"/>)"),
              HasSubstr("link '@../x/' does not resolve: no node 'x' in 'root/a'"));
}

TEST_F(TopologicalMapping, ALinkToANodeNamesItsTopology) {
  // SOFA's TetrahedronHyperelasticityFEMForceField.scn writes input="@../" for the parent's grid:
  // the same tetrahedra as input="@../grid".
  const auto tetrahedra = [](const std::string& input) {
    Simulation simulation = Scene(R"(<Node name="grid">
    <RegularGridTopology name="grid" n="3 3 2" min="0 0 0" max="2 2 1"/>
    )" + std::string(kObject) + R"(
    <Node name="Tetra">
      <TetrahedronSetTopologyContainer name="Container"/>
      <Hexa2TetraTopologicalMapping input=")" +
                                  input +
                                  R"(" output="@Container"/>
      )" + kObject + R"(
    </Node>
  </Node>)");
    return simulation.objects()[1].topology->tetrahedra;
  };
  const auto by_node = tetrahedra("@../");
  ASSERT_EQ(by_node.size(), 24u);
  EXPECT_EQ(by_node, tetrahedra("@../grid"));
  EXPECT_EQ(by_node, tetrahedra("@.."));
  EXPECT_EQ(by_node, tetrahedra("@/grid/"));
}

TEST_F(TopologicalMapping, ASecondTopologyInANodeReplacesTheFirstAsInSofa) {
  // SOFA's VTKExporter.scn: a MeshTopology, then a container in the same node. The node's
  // topology is the last one (the object takes its 2 points); the first still answers links.
  ExpectWarnings(1);
  const Simulation simulation = Scene(R"(<Node name="body">
    <MeshTopology name="first" position="0 0 0  1 0 0  2 0 0" edges="0 1  1 2"/>
    <EdgeSetTopologyContainer name="second" position="5 0 0  6 0 0" edges="0 1"/>
    <MechanicalObject/><UniformMass vertexMass="1"/>
    <Node name="copy">
      <MechanicalObject position="@../first.position"/><UniformMass vertexMass="1"/>
    </Node>
  </Node>)");
  const ObjectModel& body = simulation.objects().at(0);
  EXPECT_EQ(body.num_points, 2);
  EXPECT_THAT(std::vector<double>(body.position.begin(), body.position.end()),
              ElementsAre(5, 0, 0, 6, 0, 0));
  ASSERT_NE(body.topology, nullptr);
  EXPECT_THAT(body.topology->edges, ElementsAre(Edge{0, 1}));
  EXPECT_EQ(simulation.objects().at(1).num_points, 3);
}

}  // namespace
}  // namespace fluxion
