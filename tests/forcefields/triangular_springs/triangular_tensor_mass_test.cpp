// TriangularTensorMassForceField (mechanics/triangular_tensor_mass.h): SOFA's edge tensors give,
// on a right triangle with ν = 0, the forces of the linear constant-strain triangle worked by
// hand; for any ν and any triangle in a plane, the in-plane stiffness of that triangle under
// plane stress (A·Bᵀ·C·B with SOFA's λ and μ = 2G, computed here independently); the stiffness
// is −∂f/∂x (finite differences); an edge listed either way gives the same forces; and the
// scene component, one explicit step, moves the points by dt·f/m with those forces.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "fluxion/simulation.h"
#include "forcefields/field_probes.h"
#include "mechanics/triangular_tensor_mass.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

using internal::TriangularTensorMass;
namespace probes = internal::field_probes;
using probes::At;
using Point = std::array<double, 3>;

// The field of `triangles` on `points`, its edges found as SOFA's container lists them (edge j
// of a triangle from vertex j+1 to vertex j+2, first seen first) or, with `reversed`, the other
// way round.
TriangularTensorMass Field(const std::vector<Point>& points,
                           const std::vector<std::array<Index, 3>>& triangles, double young,
                           double poisson, bool reversed = false) {
  double lambda = 0, mu = 0;
  TriangularTensorMass::LameCoefficients(young, poisson, lambda, mu);
  std::vector<TriangularTensorMass::Edge> edges;
  std::vector<std::array<Index, 2>> ends;
  const auto edge_of = [&](Index a, Index b) {
    for (std::size_t e = 0; e < ends.size(); ++e)
      if ((ends[e][0] == a && ends[e][1] == b) || (ends[e][0] == b && ends[e][1] == a)) return e;
    if (reversed) std::swap(a, b);
    ends.push_back({a, b});
    TriangularTensorMass::Edge edge;
    edge.v0 = 3 * a;
    edge.v1 = 3 * b;
    edge.rest0 = points[a];
    edge.rest1 = points[b];
    edges.push_back(edge);
    return ends.size() - 1;
  };
  for (const auto& t : triangles) {
    std::array<std::size_t, 3> e{};
    for (int j = 0; j < 3; ++j) e[j] = edge_of(t[(j + 1) % 3], t[(j + 2) % 3]);
    std::array<std::array<double, 9>*, 3> blocks{};
    std::array<bool, 3> starts_at_l{};
    for (int j = 0; j < 3; ++j) {
      blocks[j] = &edges[e[j]].d;
      starts_at_l[j] = ends[e[j]][0] == t[(j + 2) % 3];
    }
    EXPECT_TRUE(TriangularTensorMass::AddTriangle({points[t[0]], points[t[1]], points[t[2]]},
                                                  lambda, mu, blocks, starts_at_l));
  }
  return TriangularTensorMass(std::move(edges));
}

Vector Displaced(const std::vector<Point>& points, int point, const Eigen::Vector3d& by) {
  Vector x(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    x.segment<3>(3 * i) = Eigen::Vector3d(points[i][0], points[i][1], points[i][2]);
  x.segment<3>(3 * point) += by;
  return x;
}

const std::vector<Point> kRight = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

// ν = 0, E = 1000: SOFA's λ = 0, μ = E. By hand (A = 1/2, cot = 0, 1, 1; λ* = 0, μ* = E/4):
// moving point 1 by δ along x gives f0 = (E·δ/2, 0, 0), f1 = (−E·δ/2, 0, 0), f2 = 0 — the
// constant-strain triangle's A·E·δ (ε_xx = δ); along y, f0 = (E·δ/4, E·δ/4, 0),
// f1 = (0, −E·δ/4, 0), f2 = (−E·δ/4, 0, 0) — its shear A·G·δ with G = E/2 (γ_xy = δ).
TEST(TriangularTensorMass, ARightTriangleWithoutPoissonGivesTheLinearTrianglesForces) {
  const double E = 1000, d = 1e-3;
  for (const bool reversed : {false, true}) {
    const TriangularTensorMass field = Field(kRight, {{0, 1, 2}}, E, 0.0, reversed);
    const Vector fx = probes::Force(field, At(Displaced(kRight, 1, {d, 0, 0})));
    const Vector expected_x = (Vector(9) << E * d / 2, 0, 0, -E * d / 2, 0, 0, 0, 0, 0).finished();
    EXPECT_LT((fx - expected_x).norm(), 1e-12) << fx.transpose();
    const Vector fy = probes::Force(field, At(Displaced(kRight, 1, {0, d, 0})));
    const Vector expected_y =
        (Vector(9) << E * d / 4, E * d / 4, 0, 0, -E * d / 4, 0, -E * d / 4, 0, 0).finished();
    EXPECT_LT((fy - expected_y).norm(), 1e-12) << fy.transpose();
  }
}

// The in-plane stiffness of a constant-strain triangle under plane stress, from its shape
// functions: K = A·Bᵀ·C·B, C = [[λ+2G, λ, 0], [λ, λ+2G, 0], [0, 0, G]] with λ = E·ν/(1 − ν²),
// G = E/(2(1 + ν)), on the DOFs (x0 y0 x1 y1 x2 y2).
Eigen::MatrixXd LinearTriangleStiffness(const std::array<Point, 3>& p, double E, double nu) {
  const double area =
      0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]));
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(3, 6);
  for (int i = 0; i < 3; ++i) {
    const Point& a = p[(i + 1) % 3];
    const Point& b = p[(i + 2) % 3];
    const double dx = (a[1] - b[1]) / (2 * area), dy = (b[0] - a[0]) / (2 * area);  // ∇N_i
    B(0, 2 * i) = dx;
    B(1, 2 * i + 1) = dy;
    B(2, 2 * i) = dy;
    B(2, 2 * i + 1) = dx;
  }
  const double lambda = E * nu / (1 - nu * nu), G = E / (2 * (1 + nu));
  Eigen::Matrix3d C;
  C << lambda + 2 * G, lambda, 0, lambda, lambda + 2 * G, 0, 0, 0, G;
  return std::abs(area) * B.transpose() * C * B;
}

