// Counts heap allocations of the whole process, for the "no allocation in a step" check.
#pragma once

namespace fluxion::conformance {

/// False under AddressSanitizer, which owns malloc: the counter then stays at 0.
bool CountsAllocations();

/// malloc, calloc, realloc, aligned_alloc and posix_memalign calls so far, in every thread and
/// every shared library (plugins included).
long AllocationCount();

}  // namespace fluxion::conformance
