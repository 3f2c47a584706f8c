// Warnings that would otherwise be printed once per step — an inner iteration that misses its
// tolerance at every step printed 100 lines in a short run — reported once, then summarised.
#pragma once

#include <string>
#include <vector>

namespace fluxion::internal {

/// The repeated warnings of a run, by kind. The first occurrence of a kind is logged when it
/// happens, saying that the rest will be summarised; later ones are only counted, keeping the
/// worst (largest severity). Flush logs, for each kind that occurred again, how many times and
/// the worst occurrence. Any per-step warning of the runtime goes through here: a new kind needs
/// a key and a severity, nothing else.
class RepeatedWarnings {
 public:
  /// One occurrence of the warning kind `key` (its source and kind of trouble: "node 0: not
  /// converged"). `where` ("scene.scn:4: EulerImplicitSolver in node 'root'") heads every line
  /// of the kind; `occurrence` ("step 3 (t = 0.03): CGLinearSolver did not converge …") is
  /// this one; `severity` orders the occurrences of one kind.
  void Report(const std::string& key, const std::string& where, double severity,
              std::string occurrence);

  /// Logs one line per kind reported more than once: "WHERE: N more times like this (M in all,
  /// the last at LAST); the worst: OCCURRENCE". Then forgets every kind.
  void Flush();

 private:
  struct Kind {
    std::string key, where;
    long count = 0;
    double worst_severity = 0.0;
    std::string worst, last;  ///< the worst occurrence, and the last one's "step N (t = …)"
  };
  std::vector<Kind> kinds_;
};

}  // namespace fluxion::internal
