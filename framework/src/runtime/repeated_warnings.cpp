#include "runtime/repeated_warnings.h"

#include <algorithm>
#include <utility>

#include "fluxion/log.h"

namespace fluxion::internal {

namespace {
// "step 3 (t = 0.03)" of an occurrence "step 3 (t = 0.03): what": the text before ": ".
std::string When(const std::string& occurrence) {
  return occurrence.substr(0, occurrence.find(": "));
}
}  // namespace

void RepeatedWarnings::Report(const std::string& key, const std::string& where, double severity,
                              std::string occurrence) {
  auto kind = std::find_if(kinds_.begin(), kinds_.end(),
                           [&](const Kind& known) { return known.key == key; });
  if (kind == kinds_.end()) {
    // The first of its kind: said now, with what happens to the next ones.
    LogWarn(where + ": " + occurrence +
            " (further steps like this are counted and summarised at the end of the run)");
    kinds_.push_back({key, where, 1, severity, occurrence, When(occurrence)});
    return;
  }
  ++kind->count;
  kind->last = When(occurrence);
  if (severity > kind->worst_severity) {
    kind->worst_severity = severity;
    kind->worst = std::move(occurrence);
  }
}

void RepeatedWarnings::Flush() {
  for (const Kind& kind : kinds_) {
    if (kind.count < 2) continue;
    LogWarn(kind.where + ": " + std::to_string(kind.count - 1) + " more time" +
            (kind.count == 2 ? "" : "s") + " like this (" + std::to_string(kind.count) +
            " in all, the last at " + kind.last + "); the worst: " + kind.worst);
  }
  kinds_.clear();
}

}  // namespace fluxion::internal
