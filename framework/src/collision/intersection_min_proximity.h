// MinProximityIntersection's element tests (SOFA: Sofa/Component/Collision/Detection/
// Intersection/src/sofa/component/collision/detection/intersection/MinProximityIntersection.{h,cpp},
// MeshMinProximityIntersection.{h,cpp}): the closest points of two elements, a contact when they
// are nearer than the alarm distance.
//
// Each test: P on model 0's element, Q on model 1's; a contact when |Q − P|² < alarm²,
// normal = (Q − P)/|Q − P| (from model 0 to model 1), value = |Q − P| − contact distance, the
// alarm and contact distances being the intersection's plus both models' contactDistance, plus the
// radius for a sphere (whose contact point is its centre: SOFA's TSphere<Vec3>::
// getContactPointByNormal). Model order as SOFA's intersectors are registered: (Point, Point),
// (Line, Point), (Line, Line), (Triangle, Point), (Sphere, Sphere), (Sphere, Point),
// (Triangle, Sphere), (Line, Sphere); Triangle–Line and Triangle–Triangle are ignored.
//
// Deviation: where SOFA would emit NaN (a zero-area triangle's or zero-length edge's projection),
// Fluxion emits no contact.
#pragma once

#include "collision/element_pair.h"

namespace fluxion::internal::collision::min_proximity {

/// Point–point: P, Q the points. id: the element of the model with more elements (the second's on
/// a tie).
int PointPoint(const ElementPair& pair, Index p, Index q, std::vector<DetectionOutput>& out);
/// Line–point: Q's projection on the segment, clamped to its ends. id: the point.
int LinePoint(const ElementPair& pair, Index line, Index p, std::vector<DetectionOutput>& out);
/// Line–line: the closest points, both strictly inside their segments (1e-6 from the ends); of
/// parallel lines (|det| ≤ 1e-15), the middles. id: as point–point.
int LineLine(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);
/// Triangle–point: the point's projection on the plane, strictly inside the triangle (α, β ≥ 1e-6,
/// α + β ≤ 0.999999); edges and vertices are the line and point models' business. id: the point.
/// With useSurfaceNormals the normal is the triangle's, (B − A) × (C − A) normalised.
int TrianglePoint(const ElementPair& pair, Index t, Index p, std::vector<DetectionOutput>& out);
/// Sphere–sphere (DiscreteIntersection::computeIntersectionSphere): a contact when
/// |c₂ − c₁| ≤ alarm + r₁ + r₂, value = |c₂ − c₁| − r₁ − r₂ − contact distance. id: as
/// point–point. Two coincident centres get the normal (1, 0, 0) (SOFA: NaN).
int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);
/// Sphere–point: the centre and the point. id: the sphere.
int SpherePoint(const ElementPair& pair, Index s, Index p, std::vector<DetectionOutput>& out);
/// Triangle–sphere: as triangle–point with the centre. id: the sphere.
int TriangleSphere(const ElementPair& pair, Index t, Index s, std::vector<DetectionOutput>& out);
/// Line–sphere: α = (c − B)·(A − B)/|A − B|², kept when strictly inside (1e-6), and — SOFA's
/// formula, kept — the point Q = A − (A − B)·α: measured from A although α was measured from B,
/// so Q is the projection's mirror image about the segment's middle. id: the sphere.
int LineSphere(const ElementPair& pair, Index line, Index s, std::vector<DetectionOutput>& out);

}  // namespace fluxion::internal::collision::min_proximity
