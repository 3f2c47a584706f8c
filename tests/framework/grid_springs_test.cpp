// MeshSpringForceField and RegularGridSpringForceField on RegularGridTopology grids, through
// scenes: which vertex pairs get springs, ks = stiffness/L0 and kd = damping/L0, and where L0
// comes from. The expected springs are enumerated here from the grid geometry, independently of
// the scene builder, and compared through the system's force and energy at a disturbed state.
#include <cmath>
#include <map>
#include <set>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion::internal {
namespace {

struct HandSpring {
  Index a, b;  // point indices
  double ks, kd, rest;
};

// A grid of nx×ny×nz points, spacing (sx, sy, sz), origin 0, as RegularGridTopology builds it.
struct Grid {
  Index nx, ny, nz;
  double sx, sy, sz;
  Index point(Index x, Index y, Index z) const { return x + nx * (y + ny * z); }
  Eigen::Vector3d position(Index p) const {
    const Index x = p % nx, y = (p / nx) % ny, z = p / (nx * ny);
    return {sx * static_cast<double>(x), sy * static_cast<double>(y), sz * static_cast<double>(z)};
  }
  Index points() const { return nx * ny * nz; }
};

// A deterministic disturbance of positions and velocities (a few % of the spacing).
State Disturbed(const State& rest) {
  State s = rest;
  for (Index i = 0; i < s.x.size(); ++i) {
    s.x[i] += 0.05 * std::sin(1.7 * static_cast<double>(i) + 0.3);
    s.v[i] = 0.4 * std::cos(2.3 * static_cast<double>(i));
  }
  return s;
}

Vector HandForce(const std::vector<HandSpring>& springs, const State& s) {
  Vector f = Vector::Zero(s.x.size());
  for (const HandSpring& spring : springs) {
    const Eigen::Vector3d u = s.x.segment<3>(3 * spring.b) - s.x.segment<3>(3 * spring.a);
    const double d = u.norm();
    const double rate = (u / d).dot(s.v.segment<3>(3 * spring.b) - s.v.segment<3>(3 * spring.a));
    const Eigen::Vector3d force = (spring.ks * (d - spring.rest) + spring.kd * rate) * (u / d);
    f.segment<3>(3 * spring.a) += force;
    f.segment<3>(3 * spring.b) -= force;
  }
  return f;
}

double HandEnergy(const std::vector<HandSpring>& springs, const State& s) {
  double energy = 0.0;
  for (const HandSpring& spring : springs) {
    const double e =
        (s.x.segment<3>(3 * spring.b) - s.x.segment<3>(3 * spring.a)).norm() - spring.rest;
    energy += 0.5 * spring.ks * e * e;
  }
  return energy;
}

// Distinct point pairs coupled in the system's matrix pattern (its off-diagonal 3×3 blocks).
std::set<std::pair<Index, Index>> CoupledPairs(const MechanicalSystem& system) {
  std::set<std::pair<Index, Index>> pairs;
  const SparseMatrix pattern = system.CreateMatrix();
  for (Index col = 0; col < pattern.outerSize(); ++col)
    for (SparseMatrix::InnerIterator it(pattern, col); it; ++it)
      if (it.row() / 3 < col / 3) pairs.insert({it.row() / 3, col / 3});
  return pairs;
}

std::set<std::pair<Index, Index>> Pairs(const std::vector<HandSpring>& springs) {
  std::set<std::pair<Index, Index>> pairs;
  for (const HandSpring& s : springs) pairs.insert({std::min(s.a, s.b), std::max(s.a, s.b)});
  return pairs;
}

class GridSprings : public fluxion::testing::QuietTest {
 protected:
  // Loads a scene with one grid object under an EulerExplicitSolver, gravity 0.
  void Load(const std::string& topology, const std::string& object, const std::string& springs) {
    simulation_.emplace(fluxion::testing::LoadScene(R"(<Node name="root" gravity="0 0 0" dt="0.01">
  <EulerExplicitSolver/>
  <Node name="grid">
    )" + topology + R"(
    )" + object + R"(
    <UniformMass vertexMass="1"/>
    )" + springs + R"(
  </Node>
</Node>)"));
  }
  const SolverNode& node() const { return simulation_->solver_nodes()[0]; }

  // Force and energy of the scene's springs equal those of `expected` at a disturbed state, and
  // the scene couples exactly the pairs of `expected`.
  void ExpectSprings(const std::vector<HandSpring>& expected) {
    EXPECT_EQ(CoupledPairs(*node().system), Pairs(expected));
    const State state = Disturbed(node().state);
    Vector f;
    node().system->ComputeForce(state, f);
    const Vector hand = HandForce(expected, state);
    // Forces of size ~ks·|e| + kd·|ė| ≲ 10² summed over ≤ 26 springs: 1e-11 is ~100 ulps.
    EXPECT_LE((f - hand).cwiseAbs().maxCoeff(), 1e-11)
        << "max |f| = " << hand.cwiseAbs().maxCoeff();
    ASSERT_GT(hand.cwiseAbs().maxCoeff(), 1e-3);
    const double energy = HandEnergy(expected, state);
    EXPECT_NEAR(node().system->PotentialEnergy(state), energy, 1e-12 * energy);
  }

  std::optional<Simulation> simulation_;
};

// --- MeshSpringForceField ----------------------------------------------------------------------

// The grid's edges (SOFA's default, from its triangles): axis lines plus the q0–q2 diagonal of
// every quad, i.e. (x,y)–(x+1,y+1) in a flat grid.
std::vector<HandSpring> EdgeSprings(const Grid& g, double stiffness) {
  std::vector<HandSpring> springs;
  const auto add = [&](Index a, Index b) {
    const double rest = (g.position(b) - g.position(a)).norm();
    springs.push_back({a, b, stiffness / rest, 0.0, rest});
  };
  for (Index y = 0; y < g.ny; ++y)
    for (Index x = 0; x < g.nx; ++x) {
      if (x + 1 < g.nx) add(g.point(x, y, 0), g.point(x + 1, y, 0));
      if (y + 1 < g.ny) add(g.point(x, y, 0), g.point(x, y + 1, 0));
      if (x + 1 < g.nx && y + 1 < g.ny) add(g.point(x, y, 0), g.point(x + 1, y + 1, 0));
    }
  return springs;
}

TEST_F(GridSprings, MeshLinesStiffnessGivesOneSpringPerEdgeIncludingDiagonals) {
  Load(R"(<RegularGridTopology n="3 3 1" min="0 0 0" max="2 1 0"/>)", R"(<MechanicalObject/>)",
       R"(<MeshSpringForceField linesStiffness="10"/>)");
  const Grid grid{3, 3, 1, 1.0, 0.5, 0.0};
  const std::vector<HandSpring> expected = EdgeSprings(grid, 10.0);
  // 12 axis lines + 4 diagonals.
  ASSERT_EQ(expected.size(), 16u);
  ExpectSprings(expected);
}

TEST_F(GridSprings, MeshQuadsStiffnessGivesSixPairsPerQuadDeduplicated) {
  Load(R"(<RegularGridTopology n="3 3 1" min="0 0 0" max="2 1 0"/>)", R"(<MechanicalObject/>)",
       R"(<MeshSpringForceField quadsStiffness="10"/>)");
  const Grid grid{3, 3, 1, 1.0, 0.5, 0.0};
  std::map<std::pair<Index, Index>, HandSpring> unique;
  for (Index y = 0; y + 1 < 3; ++y)
    for (Index x = 0; x + 1 < 3; ++x) {
      const Index q[4] = {grid.point(x, y, 0), grid.point(x + 1, y, 0), grid.point(x + 1, y + 1, 0),
                          grid.point(x, y + 1, 0)};
      for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
          const double rest = (grid.position(q[j]) - grid.position(q[i])).norm();
          unique.emplace(std::make_pair(std::min(q[i], q[j]), std::max(q[i], q[j])),
                         HandSpring{q[i], q[j], 10.0 / rest, 0.0, rest});
        }
    }
  std::vector<HandSpring> expected;
  for (const auto& [key, spring] : unique) expected.push_back(spring);
  // 4 quads × 6 pairs = 24, minus the 4 interior sides shared by two quads: 12 sides + 8 diagonals.
  ASSERT_EQ(expected.size(), 20u);
  ExpectSprings(expected);
}

TEST_F(GridSprings, MeshCubesStiffnessJoinsAllPairsOfAHexahedron) {
  Load(R"(<RegularGridTopology n="2 2 2" min="0 0 0" max="1 2 3"/>)", R"(<MechanicalObject/>)",
       R"(<MeshSpringForceField cubesStiffness="6" cubesDamping="0.5"/>)");
  const Grid grid{2, 2, 2, 1.0, 2.0, 3.0};
  std::vector<HandSpring> expected;
  for (Index a = 0; a < 8; ++a)
    for (Index b = a + 1; b < 8; ++b) {
      const double rest = (grid.position(b) - grid.position(a)).norm();
      expected.push_back({a, b, 6.0 / rest, 0.5 / rest, rest});
    }
  ASSERT_EQ(expected.size(), 28u);
  ExpectSprings(expected);
}

// SOFA's TutorialBasicCube: a MeshTopology of elements only, written after the object whose
// points it indexes. The same cube as above, the hexahedron given in SOFA's vertex order.
TEST_F(GridSprings, MeshTopologyWithoutPointsIndexesTheObjectsPoints) {
  Load(R"(<MechanicalObject position="0 0 0  1 0 0  0 2 0  1 2 0  0 0 3  1 0 3  0 2 3  1 2 3"/>)",
       R"(<MeshTopology hexas="0 1 3 2 4 5 7 6"/>)",
       R"(<MeshSpringForceField cubesStiffness="6" cubesDamping="0.5"/>)");
  const Grid grid{2, 2, 2, 1.0, 2.0, 3.0};
  std::vector<HandSpring> expected;
  for (Index a = 0; a < 8; ++a)
    for (Index b = a + 1; b < 8; ++b) {
      const double rest = (grid.position(b) - grid.position(a)).norm();
      expected.push_back({a, b, 6.0 / rest, 0.5 / rest, rest});
    }
  ExpectSprings(expected);
}

TEST_F(GridSprings, MeshTopologyIndexBeyondTheObjectIsAnError) {
  try {
    Load(R"(<MechanicalObject position="0 0 0  1 0 0"/>)", R"(<MeshTopology edges="0 2"/>)",
         R"(<MeshSpringForceField stiffness="1"/>)");
    ADD_FAILURE() << "no error";
  } catch (const SceneError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("the topology uses point 2 but 'root/grid/"
                        "MechanicalObject' has 2 points"),
              std::string::npos)
        << error.what();
  }
}

