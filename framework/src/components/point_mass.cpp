#include "components/point_mass.h"

#include "mechanics/mass_build_hooks.h"
#include "mechanics/simple_force_fields.h"

namespace fluxion::internal {

std::shared_ptr<Weight> ApplyPointMasses(BuildContext& context, const ObjectModel& object,
                                         const std::vector<double>& point_mass) {
  if (object.system < 0) return nullptr;
  context.SetPointMass(object, point_mass);
  return AddWeight(context, object, point_mass);
}

std::shared_ptr<Weight> AddWeight(BuildContext& context, const ObjectModel& object,
                                  const std::vector<double>& point_mass) {
  if (object.system < 0) return nullptr;
  if (auto* framework = dynamic_cast<MassBuildHooks*>(&context))
    return framework->AddWeight(object, point_mass);
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
  return nullptr;
}

}  // namespace fluxion::internal
