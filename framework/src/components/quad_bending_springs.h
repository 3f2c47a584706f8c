// SOFA's QuadBendingSprings.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         QuadBendingSprings.{h,inl} (init, registerEdge, addSpring); the springs are
//         SpringForceField's.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Resists the folding of a quad mesh: across each edge shared by two quads, two springs join
/// the vertices facing each other across it (for quads (…, a, b, …) and (…, b, a, …) sharing
/// edge ab, the vertex after/before a in one to its counterpart in the other), with rest length
/// their initial distance and one `stiffness` and `damping` (the first of SOFA's lists, default
/// 100 and 5), absolute. As SOFA: quads are walked in order and each quad's edges (0 1), (1 2),
/// (2 3), (3 0); the first quad seen on an edge is remembered with the edge's two "opposite"
/// vertices — (3, 2), (0, 3), (1, 0), (2, 1) — and each later quad on that edge adds a spring
/// between the first opposite vertices and one between the second (edge and pairs swapped
/// together when the edge's first vertex is the higher); a pair already joined gets no second
/// spring; `localRange` skips springs whose two ends are both below its first or both above its
/// last index. The force and tangent are SpringForceField's (mechanics/spring_force_field.h).
class QuadBendingSpringsComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
