// The build context's part for what a scene may change between steps and what the system
// reports per component: gravity and the weights that follow it (build/gravity_sources.h),
// masses changeable at run time (UniformMass totalMass/vertexMass), named runtime fields
// (fluxion-view's panel, the Sofa package's setters) and the records of each component's mass
// for ComponentMatrix. Split from component_build_context.cpp, which keeps the elements, links,
// objects, mappings and the memory budget.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "build/component_build_context.h"
#include "build/gravity_sources.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

std::array<double, 3> ComponentBuildContext::gravity() const {
  for (const Node* node = &node_; node != nullptr; node = node->parent)
    if (node->gravity) return *node->gravity;
  const std::vector<double>& root = state_.root->parameters.reals("gravity");
  return {root[0], root[1], root[2]};
}

void ComponentBuildContext::SetGravity(const std::array<double, 3>& gravity) {
  node_.gravity = gravity;
  // Changeable between steps: the masses of the subtree (built later, in pass 3) follow it.
  auto source = std::make_shared<GravitySource>();
  source->gravity = gravity;
  node_.gravity_source = source;
  AddRuntimeField("gravity",
                  [source](std::span<const double> values) { source->Set(GravityValue(values)); });
}

std::shared_ptr<GravitySource> ComponentBuildContext::GravitySourceHere() {
  for (const Node* node = &node_; node != nullptr; node = node->parent)
    if (node->gravity_source) return node->gravity_source;
  if (!state_.root_gravity) state_.root_gravity = RootGravitySource(state_);
  return state_.root_gravity;
}

std::shared_ptr<Weight> ComponentBuildContext::AddWeight(const ObjectModel& object,
                                                         const std::vector<double>& point_mass) {
  FLUXION_DEMAND(static_cast<Index>(point_mass.size()) == object.num_points);
  if (object.system < 0 || object.num_points == 0) return nullptr;
  const std::shared_ptr<GravitySource> source = GravitySourceHere();
  const auto count = static_cast<std::size_t>(object.num_dofs());
  std::vector<Index> dofs(count);
  for (std::size_t k = 0; k < count; ++k) dofs[k] = object.offset + static_cast<Index>(k);
  // Every axis, also those where g is 0 now: 0·m_i adds +0 to the force, the same bits as no
  // entry (but for the sign of a zero), and leaves room for any later gravity.
  auto force = std::make_unique<ConstantForce>(std::move(dofs), std::vector<double>(count));
  auto weight = std::make_shared<Weight>(force.get(), object.dimension, point_mass);
  weight->Apply(source->gravity);
  force->AttachWeight(weight);
  source->weights.push_back(weight);
  // Recorded for ComponentMatrix (a zero stiffness) only when g ≠ 0 at load, as when the weight
  // existed only then: a mass under no gravity still has no stiffness matrix of its own.
  bool pulled = false;
  for (int axis = 0; axis < object.dimension && axis < 3; ++axis)
    pulled = pulled || source->gravity[static_cast<std::size_t>(axis)] != 0.0;
  if (pulled) {
    AddForceField(object, std::move(force));
  } else if (SystemParts* parts = PartsFor(object)) {
    parts->force_fields.push_back(std::move(force));
    ++state_.force_fields_added;
  }
  return weight;
}

void ComponentBuildContext::AddRuntimeMass(const ObjectModel& object, const std::string& field,
                                           std::shared_ptr<Weight> weight, PointMassRule rule) {
  if (object.system < 0 || object.mapped_from >= 0 || !weight) return;
  const SystemParts& parts = state_.parts[static_cast<std::size_t>(object.system)];
  // A consistent mass's couplings would have to change with it: only diagonal masses are
  // changeable (UniformMass).
  for (const auto& entry : parts.mass_couplings)
    if (entry.row() >= object.offset && entry.row() < object.offset + object.num_dofs()) return;
  auto change = std::make_shared<MassChange>();
  change->system = object.system;
  change->first_dof = object.offset;
  change->dof_mass = Vector::Zero(object.num_dofs());
  const std::shared_ptr<GravitySource> source = GravitySourceHere();
  const Index points = object.num_points;
  const int dimension = object.dimension;
  RuntimeFieldSetter setter = [field, rule = std::move(rule), weight, source, change, points,
                               dimension](std::span<const double> values) {
    // The rule describes the loaded mesh; after a change followed in place (points removed,
    // masses re-summed) it no longer does, and M would be written for the wrong points.
    if (weight->changed_in_place())
      throw ConfigError(field,
                        "cannot change after the mesh changed in place (a topological change "
                        "re-summed or removed its points; expected a change before it)");
    const std::vector<double> mass = rule(values);
    FLUXION_DEMAND(static_cast<Index>(mass.size()) == points);
    weight->SetPointMass(mass, source->gravity);
    for (Index i = 0; i < points; ++i)
      for (int axis = 0; axis < dimension; ++axis)
        change->dof_mass[i * dimension + axis] = mass[static_cast<std::size_t>(i)];
  };
  state_.runtime_fields.push_back(
      RuntimeField{node_.path + "/" + component_.name, field, std::move(setter), change});
}

void ComponentBuildContext::RecordMass(const ObjectModel& object) {
  const std::string path = node_.path + "/" + component_.name;
  const int index = IndexOf(object);
  // A component's records are the last ones while it is built: only those are compared, so that
  // building stays linear in the number of masses.
  for (auto source = state_.matrix_sources.rbegin();
       source != state_.matrix_sources.rend() && source->component == path; ++source)
    if (source->kind == ComponentMatrixKind::kMass && source->object == index) return;
  state_.matrix_sources.push_back(MatrixSource{path, ComponentMatrixKind::kMass, index, nullptr});
}

void ComponentBuildContext::AddRuntimeField(const std::string& field, RuntimeFieldSetter setter) {
  state_.runtime_fields.push_back(
      RuntimeField{node_.path + "/" + component_.name, field, std::move(setter), nullptr});
}

}  // namespace fluxion::internal
