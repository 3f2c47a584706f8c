// NewProximityIntersection's element tests (SOFA: Sofa/Component/Collision/Detection/
// Intersection/src/sofa/component/collision/detection/intersection/NewProximityIntersection.{h,
// inl,cpp}, MeshNewProximityIntersection.{h,inl,cpp}): triangles tested against points, lines and
// triangles through the features they own (TriangleFlag), edges clamped.
//
// Distances, normals and values as MinProximityIntersection's (intersection_min_proximity.h): a
// contact when |Q − P|² < alarm², normal (Q − P)/|Q − P|, value |Q − P| − contact distance.
// Model order as SOFA registers the intersectors: (Point, Point), (Line, Point), (Line, Line),
// (Triangle, Point), (Triangle, Line), (Triangle, Triangle), (Sphere, Point), (Line, Sphere),
// (Triangle, Sphere), (Sphere, Sphere).
//
// Deviations: SOFA divides by |Q − P| unguarded (a NaN normal for touching features); Fluxion uses
// (1, 0, 0) there as SOFA's other tests do. NaN coordinates (degenerate elements) give no contact.
#pragma once

#include "collision/element_pair.h"

namespace fluxion::internal::collision::new_proximity {

/// Point–point. id: the element of the model with more elements (the second's on a tie).
int PointPoint(const ElementPair& pair, Index p, Index q, std::vector<DetectionOutput>& out);
/// Line–point: the projection on the segment clamped to [0, 1]. id: the point.
int LinePoint(const ElementPair& pair, Index line, Index p, std::vector<DetectionOutput>& out);
/// Line–line: closest points strictly inside both segments; parallel lines (|det| ≤ 1e-12) their
/// middles. id: as point–point.
int LineLine(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);
/// Triangle–point: the projection on the triangle, or on the vertex or edge SOFA's rule picks
/// (ChooseTriangleFeature with machine epsilon), when the triangle owns it. id: the point.
int TrianglePoint(const ElementPair& pair, Index t, Index p, std::vector<DetectionOutput>& out);
/// Triangle–line: the triangle's owned vertices against the segment (P the vertex), the segment's
/// two ends against the triangle, and, with useLineLine, the owned edges against the segment; up
/// to 8 contacts, all with the line as id.
int TriangleLine(const ElementPair& pair, Index t, Index line, std::vector<DetectionOutput>& out);
/// Triangle–triangle: nothing between neighbours of one model (a shared vertex); else the first
/// triangle's vertices against the second (vertex 1 always — SOFA's test lacks its flag check —,
/// vertices 2 and 3 when owned; ids 3·t₁ + k), the second's owned vertices against the first
/// (ids 3·n₁ + 12·t₂ + k), and with useLineLine the owned edge pairs (ids 3·n₁ + 12·t₂ + 3 … 11).
int TriangleTriangle(const ElementPair& pair, Index t1, Index t2,
                     std::vector<DetectionOutput>& out);
/// Sphere–point: centre and point, radius added to both distances. id: as point–point.
int SpherePoint(const ElementPair& pair, Index s, Index p, std::vector<DetectionOutput>& out);
/// Line–sphere: the centre's projection clamped on the segment. id: the sphere.
int LineSphere(const ElementPair& pair, Index line, Index s, std::vector<DetectionOutput>& out);
/// Triangle–sphere: as triangle–point with SOFA's second feature rule (thresholds 1e-6, edges AC
/// and BC flagged E12 and E31, as SOFA writes them). id: the sphere.
int TriangleSphere(const ElementPair& pair, Index t, Index s, std::vector<DetectionOutput>& out);
/// Sphere–sphere: centres, both radii added to both distances. id: as point–point.
int SphereSphere(const ElementPair& pair, Index a, Index b, std::vector<DetectionOutput>& out);

}  // namespace fluxion::internal::collision::new_proximity
