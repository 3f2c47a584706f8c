#include "linear/cholmod_cholesky.h"

#include <cholmod.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

#include "fluxion/errors.h"

namespace fluxion::internal {

// --- Recycled memory for CHOLMOD ---------------------------------------------------------------
//
// CHOLMOD allocates through SuiteSparse_config's four function pointers. They are replaced once by
// the functions below, which forward to the previous ones (malloc & co. unless someone else
// replaced them first) except on a thread where a CholmodBlocks is active: there, a block freed
// by CHOLMOD is kept, and a later request of the same size gets it back. A numeric factorisation
// or a solve repeated on the same pattern asks for the same sizes each time, so from the second
// call on nothing reaches malloc. The table is reserved once; a block it has no room to record
// is plain malloc'd and freed.

namespace {
struct SuiteSparseMemory {
  void* (*malloc_function)(size_t);
  void* (*calloc_function)(size_t, size_t);
  void* (*realloc_function)(void*, size_t);
  void (*free_function)(void*);
};
SuiteSparseMemory previous_memory{};
}  // namespace

// Named (not file-local): CholmodCholesky::Impl holds one.
class CholmodBlocks {
 public:
  CholmodBlocks() { blocks_.reserve(kCapacity); }
  CholmodBlocks(const CholmodBlocks&) = delete;
  CholmodBlocks& operator=(const CholmodBlocks&) = delete;
  ~CholmodBlocks() { Trim(); }

  void* Allocate(size_t size) {
    for (Block& block : blocks_)
      if (!block.in_use && block.size == size) {
        block.in_use = true;
        return block.pointer;
      }
    void* pointer = previous_memory.malloc_function(size);
    if (pointer != nullptr && blocks_.size() < kCapacity) blocks_.push_back({pointer, size, true});
    return pointer;
  }

  // False when `pointer` is not one of the recorded blocks.
  bool Release(void* pointer) {
    for (Block& block : blocks_)
      if (block.pointer == pointer) {
        block.in_use = false;
        return true;
      }
    return false;
  }

  // Size of a recorded block, 0 when `pointer` is not one.
  size_t SizeOf(const void* pointer) const {
    for (const Block& block : blocks_)
      if (block.pointer == pointer) return block.size;
    return 0;
  }

  // Really frees the blocks nobody uses (after an analysis, whose temporaries are not asked for
  // again); blocks in use stay recorded.
  void Trim() {
    const auto unused = [](const Block& block) {
      if (!block.in_use) previous_memory.free_function(block.pointer);
      return !block.in_use;
    };
    blocks_.erase(std::remove_if(blocks_.begin(), blocks_.end(), unused), blocks_.end());
  }

