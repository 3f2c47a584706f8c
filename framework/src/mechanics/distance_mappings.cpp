#include "mechanics/distance_mappings.h"

#include <cmath>
#include <limits>

namespace fluxion::internal {

namespace {

// For each edge: the four n×n blocks (a,a), (a,b), (b,a), (b,b), row-major: the entry order of
// both geometric stiffnesses.
void EdgeBlockEntries(const std::vector<std::array<Index, 2>>& edges, int n,
                      std::vector<MatrixEntry>& entries) {
  for (const auto& [a, b] : edges)
    for (const Index r : {a, b})
      for (const Index c : {a, b})
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j) entries.push_back({r * n + i, c * n + j});
}

// Jacobian entries of one scalar per edge: a's axes, then b's.
void EdgeJacobianEntries(const std::vector<std::array<Index, 2>>& edges, int n,
                         std::vector<MatrixEntry>& entries) {
  for (std::size_t e = 0; e < edges.size(); ++e)
    for (const Index p : {edges[e][0], edges[e][1]})
      for (int k = 0; k < n; ++k) entries.push_back({static_cast<Index>(e), p * n + k});
}

bool Included(GeometricStiffness mode, double child_force) {
  return mode == GeometricStiffness::kExact ||
         (mode == GeometricStiffness::kStabilized && child_force < 0);
}

}  // namespace

DistanceMappingFunction::DistanceMappingFunction(int dimension,
                                                 std::vector<std::array<Index, 2>> edges,
                                                 std::vector<double> rest_lengths,
                                                 GeometricStiffness mode)
    : n_(dimension), edges_(std::move(edges)), rest_(std::move(rest_lengths)), mode_(mode) {}

void DistanceMappingFunction::JacobianEntries(std::vector<MatrixEntry>& entries) const {
  EdgeJacobianEntries(edges_, n_, entries);
}

void DistanceMappingFunction::Apply(const double* parent, double* child, double* jacobian) const {
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const double* xa = parent + edges_[e][0] * n_;
    const double* xb = parent + edges_[e][1] * n_;
    std::array<double, 3> u{};
    double d2 = 0.0;
    for (int k = 0; k < n_; ++k) {
      u[static_cast<std::size_t>(k)] = xb[k] - xa[k];
      d2 += u[static_cast<std::size_t>(k)] * u[static_cast<std::size_t>(k)];
    }
    const double d = std::sqrt(d2);
    child[e] = d - rest_[e];
    if (jacobian == nullptr) continue;
    for (int k = 0; k < n_; ++k)
      u[static_cast<std::size_t>(k)] = d > std::numeric_limits<double>::epsilon()
                                           ? u[static_cast<std::size_t>(k)] / d
                                           : 1.0 / std::sqrt(static_cast<double>(n_));
    double* row = jacobian + e * 2 * static_cast<std::size_t>(n_);
    for (int k = 0; k < n_; ++k) {
      row[k] = -u[static_cast<std::size_t>(k)];
      row[n_ + k] = u[static_cast<std::size_t>(k)];
    }
  }
}

void DistanceMappingFunction::GeometricStiffnessEntries(std::vector<MatrixEntry>& entries) const {
  if (mode_ != GeometricStiffness::kNone) EdgeBlockEntries(edges_, n_, entries);
}

void DistanceMappingFunction::AddGeometricStiffness(const double* parent, const double* child_force,
                                                    const Index* slots, double* values) const {
  if (mode_ == GeometricStiffness::kNone) return;
  const std::size_t per_edge = 4 * static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_);
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const Index* s = slots + e * per_edge;
    if (!Included(mode_, child_force[e])) continue;
    const double* xa = parent + edges_[e][0] * n_;
    const double* xb = parent + edges_[e][1] * n_;
    std::array<double, 3> u{};
    double d2 = 0.0;
    for (int k = 0; k < n_; ++k) {
      u[static_cast<std::size_t>(k)] = xb[k] - xa[k];
      d2 += u[static_cast<std::size_t>(k)] * u[static_cast<std::size_t>(k)];
    }
    const double d = std::sqrt(d2);
    const bool degenerate = d <= std::numeric_limits<double>::epsilon();
    const double inverse = degenerate ? 0.0 : 1.0 / d;
    for (int k = 0; k < n_; ++k)
      u[static_cast<std::size_t>(k)] = degenerate ? 1.0 / std::sqrt(static_cast<double>(n_))
                                                  : u[static_cast<std::size_t>(k)] * inverse;
    // SOFA's b = f_c/d·(I − uuᵀ) is +∂f/∂x on the diagonal blocks; K = −∂f/∂x.
    std::size_t k = 0;
    for (int block = 0; block < 4; ++block) {
      const double sign = (block == 0 || block == 3) ? -1.0 : 1.0;
      for (int i = 0; i < n_; ++i)
        for (int j = 0; j < n_; ++j, ++k) {
          const double b = ((i == j ? 1.0 : 0.0) -
                            u[static_cast<std::size_t>(i)] * u[static_cast<std::size_t>(j)]) *
                           (child_force[e] * inverse);
          values[s[k]] += sign * b;
        }
    }
  }
}

SquareDistanceMappingFunction::SquareDistanceMappingFunction(
    int dimension, std::vector<std::array<Index, 2>> edges, GeometricStiffness mode)
    : n_(dimension), edges_(std::move(edges)), mode_(mode) {}

