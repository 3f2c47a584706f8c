// SOFA's TaitSurfacePressureForceField (see the header for the equations and the source).
#include "mechanics/tait_pressure.h"

#include <cmath>

#include <Eigen/Dense>

namespace fluxion::internal {

namespace {

using Vec3 = Eigen::Vector3d;

Vec3 At(const Vector& x, Index first) { return {x[first], x[first + 1], x[first + 2]}; }
Vec3 At(const double* x, Index first) { return {x[first], x[first + 1], x[first + 2]}; }

}  // namespace

TaitPressure::TaitPressure(std::vector<std::array<Index, 3>> triangles, Index first_dof,
                           Index num_points, const Vector& rest, const Options& options)
    : triangles_(std::move(triangles)),
      first_dof_(first_dof),
      num_points_(num_points),
      options_(options),
      gradient_(static_cast<std::size_t>(num_points) * 3, 0.0) {
  initial_volume_ = Volume(rest);  // SOFA's updateFromTopology at revision 0: the rest positions
}

double TaitPressure::Volume(const Vector& x) const {
  if (num_points_ == 0) return 0.0;
  Vec3 center = Vec3::Zero();
  for (Index i = 0; i < num_points_; ++i) center += At(x, first_dof_ + 3 * i);
  center /= static_cast<double>(num_points_);
  double volume6 = 0.0;
  for (const auto& t : triangles_) {
    const Vec3 a = At(x, t[0]) - center, b = At(x, t[1]) - center, c = At(x, t[2]) - center;
    volume6 += a.cross(b).dot(c);
  }
  return volume6 / 6.0;
}

std::array<double, 2> TaitPressure::PressureAndStiffness(double volume) const {
  // SOFA reports "too much volume variation" past a factor 10 and goes on with these formulas.
  const double v0 = initial_volume_ + current_injected_;
  const double bulk = options_.bulk, gamma = options_.gamma, p0 = options_.p0;
  if (bulk == 0 || gamma == 0 || v0 == 0) return {p0, 0.0};
  if (gamma == 1) return {p0 - bulk * (volume / v0 - 1), -bulk / v0};
  const double ratio = std::pow(volume / v0, gamma);
  return {p0 - bulk * (ratio - 1), volume == 0 ? 0.0 : -bulk * gamma * ratio / volume};
}

void TaitPressure::InjectUpTo(long events, double dt) {
  for (; injections_ < events; ++injections_) {
    const double target = options_.injected;
    if (target == current_injected_) continue;
    const double step = options_.max_rate * dt;
    if (std::abs(target - current_injected_) <= step)
      current_injected_ = target;
    else if (target < current_injected_)
      current_injected_ -= step;
    else
      current_injected_ += step;
  }
}

void TaitPressure::Gradient(const Vector& x) const {
  std::fill(gradient_.begin(), gradient_.end(), 0.0);
  for (const auto& t : triangles_) {
    const Vec3 a = At(x, t[0]);
    const Vec3 n = (At(x, t[1]) - a).cross(At(x, t[2]) - a);
    for (const Index v : t)
      for (int c = 0; c < 3; ++c) gradient_[static_cast<std::size_t>(v - first_dof_ + c)] += n[c];
  }
  for (double& g : gradient_) g /= 6.0;
}

void TaitPressure::AddForce(const State& state, Vector& f) const {
  const double pressure = PressureAndStiffness(Volume(state.x))[0];
  Gradient(state.x);
  for (std::size_t k = 0; k < gradient_.size(); ++k)
    f[first_dof_ + static_cast<Index>(k)] += gradient_[k] * pressure;
}

// Tangent layout: ∇V (3n), P, P', then the positions of the object's points (3n).
std::ptrdiff_t TaitPressure::TangentSize() const {
  return static_cast<std::ptrdiff_t>(6 * num_points_ + 2);
}

void TaitPressure::LinearizeStiffness(const State& state, double* tangent) const {
  const std::size_t n3 = static_cast<std::size_t>(3 * num_points_);
  const std::array<double, 2> p = PressureAndStiffness(Volume(state.x));
  Gradient(state.x);
  std::copy(gradient_.begin(), gradient_.end(), tangent);
  tangent[n3] = p[0];
  tangent[n3 + 1] = p[1];
  for (std::size_t k = 0; k < n3; ++k)
    tangent[n3 + 2 + k] = state.x[first_dof_ + static_cast<Index>(k)];
}

void TaitPressure::AddTangentProduct(const double* tangent, double /*b*/, double k, const Vector& x,
                                     Vector& y) const {
  if (k == 0.0) return;
  const std::size_t n3 = static_cast<std::size_t>(3 * num_points_);
  const double* gradient = tangent;
  const double pressure = tangent[n3], stiffness = tangent[n3 + 1];
  const double* positions = tangent + n3 + 2;
  // SOFA's addDForce, df = ∂f/∂x·dx, with K = −∂f/∂x: y −= k·df.
  double dv = 0.0;
  for (std::size_t i = 0; i < n3; ++i) dv += gradient[i] * x[first_dof_ + static_cast<Index>(i)];
  const double scale1 = k * stiffness * dv;
  for (std::size_t i = 0; i < n3; ++i)
    y[first_dof_ + static_cast<Index>(i)] -= gradient[i] * scale1;
  const double scale2 = k * pressure / 6.0;
  if (scale2 == 0.0) return;
  for (const auto& t : triangles_) {
    const Index a = t[0] - first_dof_, b = t[1] - first_dof_, c = t[2] - first_dof_;
    const Vec3 xa = At(positions, a);
    const Vec3 dxa = At(x, t[0]);
    const Vec3 dn = (At(x, t[1]) - dxa).cross(At(positions, c) - xa) +
                    (At(positions, b) - xa).cross(At(x, t[2]) - dxa);
    const Vec3 df = dn * scale2;
    for (const Index v : t)
      for (int d = 0; d < 3; ++d) y[v + d] -= df[d];
  }
}

void TaitPressure::StiffnessEntries(std::vector<MatrixEntry>& entries) const {
  // Every pair of the object's points (the rank-one term), 3×3 each, row-major by point.
  const Index n3 = 3 * num_points_;
  entries.reserve(entries.size() + static_cast<std::size_t>(n3 * n3));
  for (Index r = 0; r < n3; ++r)
    for (Index c = 0; c < n3; ++c) entries.push_back({first_dof_ + r, first_dof_ + c});
}

void TaitPressure::AddStiffness(const State& state, const Index* slots, double* values) const {
  const Index n3 = 3 * num_points_;
  const std::array<double, 2> p = PressureAndStiffness(Volume(state.x));
  Gradient(state.x);
  // −P'·∇V_i ⊗ ∇V_j.
  for (Index r = 0; r < n3; ++r)
    for (Index c = 0; c < n3; ++c)
      values[slots[r * n3 + c]] -=
          p[1] * gradient_[static_cast<std::size_t>(r)] * gradient_[static_cast<std::size_t>(c)];
  if (p[0] == 0.0) return;
  // −(P/6)·∂n/∂x_s for each vertex of each triangle: ∂n/∂a = [c − b]×, ∂n/∂b = [a − c]×,
  // ∂n/∂c = [b − a]× (n = (b − a) × (c − a)), the same block for the three vertices' rows.
  const double scale = p[0] / 6.0;
  for (const auto& t : triangles_) {
    const Vec3 xa = At(state.x, t[0]), xb = At(state.x, t[1]), xc = At(state.x, t[2]);
    const std::array<Vec3, 3> sides = {xc - xb, xa - xc, xb - xa};  // for a, b, c
    for (const Index row_point : t)
      for (std::size_t s = 0; s < 3; ++s) {
        // [u]× w = u × w: the block's (d, e) entry is ∂(u × w)_d/∂w_e.
        const Vec3& u = sides[s];
        const double cross[3][3] = {{0, -u[2], u[1]}, {u[2], 0, -u[0]}, {-u[1], u[0], 0}};
        const Index row0 = row_point - first_dof_, col0 = t[s] - first_dof_;
        for (int d = 0; d < 3; ++d)
          for (int e = 0; e < 3; ++e)
            values[slots[(row0 + d) * n3 + col0 + e]] -= scale * cross[d][e];
      }
  }
}

}  // namespace fluxion::internal
