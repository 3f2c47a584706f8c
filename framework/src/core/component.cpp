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

// Out of line: the vtable lives in libfluxion, one copy for every plugin.
ProjectiveConstraint::~ProjectiveConstraint() = default;
bool ProjectiveConstraint::HoldsPoints(double /*time*/) const { return true; }

}  // namespace fluxion
