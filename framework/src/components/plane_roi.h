// SOFA's PlaneROI.
// Source: Sofa/Component/Engine/Select/src/sofa/component/engine/select/PlaneROI.{h,inl}
//         (computePlane, isPointInPlane, doUpdate).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Selects the points (and the edges, triangles, tetrahedra all of whose points are selected)
/// inside thick parallelograms, for other components to take through links:
/// indices="@roi.indices". Each `plane` is 10 numbers, three points p0 p1 p2 and a depth d: the
/// parallelogram p0, p1, p2, p3 = p0 + (p2 − p1), extruded by d/2 on both sides along its unit
/// normal n = (p1 − p0)×(p2 − p0)/|…|. A point x is inside when, with the unit normals of its
/// sides a = (p1 − p0)×n, b = (p2 − p3)×n, c = (p3 − p0)×n, e = (p2 − p1)×n (SOFA's plane0…3,
/// each from the corner points p4 = p0 + n·d/2, p6 = p2 + n·d/2 as SOFA builds them), width
/// w = |(p2 − p0)·a| and length l = |(p2 − p0)·c|:
///   |(x − p0)·a| ≤ w, |(x − p2)·b| ≤ w, |(x − p0)·c| ≤ l, |(x − p2)·e| ≤ l, |(x − p0)·n| ≤ |d/2|
/// — SOFA's tests, as written. So a depth of 0 (p4 = p0, p6 = p2: zero side normals) keeps the
/// whole plane, not the parallelogram, and a degenerate plane (SOFA's default of ten zeros) every
/// point, as in SOFA. A point inside several planes counts once;
/// an element is selected when all its points are inside one same plane (SOFA's order of tests).
/// Outputs as PlaneROI publishes them (indices, edgeIndices, triangleIndices,
/// tetrahedronIndices, pointsInROI, edgesInROI, trianglesInROI, tetrahedraInROI).
/// Deviations: the selection is made once, when the scene is built (SOFA re-selects from rest
/// positions, which do not change); the engine shares BaseROI's fields and outputs
/// (components/roi_selection.h), so it also accepts quads/hexahedra and publishes the …Out…
/// complements SOFA's PlaneROI lacks, and takes each element list from the node's topology when
/// not given (SOFA takes the tetrahedra from it only when edges or triangles are not given).
/// `strict` stays true, PlaneROI's rule (an element is inside when all its points are).
class PlaneRoiComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
