#include "linear/cholmod_cholesky.h"

#include <cholmod.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/threads.h"
#include "linear/cholmod_openmp.h"
#include "linear/cholmod_runtime.h"

namespace fluxion::internal {

namespace {

// Below this many unknowns the analysis uses AMD: on cloth grids nested dissection needs fewer
// flops only from ~40 000 unknowns on (AMD 1.16e8 against METIS 1.20e8 at 64², 3.45e8 against
// 3.47e8 at 90², then METIS 1.03e9 against 1.14e9 at 128², 8.6e9 against 1.1e10 at 256²), and its
// analysis takes longer (docs/performance.md "Direct solver").
constexpr Index kNestedDissectionMinSize = 40000;

// The split factorisation (below) from this many flops of one factorisation of A on (the 128²
// cloth needs 1.03·10⁹, the 64² one 1.2·10⁸), and with at most this many unknowns in S.
constexpr double kSplitMinFlops = 1e8;
constexpr double kMaxSeparator = 2000;
// The split's extra flops, 4·|S|³/3 (see "The split factorisation" below), at most this share of
// one factorisation of A: 7 % on the 128² cloth (|S| = 384) and 5 % on the 256² one (768), but
// 29 % on the 64² one (AMD's top separator, 294), which stays whole.
constexpr double kSeparatorExtraFlops = 4.0 / 3.0;
constexpr double kMaxSplitOverhead = 0.15;

// --- One CHOLMOD factorisation ------------------------------------------------------------------

}  // namespace

// Named (not file-local): CholmodCholesky::Impl holds them.
// A CHOLMOD Common with Fluxion's settings, one factor, the solve's result and workspaces (kept
// from call to call, cholmod_solve2) and the recycled memory they live in. Its calls must run with
// `blocks` active on the calling thread.
struct CholmodPart {
  CholmodBlocks blocks;  // declared before `common`: destroyed after CHOLMOD has freed everything
  cholmod_common common{};
  cholmod_factor* factor = nullptr;
  cholmod_dense* solution = nullptr;
  cholmod_dense* workspace_y = nullptr;
  cholmod_dense* workspace_e = nullptr;

  CholmodPart() {
    const ActiveBlocks active(blocks);
    cholmod_start(&common);
    common.print = 0;  // CHOLMOD would print its warnings ("not positive definite") on stdout
    common.quick_return_if_not_posdef = 1;
    common.supernodal = CHOLMOD_AUTO;  // CHOLMOD's flop-count rule: supernodal unless tiny
    // Simplicial factors in LLᵀ form too (CHOLMOD's simplicial default is LDLᵀ, which would accept
    // some indefinite matrices): positive definite only, whichever form the analysis picks.
    common.final_ll = 1;
    // Relaxed supernode amalgamation: a child supernode is merged into its parent when the merged
    // one has at most nrelax[0] columns whatever the zeros it adds, at most nrelax[1] with ≤ 80 %
    // zeros, nrelax[2] with ≤ 10 % (zrelax). Twice CHOLMOD's defaults (4, 16, 48): fewer, larger
    // supernodes, so fewer and larger BLAS calls (measured in docs/performance.md).
    common.nrelax[0] = 8;
    common.nrelax[1] = 32;
    common.nrelax[2] = 96;
  }
  ~CholmodPart() {
    const ActiveBlocks active(blocks);
    Free();
    cholmod_finish(&common);
  }
  CholmodPart(const CholmodPart&) = delete;
  CholmodPart& operator=(const CholmodPart&) = delete;

  // Called with `blocks` active.
  void Free() {
    cholmod_free_factor(&factor, &common);
    cholmod_free_dense(&solution, &common);
    cholmod_free_dense(&workspace_y, &common);
    cholmod_free_dense(&workspace_e, &common);
  }

  // Symbolic analysis with one ordering (postordered or not); throws std::bad_alloc when CHOLMOD
  // runs out of memory. Called with `blocks` active; trims the analysis' temporaries.
  void Analyze(cholmod_sparse& view, int ordering, bool postorder, int supernodal) {
    Free();
    common.nmethods = 1;
    common.method[0].ordering = ordering;
    common.postorder = postorder ? 1 : 0;
    common.supernodal = supernodal;
    factor = cholmod_analyze(&view, &common);
    if (factor == nullptr) throw std::bad_alloc();
    blocks.Trim();
  }

  // Numeric factorisation (with `blocks` active on the calling thread): CHOLMOD's status.
  int Factorize(cholmod_sparse& view) {
    const ActiveBlocks active(blocks);
    cholmod_factorize(&view, factor, &common);
    return common.status;
  }

  // `solution` = the solution of system `sys` (CHOLMOD_A, CHOLMOD_L, …) for `rhs`; false when
  // CHOLMOD ran out of memory (the only way a solve with a valid factor fails).
  [[nodiscard]] bool TrySolve(int sys, cholmod_dense& rhs) {
    const ActiveBlocks active(blocks);
    return cholmod_solve2(sys, factor, &rhs, nullptr, &solution, nullptr, &workspace_y,
                          &workspace_e, &common) != 0;
  }
  void Solve(int sys, cholmod_dense& rhs) {
    if (!TrySolve(sys, rhs)) throw std::bad_alloc();
  }

