// TriangularBiquadraticSpringsForceField: Delingette's biquadratic springs with SOFA's constants
// reproduce the linear plane-stress membrane of (E, ν) under small strains (energy
// A·(½·λ·(tr ε)² + G·ε:ε), λ = E·ν/(1 − ν²), G = E/(2(1 + ν))); the force is minus the gradient
// of the energy, the area penalty included; the area force follows the last valid normal (the
// history SOFA keeps); SOFA's tangent is exact for the springs and not for the area term.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "fluxion/simulation.h"
#include "forcefields/field_probes.h"
#include "mechanics/triangular_biquadratic_springs.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using internal::TriangularBiquadraticSprings;
namespace probes = internal::field_probes;
using probes::At;

constexpr double kYoung = 1000.0, kPoisson = 0.3;

// Triangles of arbitrary shape, as the component builds them (edges in first-seen order, each
// edge's constant the sum of its triangles' k_j).
struct Patch {
  std::vector<Eigen::Vector3d> points = {{0, 0, 0}, {1.3, 0.2, 0}, {0.4, 1.1, 0}, {1.6, 1.3, 0}};
  std::vector<std::array<Index, 3>> triangles = {{0, 1, 2}, {1, 3, 2}};

  TriangularBiquadraticSprings Field(bool angular, bool compressible = true,
                                     double damping = 0.0) const {
    std::vector<TriangularBiquadraticSprings::Edge> edges;
    std::vector<TriangularBiquadraticSprings::Triangle> list;
    const auto edge_of = [&](Index a, Index b) {
      for (std::size_t e = 0; e < edges.size(); ++e)
        if ((edges[e].a == 3 * a && edges[e].b == 3 * b) ||
            (edges[e].a == 3 * b && edges[e].b == 3 * a))
          return e;
      edges.push_back({3 * a, 3 * b, (points[a] - points[b]).squaredNorm(), 0.0});
      return edges.size() - 1;
    };
    for (const auto& t : triangles) {
      TriangularBiquadraticSprings::Triangle triangle;
      std::array<double, 3> rest{};
      for (int j = 0; j < 3; ++j) {
        triangle.dof[j] = 3 * t[j];
        triangle.edge[j] = edge_of(t[(j + 1) % 3], t[(j + 2) % 3]);
        rest[j] = std::sqrt(edges[triangle.edge[j]].rest_square_length);
      }
      EXPECT_TRUE(TriangularBiquadraticSprings::TriangleConstants(
          rest, kYoung, kPoisson, triangle.stiffness, triangle.gamma, triangle.rest_area));
      triangle.rest_normal = (points[t[1]] - points[t[0]]).cross(points[t[2]] - points[t[0]]);
      triangle.rest_normal.normalize();
      for (int j = 0; j < 3; ++j) edges[triangle.edge[j]].stiffness += triangle.stiffness[j];
      list.push_back(triangle);
    }
    return TriangularBiquadraticSprings(std::move(edges), std::move(list),
                                        {.young = kYoung,
                                         .poisson = kPoisson,
                                         .damping_ratio = damping,
                                         .angular = angular,
                                         .compressible = compressible});
  }
  Vector Positions(const Eigen::Matrix3d& map) const {
    Vector x(3 * points.size());
    for (std::size_t i = 0; i < points.size(); ++i) x.segment<3>(3 * i) = map * points[i];
    return x;
  }
  double Area(std::size_t t, const Vector& x) const {
    const auto p = [&](Index i) { return Eigen::Vector3d(x.segment<3>(3 * i)); };
    const auto& tri = triangles[t];
    return 0.5 * (p(tri[1]) - p(tri[0])).cross(p(tri[2]) - p(tri[0])).norm();
  }
  double Area() const {
    const Vector x = Positions(Eigen::Matrix3d::Identity());
    return Area(0, x) + Area(1, x);
  }
};

const double kLambda = kYoung * kPoisson / (1 - kPoisson * kPoisson);
const double kLambdaPlusMu = kLambda + kYoung * (1 - kPoisson) / (1 - kPoisson * kPoisson);

