// DiscreteIntersection's element tests (SOFA: Sofa/Component/Collision/Detection/Intersection/
// src/sofa/component/collision/detection/intersection/DiscreteIntersection.{h,cpp},
// MeshDiscreteIntersection.{h,cpp}): actual intersections, no alarm or contact distance (both 0,
// the models' contactDistance not added). Registered pairs: (Sphere, Sphere) and
// (Triangle, Line); every other pair has no intersector. (MeshDiscreteIntersection.inl's
// sphere–triangle test is not registered by SOFA, so it is not offered here either.)
#pragma once

#include "collision/element_pair.h"

namespace fluxion::internal::collision::discrete {

/// Sphere–sphere: a contact when |c₂ − c₁| ≤ r₁ + r₂; value |c₂ − c₁| − r₁ − r₂, points the
/// centres. id: the element of the model with more elements (the second's on a tie).
int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);
/// Triangle–line: the segment crosses the triangle. A + α·AB + β·AC = P + γ·PQ solved by the
/// inverse of [AB AC −PQ] (none when |det| ≤ machine epsilon); a contact when α, β ≥ 0,
/// α + β ≤ 1, 0 ≤ γ ≤ 1: both points the crossing X, normal the triangle's ((B − A) × (C − A)
/// normalised), value 0. id: the line.
int TriangleLine(const ElementPair& pair, Index t, Index line, std::vector<DetectionOutput>& out);

}  // namespace fluxion::internal::collision::discrete
