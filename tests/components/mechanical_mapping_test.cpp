// Mechanical mappings (IdentityMapping, SubsetMapping, BarycentricMapping): a mapped object's
// state is J·x of its parent's, its forces act on the parent as Jᵀ·f, its stiffness, damping and
// mass as Jᵀ·K·J, Jᵀ·B·J, Jᵀ·M·J. Checked against independent numbers:
//  - forces against central finite differences of the system's potential energy (the mapped
//    springs' ½k(l − l0)² and the mapped gravity −m·g·x, evaluated at the mapped positions);
//  - K = −∂f/∂x and B = −∂f/∂v against central finite differences of the pulled-back forces;
//  - barycentric weights against weights computed by hand from SOFA's formulas (trilinear in a
//    grid cell, extrapolated outside the grid; barycentric in a tetrahedron), read off as the
//    child's displacement when one parent point moves;
//  - the mapped mass against w_p·w_q·m written by hand;
//  - an identity-mapped scene against its unmapped twin, bit for bit (see that test);
//  - DistanceMapping / SquareDistanceMapping / DistanceFromTargetMapping: outputs against lengths
//  computed by hand, forces
//    against finite differences of the energy, and K with the exact geometric stiffness against
//    finite differences of the pulled-back forces.
#include <gmock/gmock.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "fluxion/errors.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using ::testing::HasSubstr;
using testing::LoadScene;

class MechanicalMapping : public testing::QuietTest {};

// A 2×2×2 grid carrying three points with springs among them (stretched: rest length 0.1 for
// distances near 0.5), a mass on the points (gravity through the mapping) and on the grid, and
// optionally a velocity damping of the points with its damping matrix (dampingCoefficient per
// point: c, 2c, 3c).
std::string EmbeddedSpringsScene(double damping) {
  std::ostringstream xml;
  xml << R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="grid">
    <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="0.5"/>
    <Node name="points">
      <MechanicalObject name="dofs" position="0.25 0.5 0.5  0.75 0.25 0.6  0.5 0.8 0.2"/>
      <UniformMass vertexMass="0.3"/>
      <SpringForceField spring="0 1 40 0 0.1  1 2 25 0 0.1  0 2 30 0 0.1"/>)";
  if (damping > 0)
    xml << R"(
      <DiagonalVelocityDampingForceField dampingCoefficient=")"
        << damping << " " << 2 * damping << " " << 3 * damping << R"("/>)";
  xml << R"(
      <BarycentricMapping/>
    </Node>
  </Node>
</Node>)";
  return xml.str();
}

// A state away from rest: every DOF moved by a fixed pseudo-random amount (deterministic).
State Deformed(const SolverNode& node) {
  State state = node.state;
  for (Index i = 0; i < state.x.size(); ++i) {
    state.x[i] += 0.05 * std::sin(1.7 * static_cast<double>(i) + 0.3);
    state.v[i] = 0.2 * std::cos(0.9 * static_cast<double>(i));
  }
  return state;
}

// Central differences with h = 1e-6: truncation ~h²·|f'''| ≈ 1e-11 and round-off ~ε·|V|/h ≈ 1e-9
// on these O(1–10) quantities, so 1e-6 leaves a wide margin while catching any missing term
// (the smallest mapped weight products are ~1e-2).
constexpr double kStep = 1e-6;
constexpr double kFiniteDifferenceTolerance = 1e-6;

TEST_F(MechanicalMapping, MappedForcesAreMinusTheGradientOfTheMappedEnergy) {
  Simulation simulation = LoadScene(EmbeddedSpringsScene(0.0));
  ASSERT_EQ(simulation.solver_nodes().size(), 1u);
  const SolverNode& node = simulation.solver_nodes()[0];
  const MechanicalSystem& system = *node.system;
  ASSERT_EQ(system.num_dofs(), 24);  // the grid's DOFs only: the points have none of their own
  State state = Deformed(node);
  state.v.setZero();
  Vector f(system.num_dofs());
  system.ComputeForce(state, f);
  for (Index i = 0; i < system.num_dofs(); ++i) {
    State plus = state, minus = state;
    plus.x[i] += kStep;
    minus.x[i] -= kStep;
    const double gradient =
        (system.PotentialEnergy(plus) - system.PotentialEnergy(minus)) / (2 * kStep);
    EXPECT_NEAR(f[i], -gradient, kFiniteDifferenceTolerance) << "DOF " << i;
  }
}

