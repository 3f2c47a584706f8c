// SOFA's EdgePressureForceField.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         EdgePressureForceField.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A pressure (a force per unit length, a vector `pressure`) on edges of the node's topology
/// (Vec3): each selected edge of rest length L₀ gives each of its two vertices pressure·L₀/2, a
/// constant force (SOFA recomputes it at every step from the rest positions, so it never
/// changes). Edges are selected as SOFA does, the last given winning: those whose two vertices
/// lie strictly between `dmin` and `dmax` along `normal` (x_rest·normal, when dmin ≠ dmax), then
/// `edgeIndices`, then `edges` (vertex pairs looked up in the topology).
/// Differences from SOFA: with a zero `pressure` SOFA's `p_intensity` modes (a force along the
/// edge's in-plane normal, taken from the previous evaluation's positions) are refused; a pair
/// of `edges` absent from the topology is an error (SOFA silently presses edge 0) and either
/// orientation of a pair is accepted (the force does not depend on it); the potential energy is
/// −F·x (SOFA reports 0); no `topology` link (the node's own topology is used).
class EdgePressureForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