 private:
  struct Block {
    void* pointer;
    size_t size;
    bool in_use;
  };
  // A factorisation and a solve use a few dozen blocks at most (the factor's arrays, the
  // transposed matrix, the supernodal update matrix, the solve's dense workspaces, CHOLMOD's
  // Common workspace).
  static constexpr size_t kCapacity = 256;
  std::vector<Block> blocks_;
};

namespace {

thread_local CholmodBlocks* active_blocks = nullptr;

void* BlocksMalloc(size_t size) {
  return active_blocks != nullptr ? active_blocks->Allocate(size)
                                  : previous_memory.malloc_function(size);
}

void* BlocksCalloc(size_t count, size_t size) {
  if (active_blocks == nullptr) return previous_memory.calloc_function(count, size);
  if (size != 0 && count > static_cast<size_t>(-1) / size) return nullptr;
  void* pointer = active_blocks->Allocate(count * size);
  if (pointer != nullptr) std::memset(pointer, 0, count * size);
  return pointer;
}

void BlocksFree(void* pointer) {
  if (pointer == nullptr) return;
  if (active_blocks != nullptr && active_blocks->Release(pointer)) return;
  previous_memory.free_function(pointer);
}

void* BlocksRealloc(void* pointer, size_t size) {
  if (active_blocks == nullptr) return previous_memory.realloc_function(pointer, size);
  if (pointer == nullptr) return active_blocks->Allocate(size);
  const size_t old_size = active_blocks->SizeOf(pointer);
  if (old_size == 0) return previous_memory.realloc_function(pointer, size);  // not recorded
  void* moved = active_blocks->Allocate(size);
  if (moved == nullptr) return nullptr;  // realloc's contract: the old block stays valid
  std::memcpy(moved, pointer, std::min(old_size, size));
  active_blocks->Release(pointer);
  return moved;
}

void InstallMemoryFunctions() {
  static std::once_flag once;
  std::call_once(once, [] {
    previous_memory = {SuiteSparse_config.malloc_func, SuiteSparse_config.calloc_func,
                       SuiteSparse_config.realloc_func, SuiteSparse_config.free_func};
    SuiteSparse_config.malloc_func = BlocksMalloc;
    SuiteSparse_config.calloc_func = BlocksCalloc;
    SuiteSparse_config.realloc_func = BlocksRealloc;
    SuiteSparse_config.free_func = BlocksFree;
  });
}

// Makes `blocks` the active ones on this thread for the scope (scopes do not nest).
class ActiveBlocks {
 public:
  explicit ActiveBlocks(CholmodBlocks& blocks) { active_blocks = &blocks; }
  ~ActiveBlocks() { active_blocks = nullptr; }
  ActiveBlocks(const ActiveBlocks&) = delete;
  ActiveBlocks& operator=(const ActiveBlocks&) = delete;
};

// --- Serial OpenMP regions inside CHOLMOD ------------------------------------------------------
//
// Debian's CHOLMOD runs the scatter loops of its supernodal factorisation in OpenMP teams of
// CHOLMOD_OMP_NUM_THREADS = 4 (a compile-time constant), one fork and join per supernode: on two
// cores that oversubscribes them, and the fork/join costs more than the loops (the factorisation
// of the 128² cloth takes 2–3× the CPU time). Setting the runtime's max-active-levels to 0 makes
// every region inactive (one thread) while CHOLMOD runs; it is restored after, for the caller's
// own regions. The functions are looked up in the OpenMP runtime CHOLMOD brought into the process
// (RTLD_NOLOAD: never loads one): no OpenMP flags or runtime at Fluxion's build, so clang builds
// (the fuzz targets) need none, and a CHOLMOD built without OpenMP simply has nothing to
// serialise.
struct OpenMpControls {
  void (*set_max_active_levels)(int) = nullptr;
  int (*get_max_active_levels)() = nullptr;
};

const OpenMpControls& OpenMp() {
  static const OpenMpControls controls = [] {
    OpenMpControls found;
    void* runtime = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (runtime == nullptr) return found;
    // dlsym returns void*; POSIX guarantees it converts to a function pointer.
    found.set_max_active_levels =
        reinterpret_cast<void (*)(int)>(dlsym(runtime, "omp_set_max_active_levels"));
    found.get_max_active_levels =
        reinterpret_cast<int (*)()>(dlsym(runtime, "omp_get_max_active_levels"));
    if (found.set_max_active_levels == nullptr || found.get_max_active_levels == nullptr)
      found = {};
    dlclose(runtime);  // CHOLMOD keeps it loaded: the functions stay valid
    return found;
  }();
  return controls;
}

class SerialOpenMp {
 public:
  SerialOpenMp() {
    const OpenMpControls& openmp = OpenMp();
    if (openmp.set_max_active_levels == nullptr) return;
    saved_ = openmp.get_max_active_levels();
    openmp.set_max_active_levels(0);
  }
  ~SerialOpenMp() {
    if (saved_ >= 0) OpenMp().set_max_active_levels(saved_);
  }
  SerialOpenMp(const SerialOpenMp&) = delete;
  SerialOpenMp& operator=(const SerialOpenMp&) = delete;

