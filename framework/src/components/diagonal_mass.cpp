#include "components/diagonal_mass.h"

#include "components/point_mass.h"
#include "components/topology_mass.h"

namespace fluxion::internal {

ComponentSpec DiagonalMassComponent::Spec() {
  return ComponentSpec{.name = "DiagonalMass",
                       .kind = ComponentKind::kMass,
                       .summary =
                           "A lumped mass per point: given, or spread from the topology's "
                           "elements by a total mass or a density",
                       .fields = TopologyMassFields(),
                       .aliases = {}};
}

void DiagonalMassComponent::Build(BuildContext& context) {
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  std::vector<double> masses;
  if (!TopologyMasses(context, *object, masses)) return;
  ApplyPointMasses(context, *object, masses);
}

}  // namespace fluxion::internal
