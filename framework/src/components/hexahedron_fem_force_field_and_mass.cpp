#include "components/hexahedron_fem_force_field_and_mass.h"

#include <Eigen/Core>
#include <string>
#include <vector>

#include "components/hexahedron_fem_force_field.h"
#include "components/point_mass.h"
#include "mechanics/sparse_grid.h"

namespace fluxion::internal {

ComponentSpec HexahedronFEMForceFieldAndMassComponent::Spec() {
  ComponentSpec spec = HexahedronFEMForceFieldComponent::Spec();
  spec.name = "HexahedronFEMForceFieldAndMass";
  spec.kind = ComponentKind::kMass;
  spec.aliases = {};  // ParallelHexahedronFEMForceField is the force field's
  spec.summary =
      "HexahedronFEMForceField's element with SOFA's mass of its hexahedra (density) and the "
      "weight";
  spec.fields.push_back(FieldSpec::Real("density", 1.0, "mass density ρ [kg/m³]").AtLeast(0));
  spec.fields.push_back(FieldSpec::Bool(
      "lumpedMass", false, "each point's mass is its row sum of the element mass matrices"));
  spec.fields.push_back(FieldSpec::RealList(
      "massMatrices", "SOFA's output of the element mass matrices: ignored as an input"));
  spec.fields.push_back(FieldSpec::Bool(
      "separateGravity", false, "SOFA option: only the default (gravity as a force) is supported"));
  return spec;
}

void HexahedronFEMForceFieldAndMassComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  if (p.flag("separateGravity")) {
    context.Error(context.type() +
                  " 'separateGravity=1' is not supported (expected 0: gravity as a force)");
    return;
  }
  const std::shared_ptr<const Topology> topology = AddHexahedronFem(context);
  if (!topology) return;  // reported
  const ObjectModel& object = *context.NodeObject();
  if (object.system < 0) return;  // static: no mass to set
  const double density = p.real("density");
  // SOFA's integrateMass with every corner sign squared (= 1), its terms in its order: 8/27·ρ,
  // the same number for every entry.
  const double entry = (1.0 / 72.0 + 1.0 / 72.0 + 1.0 / 216.0 + 1.0 / 24.0 + 1.0 / 8.0 +
                        1.0 / 72.0 + 1.0 / 24.0 + 1.0 / 24.0) *
                       density;
  const auto n = static_cast<std::size_t>(object.num_points);
  std::vector<double> diagonal(n, 0.0), weight(n, 0.0);
  const bool lumped = p.flag("lumpedMass");
  for (std::size_t h = 0; h < topology->hexahedra.size(); ++h) {
    const auto& hexa = topology->hexahedra[h];
    const auto X = [&](int a) -> Eigen::Vector3d {
      return object.rest_position.segment<3>(3 * hexa[static_cast<std::size_t>(a)]);
    };
    double volume = (X(1) - X(0)).norm() * (X(3) - X(0)).norm() * (X(4) - X(0)).norm();
    // A sparse grid cell's mass is scaled by its filling (SOFA's getMassCoef): the element matrix
    // after it is integrated, the weight through the volume.
    const double filling =
        topology->sparse_grid ? topology->sparse_grid->mass_coefficients[h] : 1.0;
    const double c = volume * entry * filling;
    volume *= filling;
    for (int a = 0; a < 8; ++a) {
      const auto point = static_cast<std::size_t>(hexa[static_cast<std::size_t>(a)]);
      weight[point] += volume * density / 8.0;  // SOFA's _particleMasses
      diagonal[point] += lumped ? 8.0 * c : c;
      if (lumped) continue;
      for (int b = a + 1; b < 8; ++b)
        context.AddMassCoupling(object, hexa[static_cast<std::size_t>(a)],
                                hexa[static_cast<std::size_t>(b)], c);
    }
  }
  context.SetPointMass(object, diagonal);
  AddWeight(context, object, weight);
}

}  // namespace fluxion::internal
