// LocalMinDistance's element tests (SOFA: Sofa/Component/Collision/Detection/Intersection/src/
// sofa/component/collision/detection/intersection/LocalMinDistance.{h,cpp}): the closest points of
// two elements, as the proximity methods find them, kept only when the direction between them
// lies in a cone the mesh around each element allows ("testValidity"), so that a point meets a
// surface from outside only.
//
// Distances: a contact when |Q − P|² < alarm² (strictly, spheres too), the alarm and contact
// distances being the intersection's plus both models' contactDistance, plus each sphere's radius
// (BaseProximityIntersection); value = |Q − P| − contact distance; normal (Q − P)/|Q − P|, from
// model 0's point towards model 1's; a sphere's point is its centre. Model order as SOFA registers
// the intersectors: (Sphere, Sphere), (Sphere, Point), (Point, Point), (Line, Line), (Line, Point),
// (Line, Sphere), (Triangle, Point), (Triangle, Sphere); Triangle–Line and Triangle–Triangle are
// ignored (Cube–Cube and the ray pairs have no Fluxion models).
//
// The filters (each test asks both elements, with PQ the vector from that element's point
// towards the other's; none with filterIntersection = 0, nor with useLMDFilters = 1, where SOFA
// skipped them for its external filter components, removed in v21.12):
// - point v at x (only when a LineCollisionModel is in or above its model's node): n̄ = Σ unit
//   normals (B − A) × (C − A) of the topology's triangles around v, or, with none, Σ unit
//   l = (x − a) + (x − b) over its edges (a, b); when |n̄| > 1e-10, n̄ is normalised and
//   n̄·PQ < −angleCone·|PQ| rejects (unless bothSide); then every edge around v rejects when
//   l·PQ < −(max(0, coneFactor·n̄·l) + angleCone)·|PQ|, l its unit outward direction;
// - line AB, u = unit AB: with exactly two triangles around the edge, n₁ the unit normal of the
//   one on its right, n₂ of the one on its left (left: it lists A then B in its order),
//   n̄ = unit(n₁ + n₂), t₁ = unit(n₁ × u), t₂ = unit(u × n₂): n̄·PQ < 0 rejects (unless bothSide),
//   and tᵢ·PQ < −(max(0, coneFactor·n̄·tᵢ) + angleCone)·|PQ| rejects; otherwise |u·unit(PQ)| >
//   angleCone + 1e-4 rejects (PQ must be square to the line);
// - triangle ABC: (B − A) × (C − A)·PQ < 0 rejects (unless bothSide);
// - sphere: never rejects.
// "unit" is SOFA's normalize: v/|v| when |v| > machine epsilon, else v unchanged.
//
// Deviations: SOFA divides by |Q − P| unguarded (a NaN normal for touching elements): Fluxion uses
// (1, 0, 0) as the other methods do. Where SOFA computes NaN coordinates (a zero-length edge, a
// zero-area triangle) Fluxion reports no contact.
#pragma once

#include "collision/element_pair.h"

namespace fluxion::internal::collision::local_min_distance {

/// Point–point: P, Q the points. id: the element of the model with more elements (the second's
/// on a tie).
int PointPoint(const ElementPair& pair, Index p, Index q, std::vector<DetectionOutput>& out);
/// Line–point: Q's projection on the line at α = AP·AB/AB·AB, kept only strictly inside
/// (1e-6 ≤ α ≤ 0.999999; none when |AB| < 1e-12·|AP|); P the projection, Q the point. id: the
/// point.
int LinePoint(const ElementPair& pair, Index line, Index p, std::vector<DetectionOutput>& out);
/// Line–line: the closest points, both strictly inside their segments (1e-15 ≤ α, β ≤ 1 − 1e-15);
/// of parallel lines (|det| ≤ 1e-30) the middles. id: as point–point.
int LineLine(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);
/// Triangle–point: the point's projection on the plane, strictly inside the triangle (α, β ≥ 1e-6,
/// α + β ≤ 0.999999). id: the point.
int TrianglePoint(const ElementPair& pair, Index t, Index p, std::vector<DetectionOutput>& out);
/// Triangle–sphere: as triangle–point with the centre, the radius added to both distances. id:
/// the sphere.
int TriangleSphere(const ElementPair& pair, Index t, Index s, std::vector<DetectionOutput>& out);
/// Line–sphere: as line–point with the centre, the radius added to both distances. id: the sphere.
int LineSphere(const ElementPair& pair, Index line, Index s, std::vector<DetectionOutput>& out);
/// Sphere–point: the centre and the point, the radius added to both distances. id: as
/// point–point.
int SpherePoint(const ElementPair& pair, Index s, Index p, std::vector<DetectionOutput>& out);
/// Sphere–sphere: the centres, both radii added to both distances. id: as point–point.
int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);

}  // namespace fluxion::internal::collision::local_min_distance
