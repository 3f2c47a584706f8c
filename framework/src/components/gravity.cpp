#include "components/gravity.h"

namespace fluxion::internal {

ComponentSpec GravityComponent::Spec() {
  return ComponentSpec{
      .name = "Gravity",
      .kind = ComponentKind::kContext,
      .summary = "Sets the gravity of its node and subtree (overrides the root's gravity there)",
      .fields = {FieldSpec::RealList("gravity", "gravity in world coordinates [m/s²], 3 numbers")
                     .DefaultText("0 0 0")},
      .aliases = {}};
}

void GravityComponent::Build(BuildContext& context) {
  const std::vector<double>& gravity = context.parameters().reals("gravity");
  if (gravity.size() != 3) {
    context.Error("Gravity 'gravity' has " + std::to_string(gravity.size()) +
                  " numbers (expected 3, as in SOFA)");
    return;
  }
  context.SetGravity({gravity[0], gravity[1], gravity[2]});
}

}  // namespace fluxion::internal
