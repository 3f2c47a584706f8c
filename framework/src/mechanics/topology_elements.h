// Elements SOFA derives from others: the edges, triangles and quads its topology containers create
// at init, the element counts around a face that tell a border face from an inner one, and the
// splits of its topological mappings (hexahedron → 6 tetrahedra, quad → 2 triangles). Every list
// follows SOFA's order, element by element: later components index into these lists.
// Sources (SOFA tree):
//   Sofa/Component/Topology/Container/Dynamic/src/.../{Tetrahedron,Hexahedron,Triangle,Quad}
//     SetTopologyContainer.cpp (createEdgeSetArray, createTriangleSetArray, createQuadSetArray);
//   Sofa/Component/Topology/Container/Constant/src/.../MeshTopology.cpp (EdgeUpdate,
//     TriangleUpdate, QuadUpdate);
//   Sofa/framework/Core/src/sofa/core/topology/Topology.cpp (edge and face tables);
//   Sofa/Component/Topology/Mapping/src/.../{Hexa2Tetra,Quad2Triangle}TopologicalMapping.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "fluxion/topology.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// An element's vertices in increasing order, padded with −1 to four: the same key for every
/// order of the same vertices (edges, triangles, quads, tetrahedra), to find an element again.
using ElementKey = std::array<Index, 4>;
template <std::size_t N>
ElementKey SortedElementKey(const std::array<Index, N>& vertices) {
  static_assert(N <= 4);
  ElementKey key = {-1, -1, -1, -1};
  for (std::size_t j = 0; j < N; ++j) key[j] = vertices[j];
  std::sort(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(N));
  return key;
}

/// Completes `topology` as SOFA's containers do at init, each list only when it is empty:
/// triangles from the tetrahedra (TetrahedronFaces), quads from the hexahedra (HexahedronFaces),
/// then edges — from the tetrahedra then hexahedra when there are any (each edge once, smaller
/// vertex first, SOFA's edge order inside the element), else from the triangles (edge
/// (v_{j+1}, v_{j+2}) of each, oriented as in the triangle) then the quads (the same edges,
/// smaller vertex first).
void CompleteTopology(Topology& topology);

/// For a list of point pairs in order, whether each is the first occurrence of its pair (either
/// orientation): one flag per pair. By sorting 12 bytes per pair, where a std::set of the pairs
/// met so far takes a 48-byte node each (the element lists of a million-point mesh have millions).
std::vector<char> FirstOccurrences(const std::vector<std::array<Index, 2>>& pairs);

/// The faces of the tetrahedra, each once, as SOFA's createTriangleSetArray lists them: the
/// faces of each tetrahedron in the order {1,2,3} {0,3,2} {1,3,0} {0,2,1} (outward normals for
/// a positive tetrahedron), rotated so that the smallest vertex comes first; a face already met
/// (in either orientation) is not repeated.
std::vector<std::array<Index, 3>> TetrahedronFaces(
    const std::vector<std::array<Index, 4>>& tetrahedra);

/// The faces of the hexahedra, each once, as SOFA's createQuadSetArray lists them: faces
/// {0,3,2,1} {4,5,6,7} {0,1,5,4} {1,2,6,5} {2,3,7,6} {3,0,4,7} of each hexahedron, rotated so
/// that the smallest vertex comes first; a face already met (either orientation) is skipped.
std::vector<std::array<Index, 4>> HexahedronFaces(
    const std::vector<std::array<Index, 8>>& hexahedra);

/// How many tetrahedra have each triangle as a face (1 on the border, 2 inside).
std::vector<int> TetrahedraAroundTriangles(const std::vector<std::array<Index, 3>>& triangles,
                                           const std::vector<std::array<Index, 4>>& tetrahedra);
/// How many hexahedra have each quad as a face.
std::vector<int> HexahedraAroundQuads(const std::vector<std::array<Index, 4>>& quads,
                                      const std::vector<std::array<Index, 8>>& hexahedra);
/// How many triangles have each edge as a side.
std::vector<int> TrianglesAroundEdges(const std::vector<std::array<Index, 2>>& edges,
                                      const std::vector<std::array<Index, 3>>& triangles);

/// SOFA's Hexa2TetraTopologicalMapping: 6 tetrahedra per hexahedron, in its order. With
/// `swapping`, hexahedron i of a grid of nx × ny cells per layer is mirrored along x when i % nx
/// is even, along y when (i / nx) % ny is odd and along z when i / (nx·ny) is odd (vertices
/// exchanged across the faces), and an odd number of mirrors takes the mirrored pattern, so
/// that neighbouring cells' diagonals match. Preconditions: nx, ny ≥ 1.
std::vector<std::array<Index, 4>> SplitHexahedra(const std::vector<std::array<Index, 8>>& hexahedra,
                                                 bool swapping, Index nx, Index ny);

/// SOFA's TetrahedronFEMForceField on a topology with hexahedra and no tetrahedra (its init,
/// TetrahedronFEMForceField.inl): the same mirrors as SplitHexahedra's swapping, always, but
/// the plain pattern for every cell — an odd number of mirrors gives negatively oriented
/// tetrahedra, which SOFA's element (and Fluxion's, by |volume|) takes as they are.
std::vector<std::array<Index, 4>> SplitHexahedraAsTetrahedronFem(
    const std::vector<std::array<Index, 8>>& hexahedra, Index nx, Index ny);

/// SOFA's Quad2TriangleTopologicalMapping: 2 triangles per quad (p0 p1 p2 p3): (p1 p2 p0) and
/// (p3 p0 p2), or, with `swapping` when ((i % scale) xor (i / scale)) is odd, (p0 p1 p3) and
/// (p2 p3 p1) — the other diagonal, in a checkerboard. Precondition: scale ≥ 1.
std::vector<std::array<Index, 3>> SplitQuads(const std::vector<std::array<Index, 4>>& quads,
                                             bool swapping, Index scale);

}  // namespace fluxion::internal