// K = −∂f/∂x (or B = −∂f/∂v) assembled, against central differences of the force.
void ExpectJacobianMatchesForces(const MechanicalSystem& system, const State& state,
                                 bool velocity) {
  SparseMatrix assembled = system.CreateMatrix();
  if (velocity)
    system.AssembleDamping(state, assembled);
  else
    system.AssembleStiffness(state, assembled);
  const Eigen::MatrixXd matrix(assembled);
  const Index n = system.num_dofs();
  Vector f_plus(n), f_minus(n);
  for (Index j = 0; j < n; ++j) {
    State plus = state, minus = state;
    (velocity ? plus.v : plus.x)[j] += kStep;
    (velocity ? minus.v : minus.x)[j] -= kStep;
    system.ComputeForce(plus, f_plus);
    system.ComputeForce(minus, f_minus);
    const Vector column = -(f_plus - f_minus) / (2 * kStep);
    for (Index i = 0; i < n; ++i)
      EXPECT_NEAR(matrix(i, j), column[i], kFiniteDifferenceTolerance)
          << (velocity ? "B(" : "K(") << i << ", " << j << ")";
  }
}

TEST_F(MechanicalMapping, StiffnessIsTheDerivativeOfThePulledBackForces) {
  Simulation simulation = LoadScene(EmbeddedSpringsScene(0.0));
  const SolverNode& node = simulation.solver_nodes()[0];
  ExpectJacobianMatchesForces(*node.system, Deformed(node), false);
}

TEST_F(MechanicalMapping, DampingIsTheVelocityDerivativeOfThePulledBackForces) {
  Simulation simulation = LoadScene(EmbeddedSpringsScene(2.0));
  const SolverNode& node = simulation.solver_nodes()[0];
  ASSERT_TRUE(node.system->has_damping_matrix());
  ExpectJacobianMatchesForces(*node.system, Deformed(node), true);
}

// The child's displacement when parent point k moves by δ along x is w_k·δ: the weights, read
// through the public API.
std::map<Index, double> WeightsOf(Simulation& simulation, int parent, int child, Index point) {
  constexpr double kDelta = 0.5;
  const Vector start = simulation.position(parent);
  const double before = simulation.position(child)[3 * point];
  std::map<Index, double> weights;
  for (Index k = 0; k < start.size() / 3; ++k) {
    Vector moved = start;
    moved[3 * k] += kDelta;
    simulation.SetPosition(parent, moved);
    const double w = (simulation.position(child)[3 * point] - before) / kDelta;
    if (w != 0.0) weights[k] = w;
  }
  simulation.SetPosition(parent, start);
  return weights;
}

// Weights are products of halves, quarters and eighths: exact in binary, and so are the
// displacements by δ = 0.5 up to one rounding of the sums (|x| ≤ 3).
constexpr double kWeightTolerance = 1e-15 * 8;

void ExpectWeights(const std::map<Index, double>& actual, const std::map<Index, double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (const auto& [point, weight] : expected) {
    ASSERT_TRUE(actual.count(point)) << "parent point " << point;
    EXPECT_NEAR(actual.at(point), weight, kWeightTolerance) << "parent point " << point;
  }
}

constexpr const char* kGridWithPoints = R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="grid">
    <RegularGridTopology n="3 2 2" min="0 0 0" max="2 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="1"/>
    <Node name="points">
      <MechanicalObject name="dofs" position="0.5 0.25 0.75  2.5 0.5 0.5"/>
      <BarycentricMapping/>
    </Node>
  </Node>
</Node>)";

