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

}  // namespace fluxion::internal
