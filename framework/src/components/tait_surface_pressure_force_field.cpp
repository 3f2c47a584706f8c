#include "components/tait_surface_pressure_force_field.h"

#include <cmath>
#include <span>

#include "fluxion/errors.h"

#include "mechanics/step_start.h"
#include "mechanics/tait_pressure.h"

namespace fluxion::internal {

ComponentSpec TaitSurfacePressureForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "TaitSurfacePressureForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Pressure of the volume a closed surface encloses, by Tait's equation",
      .fields = {FieldSpec::Real("p0", 0.0, "rest pressure, at V = V0 [Pa]"),
                 FieldSpec::Real("B", 0.0, "bulk modulus (0: a constant pressure p0) [Pa]"),
                 FieldSpec::Real("gamma", 0.0, "Tait's exponent (1: an ideal gas, 7: water)"),
                 FieldSpec::Real("injectedVolume", 0.0,
                                 "volume injected (or extracted, < 0) since the start [m³]"),
                 FieldSpec::Real("maxInjectionRate", 1000.0, "largest injection rate [m³/s]"),
                 FieldSpec::Real(
                     "currentInjectedVolume", 0.0,
                     "the volume injected at the start, moving towards injectedVolume [m³]"),
                 FieldSpec::Real("initialVolume", 0.0,
                                 "output in SOFA: computed, the value ignored"),
                 FieldSpec::Real("v0", 0.0, "output in SOFA: computed, the value ignored"),
                 FieldSpec::Real("currentVolume", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("currentPressure", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("currentStiffness", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("initialSurfaceArea", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("currentSurfaceArea", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("volumeAfterTC", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("surfaceAreaAfterTC", 0.0, "output in SOFA: the value ignored"),
                 FieldSpec::Real("drawForceScale", 0.001, "drawing only: accepted and ignored"),
                 FieldSpec::Text("drawForceColor", "0 1 1 1", "drawing only: accepted and ignored"),
                 FieldSpec::Real("rayleighStiffness", 0.0,
                                 "a field's own Rayleigh coefficient (only 0 is supported)"),
                 FieldSpec::Link("topology", "the surface's topology (default: the node's)")},
      .aliases = {}};
}

void TaitSurfacePressureForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (object.dimension != 3) {
    context.Error("TaitSurfacePressureForceField needs a Vec3 object (found Vec" +
                  std::to_string(object.dimension) + "d)");
    return;
  }
  if (p.real("rayleighStiffness") != 0.0) {
    context.Error(
        "TaitSurfacePressureForceField 'rayleighStiffness' is not supported (expected 0: the "
        "solver's rayleighStiffness applies to every field)");
    return;
  }
  auto* step_hooks = dynamic_cast<StepStartHooks*>(&context);
  if (step_hooks == nullptr) {
    context.Error("TaitSurfacePressureForceField needs the framework's builder");
    return;
  }
  TaitPressure::Options options;
  options.p0 = p.real("p0");
  options.bulk = p.real("B");
  options.gamma = p.real("gamma");
  options.injected = p.real("injectedVolume");
  options.max_rate = p.real("maxInjectionRate");
  for (const double value : {options.p0, options.bulk, options.gamma, options.injected,
                             options.max_rate, p.real("currentInjectedVolume")})
    if (!std::isfinite(value)) {
      context.Error(
          "TaitSurfacePressureForceField: p0, B, gamma, injectedVolume, maxInjectionRate and "
          "currentInjectedVolume must be finite numbers (expected finite values)");
      return;
    }
  if (options.max_rate < 0.0) {
    context.Error("TaitSurfacePressureForceField 'maxInjectionRate' is negative (expected ≥ 0)");
    return;
  }
  const std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (!topology || (topology->triangles.empty() && topology->quads.empty())) {
    context.Error("TaitSurfacePressureForceField needs a topology with triangles or quads in '" +
                  context.node_path() + "' (expected a closed surface)");
    return;
  }
  // SOFA's computePressureTriangles: the triangles, then each quad (a, b, c, d) as (a, b, c) and
  // (c, d, a).
  std::vector<std::array<Index, 3>> triangles;
  triangles.reserve(topology->triangles.size() + 2 * topology->quads.size());
  const auto dof = [&](Index v) { return object.offset + 3 * v; };
  const auto inside = [&](Index v) { return v >= 0 && v < object.num_points; };
  for (const auto& t : topology->triangles) {
    if (!inside(t[0]) || !inside(t[1]) || !inside(t[2])) {
      context.Error(
          "TaitSurfacePressureForceField: the topology's triangles use points beyond the "
          "object's " +
          std::to_string(object.num_points) + " (expected the object's topology)");
      return;
    }
    triangles.push_back({dof(t[0]), dof(t[1]), dof(t[2])});
  }
  for (const auto& q : topology->quads) {
    if (!inside(q[0]) || !inside(q[1]) || !inside(q[2]) || !inside(q[3])) {
      context.Error(
          "TaitSurfacePressureForceField: the topology's quads use points beyond the object's " +
          std::to_string(object.num_points) + " (expected the object's topology)");
      return;
    }
    triangles.push_back({dof(q[0]), dof(q[1]), dof(q[2])});
    triangles.push_back({dof(q[2]), dof(q[3]), dof(q[0])});
  }
  // The initial volume from the rest positions (SOFA's restPosition: the initial ones here).
  Vector rest = Vector::Zero(object.offset + object.num_dofs());
  rest.tail(object.num_dofs()) = object.rest_position.size() == object.position.size()
                                     ? object.rest_position
                                     : object.position;
  auto field = std::make_unique<TaitPressure>(std::move(triangles), object.offset,
                                              object.num_points, rest, options);
  field->SetInjectedStart(p.real("currentInjectedVolume"));
  TaitPressure* tait = field.get();  // owned by the system for the simulation's lifetime
  // SOFA's handleEvent: one injection step at each AnimateBeginEvent, the first before step 0.
  step_hooks->AddStepStart([tait](long step, double dt) { tait->InjectUpTo(step + 1, dt); });
  context.AddRuntimeField("injectedVolume", [tait](std::span<const double> values) {
    if (values.size() != 1 || !std::isfinite(values[0]))
      throw ConfigError("injectedVolume", "takes one finite number");
    tait->SetInjectedTarget(values[0]);
  });
  context.AddForceField(object, std::move(field));
}

}  // namespace fluxion::internal
