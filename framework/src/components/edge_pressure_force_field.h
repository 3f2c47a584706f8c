// SOFA's EdgePressureForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         EdgePressureForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A pressure (a force per unit length) on edges of the node's topology (Vec3). Edges are
/// selected as SOFA does, the last given winning: those whose two vertices lie strictly between
/// `dmin` and `dmax` along `normal` (x_rest·normal, when dmin ≠ dmax), then `edgeIndices`, then
/// `edges` (vertex pairs looked up in the topology).
/// - With a non-zero vector `pressure`: each selected edge of rest length L₀ gives each of its
///   two vertices pressure·L₀/2, a constant force (SOFA recomputes it at every step from the rest
///   positions, so it never changes).
/// - Else with `p_intensity` (one value per selected edge, or one for all): a pressure along each
///   edge's in-plane normal n, intensity·L·n/2 on each end (mechanics/pressure_force_fields.h,
///   EdgeNormalPressure): n = B × t normalised with B the normalised `binormal`, or without a
///   binormal n = ẑ × t turned towards the third vertex of the edge's one triangle in the node's
///   topology, t the edge's current unit direction. L is, as in SOFA, the rest length of the
///   topology's edge number i for the i-th selected edge (not of the selected edge itself).
///   No stiffness (SOFA's addDForce is empty).
/// Differences from SOFA: in the p_intensity form SOFA computes the normals from the positions
/// of the previous force evaluation (it updates them after adding the force); Fluxion from the
/// positions the force is evaluated at. Without a binormal SOFA looks for the triangles in the
/// first topology up from the node (the node's own, when it has one, as Fluxion); edges with two
/// triangles keep a leftover force in SOFA and get none in Fluxion; no triangles at all is an
/// error (SOFA presses nothing). A pair of `edges` absent from the topology is an error (SOFA
/// silently presses edge 0) and either orientation of a pair is accepted; the potential energy
/// of the constant form is −F·x (SOFA reports 0); no `topology` link (the node's own topology
/// is used).
class EdgePressureForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
