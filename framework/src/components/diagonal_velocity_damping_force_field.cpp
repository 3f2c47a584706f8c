#include "components/diagonal_velocity_damping_force_field.h"

#include <algorithm>

#include "mechanics/diagonal_velocity_damping.h"

namespace fluxion::internal {

ComponentSpec DiagonalVelocityDampingForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "DiagonalVelocityDampingForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Linear drag with a coefficient per axis (and per point)",
      .fields = {FieldSpec::RealList("dampingCoefficient",
                                     "one vector of coefficients per point, the last for the "
                                     "rest [N·s/m]")
                     .AtLeast(0)},
      .aliases = {}};
}

void DiagonalVelocityDampingForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const std::vector<double>& c = context.parameters().reals("dampingCoefficient");
  const std::size_t dim = static_cast<std::size_t>(object->dimension);
  if (c.size() % dim != 0) {
    context.Error("DiagonalVelocityDampingForceField 'dampingCoefficient' has " +
                  std::to_string(c.size()) + " numbers (expected " + std::to_string(dim) +
                  " per point)");
    return;
  }
  if (c.empty()) return;  // SOFA: no coefficient, no force
  const std::size_t vectors = c.size() / dim;
  std::vector<Index> dofs;
  std::vector<double> coefficients;
  for (Index i = 0; i < object->num_points; ++i) {
    const std::size_t v = std::min(static_cast<std::size_t>(i), vectors - 1);
    for (std::size_t a = 0; a < dim; ++a) {
      dofs.push_back(object->offset + i * object->dimension + static_cast<Index>(a));
      coefficients.push_back(c[v * dim + a]);
    }
  }
  context.AddForceField(
      *object, std::make_unique<DiagonalVelocityDamping>(std::move(dofs), std::move(coefficients)));
}

}  // namespace fluxion::internal