TEST(TriangularBiquadraticSprings, SmallStrainEnergyIsThePlaneStressMembranes) {
  // x = (I + h·ε)·X with h = 1e-6: the springs' energy against the membrane's, to O(h). (The
  // area penalty, of order h⁴ where the strain compresses, does not show.)
  const Patch patch;
  const TriangularBiquadraticSprings field = patch.Field(true);
  const double shear = kYoung / (2 * (1 + kPoisson));
  const double h = 1e-6;
  for (const Eigen::Matrix2d& e :
       {Eigen::Matrix2d{{1, 0}, {0, 0}}, Eigen::Matrix2d{{0, 0}, {0, 1}},
        Eigen::Matrix2d{{0, 0.5}, {0.5, 0}}, Eigen::Matrix2d{{1, 0.3}, {0.3, -0.5}},
        Eigen::Matrix2d{{-1, 0}, {0, -1}}}) {
    Eigen::Matrix3d map = Eigen::Matrix3d::Identity();
    map.topLeftCorner<2, 2>() += h * e;
    const double membrane =
        patch.Area() * h * h *
        (0.5 * kLambda * e.trace() * e.trace() + shear * (e.array() * e.array()).sum());
    EXPECT_NEAR(field.PotentialEnergy(At(patch.Positions(map))), membrane, 1e-5 * membrane)
        << "strain " << e;
  }
  // Without the angular springs the edges alone are not that membrane.
  Eigen::Matrix3d map = Eigen::Matrix3d::Identity();
  map(0, 0) += h;
  const double membrane = patch.Area() * h * h * (0.5 * kLambda + shear);
  EXPECT_GT(std::abs(patch.Field(false).PotentialEnergy(At(patch.Positions(map))) - membrane),
            1e-2 * membrane);
}

// Positions of the patch compressed to 60 % in the plane, moved by up to 0.05 at random and
// tilted out of it: both triangles compressed (J ≈ 0.36), none flipped.
Vector Compressed(const Patch& patch) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> offset(-0.05, 0.05);
  Eigen::Matrix3d map = 0.6 * Eigen::Matrix3d::Identity();
  map = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix() * map;
  Vector x = patch.Positions(map);
  for (Index i = 0; i < x.size(); ++i) x[i] += offset(random);
  return x;
}

TEST(TriangularBiquadraticSprings, ForceIsMinusTheEnergyGradient) {
  // At a large stretch (points moved by up to 0.3) and at a compression where the area penalty
  // acts, with and without angular springs and the penalty.
  const Patch patch;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> offset(-0.3, 0.3);
  Vector stretched = patch.Positions(Eigen::Matrix3d::Identity() * 1.2);
  for (Index i = 0; i < stretched.size(); ++i) stretched[i] += offset(random);
  const Vector compressed = Compressed(patch);
  for (std::size_t t = 0; t < 2; ++t) {
    const double J =
        patch.Area(t, compressed) / patch.Area(t, patch.Positions(Eigen::Matrix3d::Identity()));
    ASSERT_GT(J, 0.2);
    ASSERT_LT(J, 0.6);
  }
  for (const Vector& x : {stretched, compressed})
    for (const auto& [angular, compressible] :
         {std::pair{true, true}, std::pair{true, false}, std::pair{false, true}}) {
      const TriangularBiquadraticSprings field = patch.Field(angular, compressible);
      const Vector f = probes::Force(field, At(x));
      const double step = 1e-6;
      for (Index i = 0; i < x.size(); ++i) {
        Vector plus = x, minus = x;
        plus[i] += step;
        minus[i] -= step;
        const double gradient =
            (field.PotentialEnergy(At(plus)) - field.PotentialEnergy(At(minus))) / (2 * step);
        EXPECT_NEAR(f[i], -gradient, 1e-6 * (1 + f.cwiseAbs().maxCoeff()))
            << "dof " << i << " angular " << angular << " compressible " << compressible;
      }
    }
}

