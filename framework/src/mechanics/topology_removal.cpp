// SOFA's removal of triangles, with the isolated edges and points after them (sources in the
// header). SOFA keeps, per point and per edge, the list of triangles around it; only whether a
// list becomes empty decides anything, so counts stand in for the lists here.
#include "mechanics/topology_removal.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>

#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

// Removes the slots `sorted_descending` from `items` as SOFA does: each removed slot takes the
// item then last, and the list shrinks by one. `origin` follows the items (new → old).
template <class T>
void RemoveByMovingLast(std::vector<T>& items, std::vector<Index>& origin,
                        const std::vector<Index>& sorted_descending) {
  for (const Index id : sorted_descending) {
    const auto slot = static_cast<std::size_t>(id);
    items[slot] = items.back();
    origin[slot] = origin.back();
    items.pop_back();
    origin.pop_back();
  }
}

// Old → new from new → old, kRemoved for the old entries that are gone.
std::vector<Index> MapFromOrigin(const std::vector<Index>& origin, std::size_t old_size) {
  std::vector<Index> map(old_size, TopologyRemoval::kRemoved);
  for (std::size_t k = 0; k < origin.size(); ++k)
    map[static_cast<std::size_t>(origin[k])] = static_cast<Index>(k);
  return map;
}

std::vector<Index> Iota(std::size_t n) {
  std::vector<Index> values(n);
  std::iota(values.begin(), values.end(), Index{0});
  return values;
}

// Calls f with the element list of `level` (points: the coordinates).
template <class Topo, class F>
decltype(auto) WithList(Topo& topology, TopologyLevel level, F&& f) {
  switch (level) {
    case TopologyLevel::kPoint:
      return f(topology.points);
    case TopologyLevel::kEdge:
      return f(topology.edges);
    case TopologyLevel::kTriangle:
      return f(topology.triangles);
    case TopologyLevel::kQuad:
      return f(topology.quads);
    case TopologyLevel::kTetrahedron:
      return f(topology.tetrahedra);
    case TopologyLevel::kHexahedron:
      break;
  }
  return f(topology.hexahedra);
}

// An element's vertices as a lookup key: sorted, padded with -1 (faces and edges are found in
// their lists whatever their orientation).
using Key = std::array<Index, 4>;
// (Faces and edges only: a volume is never looked up.)
template <std::size_t N>
Key SortedKey(const std::array<Index, N>& vertices) {
  Key key = {-1, -1, -1, -1};
  if constexpr (N <= 4) {
    for (std::size_t j = 0; j < N; ++j) key[j] = vertices[j];
    std::sort(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(N));
  }
  return key;
}

