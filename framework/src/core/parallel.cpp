#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>

#include "fluxion/errors.h"
#include "fluxion/threads.h"

#ifdef FLUXION_HAVE_OPENMP
#include <omp.h>
#endif

namespace fluxion {

namespace internal {

int ThreadCountFromEnvironment(std::string_view value) {
  long count = 0;
  std::size_t i = 0;
  while (i < value.size() && value[i] == ' ') ++i;
  const std::size_t first_digit = i;
  for (; i < value.size() && value[i] >= '0' && value[i] <= '9'; ++i) {
    count = count * 10 + (value[i] - '0');
    if (count > 4096) return 0;  // not a thread count
  }
  if (i == first_digit) return 0;
  while (i < value.size() && value[i] == ' ') ++i;
  if (i < value.size() && value[i] != ',') return 0;
  return static_cast<int>(count);
}

int DefaultThreadCount() {
#ifdef FLUXION_HAVE_OPENMP
  if (const char* value = std::getenv("OMP_NUM_THREADS"); value != nullptr)
    if (const int count = ThreadCountFromEnvironment(value); count > 0) return count;
  return std::max(1, omp_get_num_procs());
#else
  return 1;
#endif
}

namespace {
// 0 until first read or after SetThreadCount(0): the default is computed then.
std::atomic<int> configured_threads{0};
}  // namespace

}  // namespace internal

void SetThreadCount(int count) {
  if (count < 0)
    throw UsageError("SetThreadCount needs a thread count ≥ 1 (or 0 for the default), got " +
                     std::to_string(count));
  internal::configured_threads.store(count, std::memory_order_relaxed);
}

int ThreadCount() {
  int count = internal::configured_threads.load(std::memory_order_relaxed);
  if (count == 0) {
    count = internal::DefaultThreadCount();
    internal::configured_threads.store(count, std::memory_order_relaxed);
  }
  return ThreadsAvailable() ? count : 1;
}

bool ThreadsAvailable() {
#ifdef FLUXION_HAVE_OPENMP
  return true;
#else
  return false;
#endif
}

int ParallelTaskCount(Index n, Index grain) {
  const int threads = ThreadCount();
  if (threads <= 1 || grain <= 0 || n < 2 * grain) return 1;
  const Index by_size = n / grain;
  return by_size < threads ? static_cast<int>(by_size) : threads;
}

void RunParallelTasks(int tasks, void (*task)(void* context, int index), void* context) {
#ifdef FLUXION_HAVE_OPENMP
  if (tasks > 1) {
    // One task per thread, static: thread k runs task k (the ranges' split is the caller's).
#pragma omp parallel for schedule(static, 1) num_threads(tasks)
    for (int k = 0; k < tasks; ++k) task(context, k);
    return;
  }
#endif
  for (int k = 0; k < tasks; ++k) task(context, k);
}

}  // namespace fluxion
