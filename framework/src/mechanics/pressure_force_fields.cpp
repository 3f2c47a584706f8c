// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         SurfacePressureForceField.inl (addForce, addTriangleSurfacePressure,
//         addQuadSurfacePressure, computeMeshVolume, isInPressuredBox, addKToMatrix);
//         EdgePressureForceField.inl (initEdgeInformation, addForce).
#include "mechanics/pressure_force_fields.h"

#include <Eigen/Dense>
#include <cmath>
#include <utility>

namespace fluxion::internal {

namespace {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

Vec3 Point(const Vector& x, Index first) { return x.segment<3>(first); }

// [w]×: the matrix of y ↦ w × y.
Mat3 Skew(const Vec3& w) {
  Mat3 m;
  m << 0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0;
  return m;
}

// ∂n/∂(u, v, w) for n = (v − u)×(w − u).
std::array<Mat3, 3> CrossJacobian(const Vec3& u, const Vec3& v, const Vec3& w) {
  return {Skew(w - v), Skew(u - w), Skew(v - u)};
}

}  // namespace

SurfacePressure::SurfacePressure(std::vector<std::array<Index, 3>> triangles,
                                 std::vector<std::array<Index, 4>> quads, const Options& options)
    : triangles_(std::move(triangles)),
      quads_(std::move(quads)),
      options_(options),
      pulse_rising_(options.pressure > 0) {}

void SurfacePressure::AdvancePulse(long evaluations, double dt) {
  const double step = options_.pulse_speed * dt;
  // The two bounds as SOFA orders them for a positive or a negative pressure.
  const bool positive = options_.pressure > 0;
  const double upper = positive ? options_.pressure : options_.pulse_lower;
  const double lower = positive ? options_.pulse_lower : options_.pressure;
  for (; pulse_count_ < evaluations; ++pulse_count_) {
    if (pulse_rising_) {
      pulse_value_ += step;
      if (pulse_value_ >= upper) {
        pulse_value_ = upper;
        pulse_rising_ = false;
      }
    } else {
      pulse_value_ -= step;
      if (pulse_value_ <= lower) {
        pulse_value_ = lower;
        pulse_rising_ = true;
      }
    }
  }
}

bool SurfacePressure::InBox(const Vector& x, Index first) const {
  for (int a = 0; a < 3; ++a) {
    const std::size_t s = static_cast<std::size_t>(a);
    if (!(x[first + a] >= options_.box_min[s] && x[first + a] <= options_.box_max[s])) return false;
  }
  return true;
}

template <std::size_t N>
bool SurfacePressure::Selected(const Vector& x, const std::array<Index, N>& element,
                               bool boxed) const {
  if (!options_.box || !boxed) return true;
  for (const Index first : element)
    if (!InBox(x, first)) return false;
  return true;
}

double SurfacePressure::Volume(const Vector& x) const {
  double volume = 0.0;
  for (const auto& t : triangles_)
    volume += Point(x, t[0]).cross(Point(x, t[1])).dot(Point(x, t[2]));
  for (const auto& q : quads_) {
    const Vec3 a = Point(x, q[0]), b = Point(x, q[1]), c = Point(x, q[2]), d = Point(x, q[3]);
    volume += a.cross(b).dot(c) + a.cross(c).dot(d);
  }
  return volume / 6.0;
}

double SurfacePressure::Pressure(const State& state) const {
  const double pressure = options_.pulse ? pulse_value_ : options_.pressure;
  if (options_.rest_volume == 0.0) return pressure;
  return pressure * (options_.rest_volume / Volume(state.x));
}

void SurfacePressure::AddForce(const State& state, Vector& f) const {
  const double p6 = Pressure(state) / 6.0;
  const Vec3 direction(options_.main_direction.data());
  for (const auto& t : triangles_) {
    if (!Selected(state.x, t, options_.box_triangles)) continue;
    const Vec3 a = Point(state.x, t[0]);
    const Vec3 n = (Point(state.x, t[1]) - a).cross(Point(state.x, t[2]) - a);
    Vec3 force = n * p6;
    // SOFA: scaled by |n̂·d| when a main direction is given.
    if (!direction.isZero() && n.squaredNorm() > 0)
      force *= std::abs(n.normalized().dot(direction));
    for (const Index first : t) f.segment<3>(first) += force;
  }
  for (const auto& q : quads_) {
    if (!Selected(state.x, q, options_.box_quads)) continue;
    const Vec3 a = Point(state.x, q[0]), b = Point(state.x, q[1]), c = Point(state.x, q[2]),
               d = Point(state.x, q[3]);
    const Vec3 f1 = (b - a).cross(c - a) * p6, f2 = (c - a).cross(d - a) * p6;
    f.segment<3>(q[0]) += f1 + f2;
    f.segment<3>(q[1]) += f1;
    f.segment<3>(q[2]) += f1 + f2;
    f.segment<3>(q[3]) += f2;
  }
}

void SurfacePressure::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  if (!options_.tangent) return;
  // Each vertex of an element against each vertex of it: 3×3 blocks, row by row.
  const auto blocks = [&](const auto& element) {
    for (const Index row : element)
      for (const Index col : element)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) entries.push_back({row + r, col + c});
  };
  for (const auto& t : triangles_) blocks(t);
  if (options_.exact_stiffness)
    for (const auto& q : quads_) blocks(q);
}

