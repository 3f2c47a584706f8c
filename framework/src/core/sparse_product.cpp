#include "core/sparse_product.h"

#include <algorithm>

#include "fluxion/errors.h"
#include "fluxion/threads.h"

namespace fluxion::internal {

void MultiplyByRows(const SparseMatrix& A, const Vector& x, Vector& y) {
  FLUXION_DEMAND(x.size() == A.cols() && (x.size() == 0 || x.data() != y.data()));
  if (!A.isCompressed()) {  // not Fluxion's own matrices: Eigen's serial product
    y.noalias() = A * x;
    return;
  }
  if (y.size() != A.rows()) y.resize(A.rows());
  const Index columns = A.cols();
  const int* outer = A.outerIndexPtr();
  const int* inner = A.innerIndexPtr();
  const double* values = A.valuePtr();
  const double* in = x.data();
  double* out = y.data();
  ParallelFor(A.rows(), kVectorGrain, [=](Index begin, Index end) {
    std::fill(out + begin, out + end, 0.0);
    for (Index j = 0; j < columns; ++j) {
      const int* first = inner + outer[j];
      const int* last = inner + outer[j + 1];
      if (first == last || *first >= end || last[-1] < begin) continue;  // none in these rows
      const int* k = *first >= begin ? first : std::lower_bound(first, last, begin);
      const double xj = in[j];
      for (; k != last && *k < end; ++k) out[*k] += values[k - inner] * xj;
    }
  });
}

}  // namespace fluxion::internal