TEST_F(MechanicalMapping, GridWeightsAreTrilinearInTheCellHoldingThePoint) {
  Simulation simulation = LoadScene(kGridWithPoints);
  const int grid = simulation.FindObject("root/grid/dofs");
  const int points = simulation.FindObject("root/grid/points/dofs");
  ASSERT_GE(points, 0);
  // (0.5, 0.25, 0.75) in cell (0,0,0), f = (0.5, 0.25, 0.75); corners in SOFA's order are grid
  // points 0, 1, 4, 3, 6, 7, 10, 9 (index i + 3·(j + 2·k)), weights
  // (1−fx)(1−fy)(1−fz) = 0.09375, fx(1−fy)(1−fz) = 0.09375, fx·fy(1−fz) = 0.03125, …
  ExpectWeights(WeightsOf(simulation, grid, points, 0), {{0, 0.09375},
                                                         {1, 0.09375},
                                                         {4, 0.03125},
                                                         {3, 0.03125},
                                                         {6, 0.28125},
                                                         {7, 0.28125},
                                                         {10, 0.09375},
                                                         {9, 0.09375}});
  // The mapped positions reproduce the given ones (trilinear weights reproduce linear fields).
  EXPECT_NEAR(simulation.position(points)[0], 0.5, 1e-15);
  EXPECT_NEAR(simulation.position(points)[2], 0.75, 1e-15);
}

TEST_F(MechanicalMapping, GridWeightsExtrapolateFromTheNearestCellOutsideTheGrid) {
  // (2.5, 0.5, 0.5): x beyond the grid, SOFA's findNearestCube clamps to cell (1,0,0) with
  // fx = 1.5: weights (1 − 1.5)·¼ = −0.125 on points 1, 4, 7, 10 and 1.5·¼ = 0.375 on 2, 5, 8, 11.
  Simulation simulation = LoadScene(kGridWithPoints);
  ExpectWeights(WeightsOf(simulation, simulation.FindObject("root/grid/dofs"),
                          simulation.FindObject("root/grid/points/dofs"), 1),
                {{1, -0.125},
                 {4, -0.125},
                 {7, -0.125},
                 {10, -0.125},
                 {2, 0.375},
                 {5, 0.375},
                 {8, 0.375},
                 {11, 0.375}});
  EXPECT_NEAR(simulation.position(simulation.FindObject("root/grid/points/dofs"))[3], 2.5, 1e-15);
}

std::string MeshWithPoint(const std::string& topology, const std::string& point) {
  return R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="mesh">
    )" + topology +
         R"(
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="1"/>
    <Node name="points">
      <MechanicalObject name="dofs" position=")" +
         point + R"("/>
      <BarycentricMapping/>
    </Node>
  </Node>
</Node>)";
}

TEST_F(MechanicalMapping, TetrahedronWeightsAreBarycentricCoordinates) {
  // (0.2, 0.3, 0.1) in the unit tetrahedron: (1 − 0.2 − 0.3 − 0.1, 0.2, 0.3, 0.1).
  Simulation simulation = LoadScene(
      MeshWithPoint(R"(<MeshTopology position="0 0 0  1 0 0  0 1 0  0 0 1" tetrahedra="0 1 2 3"/>)",
                    "0.2 0.3 0.1"));
  // One rounding per weight (0.2, 0.3, 0.1 are not binary fractions).
  const auto weights = WeightsOf(simulation, simulation.FindObject("root/mesh/dofs"),
                                 simulation.FindObject("root/mesh/points/dofs"), 0);
  const std::map<Index, double> expected = {{0, 0.4}, {1, 0.2}, {2, 0.3}, {3, 0.1}};
  ASSERT_EQ(weights.size(), expected.size());
  for (const auto& [point, weight] : expected) EXPECT_NEAR(weights.at(point), weight, 1e-14);
}