// SOFA processes lines before quads and keeps the first spring of a pair: the edges (axis lines
// and q0–q2 diagonals) take the lines stiffness, only the q1–q3 diagonals the quads stiffness.
TEST_F(GridSprings, MeshFirstKindClaimingAPairWins) {
  Load(R"(<RegularGridTopology n="3 2 1" min="0 0 0" max="2 1 0"/>)", R"(<MechanicalObject/>)",
       R"(<MeshSpringForceField linesStiffness="10" quadsStiffness="3"/>)");
  const Grid grid{3, 2, 1, 1.0, 1.0, 0.0};
  std::vector<HandSpring> expected = EdgeSprings(grid, 10.0);
  for (Index x = 0; x + 1 < 3; ++x) {
    const Index a = grid.point(x + 1, 0, 0), b = grid.point(x, 1, 0);
    const double rest = std::sqrt(2.0);
    expected.push_back({a, b, 3.0 / rest, 0.0, rest});
  }
  ASSERT_EQ(expected.size(), 7u + 2u + 2u);
  ExpectSprings(expected);
}

TEST_F(GridSprings, MeshStiffnessAliasSetsEveryKind) {
  Load(R"(<RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>)", R"(<MechanicalObject/>)",
       R"(<MeshSpringForceField stiffness="4"/>)");
  // Every kind is on; the 28 pairs of the cube are all claimed (edges first, then quads, cubes),
  // each with ks = 4/L0.
  const Grid grid{2, 2, 2, 1.0, 1.0, 1.0};
  std::vector<HandSpring> expected;
  for (Index a = 0; a < 8; ++a)
    for (Index b = a + 1; b < 8; ++b) {
      const double rest = (grid.position(b) - grid.position(a)).norm();
      expected.push_back({a, b, 4.0 / rest, 0.0, rest});
    }
  ExpectSprings(expected);
}

