#include "components/point_mass.h"

#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

void ApplyPointMasses(BuildContext& context, const ObjectModel& object,
                      const std::vector<double>& point_mass) {
  if (object.system < 0) return;
  context.SetPointMass(object, point_mass);
  AddWeight(context, object, point_mass);
}

void AddWeight(BuildContext& context, const ObjectModel& object,
               const std::vector<double>& point_mass) {
  if (object.system < 0) return;
  // Gravity acts through the mass: f += m·g per point (SOFA's Mass::addForce).
  const std::array<double, 3> gravity = context.gravity();
  std::vector<Index> dofs;
  std::vector<double> forces;
  for (Index i = 0; i < object.num_points; ++i) {
    for (int axis = 0; axis < object.dimension; ++axis) {
      if (gravity[static_cast<std::size_t>(axis)] == 0.0) continue;
      dofs.push_back(object.offset + i * object.dimension + axis);
      forces.push_back(gravity[static_cast<std::size_t>(axis)] *
                       point_mass[static_cast<std::size_t>(i)]);
    }
  }
  if (!dofs.empty())
    context.AddForceField(object,
                          std::make_unique<ConstantForce>(std::move(dofs), std::move(forces)));
}

}  // namespace fluxion::internal
