// A constant linear mapping between DOF vectors, x_child = J·x_parent, stored row by row (CSR):
// the Jacobian of SOFA's linear mechanical mappings (IdentityMapping, SubsetMapping,
// BarycentricMapping), whose weights are fixed when the scene is built.
#pragma once

#include <vector>

#include <Eigen/SparseCore>

#include "fluxion/types.h"

namespace fluxion::internal {

/// J with one row per child DOF and one column per parent DOF. Applying it never allocates.
class LinearMapping {
 public:
  using RowMajorMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

  LinearMapping() = default;
  explicit LinearMapping(const RowMajorMatrix& jacobian);

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  /// The parents of child DOF `row`: entries [row_start(row), row_start(row + 1)).
  Index row_start(Index row) const { return row_start_[static_cast<std::size_t>(row)]; }
  Index col(Index entry) const { return cols_of_[static_cast<std::size_t>(entry)]; }
  double weight(Index entry) const { return weights_[static_cast<std::size_t>(entry)]; }
  /// The entry of (row, col), or -1 when J has none there.
  Index Find(Index row, Index col) const;
  /// Sets entry `entry`'s weight (a nonlinear mapping's Jacobian changes with the state).
  void SetWeight(Index entry, double weight) { weights_[static_cast<std::size_t>(entry)] = weight; }

  /// out = J·in (`out` has rows() entries, `in` cols()).
  void Apply(const double* in, double* out) const;
  /// out += Jᵀ·in (`in` has rows() entries, `out` cols()).
  void AddTransposed(const double* in, double* out) const;

 private:
  Index rows_ = 0, cols_ = 0;
  std::vector<Index> row_start_{0};
  std::vector<Index> cols_of_;
  std::vector<double> weights_;
};

}  // namespace fluxion::internal