// Mesh springs take L0 from rest_position, which defaults to the transformed position: a scaled
// object is at rest.
TEST_F(GridSprings, MeshRestLengthsFollowTheObjectRestPosition) {
  Load(R"(<RegularGridTopology n="3 3 1" min="0 0 0" max="2 2 0"/>)",
       R"(<MechanicalObject scale3d="2 3 1"/>)", R"(<MeshSpringForceField linesStiffness="10"/>)");
  Vector f;
  node().system->ComputeForce(node().state, f);
  EXPECT_LE(f.cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LE(node().system->PotentialEnergy(node().state), 1e-26);
}

// --- RegularGridSpringForceField ---------------------------------------------------------------

// SOFA's grid springs (sofa-semantics §2): lines along x, y, z; both diagonals of every XY, XZ and
// YZ face; the 4 diagonals of every cell. L0 from the grid spacing; ks = s/L0, kd = d/L0.
std::vector<HandSpring> GridSpringList(const Grid& g, double lines, double quads, double cubes,
                                       double damping) {
  std::vector<HandSpring> springs;
  const auto add = [&](Index a, Index b, double stiffness) {
    const double rest = (g.position(b) - g.position(a)).norm();
    springs.push_back({a, b, stiffness / rest, damping / rest, rest});
  };
  for (Index z = 0; z < g.nz; ++z)
    for (Index y = 0; y < g.ny; ++y)
      for (Index x = 0; x < g.nx; ++x) {
        const bool px = x + 1 < g.nx, py = y + 1 < g.ny, pz = z + 1 < g.nz;
        if (px) add(g.point(x, y, z), g.point(x + 1, y, z), lines);
        if (py) add(g.point(x, y, z), g.point(x, y + 1, z), lines);
        if (pz) add(g.point(x, y, z), g.point(x, y, z + 1), lines);
        if (px && py) {
          add(g.point(x, y, z), g.point(x + 1, y + 1, z), quads);
          add(g.point(x + 1, y, z), g.point(x, y + 1, z), quads);
        }
        if (px && pz) {
          add(g.point(x, y, z), g.point(x + 1, y, z + 1), quads);
          add(g.point(x + 1, y, z), g.point(x, y, z + 1), quads);
        }
        if (py && pz) {
          add(g.point(x, y, z), g.point(x, y + 1, z + 1), quads);
          add(g.point(x, y + 1, z), g.point(x, y, z + 1), quads);
        }
        if (px && py && pz) {
          add(g.point(x, y, z), g.point(x + 1, y + 1, z + 1), cubes);
          add(g.point(x + 1, y, z), g.point(x, y + 1, z + 1), cubes);
          add(g.point(x, y + 1, z), g.point(x + 1, y, z + 1), cubes);
          add(g.point(x, y, z + 1), g.point(x + 1, y + 1, z), cubes);
        }
      }
  return springs;
}

TEST_F(GridSprings, RegularGridSpringCountsMatchClosedFormulas) {
  Load(R"(<RegularGridTopology n="4 3 2" min="0 0 0" max="3 1 3"/>)", R"(<MechanicalObject/>)",
       R"(<RegularGridSpringForceField/>)");
  const Grid grid{4, 3, 2, 1.0, 0.5, 3.0};
  const Index nx = 4, ny = 3, nz = 2;
  const Index lines = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1);
  const Index quads =
      2 * ((nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1));
  const Index cubes = 4 * (nx - 1) * (ny - 1) * (nz - 1);
  const std::vector<HandSpring> expected =
      GridSpringList(grid, 100.0, 100.0, 100.0, 5.0);  // defaults
  ASSERT_EQ(static_cast<Index>(expected.size()), lines + quads + cubes);
  EXPECT_EQ(static_cast<Index>(CoupledPairs(*node().system).size()), lines + quads + cubes);
  ExpectSprings(expected);
}