void SurfacePressure::AddStiffness(const State& state, const Index* slots, double* values) const {
  if (!options_.tangent) return;
  const double p6 = Pressure(state) / 6.0;
  const Vec3 direction(options_.main_direction.data());
  std::size_t k = 0;
  // Adds −(block) for each (row vertex, column vertex) of an element, in StiffnessEntries' order.
  const auto add = [&](const auto& blocks) {
    for (const auto& row : blocks)
      for (const Mat3& block : row)
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c, ++k) values[slots[k]] -= block(r, c);
  };
  for (const auto& t : triangles_) {
    if (!Selected(state.x, t, options_.box_triangles)) {
      k += 81;
      continue;
    }
    const Vec3 a = Point(state.x, t[0]), b = Point(state.x, t[1]), c = Point(state.x, t[2]);
    const std::array<Mat3, 3> dn = CrossJacobian(a, b, c);
    // Φ = ∂φ/∂n for φ(n) = n·|n·d|/|n| (the main direction's factor); SOFA leaves it out.
    Mat3 phi = Mat3::Identity();
    const Vec3 n = (b - a).cross(c - a);
    if (options_.exact_stiffness && !direction.isZero() && n.squaredNorm() > 0) {
      const double m = n.norm(), s = n.dot(direction);
      const double sigma = s > 0 ? 1.0 : (s < 0 ? -1.0 : 0.0);
      phi = Mat3::Identity() * (std::abs(s) / m) +
            n * (sigma * direction / m - std::abs(s) * n / (m * m * m)).transpose();
    }
    std::array<std::array<Mat3, 3>, 3> blocks;
    for (std::size_t row = 0; row < 3; ++row)
      for (std::size_t col = 0; col < 3; ++col) blocks[row][col] = p6 * phi * dn[col];
    add(blocks);
  }
  if (!options_.exact_stiffness) return;
  for (const auto& q : quads_) {
    if (!Selected(state.x, q, options_.box_quads)) {
      k += 144;
      continue;
    }
    const Vec3 a = Point(state.x, q[0]), b = Point(state.x, q[1]), c = Point(state.x, q[2]),
               d = Point(state.x, q[3]);
    const std::array<Mat3, 3> d1 = CrossJacobian(a, b, c);  // n₁ over (a, b, c)
    const std::array<Mat3, 3> d2 = CrossJacobian(a, c, d);  // n₂ over (a, c, d)
    const Mat3 zero = Mat3::Zero();
    // ∂n₁ and ∂n₂ by quad vertex (a, b, c, d).
    const std::array<Mat3, 4> dn1 = {d1[0], d1[1], d1[2], zero};
    const std::array<Mat3, 4> dn2 = {d2[0], zero, d2[1], d2[2]};
    std::array<std::array<Mat3, 4>, 4> blocks;
    for (std::size_t col = 0; col < 4; ++col) {
      blocks[0][col] = blocks[2][col] = p6 * (dn1[col] + dn2[col]);
      blocks[1][col] = p6 * dn1[col];
      blocks[3][col] = p6 * dn2[col];
    }
    add(blocks);
  }
}

EdgeNormalPressure::EdgeNormalPressure(std::vector<Edge> edges,
                                       std::optional<std::array<double, 3>> binormal)
    : edges_(std::move(edges)), binormal_(binormal) {}

void EdgeNormalPressure::AddForce(const State& state, Vector& f) const {
  for (const Edge& edge : edges_) {
    const Vec3 a = Point(state.x, edge.a);
    const Vec3 along = Point(state.x, edge.b) - a;
    const double length = along.norm();
    if (length == 0.0) continue;  // no direction: SOFA's zero vector
    const Vec3 t = along / length;
    Vec3 n;
    if (binormal_) {
      n = Vec3((*binormal_)[0], (*binormal_)[1], (*binormal_)[2]).cross(t);
      const double norm = n.norm();
      if (norm == 0.0) continue;
      n /= norm;
    } else {
      // In the z = 0 plane, towards the inside of the edge's triangle.
      n = Vec3(0, 0, 1).cross(t);
      if (n.dot(Point(state.x, edge.side) - a) < 0) n = -n;
    }
    const Vec3 half = n * (edge.scale / 2);
    f.segment<3>(edge.a) += half;
    f.segment<3>(edge.b) += half;
  }
}

TriangleCauchyTraction::TriangleCauchyTraction(std::vector<std::array<Index, 3>> triangles,
                                               const std::array<double, 9>& stress)
    : triangles_(std::move(triangles)), stress_(stress) {}

void TriangleCauchyTraction::AddForce(const State& state, Vector& f) const {
  const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> sigma(stress_.data());
  for (const auto& t : triangles_) {
    const Vec3 a = Point(state.x, t[0]);
    const Vec3 area_vector = (Point(state.x, t[1]) - a).cross(Point(state.x, t[2]) - a) / 6.0;
    const Vec3 force = sigma * area_vector;
    for (const Index vertex : t) f.segment<3>(vertex) += force;
  }
}

}  // namespace fluxion::internal