TEST(TriangularBiquadraticSprings, AreaPenaltyOfAUniformlyShrunkTriangle) {
  // One triangle shrunk by s in its plane: J = s², and the penalty's share of the force (with
  // minus without it) has energy ¾·(λ + μ)·A0·(1 − s²)⁴, lies in the plane, pushes outwards with
  // Σ_j (x_j − c)·f_j = −(dV/dA)·2A = 3·(λ + μ)·(1 − J)³·2·A (the area is homogeneous of degree
  // 2 about the centroid c), and vanishes for J ≥ 1.
  Patch patch;
  patch.triangles = {{0, 1, 2}};
  const double A0 =
      0.5 * (patch.points[1] - patch.points[0]).cross(patch.points[2] - patch.points[0]).norm();
  for (const double s : {0.5, 0.8, 0.95, 1.0, 1.1}) {
    const Vector x = patch.Positions(s * Eigen::Matrix3d::Identity());
    const Vector with = probes::Force(patch.Field(true, true), At(x));
    const Vector without = probes::Force(patch.Field(true, false), At(x));
    const Vector penalty = (with - without).head(9);
    const double J = s * s;
    const double energy = J < 1 ? 0.75 * kLambdaPlusMu * A0 * std::pow(1 - J, 4) : 0.0;
    EXPECT_NEAR(patch.Field(true, true).PotentialEnergy(At(x)) -
                    patch.Field(true, false).PotentialEnergy(At(x)),
                energy, 1e-12 * (1 + energy))
        << "s " << s;
    Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
    for (int j = 0; j < 3; ++j) centroid += x.segment<3>(3 * j) / 3;
    double virial = 0;
    for (int j = 0; j < 3; ++j) {
      virial += (Eigen::Vector3d(x.segment<3>(3 * j)) - centroid).dot(penalty.segment<3>(3 * j));
      EXPECT_EQ(penalty[3 * j + 2], 0.0);
    }
    const double expected = J < 1 ? 3 * kLambdaPlusMu * std::pow(1 - J, 3) * 2 * J * A0 : 0.0;
    EXPECT_NEAR(virial, expected, 1e-9 * (1 + expected)) << "s " << s;
  }
}

TEST(TriangularBiquadraticSprings, AreaForceFollowsTheLastValidNormal) {
  // A compressed triangle (J = 0.49) turned by 180° about the x axis in 10° steps, AddForce at
  // each: its last valid normal follows it (ending at −n0), and its area force is the energy's
  // gradient. Taken there at once, the same triangle has turned by more than 120° from its last
  // valid normal (n0): it counts as flipped and its area force is reversed. The forces depend
  // on the path.
  Patch patch;
  patch.triangles = {{0, 1, 2}};
  const auto positions = [&](double angle) {
    return patch.Positions(Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()).toRotationMatrix() *
                           (0.7 * Eigen::Matrix3d::Identity()));
  };
  const TriangularBiquadraticSprings walked = patch.Field(true);
  for (int degrees = 0; degrees <= 180; degrees += 10) {
    probes::Force(walked, At(positions(degrees * M_PI / 180)));
  }
  EXPECT_NEAR((walked.last_valid_normal(0) - Eigen::Vector3d(0, 0, -1)).norm(), 0.0, 1e-12);
  const Vector x = positions(M_PI);
  const Vector springs = probes::Force(patch.Field(true, false), At(x)).head(9);
  const Vector along = probes::Force(walked, At(x)).head(9) - springs;
  const TriangularBiquadraticSprings jumped = patch.Field(true);
  const Vector reversed = probes::Force(jumped, At(x)).head(9) - springs;
  EXPECT_GT(along.norm(), 1.0);
  EXPECT_NEAR((along + reversed).norm(), 0.0, 1e-12 * along.norm());
  EXPECT_NEAR((jumped.last_valid_normal(0) - Eigen::Vector3d(0, 0, 1)).norm(), 0.0, 0.0);
  // The walked one is the unturned triangle's force, turned (the energy's gradient).
  const Eigen::Matrix3d R = Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const Vector unturned = probes::Force(patch.Field(true), At(positions(0))).head(9) -
                          probes::Force(patch.Field(true, false), At(positions(0))).head(9);
  for (int j = 0; j < 3; ++j)
    EXPECT_NEAR((along.segment<3>(3 * j) - R * unturned.segment<3>(3 * j)).norm(), 0.0,
                1e-9 * along.norm());
  // Its matrix too uses the normal AddForce left: the unturned one's, turned.
  const Eigen::MatrixXd K = probes::Stiffness(walked, At(x)).topLeftCorner(9, 9);
  const Eigen::MatrixXd K0 =
      probes::Stiffness(patch.Field(true), At(positions(0))).topLeftCorner(9, 9);
  EXPECT_LT((K - probes::RotateBlocks(K0, R)).cwiseAbs().maxCoeff(),
            1e-9 * K0.cwiseAbs().maxCoeff());
  EXPECT_GT((probes::Stiffness(jumped, At(x)).topLeftCorner(9, 9) - K).cwiseAbs().maxCoeff(),
            1e-3 * K0.cwiseAbs().maxCoeff());
  // Crushed to J < 0.01 the normal is not the triangle's own: the last valid one is kept.
  Vector crushed = positions(M_PI);
  crushed.segment<3>(6) =
      0.5 * (crushed.segment<3>(0) + crushed.segment<3>(3)) + Eigen::Vector3d(0, 0, 1e-3);
  probes::Force(walked, At(crushed));
  EXPECT_NEAR((walked.last_valid_normal(0) - Eigen::Vector3d(0, 0, -1)).norm(), 0.0, 1e-12);
}