TEST_F(GridSprings, RegularGridSpringKindsCanBeSwitchedOff) {
  Load(
      R"(<RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>)", R"(<MechanicalObject/>)",
      R"(<RegularGridSpringForceField linesStiffness="20" linesDamping="1" quadsStiffness="0" quadsDamping="0" cubesStiffness="7" cubesDamping="1"/>)");
  const Grid grid{3, 3, 3, 1.0, 1.0, 1.0};
  std::vector<HandSpring> expected;
  for (const HandSpring& s : GridSpringList(grid, 20.0, 0.0, 7.0, 1.0))
    if (s.ks != 0.0) expected.push_back(s);
  ASSERT_EQ(expected.size(), 54u + 32u);
  ExpectSprings(expected);
}

// SOFA's `stiffness` and `damping` aliases set all three kinds (its SOFA RegularGridTopology.scn
// example writes stiffness="400" damping="4"), and win over the per-kind fields.
TEST_F(GridSprings, RegularGridStiffnessAndDampingAliasesSetEveryKind) {
  Load(R"(<RegularGridTopology n="3 3 3" min="0 0 0" max="2 2 2"/>)", R"(<MechanicalObject/>)",
       R"(<RegularGridSpringForceField stiffness="400" damping="4" quadsStiffness="1"/>)");
  ExpectSprings(GridSpringList(Grid{3, 3, 3, 1.0, 1.0, 1.0}, 400.0, 400.0, 400.0, 4.0));
}

