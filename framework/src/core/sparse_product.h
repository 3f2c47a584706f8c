// y = A·x for Fluxion's column-major sparse matrices, split over the threads by rows.
#pragma once

#include "fluxion/types.h"

namespace fluxion::internal {

/// y = A·x with Eigen's arithmetic for a column-major A (`y.noalias() = A * x`): y_r starts at 0
/// and adds A(r, j)·x_j over the columns j in increasing order. The rows are split over the
/// threads; each thread walks every column and takes the entries in its rows (found by binary
/// search: rows sorted within each column, as Eigen keeps them and CHOLMOD's views assume), so
/// every y_r gets the same additions in the same order for any number of threads: the same bits as
/// Eigen's serial product (which an uncompressed A gets). `y` is resized on first use only and must
/// not be `x`.
void MultiplyByRows(const SparseMatrix& A, const Vector& x, Vector& y);

}  // namespace fluxion::internal
