// SOFA's HexahedronFEMForceField as a scene component: its fields, the hexahedra of its
// topology (RegularGridTopology, HexahedronSetTopologyContainer, MeshTopology, mesh loaders with
// hexahedra), and a HexahedronFem (mechanics/hexahedron_fem.h, where the formulas and the
// deliberate differences from SOFA are) added to its node's object.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         HexahedronFEMForceField.{h,inl} (constructor: fields and defaults; init, reinit) and
//         BaseLinearElasticityFEMForceField.{h,inl} (youngModulus, poissonRatio per element).
//
// Where the component differs from SOFA, each for a reason:
// - bad values are load errors where SOFA warns and goes on with a replacement (a negative
//   youngModulus or a poissonRatio outside [0, 0.5) become 5000 and 0.45) or goes on silently
//   (an unknown method matches none of SOFA's cases: its `method` is never set and no force is
//   computed);
// - on a SparseGridTopology each element's stiffness is scaled by the cell's filling, as SOFA's
//   getStiffnessCoef (½ for a boundary cell with fillWeighted), and HexahedronFEMForceFieldAndMass
//   scales its element masses and weights by getMassCoef;
// - stiffnessMatrices (SOFA's per-element Kₑ, an output) and initialPoints (overwritten at init
//   with the rest positions) are accepted and ignored, as are the GPU options gatherPt and
//   gatherBsize (and, as for every component, SOFA's drawing options draw*, show*);
// - SOFA's class has no `assembling`/computeGlobalMatrix field (the tetrahedron's has): neither
//   has this one, and a scene that sets it is refused as for any unknown field.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads HexahedronFEMForceField's fields from `context`, adds the force field to the node's
/// object and returns the topology whose hexahedra it uses, or null after reporting an error
/// (HexahedronFEMForceFieldAndMass builds its element the same way). `check`, when given, is
/// called with the hexahedra and the rest positions before anything is built and refuses them
/// by returning false after reporting (HexahedralFEMForceField's cubes).
using HexahedraCheck = bool (*)(BuildContext& context,
                                const std::vector<std::array<Index, 8>>& hexahedra,
                                const Vector& rest_position, int dimension);
std::shared_ptr<const Topology> AddHexahedronFem(BuildContext& context,
                                                 HexahedraCheck check = nullptr);

class HexahedronFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