TEST_F(GridSprings, RegularGridSpringsAreAtRestOnTheGrid) {
  Load(R"(<RegularGridTopology n="3 3 3" min="-1 0 2" max="1 3 5"/>)", R"(<MechanicalObject/>)",
       R"(<RegularGridSpringForceField/>)");
  Vector f;
  node().system->ComputeForce(node().state, f);
  EXPECT_LE(f.cwiseAbs().maxCoeff(), 1e-12);  // |d − L0| of a few ulps times ks ≤ 100/1
  EXPECT_LE(node().system->PotentialEnergy(node().state), 1e-24);
}

// Grid springs take L0 from the grid spacing, not from the object's (here scaled) rest position.
TEST_F(GridSprings, RegularGridRestLengthsComeFromGridSpacing) {
  Load(R"(<RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>)",
       R"(<MechanicalObject scale3d="2 2 2"/>)", R"(<RegularGridSpringForceField/>)");
  // Every spring is stretched to twice its length: energy ½·(100/L)·L² = 50·L per spring.
  const Grid grid{2, 2, 2, 1.0, 1.0, 1.0};
  double expected = 0.0;
  for (const HandSpring& s : GridSpringList(grid, 100.0, 100.0, 100.0, 5.0))
    expected += 50.0 * s.rest;
  EXPECT_NEAR(node().system->PotentialEnergy(node().state), expected, 1e-12 * expected);
}

}  // namespace
}  // namespace fluxion::internal