TEST_F(MechanicalMapping, HexahedronWeightsAreTrilinearInTheBox) {
  // A 2×1×1 box given as one hexahedron of a mesh (not a grid): (0.5, 0.25, 0.75) has local
  // coordinates (u, v, w) = (0.25, 0.25, 0.75); corner weights (1−u)(1−v)(1−w) = 0.140625,
  // u(1−v)(1−w) = 0.046875, u·v(1−w) = 0.015625, (1−u)v(1−w) = 0.046875, and at w:
  // (1−u)(1−v)w = 0.421875, u(1−v)w = 0.140625, u·v·w = 0.046875, (1−u)v·w = 0.140625.
  Simulation simulation = LoadScene(MeshWithPoint(
      R"(<MeshTopology position="0 0 0  2 0 0  2 1 0  0 1 0  0 0 1  2 0 1  2 1 1  0 1 1"
                       hexahedra="0 1 2 3 4 5 6 7"/>)",
      "0.5 0.25 0.75"));
  ExpectWeights(WeightsOf(simulation, simulation.FindObject("root/mesh/dofs"),
                          simulation.FindObject("root/mesh/points/dofs"), 0),
                {{0, 0.140625},
                 {1, 0.046875},
                 {2, 0.015625},
                 {3, 0.046875},
                 {4, 0.421875},
                 {5, 0.140625},
                 {6, 0.046875},
                 {7, 0.140625}});
}

// The same chain of three points, simulated directly (A) or as the IdentityMapping child of a
// bare object (B). B's system holds the same DOFs, mass and forces: J = I has weights 1.0, so
// x_c = 0 + 1·x, f = 0 + 1·f_c, K entries 1·1·k and M = 0 + 1·1·m are exact, and the child's
// force fields run in the same order as A's. The parent has no force field of its own, so every
// sum is formed in the same order: the trajectories agree bit for bit, not only to round-off.
std::string ChainTwin(bool mapped, const std::string& solver) {
  const std::string points = R"(position="0 0 0  1 0 0  2 0 0")";
  const std::string mechanics = R"(
      <UniformMass vertexMass="0.7"/>
      <SpringForceField spring="0 1 50 0.5 0.8  1 2 50 0.5 0.8"/>)";
  std::string body;
  if (mapped) {
    body = R"(<MechanicalObject name="dofs" )" + points + R"(/>
    <FixedProjectiveConstraint indices="0"/>
    <Node name="child">
      <MechanicalObject name="dofs"/>)" +
           mechanics + R"(
      <IdentityMapping/>
    </Node>)";
  } else {
    body = R"(<MechanicalObject name="dofs" )" + points + R"(/>
    <FixedProjectiveConstraint indices="0"/>)" +
           mechanics;
  }
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  )" + solver +
         R"(
  <Node name="body">
    )" + body +
         R"(
  </Node>
</Node>)";
}

void ExpectTwinsAgreeBitForBit(const std::string& solver) {
  Simulation direct = LoadScene(ChainTwin(false, solver));
  Simulation mapped = LoadScene(ChainTwin(true, solver));
  const int child = mapped.FindObject("root/body/child/dofs");
  ASSERT_GE(child, 0);
  for (int step = 0; step < 50; ++step) {
    direct.Step();
    mapped.Step();
  }
  const Vector expected = direct.position(0);
  const Vector parent = mapped.position(0);
  const Vector mapped_child = mapped.position(child);
  ASSERT_EQ(parent.size(), expected.size());
  ASSERT_EQ(mapped_child.size(), expected.size());
  for (Index i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(parent[i], expected[i]) << "DOF " << i;
    EXPECT_EQ(mapped_child[i], expected[i]) << "DOF " << i;
    EXPECT_EQ(mapped.velocity(child)[i], direct.velocity(0)[i]) << "DOF " << i;
  }
  EXPECT_NE(expected[4], 0.0);  // it moved
  EXPECT_EQ(mapped.KineticEnergy(), direct.KineticEnergy());
  EXPECT_EQ(mapped.PotentialEnergy(), direct.PotentialEnergy());
}

TEST_F(MechanicalMapping, IdentityMappedSceneEqualsItsUnmappedTwinImplicit) {
  ExpectTwinsAgreeBitForBit(
      R"(<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/><SparseLDLSolver/>)");
}

TEST_F(MechanicalMapping, IdentityMappedSceneEqualsItsUnmappedTwinExplicit) {
  ExpectTwinsAgreeBitForBit(R"(<EulerExplicitSolver symplectic="1"/>)");
}

