// A force field's force and stiffness as dense values, for the force-field unit tests (with the
// state at given positions and a rotated stiffness): f from
// AddForce into zeros, K = −∂f/∂x from StiffnessEntries/AddStiffness, each entry summed where
// the field lists it.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal::field_probes {

/// The state at positions `x`, at rest (zero velocities), time 0.
inline State At(const Vector& x) {
  State state;
  state.x = x;
  state.v = Vector::Zero(x.size());
  return state;
}

/// K with every 3×3 node block turned by R: diag(R)·K·diag(R)ᵀ (the stiffness of a rotated
/// body, for the corotational fields).
inline Eigen::MatrixXd RotateBlocks(const Eigen::MatrixXd& K, const Eigen::Matrix3d& R) {
  const Index n = K.rows();
  Eigen::MatrixXd big = Eigen::MatrixXd::Zero(n, n);
  for (Index i = 0; i < n / 3; ++i) big.block<3, 3>(3 * i, 3 * i) = R;
  return big * K * big.transpose();
}

inline Vector Force(const ForceField& field, const State& state) {
  Vector f = Vector::Zero(state.x.size());
  field.AddForce(state, f);
  return f;
}

inline Eigen::MatrixXd Stiffness(const ForceField& field, const State& state) {
  std::vector<MatrixEntry> entries;
  field.StiffnessEntries(entries);
  std::vector<Index> slots(entries.size());
  std::vector<double> values(entries.size(), 0.0);
  for (std::size_t k = 0; k < entries.size(); ++k) slots[k] = static_cast<Index>(k);
  field.AddStiffness(state, slots.data(), values.data());
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(state.x.size(), state.x.size());
  for (std::size_t k = 0; k < entries.size(); ++k) K(entries[k].row, entries[k].col) += values[k];
  return K;
}

// −∂f/∂x by central differences of AddForce (step 1e-6: exact to round-off for forces linear
// in x near `state`, second order otherwise).
inline Eigen::MatrixXd FiniteDifferenceStiffness(const ForceField& field, const State& state) {
  const double h = 1e-6;
  const Index n = state.x.size();
  Eigen::MatrixXd K(n, n);
  for (Index j = 0; j < n; ++j) {
    State plus = state, minus = state;
    plus.x[j] += h;
    minus.x[j] -= h;
    K.col(j) = -(Force(field, plus) - Force(field, minus)) / (2 * h);
  }
  return K;
}

}  // namespace fluxion::internal::field_probes
