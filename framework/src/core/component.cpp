#include "fluxion/component.h"

#include "fluxion/projective_constraint.h"

namespace fluxion {

BuildContext::~BuildContext() = default;

void BuildContext::AddRuntimeField(const std::string& /*field*/, RuntimeFieldSetter /*setter*/) {}

std::optional<FieldValue> BuildContext::ContextOutput(std::string_view /*type*/,
                                                      std::string_view /*name*/,
                                                      std::string_view /*output*/) {
  return std::nullopt;
}

std::vector<const ObjectModel*> BuildContext::LinkedObjects(std::string_view /*field*/) {
  Error("<" + type() + "> needs a builder with multi-links (SOFA's lists of links)");
  return {};
}

void BuildContext::MapObjectFromParents(const ObjectModel& /*child*/,
                                        std::span<const ObjectModel* const> /*parents*/,
                                        const SparseMatrix& /*jacobian*/) {
  Error("<" + type() + "> needs a builder with multi-mappings");
}

// Out of line: the vtable lives in libfluxion, one copy for every plugin.
ProjectiveConstraint::~ProjectiveConstraint() = default;
bool ProjectiveConstraint::HoldsPoints(double /*time*/) const { return true; }

}  // namespace fluxion