TEST_F(MechanicalMapping, MappedMassIsJtMJ) {
  // A point of mass 1 at (0.25, 0.5, 0.5) in the unit cell: weights 0.75·¼ = 0.1875 on the
  // x = 0 corners (points 0, 2, 4, 6) and 0.25·¼ = 0.0625 on the x = 1 corners (1, 3, 5, 7).
  // M(p, q) = w_p·w_q·m per axis, on top of the grid's own 0.5 per point.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="grid">
    <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="0.5"/>
    <Node name="point">
      <MechanicalObject name="dofs" position="0.25 0.5 0.5"/>
      <UniformMass vertexMass="1"/>
      <BarycentricMapping/>
    </Node>
  </Node>
</Node>)");
  const MechanicalSystem& system = *simulation.solver_nodes()[0].system;
  EXPECT_FALSE(system.is_mass_diagonal());
  const Eigen::MatrixXd mass(system.mass());
  EXPECT_DOUBLE_EQ(mass(0, 0), 0.5 + 0.1875 * 0.1875);  // point 0, x
  EXPECT_DOUBLE_EQ(mass(3, 3), 0.5 + 0.0625 * 0.0625);  // point 1, x
  EXPECT_DOUBLE_EQ(mass(0, 3), 0.1875 * 0.0625);        // points 0 and 1, x
  EXPECT_DOUBLE_EQ(mass(0, 6), 0.1875 * 0.1875);        // points 0 and 2, x
  EXPECT_DOUBLE_EQ(mass(0, 4), 0.0);                    // x and y do not couple
  EXPECT_DOUBLE_EQ(mass.sum(), 3 * (8 * 0.5 + 1.0));    // Σ w = 1: total mass kept
}

TEST_F(MechanicalMapping, ConstraintOnAMappedObjectIsRefusedAtItsLine) {
  try {
    LoadScene(R"(<Node name="root" dt="0.01">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="body">
    <MechanicalObject name="dofs" position="0 0 0  1 0 0"/>
    <UniformMass vertexMass="1"/>
    <Node name="child">
      <MechanicalObject name="dofs"/>
      <IdentityMapping/>
      <FixedProjectiveConstraint indices="0"/>
    </Node>
  </Node>
</Node>)");
    FAIL() << "expected a SceneError";
  } catch (const SceneError& error) {
    EXPECT_THAT(error.what(), HasSubstr("inline.scn:10:"));
    EXPECT_THAT(error.what(), HasSubstr("mapped from 'root/body/dofs'"));
  }
}

TEST_F(MechanicalMapping, SubsetMappingFindsPointsWithinTheRadius) {
  // The child's points lie on parent points 2 and 0: they follow them.
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="body">
    <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/>
    <UniformMass vertexMass="1"/>
    <Node name="ends">
      <MechanicalObject name="dofs" position="2 0 0  0 0 0"/>
      <SubsetMapping/>
    </Node>
  </Node>
</Node>)");
  const int ends = simulation.FindObject("root/body/ends/dofs");
  Vector moved(9);
  moved << 0, 5, 0, 1, 6, 0, 2, 7, 0;
  simulation.SetPosition(0, moved);
  const Vector mapped = simulation.position(ends);
  ASSERT_EQ(mapped.size(), 6);
  EXPECT_EQ(mapped[1], 7.0);
  EXPECT_EQ(mapped[4], 5.0);
  EXPECT_THROW(simulation.SetPosition(ends, mapped), UsageError);
  // Reading an object that is not there (FindObject's −1 for a wrong path) is a usage error too.
  EXPECT_THROW((void)simulation.position(simulation.FindObject("root/body/nowhere")), UsageError);
  EXPECT_THROW((void)simulation.velocity(2), UsageError);
}

