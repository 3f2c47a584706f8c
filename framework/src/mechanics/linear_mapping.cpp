#include "mechanics/linear_mapping.h"

namespace fluxion::internal {

LinearMapping::LinearMapping(const RowMajorMatrix& jacobian)
    : rows_(jacobian.rows()), cols_(jacobian.cols()) {
  row_start_.reserve(static_cast<std::size_t>(rows_) + 1);
  for (Index row = 0; row < rows_; ++row) {
    for (RowMajorMatrix::InnerIterator it(jacobian, static_cast<int>(row)); it; ++it) {
      cols_of_.push_back(it.col());
      weights_.push_back(it.value());
    }
    row_start_.push_back(static_cast<Index>(cols_of_.size()));
  }
}

Index LinearMapping::Find(Index row, Index col) const {
  for (Index e = row_start(row); e < row_start(row + 1); ++e)
    if (cols_of_[static_cast<std::size_t>(e)] == col) return e;
  return -1;
}

void LinearMapping::Apply(const double* in, double* out) const {
  for (Index row = 0; row < rows_; ++row) {
    double sum = 0.0;
    for (Index e = row_start(row); e < row_start(row + 1); ++e) sum += weight(e) * in[col(e)];
    out[row] = sum;
  }
}

void LinearMapping::AddTransposed(const double* in, double* out) const {
  for (Index row = 0; row < rows_; ++row)
    for (Index e = row_start(row); e < row_start(row + 1); ++e) out[col(e)] += weight(e) * in[row];
}

}  // namespace fluxion::internal
