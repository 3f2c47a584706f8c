// TriangularQuadraticSpringsForceField: Delingette's tensile and angular springs with SOFA's
// constants reproduce the linear plane-stress membrane of (E, ν) under small strains (its energy
// A·(½·λ·(tr ε)² + G·ε:ε), λ = E·ν/(1 − ν²), G = E/(2(1 + ν)), for any triangle); the force is
// minus the gradient of the springs' energy; SOFA's tangent is the exact one at rest.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "fluxion/simulation.h"
#include "forcefields/field_probes.h"
#include "mechanics/triangular_quadratic_springs.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using internal::TriangularQuadraticSprings;
namespace probes = internal::field_probes;
using probes::At;

constexpr double kYoung = 1000.0, kPoisson = 0.3;

// Two triangles of arbitrary shape sharing the edge 1–2, as the component builds them: edges
// 0–1, 1–2, 2–0, 1–3, 3–2, each edge's constant the sum of its triangles' k_j.
struct Patch {
  std::vector<Eigen::Vector3d> points = {{0, 0, 0}, {1.3, 0.2, 0}, {0.4, 1.1, 0}, {1.6, 1.3, 0}};
  std::vector<std::array<Index, 3>> triangles = {{0, 1, 2}, {1, 3, 2}};

  TriangularQuadraticSprings Field(bool angular, double damping = 0.0) const {
    std::vector<TriangularQuadraticSprings::Edge> edges;
    std::vector<TriangularQuadraticSprings::Triangle> list;
    const auto edge_of = [&](Index a, Index b) {
      for (std::size_t e = 0; e < edges.size(); ++e)
        if ((edges[e].a == 3 * a && edges[e].b == 3 * b) ||
            (edges[e].a == 3 * b && edges[e].b == 3 * a))
          return e;
      edges.push_back({3 * a, 3 * b, (points[a] - points[b]).norm(), 0.0});
      return edges.size() - 1;
    };
    for (const auto& t : triangles) {
      TriangularQuadraticSprings::Triangle triangle;
      std::array<double, 3> rest{};
      for (int j = 0; j < 3; ++j) {
        triangle.dof[j] = 3 * t[j];
        triangle.edge[j] = edge_of(t[(j + 1) % 3], t[(j + 2) % 3]);
        rest[j] = edges[triangle.edge[j]].rest_length;
      }
      EXPECT_TRUE(TriangularQuadraticSprings::TriangleConstants(
          rest, kYoung, kPoisson, triangle.stiffness, triangle.gamma));
      for (int j = 0; j < 3; ++j) edges[triangle.edge[j]].stiffness += triangle.stiffness[j];
      list.push_back(triangle);
    }
    return TriangularQuadraticSprings(std::move(edges), std::move(list), damping, angular);
  }
  Vector Positions(const Eigen::Matrix3d& map) const {
    Vector x(3 * points.size());
    for (std::size_t i = 0; i < points.size(); ++i) x.segment<3>(3 * i) = map * points[i];
    return x;
  }
  double Area() const {
    double area = 0;
    for (const auto& t : triangles)
      area += 0.5 * (points[t[1]] - points[t[0]]).cross(points[t[2]] - points[t[0]]).norm();
    return area;
  }
};

TEST(TriangularQuadraticSprings, SmallStrainEnergyIsThePlaneStressMembranes) {
  // x = (I + h·ε)·X with h = 1e-6: the springs' energy against the membrane's, to O(h).
  const Patch patch;
  const TriangularQuadraticSprings field = patch.Field(true);
  const double lambda = kYoung * kPoisson / (1 - kPoisson * kPoisson);
  const double shear = kYoung / (2 * (1 + kPoisson));
  const double h = 1e-6;
  for (const Eigen::Matrix2d& e :
       {Eigen::Matrix2d{{1, 0}, {0, 0}}, Eigen::Matrix2d{{0, 0}, {0, 1}},
        Eigen::Matrix2d{{0, 0.5}, {0.5, 0}}, Eigen::Matrix2d{{1, 0.3}, {0.3, -0.5}}}) {
    Eigen::Matrix3d map = Eigen::Matrix3d::Identity();
    map.topLeftCorner<2, 2>() += h * e;
    const double membrane =
        patch.Area() * h * h *
        (0.5 * lambda * e.trace() * e.trace() + shear * (e.array() * e.array()).sum());
    EXPECT_NEAR(field.PotentialEnergy(At(patch.Positions(map))), membrane, 1e-5 * membrane)
        << "strain " << e;
  }
  // Without the angular springs the edges alone are not that membrane.
  Eigen::Matrix3d map = Eigen::Matrix3d::Identity();
  map(0, 0) += h;
  const double membrane = patch.Area() * h * h * (0.5 * lambda + shear);
  EXPECT_GT(std::abs(patch.Field(false).PotentialEnergy(At(patch.Positions(map))) - membrane),
            1e-2 * membrane);
}