// SOFA's Node::findLinkDestClass: an unbased first name that is neither a child node nor the
// node's object is looked for in the ancestors. SOFA's PlaneForceField.scn maps node "Collis"
// onto "@Collis" from inside it: the parent's child Collis, whose MechanicalObject is the output.
TEST_F(MechanicalMapping, AnUnbasedNameIsAlsoLookedForInTheAncestors) {
  const auto load = [](const std::string& output) {
    return LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="body">
    <MechanicalObject name="dofs" position="0 0 0  1 0 0  2 0 0"/>
    <UniformMass vertexMass="1"/>
    <Node name="Collis">
      <MechanicalObject name="points" position="2 0 0"/>
      <SubsetMapping input="@.." output=")" +
                     output + R"("/>
    </Node>
  </Node>
</Node>)");
  };
  for (const char* found : {"@Collis", "@body/Collis", "@points", "@./points"}) {
    const Simulation simulation = load(found);
    ASSERT_EQ(simulation.objects().size(), 2u) << found;
    EXPECT_EQ(simulation.objects()[1].mapped_from, 0) << found;
  }
  // Once based (absolute, "./", "../" or after a first name), a path is not searched upwards.
  for (const char* missing : {"@./Collis", "@/Collis", "@Collis/Collis"}) {
    try {
      load(missing);
      ADD_FAILURE() << missing << " resolved";
    } catch (const SceneError& error) {
      EXPECT_THAT(error.what(), HasSubstr("does not resolve: no node or object 'Collis'"))
          << missing;
    }
  }
}

TEST_F(MechanicalMapping, AVisualModelsMappingIsSkipped) {
  Simulation simulation = LoadScene(R"(<Node name="root" dt="0.01">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="body">
    <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="1"/>
    <Node name="Visu">
      <OglModel name="Visual"/>
      <BarycentricMapping input="@.." output="@Visual"/>
    </Node>
  </Node>
</Node>)");
  EXPECT_EQ(simulation.objects().size(), 1u);
}

TEST_F(MechanicalMapping, MappedObjectsAreColumnsOfTheTrajectory) {
  const std::string scene = ::testing::TempDir() + "mapped_columns.scn";
  const std::string csv = ::testing::TempDir() + "mapped_columns.csv";
  std::remove(csv.c_str());
  std::ofstream(scene) << ChainTwin(true, "<EulerImplicitSolver/><SparseLDLSolver/>");
  const testing::CommandResult run = testing::RunCommand(
      testing::SceneRunner() + " " + scene + " --steps 3 --output " + csv + " --overwrite");
  ASSERT_EQ(run.status, 0) << run.err;
  std::ifstream in(csv);
  std::string header, last, line;
  std::getline(in, header);
  while (std::getline(in, line)) last = line;
  // Document order: the parent's columns, then the child's, under its own id.
  const std::size_t parent = header.find("root/body/dofs/p0.x");
  const std::size_t child = header.find("root/body/child/dofs/p0.x");
  ASSERT_NE(parent, std::string::npos) << header;
  ASSERT_NE(child, std::string::npos) << header;
  EXPECT_LT(parent, child);
  EXPECT_NE(header.find("root/body/child/dofs/v2.z"), std::string::npos);
  // Identity: the child's numbers repeat the parent's (18 columns each, after step and time).
  std::vector<std::string> cells;
  std::stringstream row(last);
  for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
  ASSERT_EQ(cells.size(), 2u + 18u + 18u);
  for (std::size_t k = 0; k < 18; ++k) EXPECT_EQ(cells[2 + k], cells[20 + k]) << "column " << k;
}

// A chain of three points whose edge lengths (DistanceMapping) or squared lengths
// (SquareDistanceMapping) are a Vec1 child held by rest-shape springs: f = J(x)ᵀ·f_c, and the
// stiffness adds the mapping's geometric stiffness. With geometricStiffness="Exact" the assembled
// K is the exact derivative of the pulled-back force, whatever the springs' signs.
std::string EdgeChainScene(const std::string& mapping) {
  return R"(<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver/>
  <SparseLDLSolver/>
  <Node name="chain">
    <EdgeSetTopologyContainer name="edges" position="0 0 0  1 0 0  2 0.5 0" edges="0 1  1 2  0 2"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="0.2"/>
    <Node name="lengths">
      <MechanicalObject name="dofs" template="Vec1"/>
      )" +
         mapping +
         R"(
      <RestShapeSpringsForceField template="Vec1" stiffness="300"/>
    </Node>
  </Node>
</Node>)";
}

