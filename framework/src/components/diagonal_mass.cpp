#include "components/diagonal_mass.h"

#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "components/point_mass.h"
#include "components/topology_mass.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"
#include "mechanics/lumped_mass.h"
#include "mechanics/mass_build_hooks.h"

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
  std::optional<MassGeometry> geometry;
  if (!TopologyMasses(context, *object, masses, &geometry)) return;
  std::shared_ptr<Weight> weight = ApplyPointMasses(context, *object, masses);
  // totalMass and massDensity may change between steps (fluxion-view's panel, a SofaPython3
  // controller), the last one written wins, as SOFA's DiagonalMass update callbacks
  // (massInitialization from d_totalMass or d_massDensity, DiagonalMass.inl); each is spread
  // over the topology's elements at the rest positions exactly as at load, so a value set
  // before a step gives the bits of the same value in the XML. Only for a mass spread from the
  // topology (a vertexMass list used as given may have no topology to spread a new value over).
  auto* hooks = dynamic_cast<MassBuildHooks*>(&context);
  if (hooks == nullptr || !weight || !geometry) return;
  const auto shared = std::make_shared<const MassGeometry>(std::move(*geometry));
  // One number, finite and >= 0 (`what` names it in the refusal).
  const auto one_value = [](const char* name, const char* what, std::span<const double> v) {
    if (v.size() != 1)
      throw ConfigError(name, "has " + std::to_string(v.size()) + " numbers (expected one)");
    if (!std::isfinite(v[0]) || v[0] < 0)
      throw ConfigError(name, "is " + FormatReal(v[0]) + " (expected a finite " + what + ")");
    return v[0];
  };
  hooks->AddRuntimeMass(
      *object, "totalMass", weight, [shared, one_value](std::span<const double> v) {
        std::vector<double> spread;
        if (!SpreadTotalMass(*shared, one_value("totalMass", "mass >= 0 [kg]", v), spread))
          throw ConfigError("totalMass", "cannot be spread: the topology has no elements");
        return spread;
      });
  hooks->AddRuntimeMass(*object, "massDensity", weight,
                        [shared, one_value](std::span<const double> v) {
                          return LumpedVertexMass(*shared->topology, shared->points,
                                                  one_value("massDensity", "density >= 0", v))
                              .vertex;
                        });
}

}  // namespace fluxion::internal