TEST(TriangularBiquadraticSprings, ARemovedTriangleTakesTheLastOnesNormalAndTangent) {
  // Both triangles compressed (J = 0.49) and walked to 90° about the x axis: their last valid
  // normals turn from n0 = (0, 0, 1) to (0, −1, 0). Removing triangle 0 moves triangle 1 into
  // its slot with its last valid normal (SOFA's TriangleData keeps it); a field built anew would
  // start from n0. The matrix-free tangent multiplies as the assembled K of what is left.
  Patch patch;
  const auto positions = [&](double angle) {
    return patch.Positions(Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()).toRotationMatrix() *
                           (0.7 * Eigen::Matrix3d::Identity()));
  };
  TriangularBiquadraticSprings field = patch.Field(true);
  for (int degrees = 0; degrees <= 90; degrees += 10)
    probes::Force(field, At(positions(degrees * M_PI / 180)));
  const std::array<Index, 1> removed = {0};
  field.RemoveTrianglesMovingLast(removed);
  ASSERT_EQ(field.num_triangles(), 1u);
  EXPECT_EQ(field.triangle(0).dof, (std::array<Index, 3>{3, 9, 6}));
  EXPECT_NEAR((field.last_valid_normal(0) - Eigen::Vector3d(0, -1, 0)).norm(), 0.0, 1e-12);
  // Triangle 1's edges' constants now hold its k_j alone (edge (1, 2) had both triangles').
  for (std::size_t j = 0; j < 3; ++j) {
    const std::array<Index, 1> around = {0};
    field.SumEdgeStiffness(field.triangle(0).edge[j], around);
    EXPECT_EQ(field.edge(field.triangle(0).edge[j]).stiffness,
              0.0 + field.triangle(0).stiffness[j]);
  }
  const State at = At(positions(M_PI / 2));
  std::vector<double> tangent(static_cast<std::size_t>(field.TangentSize()));
  ASSERT_EQ(tangent.size(), 81u);
  field.LinearizeStiffness(at, tangent.data());
  const Vector dx = Vector::LinSpaced(12, -1.0, 2.0);
  Vector y = Vector::Zero(12);
  field.AddTangentProduct(tangent.data(), 0.0, 2.0, dx, y);
  const Eigen::MatrixXd K = probes::Stiffness(field, at);
  EXPECT_LT((y - 2.0 * K * dx).norm(), 1e-12 * (K * dx).norm());
}

TEST(TriangularBiquadraticSprings, SofasTangentIsExactForTheSprings) {
  // The springs' energy is a polynomial of the positions and SOFA's blocks are its exact
  // Hessian, at any deformation; the area term's blocks are regularised (not −∂f/∂x).
  const Patch patch;
  std::mt19937 random(5);
  std::uniform_real_distribution<double> offset(-0.3, 0.3);
  Vector x = patch.Positions(Eigen::Matrix3d::Identity() * 1.2);
  for (Index i = 0; i < x.size(); ++i) x[i] += offset(random);
  for (const bool angular : {true, false}) {
    const TriangularBiquadraticSprings field = patch.Field(angular, false);
    const Eigen::MatrixXd K = probes::Stiffness(field, At(x));
    const Eigen::MatrixXd exact = probes::FiniteDifferenceStiffness(field, At(x));
    EXPECT_LT((K - exact).cwiseAbs().maxCoeff(), 1e-6 * exact.cwiseAbs().maxCoeff())
        << "angular " << angular;
  }
  const Vector compressed = Compressed(patch);
  const TriangularBiquadraticSprings field = patch.Field(true, true);
  const Eigen::MatrixXd exact = probes::FiniteDifferenceStiffness(field, At(compressed));
  const Eigen::MatrixXd K = probes::Stiffness(field, At(compressed));
  EXPECT_GT((K - exact).cwiseAbs().maxCoeff(), 1e-3 * exact.cwiseAbs().maxCoeff());
  // Both annihilate a translation (each block row sums to zero).
  Vector translation(x.size());
  for (Index i = 0; i < x.size(); i += 3) translation.segment<3>(i) = Eigen::Vector3d(1, 2, 3);
  EXPECT_LT((K * translation).norm(), 1e-9 * K.norm());
}

