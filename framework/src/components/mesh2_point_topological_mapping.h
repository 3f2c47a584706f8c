// SOFA's Mesh2PointTopologicalMapping (static: later topology changes are not propagated).
// Source: Sofa/Component/Mapping/Linear/src/sofa/component/mapping/linear/
//         Mesh2PointTopologicalMapping.{h,cpp} (init, addInputPoint, addInputEdge,
//         addInputTriangle, addInputTetrahedron).
// The output container receives new points, computed from the input topology's points at load:
//   - pointBaryCoords: for each input point p and each offset o, p + o (an offset, not a
//     barycentric coordinate);
//   - edgeBaryCoords (fx used): (1 − fx)·p0 + fx·p1 for each edge;
//   - triangleBaryCoords (fx, fy): (1 − fx − fy)·p0 + fx·p1 + fy·p2 for each triangle;
//   - quadBaryCoords (fx, fy): bilinear, p0·(1−fx)(1−fy) + p1·fx(1−fy) + p2·(1−fx)fy + p3·fx·fy
//     with SOFA's corner order (q0, q1, q2, q3 as stored);
//   - tetraBaryCoords (fx, fy, fz): (1 − fx − fy − fz)·p0 + fx·p1 + fy·p2 + fz·p3;
//   - hexaBaryCoords (fx, fy, fz): trilinear over the corners (h0, h1, h3, h2, h4, h5, h7, h6);
// in that order (points of all input points, then of all edges, … then of all hexahedra; within
// an element, one point per coordinate in the order given). copyEdges, copyTriangles and
// copyTetrahedra also give the output the input's elements, each vertex renamed to the first point
// created from it (they need pointBaryCoords: SOFA logs an error and clears the flag; Fluxion
// refuses the scene). A MechanicalObject in the output's node without positions takes the points.
//
// Deviations: the mapping does not follow topological changes (the scene check refuses one under
// a changing topology); SOFA's Mesh2PointMechanicalMapping, which would move the points with the
// input, is not provided: SOFA's examples pair the topological mapping with none (their point
// objects have no mass: they stay where they are, in SOFA as in Fluxion).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Points created at the vertices, edges, triangles, quads, tetrahedra and hexahedra of the
/// `input` topology by fixed coordinates, into the container `output` names.
class Mesh2PointTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