void SquareDistanceMappingFunction::JacobianEntries(std::vector<MatrixEntry>& entries) const {
  EdgeJacobianEntries(edges_, n_, entries);
}

void SquareDistanceMappingFunction::Apply(const double* parent, double* child,
                                          double* jacobian) const {
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const double* xa = parent + edges_[e][0] * n_;
    const double* xb = parent + edges_[e][1] * n_;
    double d2 = 0.0;
    for (int k = 0; k < n_; ++k) d2 += (xb[k] - xa[k]) * (xb[k] - xa[k]);
    child[e] = d2;
    if (jacobian == nullptr) continue;
    double* row = jacobian + e * 2 * static_cast<std::size_t>(n_);
    for (int k = 0; k < n_; ++k) {
      row[k] = -2 * (xb[k] - xa[k]);
      row[n_ + k] = 2 * (xb[k] - xa[k]);
    }
  }
}

void SquareDistanceMappingFunction::GeometricStiffnessEntries(
    std::vector<MatrixEntry>& entries) const {
  if (mode_ != GeometricStiffness::kNone) EdgeBlockEntries(edges_, n_, entries);
}

void SquareDistanceMappingFunction::AddGeometricStiffness(const double* /*parent*/,
                                                          const double* child_force,
                                                          const Index* slots,
                                                          double* values) const {
  if (mode_ == GeometricStiffness::kNone) return;
  const std::size_t per_edge = 4 * static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_);
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    if (!Included(mode_, child_force[e])) continue;
    const Index* s = slots + e * per_edge;
    // SOFA: +2·f_c·I on the diagonal blocks of ∂f/∂x; K = −∂f/∂x.
    std::size_t k = 0;
    for (int block = 0; block < 4; ++block) {
      const double sign = (block == 0 || block == 3) ? -1.0 : 1.0;
      for (int i = 0; i < n_; ++i)
        for (int j = 0; j < n_; ++j, ++k)
          if (i == j) values[s[k]] += sign * 2 * child_force[e];
    }
  }
}

DistanceFromTargetMappingFunction::DistanceFromTargetMappingFunction(
    int dimension, std::vector<Index> indices, std::vector<double> targets,
    std::vector<double> rest_lengths, GeometricStiffness mode)
    : n_(dimension),
      indices_(std::move(indices)),
      targets_(std::move(targets)),
      rest_(std::move(rest_lengths)),
      mode_(mode) {}

void DistanceFromTargetMappingFunction::JacobianEntries(std::vector<MatrixEntry>& entries) const {
  for (std::size_t i = 0; i < indices_.size(); ++i)
    for (int k = 0; k < n_; ++k) entries.push_back({static_cast<Index>(i), indices_[i] * n_ + k});
}

double DistanceFromTargetMappingFunction::Direction(const double* parent, std::size_t i,
                                                    std::array<double, 3>& u,
                                                    double& inverse) const {
  const double* x = parent + indices_[i] * n_;
  const double* t = targets_.data() + i * static_cast<std::size_t>(n_);
  double d2 = 0.0;
  for (int k = 0; k < n_; ++k) {
    u[static_cast<std::size_t>(k)] = x[k] - t[k];
    d2 += u[static_cast<std::size_t>(k)] * u[static_cast<std::size_t>(k)];
  }
  const double d = std::sqrt(d2);
  if (d > 1e-10) {
    inverse = 1.0 / d;
    for (int k = 0; k < n_; ++k) u[static_cast<std::size_t>(k)] *= inverse;
  } else {
    inverse = 0.0;
    u = {1.0, 0.0, 0.0};
  }
  return d;
}

void DistanceFromTargetMappingFunction::Apply(const double* parent, double* child,
                                              double* jacobian) const {
  for (std::size_t i = 0; i < indices_.size(); ++i) {
    std::array<double, 3> u{};
    double inverse = 0.0;
    child[i] = Direction(parent, i, u, inverse) - rest_[i];
    if (jacobian == nullptr) continue;
    for (int k = 0; k < n_; ++k)
      jacobian[i * static_cast<std::size_t>(n_) + static_cast<std::size_t>(k)] =
          u[static_cast<std::size_t>(k)];
  }
}

void DistanceFromTargetMappingFunction::GeometricStiffnessEntries(
    std::vector<MatrixEntry>& entries) const {
  if (mode_ == GeometricStiffness::kNone) return;
  for (const Index p : indices_)
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < n_; ++j) entries.push_back({p * n_ + i, p * n_ + j});
}

void DistanceFromTargetMappingFunction::AddGeometricStiffness(const double* parent,
                                                              const double* child_force,
                                                              const Index* slots,
                                                              double* values) const {
  if (mode_ == GeometricStiffness::kNone) return;
  const std::size_t per_index = static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_);
  for (std::size_t e = 0; e < indices_.size(); ++e) {
    if (!Included(mode_, child_force[e])) continue;
    std::array<double, 3> u{};
    double inverse = 0.0;
    Direction(parent, e, u, inverse);
    const Index* s = slots + e * per_index;
    std::size_t k = 0;
    // SOFA: +f_c/‖g‖·(I − uuᵀ) on ∂f/∂x; K = −∂f/∂x.
    for (int i = 0; i < n_; ++i)
      for (int j = 0; j < n_; ++j, ++k)
        values[s[k]] -= ((i == j ? 1.0 : 0.0) -
                         u[static_cast<std::size_t>(i)] * u[static_cast<std::size_t>(j)]) *
                        (child_force[e] * inverse);
  }
}

}  // namespace fluxion::internal
