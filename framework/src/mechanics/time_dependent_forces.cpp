#include "mechanics/time_dependent_forces.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "fluxion/errors.h"

namespace fluxion::internal {

KeyFramedForce::KeyFramedForce(int dimension, std::vector<Index> point_dofs,
                               std::vector<double> times, std::vector<double> forces, double scale)
    : dimension_(dimension),
      point_dofs_(std::move(point_dofs)),
      times_(std::move(times)),
      forces_(std::move(forces)),
      scale_(scale) {
  // The builder's checks: the load fits a 3-vector, one force per key, keys strictly increasing.
  FLUXION_DEMAND(dimension_ >= 1 && dimension_ <= 3);
  FLUXION_DEMAND(forces_.size() == times_.size() * static_cast<std::size_t>(dimension_));
  FLUXION_DEMAND(std::adjacent_find(times_.begin(), times_.end(), std::greater_equal<>()) ==
                 times_.end());
}

bool KeyFramedForce::LoadAt(double time, double* out) const {
  // Before the first key (or without keys): no force, as SOFA.
  if (times_.empty() || time < times_.front()) return false;
  const double* last = forces_.data() + (times_.size() - 1) * static_cast<std::size_t>(dimension_);
  if (time >= times_.back()) {  // at and after the last key: that key's force, unscaled (SOFA)
    std::copy(last, last + dimension_, out);
    return true;
  }
  // prev = the last key with T ≤ t, next = the one after it (it exists: t < T_last).
  const std::size_t next = static_cast<std::size_t>(
      std::upper_bound(times_.begin(), times_.end(), time) - times_.begin());
  const std::size_t prev = next - 1;
  const double* prev_force = forces_.data() + prev * static_cast<std::size_t>(dimension_);
  const double* next_force = prev_force + dimension_;
  // SOFA's operation order: slope = (F_next − F_prev)·(1/ΔT); F = (slope·(t − T_prev) + F_prev)·s.
  const double inverse_span = 1.0 / (times_[next] - times_[prev]);
  const double elapsed = time - times_[prev];
  for (int axis = 0; axis < dimension_; ++axis) {
    const double slope = (next_force[axis] - prev_force[axis]) * inverse_span;
    out[axis] = (slope * elapsed + prev_force[axis]) * scale_;
  }
  return true;
}

void KeyFramedForce::AddForce(const State& state, Vector& f) const {
  std::array<double, 3> load{};
  if (!LoadAt(state.time, load.data())) return;
  for (const Index dof : point_dofs_)
    for (int axis = 0; axis < dimension_; ++axis) f[dof + axis] += load[axis];
}

double KeyFramedForce::PotentialEnergy(const State& state) const {
  std::array<double, 3> load{};
  if (!LoadAt(state.time, load.data())) return 0.0;
  double energy = 0.0;
  for (const Index dof : point_dofs_)
    for (int axis = 0; axis < dimension_; ++axis) energy -= load[axis] * state.x[dof + axis];
  return energy;
}

SinusoidalForce::SinusoidalForce(int dimension, std::vector<Index> point_dofs,
                                 std::vector<double> amplitudes, double omega, double phase)
    : dimension_(dimension),
      point_dofs_(std::move(point_dofs)),
      amplitudes_(std::move(amplitudes)),
      omega_(omega),
      phase_(phase) {
  FLUXION_DEMAND(amplitudes_.size() == point_dofs_.size() * static_cast<std::size_t>(dimension_));
}

void SinusoidalForce::AddForce(const State& state, Vector& f) const {
  const double wave = std::cos(omega_ * state.time + phase_);
  for (std::size_t p = 0; p < point_dofs_.size(); ++p)
    for (int axis = 0; axis < dimension_; ++axis)
      f[point_dofs_[p] + axis] +=
          amplitudes_[p * static_cast<std::size_t>(dimension_) + axis] * wave;
}

double SinusoidalForce::PotentialEnergy(const State& state) const {
  const double wave = std::cos(omega_ * state.time + phase_);
  double energy = 0.0;
  for (std::size_t p = 0; p < point_dofs_.size(); ++p)
    for (int axis = 0; axis < dimension_; ++axis)
      energy -= amplitudes_[p * static_cast<std::size_t>(dimension_) + axis] * wave *
                state.x[point_dofs_[p] + axis];
  return energy;
}

}  // namespace fluxion::internal
