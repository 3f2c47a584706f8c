#include "components/uniform_mass.h"

#include <cmath>
#include <string>

#include "components/point_mass.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"
#include "mechanics/mass_build_hooks.h"

namespace fluxion::internal {

ComponentSpec UniformMassComponent::Spec() {
  return ComponentSpec{
      .name = "UniformMass",
      .kind = ComponentKind::kMass,
      .summary =
          "The same lumped mass on every point of the node's object; gravity acts through it",
      .fields = {FieldSpec::OptionalReal("vertexMass", "mass of each point [kg]").AtLeast(0),
                 FieldSpec::OptionalReal("totalMass",
                                         "total mass [kg], spread evenly (wins over vertexMass)")
                     .AtLeast(0),
                 FieldSpec::Bool("separateGravity", false,
                                 "SOFA option: only the default (gravity as a force) is supported"),
                 FieldSpec::Bool("compute_mapping_inertia", false, "SOFA option, ignored"),
                 FieldSpec::Bool("preserveTotalMass", false, "SOFA option, ignored"),
                 FieldSpec::Link("topology",
                                 "the topology (accepted, unused: the mass is spread over the "
                                 "object's points; SOFA uses the link for topological changes)")},
      .aliases = {}};
}

void UniformMassComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  if (p.flag("separateGravity")) {
    context.Error(
        "UniformMass 'separateGravity=1' is not supported (expected 0: gravity as a force)");
    return;
  }
  double mass = 0.0;
  if (p.has("totalMass")) {
    if (p.has("vertexMass"))
      context.Warn("UniformMass has both totalMass and vertexMass: totalMass wins (as in SOFA)");
    mass = p.real("totalMass") / static_cast<double>(object->num_points);
  } else if (p.has("vertexMass")) {
    mass = p.real("vertexMass");
  } else {
    context.Error("UniformMass needs 'vertexMass' or 'totalMass' (SOFA has no default mass)");
    return;
  }
  const auto points = static_cast<std::size_t>(object->num_points);
  std::shared_ptr<Weight> weight =
      ApplyPointMasses(context, *object, std::vector<double>(points, mass));
  // Both fields may change between steps (fluxion-view's panel, a SofaPython3 controller), the
  // last one written wins (SOFA's update callbacks updateFromTotalMass / updateFromVertexMass in
  // UniformMass.inl; SOFA refuses 0, Fluxion accepts it as its XML does); each point's mass is
  // computed as above (totalMass / n), so a value set before a step gives the bits of the same
  // value in the XML.
  auto* hooks = dynamic_cast<MassBuildHooks*>(&context);
  if (hooks == nullptr || !weight) return;
  for (const bool total : {false, true}) {
    const std::string name = total ? "totalMass" : "vertexMass";
    hooks->AddRuntimeMass(*object, name, weight, [name, total, points](std::span<const double> v) {
      if (v.size() != 1)
        throw ConfigError(name, "has " + std::to_string(v.size()) + " numbers (expected one)");
      if (!std::isfinite(v[0]) || v[0] < 0)
        throw ConfigError(name, "is " + FormatReal(v[0]) + " (expected a finite mass >= 0 [kg])");
      return std::vector<double>(points, total ? v[0] / static_cast<double>(points) : v[0]);
    });
  }
}

}  // namespace fluxion::internal
