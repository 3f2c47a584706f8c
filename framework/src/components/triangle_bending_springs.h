// SOFA's TriangleBendingSprings (not TriangularBendingSprings: SOFA has both).
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         TriangleBendingSprings.{h,inl} (init, registerTriangle, addSpring); the springs are
//         SpringForceField's (SpringForceField.inl: addSpringForce's d > 1e-9 guard).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Resists the folding of a triangle (or quad) mesh with springs built once, at init, across the
/// edges the faces share. As SOFA: the topology's triangles are walked in order, then its quads
/// as the two triangles (q0 q1 q2) and (q0 q2 q3); for each triangle (a b c) the edges {a b},
/// {b c}, {c a} with the opposite vertices c, a, b. The first face seen on an edge is remembered
/// with its opposite vertex; every later face on that edge adds a spring from its opposite vertex
/// to that first one (so an edge of three faces gets two springs, both to the first face's
/// vertex). Rest length: the two points' distance in the object's positions at load (SOFA reads
/// the current positions); one `stiffness` and `damping` (the first of SOFA's lists, default 100
/// and 5), absolute. The force and tangent are SpringForceField's.
///
/// A grid (RegularGridTopology) has both triangles and quads, its triangles being the quads'
/// halves: SOFA then registers every triangle twice, so each bending spring is added twice and
/// each face meets itself again (a spring from a vertex to itself). Fluxion keeps the twice-added
/// springs, as separate springs in SOFA's order (SOFA's trajectories), and leaves out the springs
/// from a point to itself: SOFA's SpringForceField gives a spring shorter than 1e-9 no force and
/// no stiffness, so they change nothing (a documented difference in the spring count only).
class TriangleBendingSpringsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
