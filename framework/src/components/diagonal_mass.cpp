#include "components/diagonal_mass.h"

#include "components/point_mass.h"

namespace fluxion::internal {

ComponentSpec DiagonalMassComponent::Spec() {
  return ComponentSpec{
      .name = "DiagonalMass",
      .kind = ComponentKind::kMass,
      .summary = "A lumped mass per point, given point by point",
      .fields =
          {FieldSpec::RealList("vertexMass", "mass of each point [kg], one per point").AtLeast(0),
           FieldSpec::OptionalReal("totalMass", "total mass [kg]: not supported (give vertexMass)"),
           FieldSpec::OptionalReal("massDensity", "mass density: not supported (give vertexMass)"),
           FieldSpec::Bool("computeMassOnRest", true, "SOFA option, ignored")},
      .aliases = {}};
}

void DiagonalMassComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const Parameters& p = context.parameters();
  if (p.has("totalMass") || p.has("massDensity")) {
    context.Error(
        "DiagonalMass 'totalMass'/'massDensity' are not supported (expected 'vertexMass', "
        "one value per point)");
    return;
  }
  const std::vector<double>& masses = p.reals("vertexMass");
  if (static_cast<Index>(masses.size()) != object->num_points) {
    context.Error("DiagonalMass 'vertexMass' has " + std::to_string(masses.size()) +
                  " values (expected one per point: " + std::to_string(object->num_points) + ")");
    return;
  }
  ApplyPointMasses(context, *object, masses);
}

}  // namespace fluxion::internal
