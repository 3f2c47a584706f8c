#include "registry/sofa_catalog.h"

#include <algorithm>
#include <iterator>

namespace fluxion::internal {

namespace {

constexpr SofaComponent kSofaComponents[] = {
#include "registry/sofa_catalog.inc"
};

}  // namespace

const SofaComponent* FindSofaComponent(std::string_view name) {
  const auto found = std::lower_bound(
      std::begin(kSofaComponents), std::end(kSofaComponents), name,
      [](const SofaComponent& entry, std::string_view key) { return entry.name < key; });
  return found != std::end(kSofaComponents) && found->name == name ? found : nullptr;
}

const char* RetiredSofaComponent(std::string_view name) {
  // SOFA's implicit Euler with its own conjugate gradient, before the ODE and linear solvers were
  // separated (examples/Component/Topology/... and Tutorials/Topologies still write it).
  static constexpr const char* kCgImplicit =
      "SOFA's old implicit Euler with its own conjugate gradient: write EulerImplicitSolver with "
      "a CGLinearSolver";
  struct Retired {
    std::string_view name;
    const char* replacement;
  };
  static constexpr Retired kRetired[] = {{"CGImplicit", kCgImplicit},
                                         {"CGImplicitSolver", kCgImplicit}};
  for (const Retired& retired : kRetired)
    if (retired.name == name) return retired.replacement;
  return nullptr;
}

}  // namespace fluxion::internal