TEST(TriangularTensorMass, InPlaneStiffnessIsThePlaneStressTrianglesForAnyPoissonRatio) {
  const std::vector<Point> points = {{0.1, -0.2, 0}, {1.3, 0.2, 0}, {0.4, 1.1, 0}};
  for (const double nu : {0.0, 0.3, 0.45}) {
    const TriangularTensorMass field = Field(points, {{0, 1, 2}}, 1000, nu);
    const Eigen::MatrixXd K = probes::Stiffness(field, At(Displaced(points, 0, {0, 0, 0})));
    const Eigen::MatrixXd expected =
        LinearTriangleStiffness({points[0], points[1], points[2]}, 1000, nu);
    Eigen::MatrixXd in_plane(6, 6);
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) in_plane(r, c) = K(3 * (r / 2) + r % 2, 3 * (c / 2) + c % 2);
    EXPECT_LT((in_plane - expected).norm(), 1e-9 * expected.norm()) << "nu = " << nu << "\n"
                                                                    << in_plane << "\n\n"
                                                                    << expected;
  }
}

// Two triangles of arbitrary shape in space sharing an edge: K against −∂f/∂x by central
// differences (the force is linear: exact to round-off), at a displaced state; a rigid
// translation gives no force.
TEST(TriangularTensorMass, StiffnessIsMinusTheForcesDerivative) {
  const std::vector<Point> points = {{0, 0, 0}, {1.3, 0.2, 0.1}, {0.4, 1.1, -0.2}, {1.6, 1.3, 0.3}};
  const TriangularTensorMass field = Field(points, {{0, 1, 2}, {1, 3, 2}}, 1000, 0.3);
  const State state = At(Displaced(points, 3, {0.01, -0.02, 0.03}));
  const Eigen::MatrixXd K = probes::Stiffness(field, state);
  const Eigen::MatrixXd fd = probes::FiniteDifferenceStiffness(field, state);
  EXPECT_LT((K - fd).norm(), 1e-6 * K.norm());
  Vector moved = Displaced(points, 0, {0, 0, 0});
  for (Index i = 0; i < 4; ++i) moved.segment<3>(3 * i) += Eigen::Vector3d(0.3, -0.1, 0.2);
  EXPECT_LT(probes::Force(field, At(moved)).norm(), 1e-12);
}

// The component, as SOFA's example uses it, on the right triangle (E = 1000, ν = 0) with point 1
// moved by δ = 10⁻³ along x from its rest position: one symplectic Euler step of dt = 0.01 with
// unit masses gives v = dt·f, f from the hand computation above.
TEST(TriangularTensorMass, TheComponentPushesByTheTensorForces) {
  Simulation simulation = testing::LoadScene(R"(<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver symplectic="1"/>
  <TriangleSetTopologyContainer name="mesh" position="0 0 0  1 0 0  0 1 0" triangles="0 1 2"/>
  <MechanicalObject name="dofs" position="0 0 0  1.001 0 0  0 1 0"
                    rest_position="0 0 0  1 0 0  0 1 0"/>
  <UniformMass vertexMass="1"/>
  <TriangularTensorMassForceField name="TM" youngModulus="1000" poissonRatio="0"/>
</Node>)");
  simulation.Step();
  const Vector v = simulation.velocity(0);
  const Vector expected = (Vector(9) << 0.005, 0, 0, -0.005, 0, 0, 0, 0, 0).finished();
  EXPECT_LT((v - expected).norm(), 1e-12) << v.transpose();
}

}  // namespace
}  // namespace fluxion
