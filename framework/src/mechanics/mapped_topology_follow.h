// A topological mapping's output following its input's removals as SOFA's mapping does it, event
// by event: the output loses the elements derived from removed ones, gains the faces a removal
// uncovers (the border of a volume, of a surface), and renames its points with the input's.
// SOFA's bookkeeping (Loc2GlobVec, Glob2LocMap, In2OutMap) is reproduced as written, swaps
// included, because the output's element order — which SOFA's topology references record and
// later removals index into — depends on it.
// Sources (SOFA tree, Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/):
//   Quad2TriangleTopologicalMapping.cpp (init: In2OutMap; QUADSREMOVED, POINTSREMOVED);
//   Hexa2QuadTopologicalMapping.cpp (HEXAHEDRAREMOVED adds the uncovered quads, QUADSREMOVED);
//   Tetra2TriangleTopologicalMapping.cpp (TETRAHEDRAREMOVED, TRIANGLESREMOVED);
//   Triangle2EdgeTopologicalMapping.cpp (TRIANGLESREMOVED adds the uncovered edges,
//     EDGESREMOVED);
//   Sofa/Component/Topology/Container/Dynamic/src/.../TriangleSetTopologyModifier.cpp,
//     QuadSetTopologyModifier.cpp (addTriangleProcess / addQuadProcess: each side
//     (v[j+1], v[j+2]) not yet an edge is appended to the edges).
// The order of the events is the input modifier's: the removed elements' event before they go,
// then the faces' and edges' found isolated, then the points'.
#pragma once

#include <map>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"
#include "mechanics/topology_addition.h"
#include "mechanics/topology_removal.h"

namespace fluxion::internal {

/// Which of SOFA's topological mappings derives the output.
enum class TopologyMappingRule { kQuad2Triangle, kHexa2Quad, kTetra2Triangle, kTriangle2Edge };

/// The output of one topological mapping while its input changes.
struct MappedTopology {
  TopologyMappingRule rule = TopologyMappingRule::kQuad2Triangle;
  bool flip_normals = false;      // Hexa2Quad, Tetra2Triangle
  bool no_new_triangles = false;  // Tetra2Triangle
  Topology topology;              ///< the output as it is now
  /// Output element → input element (SOFA's Loc2GlobVec).
  std::vector<Index> loc2glob;
  /// Input element → output element (Glob2LocMap), or → its two triangles (In2OutMap).
  std::map<Index, Index> glob2loc;
  std::map<Index, std::vector<Index>> in2out;
  /// What the last FollowRemoval or FollowAddition did to the output's elements (triangles for
  /// Quad2Triangle and Tetra2Triangle, quads for Hexa2Quad, edges for Triangle2Edge): old index →
  /// new index or TopologyRemoval::kRemoved, one entry per element before it. The elements it
  /// created are appended after the survivors. What SOFA's TopologySubsetData on the output follows
  /// (a TrianglePressureForceField's triangleList in the output's node).
  std::vector<Index> element_map;
};

/// The output `output` (as the static mapping built it from `input`) with SOFA's maps set as
/// its init sets them: each output element matched to the input element of the same vertices
/// (Quad2Triangle: triangles 2q and 2q+1 to quad q). Throws ConfigError when an output
/// element matches no input element.
MappedTopology StartMappedTopology(TopologyMappingRule rule, const Topology& input, Topology output,
                                   bool flip_normals, bool no_new_triangles);

/// Follows the removal `removal` of the input `input_before` (the input before it).
void FollowRemoval(MappedTopology& mapped, const Topology& input_before,
                   const TopologyRemoval& removal);

/// Follows the addition `addition` to the input (addition.topology is the input after it):
/// Quad2Triangle's QUADSADDED (2 triangles per quad, (p0 p1 p2) and (p0 p2 p3)),
/// Tetra2Triangle's EDGESADDED and TETRAHEDRAADDED (the new border faces added, the faces no
/// longer on the border removed), Triangle2Edge's TRIANGLESADDED (the same with edges);
/// Hexa2Quad's output does not follow additions (SOFA's mapping has no handler for them).
void FollowAddition(MappedTopology& mapped, const TopologyAddition& addition);

}  // namespace fluxion::internal