  // The column of the first pivot that was not > 0, in the factor's (permuted) numbering.
  Index FailedColumn() const {
    return factor->minor < factor->n ? static_cast<Index>(factor->minor) : Index{-1};
  }
};

namespace {

// A read-only CHOLMOD view of a symmetric compressed column matrix (int indices, CHOLMOD's int
// interface): with stype > 0 CHOLMOD reads the entries on and above the diagonal, with stype < 0
// those on and below it, and ignores the others.
cholmod_sparse CholmodSymmetricView(Index size, Index nonzeros, const int* outer, const int* inner,
                                    const double* values, bool sorted, int stype) {
  cholmod_sparse view{};
  view.nrow = static_cast<size_t>(size);
  view.ncol = static_cast<size_t>(size);
  view.nzmax = static_cast<size_t>(nonzeros);
  view.p = const_cast<int*>(outer);
  view.i = const_cast<int*>(inner);
  view.x = const_cast<double*>(values);
  view.stype = stype;
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = sorted ? 1 : 0;
  view.packed = 1;
  return view;
}

cholmod_sparse CholmodView(const SparseMatrix& A) {
  // Eigen does not promise sorted columns; CHOLMOD does not need them.
  return CholmodSymmetricView(A.rows(), A.nonZeros(), A.outerIndexPtr(), A.innerIndexPtr(),
                              A.valuePtr(), false, 1);
}

// The split's own matrices store their lower triangles: with the natural ordering, CHOLMOD's
// supernodal factorisation reads a lower triangle in place, where it transposes an upper one
// into a temporary in every call (cholmod_factorize.c).
cholmod_sparse CholmodLowerView(Index size, Index nonzeros, const int* outer, const int* inner,
                                const double* values, bool sorted) {
  return CholmodSymmetricView(size, nonzeros, outer, inner, values, sorted, -1);
}

// A CHOLMOD view of a dense column vector (only read by CHOLMOD's solves).
cholmod_dense CholmodDenseView(double* values, Index size) {
  cholmod_dense view{};
  view.nrow = static_cast<size_t>(size);
  view.ncol = 1;
  view.nzmax = view.nrow;
  view.d = view.nrow;
  view.x = values;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  return view;
}

// --- The split factorisation: two halves on two threads ------------------------------------------
//
// Nested dissection orders a separator S last and the two parts it separates, C₁ and C₂, before
// it; C₁ and C₂ are not coupled. In that order (the permuted A, blocks C₁, C₂, S)
//
//   A = [A₁₁ 0 A₁ₛ; 0 A₂₂ A₂ₛ; Aₛ₁ Aₛ₂ Aₛₛ],   L = [L₁₁ 0 0; 0 L₂₂ 0; Lₛ₁ Lₛ₂ Lₜ],
//
// L₁₁, Lₛ₁ do not depend on C₂ nor L₂₂, Lₛ₂ on C₁: they are the first columns of the Cholesky
// factors of the two matrices Mₕ = [Aₕₕ Aₕₛ; Aₛₕ Aₛₛ] (h = 1, 2), Mₕ = [Lₕₕ 0; Lₛₕ Gₕ]·[…]ᵀ, whose
// last block Gₕ·Gₕᵀ = Aₛₛ − Lₛₕ·Lₛₕᵀ is the part's Schur complement; each Mₕ is positive definite
// when A is (Aₛₛ − Xₕ is A's Schur complement on S plus the other part's positive semi-definite
// Xₒ). CHOLMOD factorises M₁ and M₂ independently — on two threads — and S's own factor Lₜ is
// the Cholesky factor of the dense
//
//   T = Aₛₛ − Lₛ₁·Lₛ₁ᵀ − Lₛ₂·Lₛ₂ᵀ = G₁·G₁ᵀ + G₂·G₂ᵀ − Aₛₛ
//
// (George, "Nested dissection of a regular finite element mesh", SIAM J. Numer. Anal. 10(2),
// 1973; the two subtrees below the top separator of the elimination tree are independent: Liu,
// "The role of elimination trees in sparse factorization", SIAM J. Matrix Anal. Appl. 11(1),
// 1990). The cost over one factorisation of A is S's dense work done three times instead of
// once: the Cholesky of S's block in both Mₕ and of T, and the two products Gₕ·Gₕᵀ, 4·|S|³/3
// flops (7.5·10⁷ for the 128² cloth's |S| = 384, against 1.03·10⁹ for A).
//
// The solve A·x = b, with y the forward and x the backward solution:
//  - forward, per part: the L-solve of Mₕ with [bₕ; 0] gives [yₕ; tₕ], tₕ = −Gₕ⁻¹·Lₛₕ·yₕ;
//  - S: T·xₛ = bₛ + G₁·t₁ + G₂·t₂ (= bₛ − Lₛ₁·y₁ − Lₛ₂·y₂, then through Lₜ and Lₜᵀ);
//  - backward, per part: the Lᵀ-solve of Mₕ with [yₕ; Gₕᵀ·xₛ] gives [xₕ; xₛ].
// Every step runs the same operations in the same order whatever the number of threads: the
// parts only run at once (RunParallelTasks) or one after the other.

}  // namespace

// One part: Mₕ in the order [Cₕ; S] (A's permuted order restricted), its factor, its Gₕ.
struct CholmodSplitPart {
  CholmodPart cholmod;
  std::vector<int> columns;   // Mₕ's row/column → A's row/column
  Index separator_begin = 0;  // |Cₕ|: Mₕ's rows from here on are S's
  // Mₕ's lower triangle (sorted compressed columns) and, per entry, its index in A's values.
  std::vector<int> outer, inner, source;
  std::vector<double> values;
  // (index in the factor's values, index in `g`) of Gₕ's entries, from the symbolic factor.
  std::vector<std::pair<size_t, size_t>> g_entries;
  std::vector<double> g;          // Gₕ, |S| × |S|, column major, zero above the diagonal
  std::vector<double> g_product;  // J·Gₕ·J, then J·Gₕ·Gₕᵀ·J (upper triangles; J reverses)
  std::vector<double> rhs;        // the solves' right-hand side, |Cₕ| + |S|
  std::vector<double> s_vector;  // Gₕ·tₕ after the forward solve
  int status = CHOLMOD_OK;
  bool solved = true;  // false when a solve ran out of memory
};

struct CholmodSplit {
  CholmodSplitPart parts[2];
  CholmodPart schur;           // T's factor (a dense matrix stored as a sparse one: one supernode)
  std::vector<int> separator;  // S's row → A's row
  std::vector<int> t_outer, t_inner;
  std::vector<double> t_values;
  // (index in t_values, index in A's values) of Aₛₛ's entries (from A's upper triangle).
  std::vector<std::pair<size_t, int>> a_ss;
  std::vector<double> s_rhs;  // bₛ + G₁·t₁ + G₂·t₂
  double flops = 0, factor_nonzeros = 0;
};

namespace {

// Mₕ's entries of Gₕ: the columns from `separator_begin` on, rows from there on (all of theirs).
std::vector<std::pair<size_t, size_t>> CholmodSeparatorEntries(const cholmod_factor& L,
                                                               Index separator_begin) {
  std::vector<std::pair<size_t, size_t>> entries;
  const int* super = static_cast<const int*>(L.super);
  const int* pi = static_cast<const int*>(L.pi);
  const int* px = static_cast<const int*>(L.px);
  const int* rows = static_cast<const int*>(L.s);
  const size_t s = L.n - static_cast<size_t>(separator_begin);
  for (size_t node = 0; node < L.nsuper; ++node) {
    const int first = super[node], end = super[node + 1];
    if (end <= separator_begin) continue;
    const int height = pi[node + 1] - pi[node];
    for (int column = std::max(first, static_cast<int>(separator_begin)); column < end; ++column)
      for (int k = column - first; k < height; ++k) {
        const int row = rows[pi[node] + k];
        const size_t local_row = static_cast<size_t>(row - separator_begin);
        const size_t local_column = static_cast<size_t>(column - separator_begin);
        entries.emplace_back(static_cast<size_t>(px[node]) +
                                 static_cast<size_t>(column - first) * static_cast<size_t>(height) +
                                 static_cast<size_t>(k),
                             local_row + local_column * s);
      }
  }
  return entries;
}

// Which columns of A's analysis (permuted order) go to part 0, part 1 or S (2), from the column
// elimination tree of P·A·Pᵀ (Liu's algorithm with path compression: Liu 1990, §3). S is the
// chain of columns from the root down: at each one, if one child's subtree holds more than 3/4 of
// the work below it (Σ over its columns of (entries of L's column)², the update flops), that
// child is followed and the other children's subtrees are set aside; the first column without
// such a child ends the chain. Nested dissection makes that chain the top separator. Every
// subtree set aside or below the chain hangs from S only, so each goes whole to one part, the
// larger first to the lighter part. Empty when there is no split worth making: parts too
// unequal, or S's dense work done twice more (4·|S|³/3 flops) over 15 % of the factorisation's.
// The tree is the columns' and not the (relaxed) supernodes': amalgamation merges the top
// separator with parts of the next ones.
std::vector<signed char> FindCholmodSplit(const cholmod_factor& L, const SparseMatrix& A,
                                          double flops) {
  std::vector<signed char> none;
  const size_t n = L.n;
  if (n < 3 || L.Perm == nullptr || L.ColCount == nullptr) return none;
  const int* permutation = static_cast<const int*>(L.Perm);
  const int* counts = static_cast<const int*>(L.ColCount);
  std::vector<int> position(n);
  for (size_t k = 0; k < n; ++k)
    position[static_cast<size_t>(permutation[k])] = static_cast<int>(k);
  // The strictly lower pattern of P·A·Pᵀ by columns (from either triangle of A).
  std::vector<int> lower_start(n + 1, 0), lower;
  for (Index column = 0; column < A.cols(); ++column)
    for (int k = A.outerIndexPtr()[column]; k < A.outerIndexPtr()[column + 1]; ++k) {
      const int p = position[static_cast<size_t>(A.innerIndexPtr()[k])];
      const int q = position[static_cast<size_t>(column)];
      if (p != q) ++lower_start[static_cast<size_t>(std::max(p, q)) + 1];
    }
  for (size_t k = 0; k < n; ++k) lower_start[k + 1] += lower_start[k];
  lower.resize(static_cast<size_t>(lower_start[n]));
  std::vector<int> fill(lower_start.begin(), lower_start.end() - 1);
  for (Index column = 0; column < A.cols(); ++column)
    for (int k = A.outerIndexPtr()[column]; k < A.outerIndexPtr()[column + 1]; ++k) {
      const int p = position[static_cast<size_t>(A.innerIndexPtr()[k])];
      const int q = position[static_cast<size_t>(column)];
      if (p != q)
        lower[static_cast<size_t>(fill[static_cast<size_t>(std::max(p, q))]++)] = std::min(p, q);
    }
  std::vector<int> parent(n, -1), ancestor(n, -1);
  for (size_t k = 0; k < n; ++k)
    for (int e = lower_start[k]; e < lower_start[k + 1]; ++e)
      for (int i = lower[static_cast<size_t>(e)]; i != -1 && i < static_cast<int>(k);) {
        const int next = ancestor[static_cast<size_t>(i)];
        ancestor[static_cast<size_t>(i)] = static_cast<int>(k);
        if (next == -1) parent[static_cast<size_t>(i)] = static_cast<int>(k);
        i = next;
      }
  std::vector<std::vector<int>> children(n + 1);  // index n: the roots
  std::vector<double> work(n);
  for (size_t k = 0; k < n; ++k) {
    children[parent[k] >= 0 ? static_cast<size_t>(parent[k]) : n].push_back(static_cast<int>(k));
    work[k] = double(counts[k]) * double(counts[k]);
  }
  for (size_t k = 0; k < n; ++k)  // children before parents: subtree sums
    if (parent[k] >= 0) work[static_cast<size_t>(parent[k])] += work[k];
  // Down the chain; `hanging` collects the subtrees set aside.
  std::vector<signed char> column_part(n, -1);
  std::vector<int> hanging;
  size_t at = n;  // the forest's virtual root first
  double below = 0;
  for (const int root : children[n]) below += work[static_cast<size_t>(root)];
  double s = 0;
  while (true) {
    const std::vector<int>& next = children[at];
    if (next.empty()) return none;  // a chain to the bottom: nothing independent
    const auto largest = std::max_element(next.begin(), next.end(), [&](int x, int y) {
      return work[static_cast<size_t>(x)] < work[static_cast<size_t>(y)];
    });
    if (work[static_cast<size_t>(*largest)] <= 0.75 * below) {
      hanging.insert(hanging.end(), next.begin(), next.end());
      break;
    }
    for (const int child : next)
      if (child != *largest) hanging.push_back(child);
    at = static_cast<size_t>(*largest);
    column_part[at] = 2;
    below = work[at] - double(counts[at]) * double(counts[at]);
    if (++s > kMaxSeparator) return none;
  }
  // The hanging subtrees to the lighter part, larger first (ties by column: deterministic).
  std::sort(hanging.begin(), hanging.end(), [&](int x, int y) {
    const double wx = work[static_cast<size_t>(x)], wy = work[static_cast<size_t>(y)];
    return wx != wy ? wx > wy : x < y;
  });
  double part_work[2] = {0, 0};
  for (const int subtree : hanging) {
    const int h = part_work[1] < part_work[0] ? 1 : 0;
    part_work[h] += work[static_cast<size_t>(subtree)];
    column_part[static_cast<size_t>(subtree)] = static_cast<signed char>(h);
  }
  // Every other column: its parent's part (parents after children, so from the top down).
  for (size_t k = n; k-- > 0;)
    if (column_part[k] < 0) column_part[k] = column_part[static_cast<size_t>(parent[k])];
  const double total = part_work[0] + part_work[1];
  if (std::min(part_work[0], part_work[1]) < 0.25 * total ||
      kSeparatorExtraFlops * s * s * s > kMaxSplitOverhead * flops)
    return none;
  return column_part;
}

}  // namespace

struct CholmodCholesky::Impl {
  Mode mode = Mode::kAuto;
  CholmodPart whole;                    // the factorisation of A, unless split
  std::unique_ptr<CholmodSplit> split;  // the split factorisation, when the analysis chose it
  Index size = 0;
  bool empty = false;  // a 0 × 0 matrix (a node without DOFs), which CHOLMOD does not take
  std::vector<int> pattern_outer, pattern_inner;
  Index failed_row = -1;
  double flops = 0, factor_nonzeros = 0;
  bool supernodal = false;

