#include "registry/sofa_fields.h"

#include <algorithm>
#include <iterator>

namespace fluxion::internal {

namespace {

struct SofaFields {
  const char* name;
  bool complete;       ///< every base class found and every field name read
  const char* fields;  ///< space-separated, sorted
};

constexpr SofaFields kSofaFields[] = {
#include "registry/sofa_fields.inc"
};

}  // namespace

bool SofaIgnoresAttribute(std::string_view component, std::string_view attribute) {
  const auto found = std::lower_bound(
      std::begin(kSofaFields), std::end(kSofaFields), component,
      [](const SofaFields& entry, std::string_view key) { return entry.name < key; });
  if (found == std::end(kSofaFields) || found->name != component || !found->complete) return false;
  std::string_view fields = found->fields;
  while (!fields.empty()) {
    const std::size_t space = fields.find(' ');
    if (fields.substr(0, space) == attribute) return false;
    if (space == std::string_view::npos) break;
    fields.remove_prefix(space + 1);
  }
  return true;
}

}  // namespace fluxion::internal
