#include "components/uniform_mass.h"

#include "components/point_mass.h"

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
  ApplyPointMasses(context, *object,
                   std::vector<double>(static_cast<std::size_t>(object->num_points), mass));
}

}  // namespace fluxion::internal