TEST_F(MechanicalMapping, DistanceMappingForcesAreMinusTheGradientOfTheMappedEnergy) {
  for (const char* mapping :
       {R"(<DistanceMapping topology="@../edges" geometricStiffness="Exact"/>)",
        R"(<DistanceFromTargetMapping indices="2 1" targetPositions="0 1 0  3 3 1"
                                     restLengths="0.5" geometricStiffness="Exact"/>)",
        R"(<SquareDistanceMapping topology="@../edges" geometricStiffness="Exact"
                                 applyRestPosition="1"/>)"}) {
    Simulation simulation = LoadScene(EdgeChainScene(mapping));
    const SolverNode& node = simulation.solver_nodes()[0];
    const MechanicalSystem& system = *node.system;
    ASSERT_EQ(system.num_dofs(), 9) << mapping;
    State state = Deformed(node);
    state.v.setZero();
    Vector f(system.num_dofs());
    system.ComputeForce(state, f);
    for (Index i = 0; i < system.num_dofs(); ++i) {
      State plus = state, minus = state;
      plus.x[i] += kStep;
      minus.x[i] -= kStep;
      const double gradient =
          (system.PotentialEnergy(plus) - system.PotentialEnergy(minus)) / (2 * kStep);
      EXPECT_NEAR(f[i], -gradient, kFiniteDifferenceTolerance) << mapping << " DOF " << i;
    }
  }
}

TEST_F(MechanicalMapping, DistanceMappingStiffnessWithExactGeometricStiffnessIsTheDerivative) {
  for (const char* mapping :
       {R"(<DistanceMapping topology="@../edges" geometricStiffness="Exact"/>)",
        R"(<DistanceFromTargetMapping indices="2 1" targetPositions="0 1 0  3 3 1"
                                     restLengths="0.5" geometricStiffness="Exact"/>)",
        R"(<SquareDistanceMapping topology="@../edges" geometricStiffness="1"
                                 applyRestPosition="1"/>)"}) {
    Simulation simulation = LoadScene(EdgeChainScene(mapping));
    const SolverNode& node = simulation.solver_nodes()[0];
    ExpectJacobianMatchesForces(*node.system, Deformed(node), false);
  }
}

TEST_F(MechanicalMapping, DistanceMappingOutputIsTheLengthMinusTheRestLength) {
  // Rest lengths: the initial ones (1, √1.25, √4.25); the output starts at 0 and follows
  // ‖x_b − x_a‖ − L when the parent moves. computeDistance=1: the lengths themselves.
  Simulation simulation = LoadScene(EdgeChainScene(R"(<DistanceMapping topology="@../edges"/>)"));
  const int lengths = simulation.FindObject("root/chain/lengths/dofs");
  ASSERT_EQ(simulation.position(lengths).size(), 3);
  EXPECT_NEAR(simulation.position(lengths).norm(), 0.0, 1e-15);
  Vector moved(9);
  moved << 0, 0, 0, 3, 4, 0, 2, 0.5, 0;
  simulation.SetPosition(0, moved);
  EXPECT_NEAR(simulation.position(lengths)[0], 5.0 - 1.0, 1e-14);
  Simulation distances =
      LoadScene(EdgeChainScene(R"(<DistanceMapping topology="@../edges" computeDistance="1"/>)"));
  EXPECT_NEAR(distances.position(lengths)[1], std::sqrt(1.25), 1e-15);
  Simulation squares =
      LoadScene(EdgeChainScene(R"(<SquareDistanceMapping topology="@../edges"/>)"));
  EXPECT_NEAR(squares.position(lengths)[2], 4.25, 1e-15);
  // Point 2 (2, 0.5, 0) from the target (0, 1, 0): √4.25 − 0.5; point 1 (1, 0, 0) from (3, 3, 1):
  // √14 − 0 (a missing rest length is 0, as in SOFA).
  Simulation targets = LoadScene(EdgeChainScene(
      R"(<DistanceFromTargetMapping indices="2 1" targetPositions="0 1 0  3 3 1" restLengths="0.5"/>)"));
  ASSERT_EQ(targets.position(lengths).size(), 2);
  EXPECT_NEAR(targets.position(lengths)[0], std::sqrt(4.25) - 0.5, 1e-15);
  EXPECT_NEAR(targets.position(lengths)[1], std::sqrt(14.0), 1e-15);
}

}  // namespace
}  // namespace fluxion