TEST(TriangularQuadraticSprings, ForceIsMinusTheEnergyGradient) {
  // At a large deformation (random points moved by up to 0.3), with and without angular springs.
  const Patch patch;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> offset(-0.3, 0.3);
  Vector x = patch.Positions(Eigen::Matrix3d::Identity());
  for (Index i = 0; i < x.size(); ++i) x[i] += offset(random);
  for (const bool angular : {true, false}) {
    const TriangularQuadraticSprings field = patch.Field(angular);
    const Vector f = probes::Force(field, At(x));
    const double step = 1e-6;
    for (Index i = 0; i < x.size(); ++i) {
      Vector plus = x, minus = x;
      plus[i] += step;
      minus[i] -= step;
      const double gradient =
          (field.PotentialEnergy(At(plus)) - field.PotentialEnergy(At(minus))) / (2 * step);
      EXPECT_NEAR(f[i], -gradient, 1e-6 * (1 + std::abs(f[i]))) << "dof " << i;
    }
  }
}

TEST(TriangularQuadraticSprings, SofasTangentIsExactAtRest) {
  // At rest (any rigid rotation of it) SOFA's addDForce blocks equal −∂f/∂x; away from rest
  // they do not (the file comment).
  const Patch patch;
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  for (const bool angular : {true, false}) {
    const TriangularQuadraticSprings field = patch.Field(angular);
    const State rest = At(patch.Positions(R));
    const Eigen::MatrixXd K = probes::Stiffness(field, rest);
    const Eigen::MatrixXd exact = probes::FiniteDifferenceStiffness(field, rest);
    EXPECT_LT((K - exact).cwiseAbs().maxCoeff(), 1e-6 * exact.cwiseAbs().maxCoeff())
        << "angular " << angular;
  }
  // Stretched by 20 % along x, the angular blocks are no longer the exact derivative.
  Eigen::Matrix3d stretch = Eigen::Matrix3d::Identity();
  stretch(0, 0) = 1.2;
  const TriangularQuadraticSprings field = patch.Field(true);
  const State stretched = At(patch.Positions(stretch));
  const Eigen::MatrixXd exact = probes::FiniteDifferenceStiffness(field, stretched);
  EXPECT_GT((probes::Stiffness(field, stretched) - exact).cwiseAbs().maxCoeff(),
            1e-3 * exact.cwiseAbs().maxCoeff());
}

TEST(TriangularQuadraticSprings, DampingRatioAddsTheEdgesRelativeVelocity) {
  // A single moving edge: dl gains ζ·(v_a − v_b)·p/L, so at rest positions the force along the
  // edge is k_edge·ζ·(relative speed along it).
  const Patch patch;
  const double zeta = 0.25;
  const TriangularQuadraticSprings field = patch.Field(false, zeta);
  State state = At(patch.Positions(Eigen::Matrix3d::Identity()));
  state.v.setZero();
  state.v[0] = -1.0;  // point 0 moves along −x
  const Vector f = probes::Force(field, state);
  // Edge 0–1 (p = x0 − x1, L = |p|): relative speed (v0 − v1)·p/L.
  const Eigen::Vector3d p = patch.points[0] - patch.points[1];
  const double speed = Eigen::Vector3d(-1, 0, 0).dot(p) / p.norm();
  // Edge 2–0 pulls too: sum of both edges' forces on point 0.
  const Eigen::Vector3d q = patch.points[2] - patch.points[0];
  const double speed_q = -Eigen::Vector3d(-1, 0, 0).dot(q) / q.norm();
  // Each edge's constant: the k_j of its only triangle.
  std::array<double, 3> k{}, g{};
  TriangularQuadraticSprings::TriangleConstants(
      {(patch.points[1] - patch.points[2]).norm(), (patch.points[2] - patch.points[0]).norm(),
       (patch.points[0] - patch.points[1]).norm()},
      kYoung, kPoisson, k, g);
  const Eigen::Vector3d expected =
      -k[2] * zeta * speed * p / p.norm() + k[1] * zeta * speed_q * q / q.norm();
  EXPECT_NEAR((f.segment<3>(0) - expected).norm(), 0.0, 1e-9 * expected.norm());
}

class TriangularQuadraticSpringsScenes : public testing::QuietTest {};

TEST_F(TriangularQuadraticSpringsScenes, RefusesAFlatTriangleAndPoissonOne) {
  const std::string head = R"(<Node name="root"><EulerImplicitSolver/><CGLinearSolver/>
    <MeshTopology position="0 0 0  1 0 0  2 0 0  0 1 0" triangles=")";
  const std::string tail = R"("/><MechanicalObject/><UniformMass totalMass="1"/>
    <TriangularQuadraticSpringsForceField )";
  testing::ExpectSceneError(head + "0 1 2" + tail + "/></Node>", "is flat at rest");
  testing::ExpectSceneError(head + "0 1 3" + tail + R"(poissonRatio="1"/></Node>)",
                            "expected a value other than ±1");
}

}  // namespace
}  // namespace fluxion