 private:
  int saved_ = -1;
};

// One CHOLMOD call at a time in the process (analysis, factorisation, solve): two threads
// factorising at once gave differing results and crashes (linear_solvers_test,
// BitIdenticalAcrossRepeatsAndThreads). The likely causes: METIS keeps its random generator's
// state in globals (two analyses at once draw from one sequence and may order differently; the
// analysis alone under this lock already made 10 800-unknown runs identical), and a serial
// OpenBLAS built without USE_LOCKING shares its buffer pool between threads without a lock (the
// crashes came with the larger supernodes of 43 200 unknowns). Locking does not allocate.
std::mutex& CholmodMutex() {
  static std::mutex mutex;
  return mutex;
}

// Below this many unknowns the analysis uses AMD: on cloth grids nested dissection needs fewer
// flops only from ~40 000 unknowns on (AMD 1.16e8 against METIS 1.20e8 at 64², 3.45e8 against
// 3.47e8 at 90², then METIS 1.03e9 against 1.14e9 at 128², 8.6e9 against 1.1e10 at 256²), and its
// analysis takes longer (docs/performance.md "Direct solver").
constexpr Index kNestedDissectionMinSize = 40000;

}  // namespace

struct CholmodCholesky::Impl {
  CholmodBlocks blocks;  // declared before `common`: destroyed after CHOLMOD has freed everything
  cholmod_common common{};
  cholmod_factor* factor = nullptr;
  // The solve's result and workspaces, kept from call to call (cholmod_solve2).
  cholmod_dense* solution = nullptr;
  cholmod_dense* workspace_y = nullptr;
  cholmod_dense* workspace_e = nullptr;
  Index size = 0;
  bool empty = false;  // a 0 × 0 matrix (a node without DOFs), which CHOLMOD does not take
  std::vector<int> pattern_outer, pattern_inner;
  Index failed_row = -1;

  // A read-only CHOLMOD view of A: with stype > 0, CHOLMOD reads the entries on and above the
  // diagonal and ignores the others, so A's arrays are used in place (int indices, CHOLMOD's int
  // interface).
  static cholmod_sparse View(const SparseMatrix& A) {
    cholmod_sparse view{};
    view.nrow = static_cast<size_t>(A.rows());
    view.ncol = static_cast<size_t>(A.cols());
    view.nzmax = static_cast<size_t>(A.nonZeros());
    view.p = const_cast<int*>(A.outerIndexPtr());
    view.i = const_cast<int*>(A.innerIndexPtr());
    view.x = const_cast<double*>(A.valuePtr());
    view.stype = 1;
    view.itype = CHOLMOD_INT;
    view.xtype = CHOLMOD_REAL;
    view.dtype = CHOLMOD_DOUBLE;
    view.sorted = 0;  // Eigen does not promise sorted columns; CHOLMOD does not need them
    view.packed = 1;
    return view;
  }

