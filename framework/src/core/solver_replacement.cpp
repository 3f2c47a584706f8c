#include "core/solver_replacement.h"

#include <algorithm>

namespace fluxion::internal {

CarriedAttributes CarryOverSolverAttributes(
    const ComponentSpec& spec, const std::vector<AttributeText>& scene,
    const std::vector<std::pair<std::string, std::string>>& given) {
  CarriedAttributes carried;
  // A given field replaces the scene's attribute for the same field, whichever name either uses.
  const auto given_field = [&](const FieldSpec* field) {
    return std::any_of(given.begin(), given.end(), [&](const auto& parameter) {
      return spec.FindField(parameter.first) == field;
    });
  };
  for (const AttributeText& attribute : scene) {
    const FieldSpec* field = spec.FindField(attribute.name);
    if (field == nullptr)
      carried.dropped.push_back(attribute);
    else if (!given_field(field))
      carried.kept.push_back(attribute);
  }
  for (const auto& [name, value] : given) carried.kept.push_back({name, value, 0});
  return carried;
}

std::string DroppedText(const std::vector<AttributeText>& dropped) {
  std::string text;
  for (std::size_t k = 0; k < dropped.size(); ++k) {
    if (k > 0) text += k + 1 == dropped.size() ? " and " : ", ";
    text += dropped[k].name + "=\"" + dropped[k].value + "\"";
  }
  return text;
}

}  // namespace fluxion::internal
