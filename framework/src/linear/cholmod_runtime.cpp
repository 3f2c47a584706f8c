#include "linear/cholmod_runtime.h"

#include <cholmod.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fluxion/log.h"

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

void* CholmodBlocks::Allocate(size_t size) {
  for (Block& block : blocks_)
    if (!block.in_use && block.size == size) {
      block.in_use = true;
      return block.pointer;
    }
  void* pointer = previous_memory.malloc_function(size);
  if (pointer != nullptr && blocks_.size() < kCapacity) blocks_.push_back({pointer, size, true});
  return pointer;
}

bool CholmodBlocks::Release(void* pointer) {
  for (Block& block : blocks_)
    if (block.pointer == pointer) {
      block.in_use = false;
      return true;
    }
  return false;
}

size_t CholmodBlocks::SizeOf(const void* pointer) const {
  for (const Block& block : blocks_)
    if (block.pointer == pointer) return block.size;
  return 0;
}

void CholmodBlocks::Trim() {
  const auto unused = [](const Block& block) {
    if (!block.in_use) previous_memory.free_function(block.pointer);
    return !block.in_use;
  };
  blocks_.erase(std::remove_if(blocks_.begin(), blocks_.end(), unused), blocks_.end());
}

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

}  // namespace

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

ActiveBlocks::ActiveBlocks(CholmodBlocks& blocks) { active_blocks = &blocks; }
ActiveBlocks::~ActiveBlocks() { active_blocks = nullptr; }

// --- The BLAS CHOLMOD runs on ------------------------------------------------------------------
//
// The split factorisation (below) needs one LAPACK call of its own (dlauum) and must know
// whether two threads may call the BLAS at once. Both are looked up in the BLAS and LAPACK CHOLMOD
// brought into the process (libblas.so.3 and liblapack.so.3, whichever libraries Debian's
// alternatives point them to; RTLD_NOLOAD: never loads one), so Fluxion is not linked to them.
//  - OpenBLAS says what it is by openblas_get_parallel(): 0 for the serial build, which Debian
//    builds without USE_LOCKING (its buffer pool is shared between threads without a lock: two
//    calls at once may crash or compute wrongly), so it is never entered by two threads; 1 or 2
//    for the pthread or OpenMP builds, which lock their buffers. Those are set to one thread of
//    their own: a threaded OpenBLAS's results depend on its thread count (its dpotrf blocks by
//    n/2 on several threads and by GEMM_Q or n/4 on one, lapack/potrf/potrf_L_parallel.c against
//    potrf_L_single.c, OpenBLAS 0.3.21; its gemm and trsm differed too on some shapes, measured:
//    docs/performance.md "Direct solver").
//  - A BLAS without that function (the reference BLAS, BLIS, MKL) is reentrant.
namespace {

// OpenBLAS picks its kernels when it loads, from the CPU, unless OPENBLAS_CORETYPE names them.
// An environment may pin them to the AVX2 ones (this project's machines set
// OPENBLAS_CORETYPE=Haswell) on a CPU with AVX-512, where OpenBLAS 0.3.21 would pick its
// AVX-512 kernels itself (Cooperlake on the project's AMD Zen 5): the 128² cloth's factorisation
// is then ≈ 12 % slower (docs/performance.md "Direct solver"). Fluxion cannot change the kernels
// (the library has loaded before main runs) and does not second-guess the setting; it says so
// once, at info level.
void HintAtAvx512Kernels(void* scope) {
#if defined(__x86_64__)
  const auto corename = reinterpret_cast<char* (*)()>(dlsym(scope, "openblas_get_corename"));
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  if (corename == nullptr || forced == nullptr) return;
  const std::string name = corename();
  if ((name == "Haswell" || name == "Zen") && __builtin_cpu_supports("avx512f"))
    LogInfo("OPENBLAS_CORETYPE=" + std::string(forced) + " holds OpenBLAS to its " + name +
            " (AVX2) kernels on this AVX-512 CPU; without it OpenBLAS picks AVX-512 ones, "
            "faster for SparseLDLSolver (results differ in the last bits)");
#else
  (void)scope;
#endif
}

}  // namespace

const BlasControls& CholmodBlas() {
  static const BlasControls controls = [] {
    BlasControls found;
    void* library = dlopen("libblas.so.3", RTLD_LAZY | RTLD_NOLOAD);
    void* scope = library != nullptr ? library : RTLD_DEFAULT;
    void* lapack = dlopen("liblapack.so.3", RTLD_LAZY | RTLD_NOLOAD);
    found.dlauum = reinterpret_cast<Dlauum>(dlsym(lapack != nullptr ? lapack : scope, "dlauum_"));
    if (lapack != nullptr) dlclose(lapack);
    const auto get_parallel = reinterpret_cast<int (*)()>(dlsym(scope, "openblas_get_parallel"));
    const auto set_threads =
        reinterpret_cast<void (*)(int)>(dlsym(scope, "openblas_set_num_threads"));
    if (get_parallel == nullptr) {
      found.thread_safe = true;
    } else if (get_parallel() != 0 && set_threads != nullptr) {
      set_threads(1);
      found.thread_safe = true;
    }
    HintAtAvx512Kernels(scope);
    if (library != nullptr) dlclose(library);  // CHOLMOD keeps both loaded
    return found;
  }();
  return controls;
}

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

}  // namespace fluxion::internal
