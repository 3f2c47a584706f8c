// The closed surface a SparseGridTopology voxelizes: read from its mesh file or its data inputs,
// and checked (finite vertices, indices in range, closed).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// A surface as triangles: SOFA's facets fanned (v0, v_{j−1}, v_j), a quad (q0, q1, q2) and
/// (q0, q2, q3).
struct Surface {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<Index, 3>> triangles;
  /// The edges (v_{j−1}, v_j), j = 1…n−1, of each facet as read (a triangle or a quad; no
  /// closing edge): what SparseGridRamificationTopology's finest connectivity test crosses with
  /// the faces between cells, as SOFA's sharingTriangle does.
  std::vector<std::array<Index, 2>> facet_edges;
};

/// The surface of a SparseGridTopology's `fileTopology` (a .obj), else of its `position`,
/// `triangles` and `quads`; nothing after reporting one error line. Refuses a surface with no
/// vertex, a non-finite vertex, an element index out of range; warns about an open surface (an
/// edge used by an odd number of triangles), which SOFA voxelizes as it is (its flood from the
/// grid's border leaks in through the holes: SOFA's own c.obj of SparseGridRamificationTopology.scn
/// is open at both ends).
std::optional<Surface> ReadSparseGridSurface(BuildContext& context);

}  // namespace fluxion::internal