TEST(TriangularBiquadraticSprings, DampingRatioAddsSofasVelocityTerm) {
  // One moving point at rest positions: each edge's Δ is ζ·(v_a − v_b)·p/|p|², so the force on
  // point 0 is Σ_edges −k_e·ζ·(v_0 − v_b)·p/|p|²·p (no angular terms: Δ of the fixed edge is 0
  // and the other two give the edges' own forces only through the coupling, switched off).
  const Patch patch;
  const double zeta = 0.25;
  const TriangularBiquadraticSprings field = patch.Field(false, false, zeta);
  State state = At(patch.Positions(Eigen::Matrix3d::Identity()));
  state.v[0] = -1.0;  // point 0 moves along −x
  const Vector f = probes::Force(field, state);
  std::array<double, 3> k{}, g{};
  double area = 0;
  TriangularBiquadraticSprings::TriangleConstants(
      {(patch.points[1] - patch.points[2]).norm(), (patch.points[2] - patch.points[0]).norm(),
       (patch.points[0] - patch.points[1]).norm()},
      kYoung, kPoisson, k, g, area);
  const Eigen::Vector3d v0(-1, 0, 0);
  Eigen::Vector3d expected = Eigen::Vector3d::Zero();
  for (const auto& [b, stiffness] : {std::pair{1, k[2]}, std::pair{2, k[1]}}) {
    const Eigen::Vector3d p = patch.points[0] - patch.points[b];
    expected -= stiffness * zeta * v0.dot(p) / p.squaredNorm() * p;
  }
  EXPECT_NEAR((f.segment<3>(0) - expected).norm(), 0.0, 1e-12 * expected.norm());
}

class TriangularBiquadraticSpringsScenes : public testing::QuietTest {};

TEST_F(TriangularBiquadraticSpringsScenes, PulledApexSettlesWhereTheSpringsBalanceTheLoad) {
  // One isosceles triangle, base (±1, 0, 0) fixed, apex (0, 1, 0) pulled by F along y, edges
  // alone (useAngularSprings 0): each slanted edge (rest length² 2, length² 1 + y²) pulls the
  // apex by −k·(y² − 1)·(x_apex − x_base), so at rest 2·k·(y² − 1)·y = F, with k the constant of
  // a slanted edge, k = (2·cot²·(λ + μ) + μ)/(16·A0): cot = 1 (the base angles, which the
  // slanted edges face, are 45°) and A0 = 1.
  const double F = 3.0, E = 40.0, nu = 0.25;
  const double lambda = E * nu / (1 - nu * nu), mu = E * (1 - nu) / (1 - nu * nu);
  const double k = (2 * (lambda + mu) + mu) / 16;
  double y = 1.5;  // Newton on 2k(y² − 1)y = F
  for (int i = 0; i < 50; ++i) y -= (2 * k * (y * y - 1) * y - F) / (2 * k * (3 * y * y - 1));
  Simulation simulation = testing::LoadScene(
      R"(<Node name="root" dt="0.05" gravity="0 0 0">
        <EulerImplicitSolver rayleighMass="2"/><SparseLDLSolver/>
        <MeshTopology position="-1 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
        <MechanicalObject name="dofs"/><UniformMass totalMass="0.3"/>
        <FixedProjectiveConstraint indices="0 1"/>
        <ConstantForceField indices="2" forces="0 3 0"/>
        <TriangularBiquadraticSpringsForceField youngModulus="40" poissonRatio="0.25"
            useAngularSprings="0"/></Node>)");
  for (int i = 0; i < 400; ++i) simulation.Step();
  const Vector x = simulation.position(simulation.FindObject("root/dofs"));
  EXPECT_NEAR(x[7], y, 1e-9);
  EXPECT_NEAR(x[6], 0.0, 1e-12);
}

TEST_F(TriangularBiquadraticSpringsScenes, RefusesAFlatTriangleAndPoissonOne) {
  const std::string head = R"(<Node name="root"><EulerImplicitSolver/><CGLinearSolver/>
    <MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0" triangles=")";
  const std::string tail = R"("/><MechanicalObject/><UniformMass totalMass="1"/>
    <TriangularBiquadraticSpringsForceField )";
  testing::ExpectSceneError(head + "0 1 2" + tail + "/></Node>", "is flat at rest");
  testing::ExpectSceneError(head + "0 1 3" + tail + R"(poissonRatio="-1"/></Node>)",
                            "expected a value other than ±1");
}

}  // namespace
}  // namespace fluxion
