// Threads: how many cores Fluxion's loops use, and the parallel loop they use them with.
//
// Force evaluation (springs, per-point fields), the Solver base's passes over the state and the
// bundled explicit solvers' vector updates split their loops over contiguous ranges, one per
// thread (OpenMP, when the library was built with it). Results do not depend on the thread count,
// to the bit: every loop either writes each entry from one thread only, or (springs) adds each
// point's terms in the same order whatever the split.
#pragma once

#include <type_traits>
#include <utility>

#include "fluxion/export.h"
#include "fluxion/types.h"

namespace fluxion {

/// Sets how many threads Fluxion's loops use from now on (process-wide). `count` ≥ 1; 0 restores
/// the default: `OMP_NUM_THREADS` when it is set, else every core. Throws UsageError for a
/// negative count. Without OpenMP (a compiler that lacks it) the count is kept but loops run on
/// one thread. Not to be called while a step is running on another thread.
FLUXION_API void SetThreadCount(int count);

/// The number of threads loops may use (≥ 1; 1 when the library was built without OpenMP).
FLUXION_API int ThreadCount();

/// True when the library was built with OpenMP (ThreadCount() can exceed 1).
FLUXION_API bool ThreadsAvailable();

/// How many ranges ParallelFor splits `n` items into: one per thread, but none smaller than
/// `grain` items (a parallel region costs microseconds: small loops stay on the calling thread).
FLUXION_API int ParallelTaskCount(Index n, Index grain);

/// Runs task(context, k) for k = 0 … tasks − 1, each on its own thread, and returns when all have
/// finished. `tasks` ≤ ThreadCount(). The tasks must not throw. ParallelFor is the usual entry.
FLUXION_API void RunParallelTasks(int tasks, void (*task)(void* context, int index), void* context);

/// The k-th of `tasks` contiguous ranges of [0, n): [n·k/tasks, n·(k+1)/tasks).
inline std::pair<Index, Index> TaskRange(Index n, int tasks, int k) {
  return {n * k / tasks, n * (k + 1) / tasks};
}

/// Calls body(begin, end) on contiguous ranges covering [0, n), in parallel when n is large
/// enough (ParallelTaskCount(n, grain) > 1), else once with (0, n) on the calling thread. For
/// loops whose iterations write disjoint entries (element-wise vector updates); the body must not
/// throw nor allocate.
template <class Body>
void ParallelFor(Index n, Index grain, Body&& body) {
  const int tasks = ParallelTaskCount(n, grain);
  if (tasks <= 1) {
    body(Index{0}, n);
    return;
  }
  struct Context {
    std::remove_reference_t<Body>* body;
    Index n;
    int tasks;
  } context{&body, n, tasks};
  RunParallelTasks(
      tasks,
      [](void* c, int k) {
        const Context& ctx = *static_cast<const Context*>(c);
        const auto [begin, end] = TaskRange(ctx.n, ctx.tasks, k);
        (*ctx.body)(begin, end);
      },
      &context);
}

/// Grain of element-wise vector loops (items per thread at least): a few microseconds of work,
/// well above the cost of starting a parallel region.
inline constexpr Index kVectorGrain = 16384;

}  // namespace fluxion
