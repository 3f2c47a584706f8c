#include "components/surface_pressure_force_field.h"

#include <cmath>

#include "mechanics/pressure_force_fields.h"
#include "mechanics/step_start.h"

namespace fluxion::internal {

ComponentSpec SurfacePressureForceFieldComponent::Spec() {
  return ComponentSpec{
      .name = "SurfacePressureForceField",
      .kind = ComponentKind::kForceField,
      .summary = "Pressure on the triangles and quads of a surface",
      .fields =
          {FieldSpec::Real("pressure", 0.0, "pressure, force per unit area [Pa]"),
           FieldSpec::RealList("min", "lower corner of the selection box [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("max", "upper corner of the selection box (both 0: no box) [m]")
               .DefaultText("0 0 0"),
           FieldSpec::IndexList("triangleIndices", "triangles pressed (default: all, in the box)"),
           FieldSpec::IndexList("quadIndices", "quads pressed (default: all, in the box)"),
           FieldSpec::Bool("pulseMode", false,
                           "cyclic pressure: a ramp from 0 to the pressure and back to the lower "
                           "bound, advanced by pressureSpeed·dt at each step"),
           FieldSpec::Real("pressureLowerBound", 0.0, "pulse mode only [Pa]"),
           FieldSpec::Real("pressureSpeed", 0.0,
                           "pulse mode only, 0 for the pressure's magnitude [Pa/s]"),
           FieldSpec::Bool("volumeConservationMode", false,
                           "scale the pressure by rest volume / current volume"),
           FieldSpec::Bool("useTangentStiffness", true,
                           "add the pressure's (non-symmetric) tangent stiffness"),
           FieldSpec::Real("defaultVolume", -1.0,
                           "rest volume of volumeConservationMode, -1 for the initial one [m³]"),
           FieldSpec::RealList("mainDirection",
                               "scale each triangle's force by |n·d| (0 0 0: no scaling)")
               .DefaultText("0 0 0"),
           FieldSpec::Link("topology", "the topology (only the node's own is supported)"),
           FieldSpec::Bool("exactStiffness", false,
                           "Fluxion: differentiate the main direction and the quads too")},
      .aliases = {}};
}

namespace {

// The elements pressed: the listed ones, or every element of the topology. False after
// reporting an index out of range.
template <std::size_t N>
bool PressedElements(BuildContext& context, const ObjectModel& object,
                     const std::vector<std::array<Index, N>>& all, const std::vector<Index>& listed,
                     const char* what, std::vector<std::array<Index, N>>& out) {
  std::vector<std::array<Index, N>> chosen;
  if (listed.empty()) {
    chosen = all;
  } else {
    for (const Index i : listed) {
      if (i >= static_cast<Index>(all.size())) {
        context.Error(std::string("SurfacePressureForceField '") + what + "Indices' has " +
                      std::to_string(i) + " (expected indices below the topology's " +
                      std::to_string(all.size()) + " " + what + "s)");
        return false;
      }
      chosen.push_back(all[static_cast<std::size_t>(i)]);
    }
  }
  for (const auto& element : chosen) {
    std::array<Index, N> firsts;
    for (std::size_t v = 0; v < N; ++v) {
      if (element[v] >= object.num_points) {
        context.Error(std::string("SurfacePressureForceField: the topology's ") + what +
                      "s use points beyond the object's " + std::to_string(object.num_points));
        return false;
      }
      firsts[v] = object.offset + element[v] * 3;
    }
    out.push_back(firsts);
  }
  return true;
}

bool Vector3(BuildContext& context, const char* field, std::array<double, 3>& out) {
  const std::vector<double>& values = context.parameters().reals(field);
  if (values.size() != 3) {
    context.Error(std::string("SurfacePressureForceField '") + field + "' has " +
                  std::to_string(values.size()) + " numbers (expected 3)");
    return false;
  }
  out = {values[0], values[1], values[2]};
  return true;
}

}  // namespace

void SurfacePressureForceFieldComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (object.dimension != 3) {
    context.Error("SurfacePressureForceField needs a Vec3 object (found Vec" +
                  std::to_string(object.dimension) + "d)");
    return;
  }
  auto* step_hooks = dynamic_cast<StepStartHooks*>(&context);
  if (p.flag("pulseMode") && step_hooks == nullptr) {
    context.Error("SurfacePressureForceField 'pulseMode' needs the framework's builder");
    return;
  }
  if (p.has("topology") && !p.text("topology").empty()) {
    context.Error(
        "SurfacePressureForceField 'topology' links are not supported yet (expected the "
        "topology of its own node)");
    return;
  }
  const std::shared_ptr<const Topology> topology = context.topology();
  if (!topology || (topology->triangles.empty() && topology->quads.empty())) {
    context.Error("SurfacePressureForceField needs a topology with triangles or quads in node '" +
                  context.node_path() + "'");
    return;
  }
  SurfacePressure::Options options;
  options.pressure = p.real("pressure");
  options.tangent = p.flag("useTangentStiffness");
  options.exact_stiffness = p.flag("exactStiffness");
  if (p.flag("pulseMode")) {
    options.pulse = true;
    options.pulse_lower = p.real("pressureLowerBound");
    options.pulse_speed = p.real("pressureSpeed");
    if (options.pulse_speed < 0.0 || (options.pulse_speed == 0.0 && options.pressure == 0.0)) {
      context.Error(
          "SurfacePressureForceField: pulseMode with a negative pressureSpeed, or with neither a "
          "pressureSpeed nor a pressure (expected a pressureSpeed > 0)");
      return;
    }
    if (options.pulse_speed == 0.0) {
      // SOFA's init: the same default, with a warning.
      options.pulse_speed = std::abs(options.pressure);
      context.Warn(
          "SurfacePressureForceField: pulseMode without pressureSpeed ramps at |pressure| per "
          "second (as SOFA does; expected a pressureSpeed)");
    }
  }
  if (!Vector3(context, "mainDirection", options.main_direction) ||
      !Vector3(context, "min", options.box_min) || !Vector3(context, "max", options.box_max))
    return;
  const std::array<double, 3> zero = {0, 0, 0};
  options.box = options.box_min != zero || options.box_max != zero;
  options.box_triangles = p.indices("triangleIndices").empty();
  options.box_quads = p.indices("quadIndices").empty();
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads;
  if (!PressedElements(context, object, topology->triangles, p.indices("triangleIndices"),
                       "triangle", triangles) ||
      !PressedElements(context, object, topology->quads, p.indices("quadIndices"), "quad", quads))
    return;
  if (p.flag("volumeConservationMode")) {
    if (options.exact_stiffness) {
      context.Error(
          "SurfacePressureForceField: exactStiffness with volumeConservationMode is not "
          "supported (its tangent couples every vertex; expected one of them)");
      return;
    }
    // SOFA takes the rest volume at its first force evaluation, from the initial positions.
    options.rest_volume = p.real("defaultVolume");
    if (options.rest_volume == -1.0) {
      Vector x = Vector::Zero(object.offset + object.num_dofs());
      x.tail(object.num_dofs()) = object.position;
      options.rest_volume = SurfacePressure(triangles, quads, options).Volume(x);
    }
  }
  auto field = std::make_unique<SurfacePressure>(std::move(triangles), std::move(quads), options);
  if (options.pulse) {
    // SOFA advances the ramp at the force evaluation that starts step n: n + 1 advances by then.
    SurfacePressure* pulsed = field.get();  // owned by the system for the simulation's lifetime
    step_hooks->AddStepStart(
        [pulsed](long step, double dt) { pulsed->AdvancePulse(step + 1, dt); });
  }
  context.AddForceField(object, std::move(field));
}

}  // namespace fluxion::internal
