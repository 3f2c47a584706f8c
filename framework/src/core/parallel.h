// Internals of fluxion/threads.h: the thread count's default and where it is kept.
#pragma once

#include <string_view>

namespace fluxion::internal {

/// The thread count `OMP_NUM_THREADS` asks for (its first entry, e.g. "4" or "4,2"), or 0 when
/// it is unset or not a positive integer.
int ThreadCountFromEnvironment(std::string_view value);

/// The default thread count: OMP_NUM_THREADS when set, else the number of cores (1 without
/// OpenMP).
int DefaultThreadCount();

}  // namespace fluxion::internal
