#include "components/nodal_mass_density.h"

namespace fluxion::internal {

ComponentSpec NodalMassDensityComponent::Spec() {
  return ComponentSpec{
      .name = "NodalMassDensity",
      .kind = ComponentKind::kContext,
      .summary = "A mass density per node, for the FEMMass of its node and the nodes below",
      .fields = {FieldSpec::RealList("property",
                                     "mass density of each node [kg/m³]; nodes past the end of "
                                     "the list take its last value")
                     .AtLeast(0)
                     .DefaultText("1")},
      .aliases = {}};
}

void NodalMassDensityComponent::Build(BuildContext& context) {
  context.SetOutput("property", context.parameters().reals("property"));
}

}  // namespace fluxion::internal
