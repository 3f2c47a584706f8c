#include "mechanics/mapping_jacobian.h"

#include "fluxion/errors.h"

namespace fluxion::internal {

MappingJacobian::MappingJacobian(LinearMapping jacobian) : jacobian_(std::move(jacobian)) {}

MappingJacobian::MappingJacobian(std::shared_ptr<const Mapping> mapping, Index parent_offset,
                                 Index system_dofs)
    : mapping_(std::move(mapping)), parent_offset_(parent_offset) {
  std::vector<MatrixEntry> entries;
  mapping_->JacobianEntries(entries);
  std::vector<Eigen::Triplet<double, int>> pattern;
  pattern.reserve(entries.size());
  for (const MatrixEntry& e : entries)
    pattern.emplace_back(static_cast<int>(e.row), static_cast<int>(e.col + parent_offset_), 1.0);
  LinearMapping::RowMajorMatrix matrix(mapping_->num_outputs(), system_dofs);
  matrix.setFromTriplets(pattern.begin(), pattern.end());
  jacobian_ = LinearMapping(matrix);
  for (const MatrixEntry& e : entries) {
    entry_of_.push_back(jacobian_.Find(e.row, e.col + parent_offset_));
    FLUXION_DEMAND(entry_of_.back() >= 0);
  }
  values_.assign(entries.size(), 0.0);
}

void MappingJacobian::Evaluate(const double* x, double* x_child) {
  if (!mapping_) {
    jacobian_.Apply(x, x_child);
    return;
  }
  mapping_->Apply(x + parent_offset_, x_child, values_.data());
  for (std::size_t k = 0; k < values_.size(); ++k) jacobian_.SetWeight(entry_of_[k], values_[k]);
}

}  // namespace fluxion::internal
