#include "analysis_support.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::analysis {

namespace {

bool IsAttributeName(const std::string& name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

}  // namespace

const ComponentInfo& FindSolver(const Host& host, const SolverChoice& solver) {
  const ComponentInfo* entry = host.FindComponent(solver.name);
  if (entry == nullptr) {
    if (const std::string plugin = Host::BundledPluginFor(solver.name); !plugin.empty()) {
      throw PluginError("solver '" + solver.name + "' is provided by plugin 'fluxion_" + plugin +
                        ".so', which is not on the plugin search path (build it, or pass its "
                        "folder with --plugin-dir)");
    }
    std::vector<std::string> solvers;
    for (const ComponentInfo* candidate : host.components())
      if (candidate->spec.kind == ComponentKind::kOdeSolver)
        solvers.push_back(candidate->spec.name);
    const std::string suggestion = SuggestClosest(solver.name, solvers);
    throw ConfigError("solver", "unknown solver '" + solver.name + "' (" +
                                    (suggestion.empty() ? "expected an ODE solver on the plugin "
                                                          "search path; see --list-solvers"
                                                        : "did you mean '" + suggestion + "'?") +
                                    ")");
  }
  if (entry->spec.kind != ComponentKind::kOdeSolver)
    throw ConfigError("solver", "'" + solver.name + "' is a " +
                                    std::string(ComponentKindName(entry->spec.kind)) +
                                    ", not an ODE solver");
  if ((entry->traits.flags & kStaticMethod) != 0)
    throw ConfigError("solver", "'" + solver.name +
                                    "' computes static equilibria, not motion (kStaticMethod): "
                                    "the oscillator analyses and convergence orders do not apply");
  for (const auto& [key, value] : solver.parameters)
    if (!IsAttributeName(key))
      throw ConfigError(key, "'" + key + "' is not an attribute name (expected --param key=value)");
  return *entry;
}

double RoundOff(double scale, long steps) {
  return std::numeric_limits<double>::epsilon() * scale * std::sqrt(static_cast<double>(steps));
}

}  // namespace fluxion::analysis