// The vertex tuples, local to an element of `level`, of its faces (`face_level`) or edges: SOFA's
// tables (Sofa/framework/Core/src/sofa/core/topology/Topology.cpp: edgesInTetrahedronArray,
// edgesInHexahedronArray, the hexahedron's quads); only membership matters for a removal.
const std::vector<std::vector<int>>& LocalSubelements(TopologyLevel level, TopologyLevel sub) {
  static const std::vector<std::vector<int>> kNone;
  static const std::vector<std::vector<int>> kTriangleEdges = {{1, 2}, {2, 0}, {0, 1}};
  static const std::vector<std::vector<int>> kQuadEdges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  static const std::vector<std::vector<int>> kTetrahedronTriangles = {
      {1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}};
  static const std::vector<std::vector<int>> kTetrahedronEdges = {{0, 1}, {0, 2}, {0, 3},
                                                                  {1, 2}, {1, 3}, {2, 3}};
  static const std::vector<std::vector<int>> kHexahedronQuads = {
      {0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  static const std::vector<std::vector<int>> kHexahedronEdges = {{0, 1}, {1, 2}, {2, 3}, {3, 0},
                                                                 {4, 5}, {5, 6}, {6, 7}, {7, 4},
                                                                 {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  if (sub == TopologyLevel::kEdge) {
    if (level == TopologyLevel::kTriangle) return kTriangleEdges;
    if (level == TopologyLevel::kQuad) return kQuadEdges;
    if (level == TopologyLevel::kTetrahedron) return kTetrahedronEdges;
    if (level == TopologyLevel::kHexahedron) return kHexahedronEdges;
  }
  if (level == TopologyLevel::kTetrahedron && sub == TopologyLevel::kTriangle)
    return kTetrahedronTriangles;
  if (level == TopologyLevel::kHexahedron && sub == TopologyLevel::kQuad) return kHexahedronQuads;
  return kNone;
}

const char* LevelName(TopologyLevel level) {
  constexpr std::array<const char*, kTopologyLevels> kNames = {
      "point", "edge", "triangle", "quad", "tetrahedron", "hexahedron"};
  return kNames[static_cast<std::size_t>(level)];
}

// Element k of `level` as a vector of its vertices.
std::vector<Index> VerticesOf(const Topology& topology, TopologyLevel level, std::size_t k) {
  return WithList(topology, level, [&](const auto& list) -> std::vector<Index> {
    if constexpr (std::is_same_v<std::decay_t<decltype(list)>,
                                 std::vector<std::array<double, 3>>>) {
      return {static_cast<Index>(k)};
    } else {
      return {list[k].begin(), list[k].end()};
    }
  });
}

// Each element of `level`'s sub-elements of level `sub` (indices into the topology's list of
// `sub`), and how many elements of `level` each sub-element belongs to.
struct Shells {
  std::vector<std::vector<Index>> inside;  // per element of `level`
  std::vector<int> around;                 // per element of `sub`
};

Shells BuildShells(const Topology& topology, TopologyLevel level, TopologyLevel sub) {
  Shells shells;
  const std::size_t count = ElementCount(topology, level);
  shells.inside.resize(count);
  shells.around.assign(ElementCount(topology, sub), 0);
  if (sub == TopologyLevel::kPoint) {
    for (std::size_t k = 0; k < count; ++k) {
      shells.inside[k] = VerticesOf(topology, level, k);
      for (const Index v : shells.inside[k]) ++shells.around[static_cast<std::size_t>(v)];
    }
    return shells;
  }
  // Each sub-element by its sorted vertices; one listed twice is found at its first place, as
  // SOFA's getEdgeIndex / getTriangleIndex find it.
  std::map<Key, Index> index;
  WithList(topology, sub, [&](const auto& list) {
    if constexpr (!std::is_same_v<std::decay_t<decltype(list)>,
                                  std::vector<std::array<double, 3>>>) {
      for (std::size_t e = 0; e < list.size(); ++e)
        index.emplace(SortedKey(list[e]), static_cast<Index>(e));
    }
    return 0;
  });
  const std::vector<std::vector<int>>& local = LocalSubelements(level, sub);
  for (std::size_t k = 0; k < count; ++k) {
    const std::vector<Index> vertices = VerticesOf(topology, level, k);
    for (const std::vector<int>& face : local) {
      Key key = {-1, -1, -1, -1};
      for (std::size_t j = 0; j < face.size(); ++j)
        key[j] = vertices[static_cast<std::size_t>(face[j])];
      std::sort(key.begin(), key.begin() + static_cast<std::ptrdiff_t>(face.size()));
      const auto found = index.find(key);
      if (found == index.end()) {
        std::string named;
        for (std::size_t j = 0; j < face.size(); ++j)
          named +=
              (j == 0 ? "" : "-") + std::to_string(vertices[static_cast<std::size_t>(face[j])]);
        throw ConfigError("", std::string(LevelName(level)) + " " + std::to_string(k) +
                                  " has the " + LevelName(sub) + " " + named +
                                  " that is not among the topology's " + LevelName(sub) +
                                  "s (expected every " + LevelName(sub) + " of every " +
                                  LevelName(level) + " listed)");
      }
      shells.inside[k].push_back(found->second);
      ++shells.around[static_cast<std::size_t>(found->second)];
    }
  }
  return shells;
}

}  // namespace

std::vector<std::vector<Index>> SubelementsOf(const Topology& topology, TopologyLevel level,
                                              TopologyLevel sub) {
  return BuildShells(topology, level, sub).inside;
}

std::size_t ElementCount(const Topology& topology, TopologyLevel level) {
  return WithList(topology, level, [](const auto& list) { return list.size(); });
}

std::vector<Index>& TopologyRemoval::map(TopologyLevel level) {
  return const_cast<std::vector<Index>&>(std::as_const(*this).map(level));
}
std::vector<Index>& TopologyRemoval::origin(TopologyLevel level) {
  return const_cast<std::vector<Index>&>(std::as_const(*this).origin(level));
}
std::vector<Index>& TopologyRemoval::removed(TopologyLevel level) {
  return const_cast<std::vector<Index>&>(std::as_const(*this).removed(level));
}
const std::vector<Index>& TopologyRemoval::map(TopologyLevel level) const {
  const std::array<const std::vector<Index>*, kTopologyLevels> maps = {
      &point_map, &edge_map, &triangle_map, &quad_map, &tetrahedron_map, &hexahedron_map};
  return *maps[static_cast<std::size_t>(level)];
}
const std::vector<Index>& TopologyRemoval::origin(TopologyLevel level) const {
  const std::array<const std::vector<Index>*, kTopologyLevels> origins = {
      &point_origin, &edge_origin,        &triangle_origin,
      &quad_origin,  &tetrahedron_origin, &hexahedron_origin};
  return *origins[static_cast<std::size_t>(level)];
}
const std::vector<Index>& TopologyRemoval::removed(TopologyLevel level) const {
  const std::array<const std::vector<Index>*, kTopologyLevels> removed = {
      &removed_points, &removed_edges,      &removed_triangles,
      &removed_quads,  &removed_tetrahedra, &removed_hexahedra};
  return *removed[static_cast<std::size_t>(level)];
}

TopologyRemoval RemoveElements(const Topology& topology, TopologyLevel level,
                               const std::vector<Index>& ids, bool isolated_points) {
  const auto top = static_cast<std::size_t>(level);
  for (std::size_t above = top + 1; above < kTopologyLevels; ++above)
    if (ElementCount(topology, static_cast<TopologyLevel>(above)) != 0)
      throw ConfigError(
          "", std::string("removing ") + LevelName(level) + "s from a topology with " +
                  LevelName(static_cast<TopologyLevel>(above)) + "s is not supported (expected a " +
                  LevelName(level) + " topology)");
  // Every vertex a point of the topology (the maps below index by them).
  for (std::size_t l = 1; l <= top; ++l)
    WithList(topology, static_cast<TopologyLevel>(l), [&](const auto& elements) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(elements)>,
                                    std::vector<std::array<double, 3>>>) {
        for (std::size_t k = 0; k < elements.size(); ++k)
          for (const Index v : elements[k])
            if (v < 0 || static_cast<std::size_t>(v) >= topology.points.size())
              throw ConfigError("", std::string(LevelName(static_cast<TopologyLevel>(l))) + " " +
                                        std::to_string(k) + " uses point " + std::to_string(v) +
                                        " (expected a point of the topology's " +
                                        std::to_string(topology.points.size()) + ")");
      }
      return 0;
    });
  // The lower levels that follow: the faces of volumes, the edges, the points (SOFA follows a
  // level only where the container has it).
  std::vector<TopologyLevel> followed;
  for (const TopologyLevel sub :
       {TopologyLevel::kTriangle, TopologyLevel::kQuad, TopologyLevel::kEdge})
    if (!LocalSubelements(level, sub).empty() && ElementCount(topology, sub) != 0)
      followed.push_back(sub);
  // Removing points (SOFA's PointSetTopologyModifier::removePoints) follows nothing: the
  // topology has no elements above them.
  if (isolated_points && level != TopologyLevel::kPoint) followed.push_back(TopologyLevel::kPoint);

  TopologyRemoval removal;
  const auto count = static_cast<Index>(ElementCount(topology, level));
  // SOFA skips (and warns about) indices past the end, then sorts the rest in descending order.
  // A repeated index would make SOFA read past its array: it is removed once here.
  std::vector<Index>& removed_top = removal.removed(level);
  for (const Index id : ids) {
    if (id < 0 || id >= count)
      removal.out_of_range.push_back(id);
    else
      removed_top.push_back(id);
  }
  std::sort(removed_top.begin(), removed_top.end(), std::greater<Index>());
  removed_top.erase(std::unique(removed_top.begin(), removed_top.end()), removed_top.end());

  std::vector<Shells> shells;
  for (const TopologyLevel sub : followed) shells.push_back(BuildShells(topology, level, sub));

  // remove*Process: each removed element leaves the shells of its sub-elements (an empty shell
  // marks the sub-element for removal), and the last element takes its slot.
  Topology reduced = topology;
  std::vector<Index> top_origin = Iota(static_cast<std::size_t>(count));
  WithList(reduced, level, [&](auto& elements) {
    for (const Index id : removed_top) {
      const auto slot = static_cast<std::size_t>(id);
      for (std::size_t s = 0; s < followed.size(); ++s) {
        for (const Index sub : shells[s].inside[slot])
          if (--shells[s].around[static_cast<std::size_t>(sub)] == 0)
            removal.removed(followed[s]).push_back(sub);
        shells[s].inside[slot] = std::move(shells[s].inside.back());
        shells[s].inside.pop_back();
      }
      elements[slot] = elements.back();
      elements.pop_back();
      top_origin[slot] = top_origin.back();
      top_origin.pop_back();
    }
    return 0;
  });
  removal.origin(level) = std::move(top_origin);

  // A face or edge on a removed point that is in no element of `level` (an edge of a grid's
  // triangulation in a hexahedron container: SOFA's src="@grid" gives it the diagonals) is not
  // found isolated, and SOFA leaves it naming whichever point takes the removed one's slot
  // (EdgeSetTopologyModifier::removePointsProcess: "this situation should not occur"). Fluxion
  // removes it with its point instead.
  if (isolated_points && !removal.removed_points.empty()) {
    std::vector<bool> point_removed(topology.points.size(), false);
    for (const Index v : removal.removed_points) point_removed[static_cast<std::size_t>(v)] = true;
    for (std::size_t l = 1; l < top; ++l) {
      const auto sub = static_cast<TopologyLevel>(l);
      std::vector<Index>& gone = removal.removed(sub);
      std::vector<bool> listed(ElementCount(topology, sub), false);
      for (const Index e : gone) listed[static_cast<std::size_t>(e)] = true;
      WithList(topology, sub, [&](const auto& elements) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(elements)>,
                                      std::vector<std::array<double, 3>>>) {
          for (std::size_t k = 0; k < elements.size(); ++k)
            if (!listed[k] && std::any_of(elements[k].begin(), elements[k].end(), [&](Index v) {
                  return point_removed[static_cast<std::size_t>(v)];
                }))
              gone.push_back(static_cast<Index>(k));
        }
        return 0;
      });
    }
  }

  // The isolated faces, edges and points, each level in descending order (remove*Warning), the
  // last one moved into each removed slot.
  for (std::size_t l = 0; l <= top; ++l) {
    const auto sub = static_cast<TopologyLevel>(l);
    if (sub != level) {
      std::vector<Index>& gone = removal.removed(sub);
      std::sort(gone.begin(), gone.end(), std::greater<Index>());
      std::vector<Index> origin = Iota(ElementCount(topology, sub));
      WithList(reduced, sub, [&](auto& elements) {
        RemoveByMovingLast(elements, origin, gone);
        return 0;
      });
      removal.origin(sub) = std::move(origin);
    }
    removal.map(sub) = MapFromOrigin(removal.origin(sub), ElementCount(topology, sub));
  }

  // The elements name the moved points by their new index (SOFA renames the last point in the
  // elements around it, one removal at a time: the same end result).
  for (std::size_t l = 1; l <= top; ++l) {
    const auto sub = static_cast<TopologyLevel>(l);
    WithList(reduced, sub, [&](auto& elements) {
      if constexpr (!std::is_same_v<std::decay_t<decltype(elements)>,
                                    std::vector<std::array<double, 3>>>) {
        for (std::size_t k = 0; k < elements.size(); ++k)
          for (Index& v : elements[k]) {
            const Index renamed = removal.point_map[static_cast<std::size_t>(v)];
            // Every element on a removed point went with it (above).
            FLUXION_DEMAND(renamed != TopologyRemoval::kRemoved);
            v = renamed;
          }
      }
      return 0;
    });
  }
  removal.topology = std::move(reduced);
  return removal;
}

