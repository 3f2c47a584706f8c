#include "mechanics/topology_elements.h"

#include "fluxion/errors.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <utility>

namespace fluxion::internal {

namespace {

// SOFA's tables (core/topology/Topology.cpp): the edges and faces of an element, by local vertex.
constexpr int kTetrahedronEdges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
constexpr int kHexahedronEdges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                                         {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
constexpr int kTetrahedronFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}};
constexpr int kHexahedronFaces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                        {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

// The face rotated so that its smallest vertex comes first (orientation kept).
template <std::size_t N>
std::array<Index, N> SmallestFirst(std::array<Index, N> face) {
  std::rotate(face.begin(), std::min_element(face.begin(), face.end()), face.end());
  return face;
}

// The same face with the opposite orientation, smallest vertex still first.
template <std::size_t N>
std::array<Index, N> Reversed(const std::array<Index, N>& face) {
  std::array<Index, N> reversed = face;
  std::reverse(reversed.begin() + 1, reversed.end());
  return reversed;
}

// The faces of every element, each once, in SOFA's order (see TetrahedronFaces).
template <std::size_t F, std::size_t E, std::size_t K>
std::vector<std::array<Index, F>> Faces(const std::vector<std::array<Index, E>>& elements,
                                        const int (&table)[K][F]) {
  std::set<std::array<Index, F>> seen;
  std::vector<std::array<Index, F>> faces;
  for (const auto& element : elements)
    for (const auto& local : table) {
      std::array<Index, F> face{};
      for (std::size_t k = 0; k < F; ++k) face[k] = element[static_cast<std::size_t>(local[k])];
      face = SmallestFirst(face);
      if (seen.count(Reversed(face)) != 0 || !seen.insert(face).second) continue;
      faces.push_back(face);
    }
  return faces;
}

// How many faces of `elements` (by `table`) have the vertex set of each of `faces`.
template <std::size_t F, std::size_t E, std::size_t K>
std::vector<int> ElementsAround(const std::vector<std::array<Index, F>>& faces,
                                const std::vector<std::array<Index, E>>& elements,
                                const int (&table)[K][F]) {
  const auto key = [](std::array<Index, F> face) {
    std::sort(face.begin(), face.end());
    return face;
  };
  std::map<std::array<Index, F>, int> count;
  for (const auto& element : elements)
    for (const auto& local : table) {
      std::array<Index, F> face{};
      for (std::size_t k = 0; k < F; ++k) face[k] = element[static_cast<std::size_t>(local[k])];
      ++count[key(face)];
    }
  std::vector<int> around;
  around.reserve(faces.size());
  for (const auto& face : faces) {
    const auto found = count.find(key(face));
    around.push_back(found == count.end() ? 0 : found->second);
  }
  return around;
}

void DeriveEdges(Topology& topology) {
  std::set<std::array<Index, 2>> seen;
  const auto add = [&](Index a, Index b, bool oriented) {
    const std::array<Index, 2> key = {std::min(a, b), std::max(a, b)};
    if (seen.insert(key).second)
      topology.edges.push_back(oriented ? std::array<Index, 2>{a, b} : key);
  };
  if (!topology.tetrahedra.empty() || !topology.hexahedra.empty()) {
    for (const auto& t : topology.tetrahedra)
      for (const auto& e : kTetrahedronEdges) add(t[e[0]], t[e[1]], false);
    for (const auto& h : topology.hexahedra)
      for (const auto& e : kHexahedronEdges) add(h[e[0]], h[e[1]], false);
    return;
  }
  // Triangles keep their orientation on their edges (SOFA: "oriented edges on the border of
  // the triangulation"); quads' edges are stored smaller vertex first.
  for (const auto& t : topology.triangles)
    for (int j = 0; j < 3; ++j) add(t[(j + 1) % 3], t[(j + 2) % 3], true);
  for (const auto& q : topology.quads)
    for (int j = 0; j < 4; ++j) add(q[(j + 1) % 4], q[(j + 2) % 4], false);
}

}  // namespace

void CompleteTopology(Topology& topology) {
  if (topology.triangles.empty()) topology.triangles = TetrahedronFaces(topology.tetrahedra);
  if (topology.quads.empty()) topology.quads = HexahedronFaces(topology.hexahedra);
  if (topology.edges.empty()) DeriveEdges(topology);
}

std::vector<std::array<Index, 3>> TetrahedronFaces(
    const std::vector<std::array<Index, 4>>& tetrahedra) {
  return Faces(tetrahedra, kTetrahedronFaces);
}

std::vector<std::array<Index, 4>> HexahedronFaces(
    const std::vector<std::array<Index, 8>>& hexahedra) {
  return Faces(hexahedra, kHexahedronFaces);
}

std::vector<int> TetrahedraAroundTriangles(const std::vector<std::array<Index, 3>>& triangles,
                                           const std::vector<std::array<Index, 4>>& tetrahedra) {
  return ElementsAround(triangles, tetrahedra, kTetrahedronFaces);
}

std::vector<int> HexahedraAroundQuads(const std::vector<std::array<Index, 4>>& quads,
                                      const std::vector<std::array<Index, 8>>& hexahedra) {
  return ElementsAround(quads, hexahedra, kHexahedronFaces);
}

std::vector<int> TrianglesAroundEdges(const std::vector<std::array<Index, 2>>& edges,
                                      const std::vector<std::array<Index, 3>>& triangles) {
  constexpr int kTriangleSides[3][2] = {{0, 1}, {1, 2}, {2, 0}};
  return ElementsAround(edges, triangles, kTriangleSides);
}

namespace {

// SplitHexahedra's work: `mirrored_pattern` = the mirrored cells take the mirrored pattern.
std::vector<std::array<Index, 4>> SplitCellsIntoTetrahedra(
    const std::vector<std::array<Index, 8>>& hexahedra, bool swapping, Index nx, Index ny,
    bool mirrored_pattern) {
  // Vertex pairs exchanged to mirror a hexahedron along x, y and z (SOFA's
  // geometry::Hexahedron::xEdges, yEdges, zEdges).
  constexpr int kMirror[3][4][2] = {{{0, 1}, {4, 5}, {3, 2}, {7, 6}},
                                    {{4, 7}, {5, 6}, {1, 2}, {0, 3}},
                                    {{4, 0}, {5, 1}, {6, 2}, {7, 3}}};
  constexpr int kPattern[6][4] = {{0, 5, 1, 6}, {0, 1, 3, 6}, {1, 3, 6, 2},
                                  {6, 3, 0, 7}, {6, 7, 0, 5}, {7, 5, 4, 0}};
  constexpr int kMirroredPattern[6][4] = {{0, 5, 6, 1}, {0, 1, 6, 3}, {1, 3, 2, 6},
                                          {6, 3, 7, 0}, {6, 7, 5, 0}, {7, 5, 0, 4}};
  std::vector<std::array<Index, 4>> tetrahedra;
  tetrahedra.reserve(hexahedra.size() * 6);
  for (std::size_t i = 0; i < hexahedra.size(); ++i) {
    std::array<Index, 8> c = hexahedra[i];
    bool mirrored = false;
    if (swapping) {
      const Index cell = static_cast<Index>(i);
      const bool mirror[3] = {(cell % nx) % 2 == 0, ((cell / nx) % ny) % 2 == 1,
                              (cell / (nx * ny)) % 2 == 1};
      for (int axis = 0; axis < 3; ++axis) {
        if (!mirror[axis]) continue;
        for (const auto& pair : kMirror[axis]) std::swap(c[pair[0]], c[pair[1]]);
        mirrored = !mirrored;
      }
    }
    for (const auto& t : mirrored&& mirrored_pattern ? kMirroredPattern : kPattern)
      tetrahedra.push_back({c[t[0]], c[t[1]], c[t[2]], c[t[3]]});
  }
  return tetrahedra;
}

}  // namespace

std::vector<std::array<Index, 4>> SplitHexahedra(const std::vector<std::array<Index, 8>>& hexahedra,
                                                 bool swapping, Index nx, Index ny) {
  return SplitCellsIntoTetrahedra(hexahedra, swapping, nx, ny, true);
}

std::vector<std::array<Index, 4>> SplitHexahedraAsTetrahedronFem(
    const std::vector<std::array<Index, 8>>& hexahedra, Index nx, Index ny) {
  return SplitCellsIntoTetrahedra(hexahedra, true, nx, ny, false);
}

std::vector<std::array<Index, 3>> SplitQuads(const std::vector<std::array<Index, 4>>& quads,
                                             bool swapping, Index scale) {
  std::vector<std::array<Index, 3>> triangles;
  triangles.reserve(quads.size() * 2);
  for (std::size_t i = 0; i < quads.size(); ++i) {
    const auto& [p0, p1, p2, p3] = quads[i];
    const Index index = static_cast<Index>(i);
    if (swapping && ((index % scale) ^ (index / scale)) % 2 == 1) {
      triangles.push_back({p0, p1, p3});
      triangles.push_back({p2, p3, p1});
    } else {
      triangles.push_back({p1, p2, p0});
      triangles.push_back({p3, p0, p2});
    }
  }
  return triangles;
}

std::vector<char> FirstOccurrences(const std::vector<std::array<Index, 2>>& pairs) {
  FLUXION_DEMAND(pairs.size() < (std::size_t{1} << 32));
  std::vector<char> first(pairs.size(), 0);
  std::vector<std::uint32_t> order(pairs.size());
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  const auto key = [&](std::uint32_t k) {
    const auto& p = pairs[k];
    return std::pair<Index, Index>(std::min(p[0], p[1]), std::max(p[0], p[1]));
  };
  // Equal pairs end up adjacent, each run in list order: its first is the first occurrence.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  for (std::size_t k = 0; k < order.size(); ++k)
    if (k == 0 || key(order[k]) != key(order[k - 1])) first[order[k]] = 1;
  return first;
}

}  // namespace fluxion::internal