  // Builds the split factorisation from A and the whole analysis; false (nothing built) when A
  // has entries coupling the two parts (then the tree was not what FindCholmodSplit assumed).
  bool BuildSplit(const SparseMatrix& A, const std::vector<signed char>& column_part);
  Status FactorizeSplit(const SparseMatrix& A);
  void SolveSplit(const Vector& b, Vector& x);
  // Runs task(part) for both parts: at once on two threads when the BLAS allows it and Fluxion
  // has two, else one after the other (same results).
  template <class Task>
  void ForBothParts(Task&& task);
};

template <class Task>
void CholmodCholesky::Impl::ForBothParts(Task&& task) {
  const bool parallel = CholmodBlas().thread_safe && ThreadCount() >= 2;
  if (!parallel) {
    const SerialCholmodRegions serial(0);
    task(split->parts[0]);
    task(split->parts[1]);
    return;
  }
  // Each thread runs CHOLMOD's regions inline in its own scope; without the redirection, one
  // active level: this region forks, CHOLMOD's regions nested in it stay inactive.
  const SerialCholmodRegions serial(1);
  struct Context {
    Task* task;
    CholmodSplit* split;
  } context{&task, split.get()};
  RunParallelTasks(
      2,
      [](void* c, int k) {
        const Context& ctx = *static_cast<const Context*>(c);
        const SerialCholmodRegions serial_on_this_thread(-1);
        (*ctx.task)(ctx.split->parts[k]);
      },
      &context);
}

bool CholmodCholesky::Impl::BuildSplit(const SparseMatrix& A,
                                       const std::vector<signed char>& column_part) {
  const int* permutation = static_cast<const int*>(whole.factor->Perm);
  std::vector<int> position(static_cast<size_t>(size));  // A's row → permuted position
  for (Index k = 0; k < size; ++k)
    position[static_cast<size_t>(permutation[k])] = static_cast<int>(k);
  auto result = std::make_unique<CholmodSplit>();
  // Local numbering of each part: its own columns, then S, each in A's permuted order (a
  // fill-reducing order for them too).
  std::vector<int> local(static_cast<size_t>(size)), separator_local(static_cast<size_t>(size), -1);
  for (Index k = 0; k < size; ++k) {
    const int h = column_part[static_cast<size_t>(k)];
    if (h == 2) {
      separator_local[static_cast<size_t>(k)] = static_cast<int>(result->separator.size());
      result->separator.push_back(permutation[k]);
    } else {
      local[static_cast<size_t>(k)] = static_cast<int>(result->parts[h].columns.size());
      result->parts[h].columns.push_back(permutation[k]);
    }
  }
  const Index s = static_cast<Index>(result->separator.size());
  for (CholmodSplitPart& part : result->parts) {
    part.separator_begin = static_cast<Index>(part.columns.size());
    part.columns.insert(part.columns.end(), result->separator.begin(), result->separator.end());
  }
  const auto local_index = [&](int h, int p) {
    const int in_s = separator_local[static_cast<size_t>(p)];
    return in_s >= 0 ? static_cast<int>(result->parts[h].separator_begin) + in_s
                     : local[static_cast<size_t>(p)];
  };
  // A's upper triangle, entry by entry, into M₁, M₂ (and Aₛₛ into both and into T's list).
  std::vector<std::vector<std::array<int, 3>>> entries(2);  // (column, row, source)
  std::vector<std::array<int, 3>> separator_entries;        // (S column, S row, source)
  for (Index column = 0; column < size; ++column)
    for (int k = A.outerIndexPtr()[column]; k < A.outerIndexPtr()[column + 1]; ++k) {
      const int row = A.innerIndexPtr()[k];
      if (row > column) continue;
      const int p = position[static_cast<size_t>(row)], q = position[static_cast<size_t>(column)];
      const int a = column_part[static_cast<size_t>(p)], b = column_part[static_cast<size_t>(q)];
      if (a != 2 && b != 2 && a != b) return false;  // C₁ and C₂ coupled: not a separator
      for (int h = 0; h < 2; ++h)
        if ((a == h || a == 2) && (b == h || b == 2)) {
          const int i = local_index(h, p), j = local_index(h, q);
          entries[h].push_back({std::min(i, j), std::max(i, j), k});
        }
      if (a == 2 && b == 2) {
        const int i = separator_local[static_cast<size_t>(p)];
        const int j = separator_local[static_cast<size_t>(q)];
        separator_entries.push_back({std::min(i, j), std::max(i, j), k});
      }
    }
  for (int h = 0; h < 2; ++h) {
    CholmodSplitPart& part = result->parts[h];
    std::sort(entries[h].begin(), entries[h].end());
    const Index n = static_cast<Index>(part.columns.size());
    part.outer.assign(static_cast<size_t>(n) + 1, 0);
    for (const auto& [column, row, source] : entries[h]) {
      ++part.outer[static_cast<size_t>(column) + 1];
      part.inner.push_back(row);
      part.source.push_back(source);
    }
    for (Index c = 0; c < n; ++c)
      part.outer[static_cast<size_t>(c) + 1] += part.outer[static_cast<size_t>(c)];
    part.values.assign(part.source.size(), 0.0);
    part.rhs.assign(static_cast<size_t>(n), 0.0);
    part.s_vector.assign(static_cast<size_t>(s), 0.0);
    part.g.assign(static_cast<size_t>(s * s), 0.0);
    part.g_product.assign(static_cast<size_t>(s * s), 0.0);
    // Already in a fill-reducing order (A's, restricted): analysed in that order, not postordered
    // again, so S stays last and the factor's numbering is Mₕ's.
    const ActiveBlocks active(part.cholmod.blocks);
    cholmod_sparse view =
        CholmodLowerView(n, static_cast<Index>(part.inner.size()), part.outer.data(),
                         part.inner.data(), part.values.data(), true);
    part.cholmod.Analyze(view, CHOLMOD_NATURAL, false, CHOLMOD_SUPERNODAL);
    const cholmod_factor& L = *part.cholmod.factor;
    if (!L.is_super) return false;
    if (L.Perm != nullptr)
      for (Index k = 0; k < n; ++k)
        if (static_cast<const int*>(L.Perm)[k] != k) return false;
    part.g_entries = CholmodSeparatorEntries(L, part.separator_begin);
    result->flops += part.cholmod.common.fl;
    result->factor_nonzeros += part.cholmod.common.lnz;
  }
  // T: dense, its lower triangle stored column by column.
  result->t_outer.assign(static_cast<size_t>(s) + 1, 0);
  for (Index j = 0; j < s; ++j) {
    for (Index i = j; i < s; ++i) result->t_inner.push_back(static_cast<int>(i));
    result->t_outer[static_cast<size_t>(j) + 1] = static_cast<int>(result->t_inner.size());
  }
  result->t_values.assign(result->t_inner.size(), 0.0);
  for (const auto& [column, row, source] : separator_entries)
    result->a_ss.emplace_back(
        static_cast<size_t>(result->t_outer[static_cast<size_t>(column)] + (row - column)), source);
  result->s_rhs.assign(static_cast<size_t>(s), 0.0);
  {
    const ActiveBlocks active(result->schur.blocks);
    cholmod_sparse view =
        CholmodLowerView(s, static_cast<Index>(result->t_inner.size()), result->t_outer.data(),
                         result->t_inner.data(), result->t_values.data(), true);
    result->schur.Analyze(view, CHOLMOD_NATURAL, false, CHOLMOD_SUPERNODAL);
    result->flops += result->schur.common.fl;
    result->factor_nonzeros += result->schur.common.lnz;
  }
  result->flops += 2.0 * double(s) * double(s) * double(s) / 3.0;  // the two dlauum
  split = std::move(result);
  return true;
}

CholmodCholesky::Status CholmodCholesky::Impl::FactorizeSplit(const SparseMatrix& A) {
  const double* a = A.valuePtr();
  const int s = static_cast<int>(split->separator.size());
  ForBothParts([&](CholmodSplitPart& part) {
    // Mₕ's values from A's, its factorisation, Gₕ and Gₕ·Gₕᵀ.
    for (size_t k = 0; k < part.values.size(); ++k)
      part.values[k] = a[part.source[static_cast<size_t>(k)]];
    cholmod_sparse view = CholmodLowerView(static_cast<Index>(part.columns.size()),
                                           static_cast<Index>(part.inner.size()), part.outer.data(),
                                           part.inner.data(), part.values.data(), true);
    part.status = part.cholmod.Factorize(view);
    if (part.status != CHOLMOD_OK && part.status != CHOLMOD_DSMALL) return;
    // Gₕ, and Gₕ with rows and columns reversed: an upper triangular U = J·Gₕ·J (J the reversal,
    // entry k of an s × s array ↔ s² − 1 − k), whose U·Uᵀ = J·Gₕ·Gₕᵀ·J LAPACK's dlauum computes
    // in s³/3 flops, a third of a general product's.
    const double* lx = static_cast<const double*>(part.cholmod.factor->x);
    const size_t last = part.g.size() - 1;
    for (const auto& [from, to] : part.g_entries) part.g[to] = part.g_product[last - to] = lx[from];
    int info = 0;
    CholmodBlas().dlauum("U", &s, part.g_product.data(), &s, &info);
  });
  for (const CholmodSplitPart& part : split->parts) switch (part.status) {
      case CHOLMOD_OK:
      case CHOLMOD_DSMALL:  // a warning (tiny pivots, only with a dbound): the factor exists
        break;
      case CHOLMOD_NOT_POSDEF: {
        const Index column = part.cholmod.FailedColumn();
        if (column >= 0) failed_row = part.columns[static_cast<size_t>(column)];
        return Status::kNotPositiveDefinite;
      }
      case CHOLMOD_OUT_OF_MEMORY:
      case CHOLMOD_TOO_LARGE:
        throw std::bad_alloc();
      default:
        FLUXION_DEMAND(part.status == CHOLMOD_OK);  // a misuse of CHOLMOD by this class
    }
  // T = G₁·G₁ᵀ + G₂·G₂ᵀ − Aₛₛ, lower triangle: (Gₕ·Gₕᵀ)(i, j) is (U·Uᵀ)(s−1−i, s−1−j).
  const size_t n = static_cast<size_t>(s), last = n * n - 1;
  const std::vector<double>& g1 = split->parts[0].g_product;
  const std::vector<double>& g2 = split->parts[1].g_product;
  double* t = split->t_values.data();
  for (size_t j = 0; j < n; ++j)
    for (size_t i = j; i < n; ++i) *t++ = g1[last - (i + j * n)] + g2[last - (i + j * n)];
  for (const auto& [k, source] : split->a_ss) split->t_values[k] -= a[source];
  cholmod_sparse view =
      CholmodLowerView(s, static_cast<Index>(split->t_inner.size()), split->t_outer.data(),
                       split->t_inner.data(), split->t_values.data(), true);
  const SerialCholmodRegions serial(0);
  switch (split->schur.Factorize(view)) {
    case CHOLMOD_OK:
    case CHOLMOD_DSMALL:
      return Status::kOk;
    case CHOLMOD_NOT_POSDEF: {
      const Index column = split->schur.FailedColumn();
      if (column >= 0) failed_row = split->separator[static_cast<size_t>(column)];
      return Status::kNotPositiveDefinite;
    }
    case CHOLMOD_OUT_OF_MEMORY:
    case CHOLMOD_TOO_LARGE:
      throw std::bad_alloc();
    default:
      FLUXION_DEMAND(split->schur.common.status == CHOLMOD_OK);
      return Status::kOk;
  }
}

void CholmodCholesky::Impl::SolveSplit(const Vector& b, Vector& x) {
  const size_t s = split->separator.size();
  // Forward: [yₕ; tₕ] from [bₕ; 0], then Gₕ·tₕ.
  ForBothParts([&](CholmodSplitPart& part) {
    const size_t own = static_cast<size_t>(part.separator_begin);
    for (size_t k = 0; k < own; ++k) part.rhs[k] = b[part.columns[k]];
    std::fill(part.rhs.begin() + static_cast<std::ptrdiff_t>(own), part.rhs.end(), 0.0);
    cholmod_dense rhs = CholmodDenseView(part.rhs.data(), static_cast<Index>(part.rhs.size()));
    part.solved = part.cholmod.TrySolve(CHOLMOD_L, rhs);  // a task must not throw
    if (!part.solved) return;
    const double* y = static_cast<const double*>(part.cholmod.solution->x);
    std::copy(y, y + own, part.rhs.begin());  // yₕ, for the backward solve
    const double* t = y + own;
    for (size_t i = 0; i < s; ++i) part.s_vector[i] = 0.0;
    for (size_t j = 0; j < s; ++j)  // Gₕ·tₕ, column by column (Gₕ lower triangular)
      for (size_t i = j; i < s; ++i) part.s_vector[i] += part.g[i + j * s] * t[j];
  });
  for (const CholmodSplitPart& part : split->parts)
    if (!part.solved) throw std::bad_alloc();
  // S: T·xₛ = bₛ + G₁·t₁ + G₂·t₂.
  for (size_t j = 0; j < s; ++j)
    split->s_rhs[j] =
        b[split->separator[j]] + split->parts[0].s_vector[j] + split->parts[1].s_vector[j];
  {
    const SerialCholmodRegions serial(0);
    cholmod_dense rhs = CholmodDenseView(split->s_rhs.data(), static_cast<Index>(s));
    split->schur.Solve(CHOLMOD_A, rhs);
  }
  const double* xs = static_cast<const double*>(split->schur.solution->x);
  if (x.size() != b.size()) x.resize(b.size());
  for (size_t j = 0; j < s; ++j) x[split->separator[j]] = xs[j];
  // Backward: [xₕ; xₛ] from [yₕ; Gₕᵀ·xₛ].
  ForBothParts([&](CholmodSplitPart& part) {
    const size_t own = static_cast<size_t>(part.separator_begin);
    for (size_t j = 0; j < s; ++j) {
      double sum = 0.0;
      for (size_t i = j; i < s; ++i) sum += part.g[i + j * s] * xs[i];
      part.rhs[own + j] = sum;
    }
    cholmod_dense rhs = CholmodDenseView(part.rhs.data(), static_cast<Index>(part.rhs.size()));
    part.solved = part.cholmod.TrySolve(CHOLMOD_Lt, rhs);
    if (!part.solved) return;
    const double* solved = static_cast<const double*>(part.cholmod.solution->x);
    for (size_t k = 0; k < own; ++k) x[part.columns[k]] = solved[k];
  });
  for (const CholmodSplitPart& part : split->parts)
    if (!part.solved) throw std::bad_alloc();
}

CholmodCholesky::CholmodCholesky(Mode mode) {
  InstallMemoryFunctions();  // before CHOLMOD's first call
  CholmodBlas();             // a threaded OpenBLAS is set to one thread before its first call
  impl_ = std::make_unique<Impl>();
  impl_->mode = mode;
}

CholmodCholesky::~CholmodCholesky() = default;

void CholmodCholesky::Analyze(const SparseMatrix& A) {
  if (A.rows() != A.cols() || !A.isCompressed())
    throw UsageError("CholmodCholesky::Analyze needs a square, compressed matrix");
  Impl& impl = *impl_;
  {
    const ActiveBlocks active(impl.whole.blocks);
    impl.whole.Free();
  }
  impl.split.reset();
  impl.size = A.rows();
  impl.empty = A.rows() == 0;
  impl.failed_row = -1;
  impl.flops = impl.factor_nonzeros = 0;
  impl.supernodal = false;
  impl.pattern_outer.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.rows() + 1);
  impl.pattern_inner.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
  if (impl.empty) return;  // nothing to factorise: x = A⁻¹·b is the empty vector
  const std::lock_guard<std::mutex> lock(CholmodMutex());
  const SerialCholmodRegions serial(0);
  try {
    const ActiveBlocks active(impl.whole.blocks);
    // One ordering, not CHOLMOD's default trial of several: METIS's nested dissection on large
    // matrices, AMD on small ones; postordered (CHOLMOD's default), which groups supernodes.
    cholmod_sparse view = CholmodView(A);
    impl.whole.Analyze(view, A.rows() >= kNestedDissectionMinSize ? CHOLMOD_METIS : CHOLMOD_AMD,
                       true, CHOLMOD_AUTO);
  } catch (...) {
    impl.pattern_outer.clear();
    impl.pattern_inner.clear();
    throw;
  }
  impl.flops = impl.whole.common.fl;
  impl.factor_nonzeros = impl.whole.common.lnz;
  impl.supernodal = impl.whole.factor->is_super != 0;
  // Split in two parts factorised on two threads when the BLAS may be entered by two threads at
  // once (a property of the system, not of the thread count: the results never depend on that)
  // and the factorisation is large enough for the split's dense work to pay.
  const bool want_split =
      impl.mode == Mode::kSplit || (impl.mode == Mode::kAuto && CholmodBlas().thread_safe &&
                                    ThreadsAvailable() && impl.flops >= kSplitMinFlops);
  std::vector<signed char> column_part;
  if (want_split && CholmodBlas().dlauum != nullptr)
    column_part = FindCholmodSplit(*impl.whole.factor, A, impl.flops);
  if (!column_part.empty() && impl.BuildSplit(A, column_part)) {
    impl.flops = impl.split->flops;
    impl.factor_nonzeros = impl.split->factor_nonzeros;
    const ActiveBlocks active(impl.whole.blocks);
    impl.whole.Free();  // the parts' factors replace it
    impl.whole.blocks.Trim();
  }
}