TopologyRemoval RemoveTriangles(const Topology& topology, const std::vector<Index>& ids) {
  return RemoveElements(topology, TopologyLevel::kTriangle, ids);
}

std::vector<Index> RenumberPointSubset(const std::vector<Index>& indices,
                                       const std::vector<Index>& point_map) {
  std::vector<Index> renumbered;
  renumbered.reserve(indices.size());
  for (const Index index : indices) {
    // An index past the points was never a point of the topology: SOFA's handler never meets
    // it either, and it stays as it is.
    if (index < 0 || static_cast<std::size_t>(index) >= point_map.size()) {
      renumbered.push_back(index);
      continue;
    }
    const Index mapped = point_map[static_cast<std::size_t>(index)];
    if (mapped != TopologyRemoval::kRemoved) renumbered.push_back(mapped);
  }
  return renumbered;
}

Vector RenumberPointValues(const Vector& values, int dimension,
                           const std::vector<Index>& point_origin) {
  Vector renumbered(static_cast<Index>(point_origin.size()) * dimension);
  for (std::size_t k = 0; k < point_origin.size(); ++k)
    renumbered.segment(static_cast<Index>(k) * dimension, dimension) =
        values.segment(point_origin[k] * dimension, dimension);
  return renumbered;
}

}  // namespace fluxion::internal
