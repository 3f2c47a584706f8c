// The executable replaces malloc and its siblings, forwarding to glibc's __libc_* entry points and
// counting each call (the technique of tests/solvers/papers/step_allocation_test.cpp). malloc
// itself is replaced, not only operator new, because Eigen allocates its vectors with malloc; the
// executable's definitions interpose for the plugins and the framework library too.
#include "conformance/allocation_counter.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define FLUXION_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLUXION_COUNT_MALLOC 0
#endif
#endif
#ifndef FLUXION_COUNT_MALLOC
#define FLUXION_COUNT_MALLOC 1
#endif

namespace {
// Atomic because a plugin or a logger may allocate from another thread; relaxed order suffices
// for a count read between steps of the test's thread.
std::atomic<long> allocations{0};
}  // namespace

#if FLUXION_COUNT_MALLOC
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);

void* malloc(std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(pointer, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** result, std::size_t alignment, std::size_t size) noexcept {
  allocations.fetch_add(1, std::memory_order_relaxed);
  *result = __libc_memalign(alignment, size);
  return *result == nullptr ? ENOMEM : 0;
}
}  // extern "C"
#endif

namespace fluxion::conformance {

bool CountsAllocations() { return FLUXION_COUNT_MALLOC != 0; }

long AllocationCount() { return allocations.load(std::memory_order_relaxed); }

}  // namespace fluxion::conformance