bool CholmodCholesky::HasAnalysedPattern(const SparseMatrix& A) const {
  const Impl& impl = *impl_;
  if (impl.empty) return A.rows() == 0 && A.cols() == 0;
  if (!analysed() || A.rows() != impl.size || A.cols() != impl.size || !A.isCompressed())
    return false;
  return static_cast<size_t>(A.nonZeros()) == impl.pattern_inner.size() &&
         std::equal(impl.pattern_outer.begin(), impl.pattern_outer.end(), A.outerIndexPtr()) &&
         std::equal(impl.pattern_inner.begin(), impl.pattern_inner.end(), A.innerIndexPtr());
}

CholmodCholesky::Status CholmodCholesky::Factorize(const SparseMatrix& A) {
  Impl& impl = *impl_;
  if (impl.empty) return Status::kOk;
  FLUXION_DEMAND(analysed() && A.rows() == impl.size);  // Analyze first
  const std::lock_guard<std::mutex> lock(CholmodMutex());
  impl.failed_row = -1;
  if (impl.split) return impl.FactorizeSplit(A);
  const SerialCholmodRegions serial(0);
  cholmod_sparse view = CholmodView(A);
  switch (impl.whole.Factorize(view)) {
    case CHOLMOD_OK:
    case CHOLMOD_DSMALL:  // a warning (tiny pivots, only with a dbound): the factor exists
      return Status::kOk;
    case CHOLMOD_NOT_POSDEF: {
      // The failed column of L, in the permuted order: P maps it back to A's row.
      const Index column = impl.whole.FailedColumn();
      if (column >= 0) impl.failed_row = static_cast<const int*>(impl.whole.factor->Perm)[column];
      return Status::kNotPositiveDefinite;
    }
    case CHOLMOD_OUT_OF_MEMORY:
    case CHOLMOD_TOO_LARGE:
      throw std::bad_alloc();
    default:
      // Any other status is a misuse of CHOLMOD by this class (invalid matrix, wrong type).
      FLUXION_DEMAND(impl.whole.common.status == CHOLMOD_OK);
      return Status::kOk;
  }
}

