#include "components/velocity_damping_force_field.h"

#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

ComponentSpec UniformVelocityDampingComponent::Spec() {
  return ComponentSpec{
      .name = "UniformVelocityDampingForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Linear drag f = −c·v on every point",
      .fields =
          {FieldSpec::Real("dampingCoefficient", 0.1, "c [N·s/m]").AtLeast(0).Alias("damping"),
           FieldSpec::Bool("implicit", false, "give implicit solvers the damping matrix B = c·I")},
      .aliases = {}};
}

void UniformVelocityDampingComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr || object->system < 0) return;
  std::vector<Index> dofs;
  for (Index d = 0; d < object->num_dofs(); ++d) dofs.push_back(object->offset + d);
  context.AddForceField(*object,
                        std::make_unique<UniformVelocityDamping>(
                            std::move(dofs), context.parameters().real("dampingCoefficient"),
                            context.parameters().flag("implicit")));
}

}  // namespace fluxion::internal