  void FreeFactor() {
    cholmod_free_factor(&factor, &common);
    cholmod_free_dense(&solution, &common);
    cholmod_free_dense(&workspace_y, &common);
    cholmod_free_dense(&workspace_e, &common);
  }
};

CholmodCholesky::CholmodCholesky() : impl_(std::make_unique<Impl>()) {
  InstallMemoryFunctions();
  const ActiveBlocks active(impl_->blocks);
  cholmod_common& common = impl_->common;
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

CholmodCholesky::~CholmodCholesky() {
  const ActiveBlocks active(impl_->blocks);
  impl_->FreeFactor();
  cholmod_finish(&impl_->common);
}

void CholmodCholesky::Analyze(const SparseMatrix& A) {
  if (A.rows() != A.cols() || !A.isCompressed())
    throw UsageError("CholmodCholesky::Analyze needs a square, compressed matrix");
  Impl& impl = *impl_;
  const ActiveBlocks active(impl.blocks);
  impl.FreeFactor();
  impl.size = A.rows();
  impl.empty = A.rows() == 0;
  impl.failed_row = -1;
  impl.pattern_outer.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.rows() + 1);
  impl.pattern_inner.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
  if (impl.empty) return;  // nothing to factorise: x = A⁻¹·b is the empty vector
  // One ordering, not CHOLMOD's default trial of several: METIS's nested dissection on large
  // matrices, AMD on small ones; postordered (CHOLMOD's default), which groups supernodes.
  cholmod_common& common = impl.common;
  common.nmethods = 1;
  common.method[0].ordering = A.rows() >= kNestedDissectionMinSize ? CHOLMOD_METIS : CHOLMOD_AMD;
  common.postorder = 1;
  cholmod_sparse view = Impl::View(A);
  {
    const std::lock_guard<std::mutex> lock(CholmodMutex());
    impl.factor = cholmod_analyze(&view, &common);
  }
  if (impl.factor == nullptr) {
    impl.pattern_outer.clear();
    impl.pattern_inner.clear();
    throw std::bad_alloc();
  }
  impl.blocks.Trim();  // the analysis' temporaries (ordering workspaces) are not needed again
}

bool CholmodCholesky::HasAnalysedPattern(const SparseMatrix& A) const {
  const Impl& impl = *impl_;
  if (impl.empty) return A.rows() == 0 && A.cols() == 0;
  if (impl.factor == nullptr || A.rows() != impl.size || A.cols() != impl.size || !A.isCompressed())
    return false;
  return static_cast<size_t>(A.nonZeros()) == impl.pattern_inner.size() &&
         std::equal(impl.pattern_outer.begin(), impl.pattern_outer.end(), A.outerIndexPtr()) &&
         std::equal(impl.pattern_inner.begin(), impl.pattern_inner.end(), A.innerIndexPtr());
}

CholmodCholesky::Status CholmodCholesky::Factorize(const SparseMatrix& A) {
  Impl& impl = *impl_;
  if (impl.empty) return Status::kOk;
  FLUXION_DEMAND(impl.factor != nullptr && A.rows() == impl.size);  // Analyze first
  const std::lock_guard<std::mutex> lock(CholmodMutex());
  const ActiveBlocks active(impl.blocks);
  const SerialOpenMp serial;
  cholmod_sparse view = Impl::View(A);
  impl.failed_row = -1;
  cholmod_factorize(&view, impl.factor, &impl.common);
  switch (impl.common.status) {
    case CHOLMOD_OK:
    case CHOLMOD_DSMALL:  // a warning (tiny pivots, only with a dbound): the factor exists
      return Status::kOk;
    case CHOLMOD_NOT_POSDEF: {
      // L->minor is the failed column of L, in the permuted order: P maps it back to A's row.
      const size_t minor = impl.factor->minor;
      if (minor < impl.factor->n)
        impl.failed_row = static_cast<const int*>(impl.factor->Perm)[minor];
      return Status::kNotPositiveDefinite;
    }
    case CHOLMOD_OUT_OF_MEMORY:
    case CHOLMOD_TOO_LARGE:
      throw std::bad_alloc();
    default:
      // Any other status is a misuse of CHOLMOD by this class (invalid matrix, wrong type).
      FLUXION_DEMAND(impl.common.status == CHOLMOD_OK);
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
  FLUXION_DEMAND(impl.factor != nullptr && b.size() == impl.size);
  const std::lock_guard<std::mutex> lock(CholmodMutex());
  const ActiveBlocks active(impl.blocks);
  // b is only read (cholmod_solve2 takes a non-const pointer to it).
  cholmod_dense rhs{};
  rhs.nrow = static_cast<size_t>(b.size());
  rhs.ncol = 1;
  rhs.nzmax = rhs.nrow;
  rhs.d = rhs.nrow;
  rhs.x = const_cast<double*>(b.data());
  rhs.xtype = CHOLMOD_REAL;
  rhs.dtype = CHOLMOD_DOUBLE;
  const int solved = cholmod_solve2(CHOLMOD_A, impl.factor, &rhs, nullptr, &impl.solution, nullptr,
                                    &impl.workspace_y, &impl.workspace_e, &impl.common);
  if (!solved) throw std::bad_alloc();  // the only way a solve with a valid factor fails
  if (x.size() != b.size()) x.resize(b.size());
  std::memcpy(x.data(), impl.solution->x, static_cast<size_t>(b.size()) * sizeof(double));
}

bool CholmodCholesky::analysed() const { return impl_->factor != nullptr || impl_->empty; }

bool CholmodCholesky::supernodal() const {
  return impl_->factor != nullptr && impl_->factor->is_super != 0;
}

double CholmodCholesky::factor_nonzeros() const { return impl_->common.lnz; }

double CholmodCholesky::flops() const { return impl_->common.fl; }

}  // namespace fluxion::internal