Index CholmodCholesky::failed_row() const { return impl_->failed_row; }

void CholmodCholesky::Solve(const Vector& b, Vector& x) {
  Impl& impl = *impl_;
  if (impl.empty) {
    x.resize(0);
    return;
  }
  FLUXION_DEMAND(analysed() && b.size() == impl.size);
  const std::lock_guard<std::mutex> lock(CholmodMutex());
  const SerialCholmodRegions serial(0);
  if (impl.split) {
    impl.SolveSplit(b, x);
    return;
  }
  // b is only read (cholmod_solve2 takes a non-const pointer to it).
  cholmod_dense rhs = CholmodDenseView(const_cast<double*>(b.data()), b.size());
  impl.whole.Solve(CHOLMOD_A, rhs);
  if (x.size() != b.size()) x.resize(b.size());
  std::memcpy(x.data(), impl.whole.solution->x, static_cast<size_t>(b.size()) * sizeof(double));
}

bool CholmodCholesky::analysed() const {
  return impl_->whole.factor != nullptr || impl_->split != nullptr || impl_->empty;
}

bool CholmodCholesky::supernodal() const { return impl_->supernodal; }

bool CholmodCholesky::split() const { return impl_->split != nullptr; }

double CholmodCholesky::factor_nonzeros() const { return impl_->factor_nonzeros; }

double CholmodCholesky::flops() const { return impl_->flops; }

}  // namespace fluxion::internal
