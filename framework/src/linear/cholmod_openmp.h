// CHOLMOD's OpenMP regions, run on the thread that calls CHOLMOD: inline where Fluxion can
// redirect the library's OpenMP calls, else made inactive through the runtime's active levels.
#pragma once

namespace fluxion::internal {

/// Redirects, once per process, the three OpenMP entry points libcholmod imports
/// (GOMP_parallel, omp_get_num_threads, omp_get_thread_num) to functions that run its regions
/// inline on a thread inside a SerialCholmodRegions scope, and forward to the OpenMP runtime
/// elsewhere. True when the redirection is in place (see cholmod_openmp.cpp for when it is not).
bool InlineCholmodRegions();

/// How many of CHOLMOD's OpenMP regions this thread has run inline so far (for tests).
long InlineRegionsRun();

/// For the scope, every OpenMP region CHOLMOD opens runs on one thread, with the results it
/// would have on a team (its loops write disjoint entries). With InlineCholmodRegions() this
/// holds for the constructing thread only: each thread that calls CHOLMOD needs its own scope.
/// Without it, the runtime's max-active-levels is set to `fallback_active_levels` for the scope
/// (process-wide where libgomp keeps it so): 0 makes every region inactive; 1 lets the split
/// factorisation's own region over its two parts fork while CHOLMOD's regions nested in it stay
/// inactive; a negative value leaves them as they are (a thread inside that region). Scopes nest.
class SerialCholmodRegions {
 public:
  explicit SerialCholmodRegions(int fallback_active_levels);
  ~SerialCholmodRegions();
  SerialCholmodRegions(const SerialCholmodRegions&) = delete;
  SerialCholmodRegions& operator=(const SerialCholmodRegions&) = delete;

 private:
  int saved_levels_ = -1;
  bool saved_inline_ = false;
  bool inline_ = false;
};

}  // namespace fluxion::internal
