// SOFA's TaitSurfacePressureForceField (mechanics/tait_pressure.h): the enclosed volume of a unit
// cube (1, and 8 for the cube twice as large), Tait's pressure and dP/dV against their closed
// forms, the injection ramp by hand (SOFA's handleEvent), the force against P times the volume's
// finite-difference gradient, and the tangent — matrix-free product and assembled matrix —
// against central finite differences of the force.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "forcefields/field_probes.h"
#include "mechanics/tait_pressure.h"

namespace fluxion::internal {
namespace {

using field_probes::At;
using field_probes::FiniteDifferenceStiffness;
using field_probes::Force;
using field_probes::Stiffness;

// The unit cube, point p = x + 2y + 4z at (x, y, z); its 12 triangles turn outward.
Vector Cube(double side) {
  Vector x(24);
  for (int p = 0; p < 8; ++p) {
    x[3 * p] = side * (p & 1);
    x[3 * p + 1] = side * ((p >> 1) & 1);
    x[3 * p + 2] = side * ((p >> 2) & 1);
  }
  return x;
}

std::vector<std::array<Index, 3>> CubeTriangles() {
  const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<std::array<Index, 3>> out;
  for (const auto& q : faces) {
    out.push_back({3 * q[0], 3 * q[1], 3 * q[2]});
    out.push_back({3 * q[2], 3 * q[3], 3 * q[0]});
  }
  return out;
}

TaitPressure Field(const Vector& rest, TaitPressure::Options options) {
  return TaitPressure(CubeTriangles(), 0, 8, rest, options);
}

TEST(TaitPressure, TheCubesVolumeIsItsSideCubed) {
  const TaitPressure field = Field(Cube(1.0), {});
  EXPECT_NEAR(field.initial_volume(), 1.0, 1e-15);
  EXPECT_NEAR(field.Volume(Cube(2.0)), 8.0, 1e-14);
  // Moved as a whole: the same volume (the mean point is the origin).
  Vector moved = Cube(2.0);
  for (Index i = 0; i < moved.size(); i += 3) moved[i] += 5.0;
  EXPECT_NEAR(field.Volume(moved), 8.0, 1e-13);
}

TEST(TaitPressure, PressureAndStiffnessAreTaitsClosedForms) {
  // V₀ = 1 (nothing injected): P = p₀ − B((V/V₀)^γ − 1), dP/dV = −Bγ(V/V₀)^γ/V.
  const TaitPressure water = Field(Cube(1.0), {.p0 = 2.0, .bulk = 1e4, .gamma = 5});
  const std::array<double, 2> p = water.PressureAndStiffness(1.1);
  EXPECT_NEAR(p[0], 2.0 - 1e4 * (std::pow(1.1, 5) - 1), 1e-9);
  EXPECT_NEAR(p[1], -1e4 * 5 * std::pow(1.1, 5) / 1.1, 1e-9);
  // γ = 1 (an ideal gas near V₀): P = p₀ − B(V/V₀ − 1), dP/dV = −B/V₀.
  const TaitPressure gas = Field(Cube(1.0), {.p0 = 0.0, .bulk = 3.0, .gamma = 1});
  EXPECT_DOUBLE_EQ(gas.PressureAndStiffness(0.5)[0], 1.5);
  EXPECT_DOUBLE_EQ(gas.PressureAndStiffness(0.5)[1], -3.0);
  // B = 0: the constant p₀, no stiffness.
  const TaitPressure constant = Field(Cube(1.0), {.p0 = 7.0});
  EXPECT_EQ(constant.PressureAndStiffness(3.0), (std::array<double, 2>{7.0, 0.0}));
}

TEST(TaitPressure, TheInjectionMovesAtMostRateTimesDtPerStep) {
  // SOFA's handleEvent: target 0.5 at 0.2 per step (rate 0.4, dt 0.5): 0.2, 0.4, then 0.5
  // (|0.5 − 0.4| ≤ 0.2); a new target −0.1: 0.3, 0.1, −0.1.
  TaitPressure field =
      Field(Cube(1.0), {.bulk = 1.0, .gamma = 1, .injected = 0.5, .max_rate = 0.4});
  const double expected[] = {0.2, 0.4, 0.5, 0.5};
  for (long n = 0; n < 4; ++n) {
    field.InjectUpTo(n + 1, 0.5);
    EXPECT_NEAR(field.injected_volume(), expected[n], 1e-15) << "event " << n;
  }
  field.SetInjectedTarget(-0.1);
  const double back[] = {0.3, 0.1, -0.1};
  for (long n = 4; n < 7; ++n) {
    field.InjectUpTo(n + 1, 0.5);
    EXPECT_NEAR(field.injected_volume(), back[n - 4], 1e-15) << "event " << n;
  }
  field.InjectUpTo(7, 0.5);  // already there: nothing more
  EXPECT_NEAR(field.injected_volume(), -0.1, 1e-15);
  // V₀ = 1 − 0.1: the pressure of the unit cube is B·(1 − 1/0.9).
  EXPECT_NEAR(field.PressureAndStiffness(1.0)[0], -(1.0 / 0.9 - 1.0), 1e-15);
}

// A cube with its points moved by up to 0.1 (so that no term vanishes by symmetry).
Vector Perturbed() {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> offset(-0.1, 0.1);
  Vector x = Cube(1.0);
  for (Index i = 0; i < x.size(); ++i) x[i] += offset(random);
  return x;
}

TEST(TaitPressure, TheForceIsThePressureTimesTheVolumesGradient) {
  TaitPressure field = Field(Cube(1.0), {.p0 = 1.0, .bulk = 50.0, .gamma = 3, .injected = 0.2});
  field.InjectUpTo(1, 1.0);
  const Vector x = Perturbed();
  const double pressure = field.PressureAndStiffness(field.Volume(x))[0];
  const Vector f = Force(field, At(x));
  for (Index j = 0; j < x.size(); ++j) {
    Vector plus = x, minus = x;
    plus[j] += 1e-6;
    minus[j] -= 1e-6;
    const double gradient = (field.Volume(plus) - field.Volume(minus)) / 2e-6;
    EXPECT_NEAR(f[j], pressure * gradient, 1e-7 * std::abs(pressure)) << "dof " << j;
  }
}

TEST(TaitPressure, TheTangentIsTheForcesDerivativeAssembledOrNot) {
  TaitPressure field = Field(Cube(1.0), {.p0 = 1.0, .bulk = 50.0, .gamma = 3, .injected = 0.2});
  field.InjectUpTo(1, 1.0);
  const State state = At(Perturbed());
  const Eigen::MatrixXd expected = FiniteDifferenceStiffness(field, state);
  const double scale = expected.cwiseAbs().maxCoeff();
  const Eigen::MatrixXd assembled = Stiffness(field, state);
  EXPECT_LT((assembled - expected).cwiseAbs().maxCoeff(), 1e-6 * scale);
  // The matrix-free product with k = 2 on each unit vector: y = 2·K·e_j.
  std::vector<double> tangent(static_cast<std::size_t>(field.TangentSize()));
  field.LinearizeStiffness(state, tangent.data());
  for (Index j = 0; j < state.x.size(); ++j) {
    Vector e = Vector::Zero(state.x.size()), y = Vector::Zero(state.x.size());
    e[j] = 1.0;
    field.AddTangentProduct(tangent.data(), 0.0, 2.0, e, y);
    EXPECT_LT((y - 2.0 * expected.col(j)).cwiseAbs().maxCoeff(), 2e-6 * scale) << "column " << j;
  }
}

}  // namespace
}  // namespace fluxion::internal
