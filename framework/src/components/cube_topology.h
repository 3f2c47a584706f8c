// SOFA's CubeTopology.
// Source: Sofa/Component/Topology/Container/Constant/src/sofa/component/topology/container/
//         constant/CubeTopology.{h,cpp} (parse, setSize, point, getPoint, updateEdges,
//         updateQuads, setPos).
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// The surface of the box [min, max] as an nx×ny×nz grid of points: its quads (the faces z = 0,
/// z = max, y = 0, y = max, x = 0, x = max in that order, each grid-ordered and oriented as SOFA)
/// and the edges along the box's surface, numbered as SOFA numbers them:
/// - default: the z = 0 layer (x + nx·y), the z = nz − 1 layer, then for each inner layer its
///   ring (y = 0 row, y = ny − 1 row, x = 0 column, x = nx − 1 column);
/// - internalPoints: every grid point, x + nx·(y + ny·z), as RegularGridTopology;
/// - splitNormals: each face its own copy of its points (a corner is three points, one per face:
///   flat normals per face), faces x = 0, y = 0, z = 0 first, then x, y, z = max.
/// Point (x, y, z) is at min + (x·(max − min)_x/(nx − 1), …). The legacy xmin … zmax, when all six
/// are given, replace min and max, times `scale`.
/// Deviation: nx, ny and nz must be at least 2 (SOFA's default is 0, an empty topology, and its
/// split-normal numbering overruns its points on a flat box).
class CubeTopologyComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
