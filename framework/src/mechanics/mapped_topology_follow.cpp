// SOFA's topological mappings following a removal (sources in the header). The handlers below
// keep SOFA's statements' order and names (k, last, ind_k, ind_last, ind_real_last) so that
// they can be read against SOFA's, including where SOFA's bookkeeping is not what one would
// write from scratch: the output's order after a change is SOFA's only if it is.
#include "mechanics/mapped_topology_follow.h"

#include <algorithm>
#include <array>
#include <functional>
#include <string>
#include <utility>

#include "fluxion/errors.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

namespace {

template <std::size_t N>
std::map<ElementKey, Index> KeyIndex(const std::vector<std::array<Index, N>>& elements) {
  std::map<ElementKey, Index> index;
  for (std::size_t e = 0; e < elements.size(); ++e)
    index.emplace(SortedElementKey(elements[e]), static_cast<Index>(e));
  return index;
}

// The input level a mapping's output elements come from, and the output's level.
TopologyLevel InputFaceLevel(TopologyMappingRule rule) {
  switch (rule) {
    case TopologyMappingRule::kQuad2Triangle:
      return TopologyLevel::kQuad;
    case TopologyMappingRule::kHexa2Quad:
      return TopologyLevel::kQuad;
    case TopologyMappingRule::kTetra2Triangle:
      return TopologyLevel::kTriangle;
    case TopologyMappingRule::kTriangle2Edge:
      break;
  }
  return TopologyLevel::kEdge;
}

TopologyLevel OutputLevel(TopologyMappingRule rule) {
  switch (rule) {
    case TopologyMappingRule::kQuad2Triangle:
    case TopologyMappingRule::kTetra2Triangle:
      return TopologyLevel::kTriangle;
    case TopologyMappingRule::kHexa2Quad:
      return TopologyLevel::kQuad;
    case TopologyMappingRule::kTriangle2Edge:
      break;
  }
  return TopologyLevel::kEdge;
}

// The output modifier's removeTriangles / removeQuads / removeEdges(ids, true, false): the
// elements and the edges they leave isolated, never the points.
// element_map composed with the removal's map (an element created since the start of the
// change has no entry in it: it is past the old count).
void RemoveFromOutput(MappedTopology& mapped, const std::vector<Index>& ids) {
  const TopologyLevel level = OutputLevel(mapped.rule);
  TopologyRemoval removal = RemoveElements(mapped.topology, level, ids, /*isolated_points=*/false);
  const std::vector<Index>& map = removal.map(level);
  for (Index& element : mapped.element_map)
    if (element != TopologyRemoval::kRemoved && static_cast<std::size_t>(element) < map.size())
      element = map[static_cast<std::size_t>(element)];
  mapped.topology = std::move(removal.topology);
}

// addTriangleProcess / addQuadProcess: the element appended, each side (v[j+1], v[j+2]) that is
// not yet an edge appended to the edges, in that order.
template <std::size_t N>
void AddWithEdges(std::vector<std::array<Index, N>>& elements,
                  std::vector<std::array<Index, 2>>& edges,
                  const std::vector<std::array<Index, N>>& added) {
  std::map<ElementKey, Index> edge_index = KeyIndex(edges);
  for (const auto& element : added) {
    elements.push_back(element);
    for (std::size_t j = 0; j < N; ++j) {
      const std::array<Index, 2> side = {element[(j + 1) % N], element[(j + 2) % N]};
      if (edge_index.emplace(SortedElementKey(side), static_cast<Index>(edges.size())).second)
        edges.push_back(side);
    }
  }
}

// Quad2Triangle, QUADSREMOVED: each removed quad's two triangles, the maps swapped as SOFA
// swaps them for the quad the input moves into the removed slot.
void Quad2TriangleQuadsRemoved(MappedTopology& m, const std::vector<Index>& tab,
                               std::size_t input_quads) {
  auto& in2out = m.in2out;
  auto& loc2glob = m.loc2glob;
  Index last = static_cast<Index>(input_quads) - 1;
  auto ind_last = static_cast<Index>(m.topology.triangles.size());
  const auto at = [&](Index i) -> Index& { return loc2glob[static_cast<std::size_t>(i)]; };
  for (const Index k : tab) {
    const auto found = in2out.find(k);
    if (found != in2out.end() && found->second.size() == 2) {
      const Index t1 = found->second[0];
      const Index t2 = found->second[1];
      ind_last = ind_last - 1;
      const std::vector<Index> ind_k = found->second;
      std::vector<Index> ind_real_last = ind_k;
      const auto last_found = in2out.find(last);
      if (last_found != in2out.end() && last_found->second.size() == 2) {
        ind_real_last = last_found->second;
        if (k != last) {
          in2out[k] = ind_real_last;
          in2out[last] = ind_k;
          std::swap(at(ind_real_last[0]), at(ind_k[0]));
          std::swap(at(ind_real_last[1]), at(ind_k[1]));
        }
      }
      if (ind_k[1] != ind_last) {
        in2out[at(ind_last)] = ind_k;
        in2out[at(ind_k[1])] = {ind_last, ind_last - 1};
        std::swap(at(ind_k[1]), at(ind_last));
      }
      ind_last = ind_last - 1;
      if (ind_k[0] != ind_last) std::swap(at(ind_k[0]), at(ind_last));
      in2out.erase(loc2glob.back());
      loc2glob.resize(loc2glob.size() - 2);
      RemoveFromOutput(m, {t1, t2});
    }
    --last;
  }
}

// Hexa2Quad QUADSREMOVED and Triangle2Edge EDGESREMOVED (the same code in SOFA): each removed
// visible face's output element, one at a time.
void FacesRemoved(MappedTopology& m, const std::vector<Index>& tab, std::size_t input_faces,
                  std::size_t output_count) {
  auto& glob2loc = m.glob2loc;
  auto& loc2glob = m.loc2glob;
  Index last = static_cast<Index>(input_faces) - 1;
  auto ind_last = static_cast<Index>(output_count);
  const auto at = [&](Index i) -> Index& { return loc2glob[static_cast<std::size_t>(i)]; };
  for (const Index k : tab) {
    const auto found = glob2loc.find(k);
    if (found != glob2loc.end()) {
      ind_last = ind_last - 1;
      const Index ind_k = found->second;
      const auto last_found = glob2loc.find(last);
      if (last_found != glob2loc.end()) {
        const Index ind_real_last = last_found->second;
        if (k != last) {
          glob2loc[k] = ind_real_last;
          glob2loc[last] = ind_k;
          std::swap(at(ind_real_last), at(ind_k));
        }
      }
      if (ind_k != ind_last) {
        glob2loc[at(ind_last)] = ind_k;
        glob2loc[at(ind_k)] = ind_last;
        std::swap(at(ind_k), at(ind_last));
      }
      glob2loc.erase(loc2glob.back());
      loc2glob.pop_back();
      RemoveFromOutput(m, {ind_k});
    }
    --last;
  }
}

// The input elements each face of the input belongs to, in order (SOFA's *AroundTriangle /
// *AroundQuad / *AroundEdge shells, built in element order).
std::vector<std::vector<Index>> ShellsAround(const std::vector<std::vector<Index>>& inside,
                                             std::size_t faces) {
  std::vector<std::vector<Index>> around(faces);
  for (std::size_t e = 0; e < inside.size(); ++e)
    for (const Index f : inside[e])
      around[static_cast<std::size_t>(f)].push_back(static_cast<Index>(e));
  return around;
}

// The faces of the neighbours of the removed elements that the removal uncovers (a face shared
// by exactly two elements, the other one not removed before it in the list), as SOFA's
// HEXAHEDRAREMOVED / TETRAHEDRAREMOVED / TRIANGLESREMOVED handlers list them, with the input
// face each comes from. `make(other, position, face)` builds the new output element from the
// neighbour `other` and the face's place in it.
template <class Element, class Make>
std::vector<Element> UncoveredFaces(MappedTopology& m, const Topology& input,
                                    TopologyLevel element_level, const std::vector<Index>& tab,
                                    Make make) {
  const TopologyLevel face_level = InputFaceLevel(m.rule);
  const std::vector<std::vector<Index>> inside = SubelementsOf(input, element_level, face_level);
  const std::vector<std::vector<Index>> around =
      ShellsAround(inside, ElementCount(input, face_level));
  std::vector<Element> created;
  for (std::size_t i = 0; i < tab.size(); ++i) {
    const Index id = tab[i];
    for (const Index face : inside[static_cast<std::size_t>(id)]) {
      const std::vector<Index>& shell = around[static_cast<std::size_t>(face)];
      if (shell.size() != 2) continue;
      const Index other = id == shell[0] ? shell[1] : shell[0];
      if (std::find(tab.begin(), tab.begin() + static_cast<std::ptrdiff_t>(i), other) !=
          tab.begin() + static_cast<std::ptrdiff_t>(i))
        continue;
      const std::vector<Index>& faces_of_other = inside[static_cast<std::size_t>(other)];
      const auto position = static_cast<std::size_t>(
          std::find(faces_of_other.begin(), faces_of_other.end(), face) - faces_of_other.begin());
      created.push_back(make(other, position, face));
      m.loc2glob.push_back(face);
      m.glob2loc[face] = static_cast<Index>(m.loc2glob.size()) - 1;
    }
  }
  return created;
}

// Hexa2Quad, HEXAHEDRAREMOVED.
void Hexa2QuadHexahedraRemoved(MappedTopology& m, const Topology& input,
                               const std::vector<Index>& tab) {
  static constexpr std::array<std::array<int, 4>, 6> kHexaQuads = {
      {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}};
  const auto quads = UncoveredFaces<std::array<Index, 4>>(
      m, input, TopologyLevel::kHexahedron, tab, [&](Index other, std::size_t h, Index) {
        const auto& he = input.hexahedra[static_cast<std::size_t>(other)];
        std::array<Index, 4> q{};
        for (std::size_t j = 0; j < 4; ++j) q[j] = he[static_cast<std::size_t>(kHexaQuads[h][j])];
        if (m.flip_normals) q = {q[3], q[2], q[1], q[0]};
        return q;
      });
  AddWithEdges(m.topology.quads, m.topology.edges, quads);
}

// Tetra2Triangle, TETRAHEDRAREMOVED: the uncovered face as the neighbour orients it, rotated
// so that its smallest vertex comes first.
void Tetra2TriangleTetrahedraRemoved(MappedTopology& m, const Topology& input,
                                     const std::vector<Index>& tab) {
  if (m.no_new_triangles) return;
  static constexpr std::array<std::array<int, 3>, 4> kOrientation = {
      {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}}};
  const auto triangles = UncoveredFaces<std::array<Index, 3>>(
      m, input, TopologyLevel::kTetrahedron, tab, [&](Index other, std::size_t position, Index) {
        const auto& tetrahedron = input.tetrahedra[static_cast<std::size_t>(other)];
        std::array<Index, 3> tri{};
        for (std::size_t j = 0; j < 3; ++j)
          tri[j] = tetrahedron[static_cast<std::size_t>(kOrientation[position][j])];
        if (m.flip_normals) std::swap(tri[1], tri[2]);
        while (tri[0] > tri[1] || tri[0] > tri[2]) tri = {tri[1], tri[2], tri[0]};
        return tri;
      });
  AddWithEdges(m.topology.triangles, m.topology.edges, triangles);
}

// Triangle2Edge, TRIANGLESREMOVED: the uncovered edge, smaller vertex first.
void Triangle2EdgeTrianglesRemoved(MappedTopology& m, const Topology& input,
                                   const std::vector<Index>& tab) {
  const auto edges = UncoveredFaces<std::array<Index, 2>>(
      m, input, TopologyLevel::kTriangle, tab, [&](Index, std::size_t, Index face) {
        const auto& e = input.edges[static_cast<std::size_t>(face)];
        return std::array<Index, 2>{std::min(e[0], e[1]), std::max(e[0], e[1])};
      });
  m.topology.edges.insert(m.topology.edges.end(), edges.begin(), edges.end());
}

// Tetra2Triangle, TRIANGLESREMOVED.
void Tetra2TriangleTrianglesRemoved(MappedTopology& m, const std::vector<Index>& tab,
                                    std::size_t input_triangles) {
  auto& glob2loc = m.glob2loc;
  auto& loc2glob = m.loc2glob;
  std::vector<Index> triangles_to_remove;
  for (const Index glob : tab)
    if (const auto found = glob2loc.find(glob); found != glob2loc.end())
      triangles_to_remove.push_back(found->second);
  std::sort(triangles_to_remove.begin(), triangles_to_remove.end(), std::greater<Index>());
  Index last_glob = static_cast<Index>(input_triangles) - 1;
  const Index glob_count = static_cast<Index>(input_triangles) - static_cast<Index>(tab.size());
  const Index loc_count = static_cast<Index>(m.topology.triangles.size()) -
                          static_cast<Index>(triangles_to_remove.size());
  for (const Index old_glob : tab) {
    auto last_found = glob2loc.find(last_glob);
    if (last_found != glob2loc.end()) {
      const Index last_loc = last_found->second;
      glob2loc[old_glob] = last_loc;
      if (last_loc < static_cast<Index>(loc2glob.size()))
        loc2glob[static_cast<std::size_t>(last_loc)] = old_glob;
      glob2loc.erase(last_glob);
    } else if (!glob2loc.erase(old_glob)) {
      --last_glob;
      continue;
    }
    --last_glob;
  }
  for (const Index old_loc : triangles_to_remove) {
    const Index new_glob = loc2glob.back();
    loc2glob[static_cast<std::size_t>(old_loc)] = new_glob;
    if (new_glob < glob_count && old_loc < loc_count) glob2loc[new_glob] = old_loc;
    loc2glob.pop_back();
  }
  RemoveFromOutput(m, triangles_to_remove);
}

// POINTSREMOVED: the output's removePoints(ids, false) renames its elements as the input's.
void PointsRemoved(MappedTopology& m, const TopologyRemoval& removal) {
  const auto rename = [&](auto& elements) {
    for (auto& element : elements)
      for (Index& v : element) {
        const Index renamed = removal.point_map[static_cast<std::size_t>(v)];
        if (renamed == TopologyRemoval::kRemoved)
          throw ConfigError("", "the mapped topology keeps an element on point " +
                                    std::to_string(v) +
                                    ", which its input removes (expected the mapping to remove "
                                    "it first)");
        v = renamed;
      }
  };
  rename(m.topology.edges);
  rename(m.topology.triangles);
  rename(m.topology.quads);
  m.topology.points = removal.topology.points;
}

// Tetra2Triangle TETRAHEDRAADDED, Triangle2Edge TRIANGLESADDED: each face of the new elements
// (in their local order) that is on the border and not yet in the output is added; each one in
// the output no longer on the border is removed, Loc2Glob swapped-and-popped as SOFA does. The
// Tetra2Triangle version takes the removals in the order met, Triangle2Edge's in descending
// input order.
template <class Element, class Make, class Add>
void BorderAdded(MappedTopology& m, const TopologyAddition& addition, TopologyLevel element_level,
                 bool sort_removals, Make make, Add add) {
  const Topology& input = addition.topology;
  const TopologyLevel face_level = InputFaceLevel(m.rule);
  const std::vector<std::vector<Index>> inside = SubelementsOf(input, element_level, face_level);
  const std::vector<std::vector<Index>> around =
      ShellsAround(inside, ElementCount(input, face_level));
  std::vector<Element> created;
  std::vector<Index> to_remove;
  for (Index e = addition.first_added; e < addition.first_added + addition.added; ++e)
    for (const Index face : inside[static_cast<std::size_t>(e)]) {
      const std::size_t shell = around[static_cast<std::size_t>(face)].size();
      if (m.glob2loc.count(face) != 0) {
        if (shell != 1) to_remove.push_back(face);
      } else if (shell <= 1) {
        created.push_back(make(face));
        m.loc2glob.push_back(face);
        m.glob2loc[face] = static_cast<Index>(m.loc2glob.size()) - 1;
      }
    }
  add(created);
  if (sort_removals) std::sort(to_remove.begin(), to_remove.end(), std::greater<Index>());
  std::vector<Index> local;
  for (const Index face : to_remove) {
    const auto found = m.glob2loc.find(face);
    if (found == m.glob2loc.end()) continue;
    const Index loc = found->second;
    m.glob2loc.erase(found);
    local.push_back(loc);
    if (!sort_removals) continue;
    // Triangle2Edge: swap and pop as each is met.
    const Index last_glob = m.loc2glob.back();
    m.loc2glob[static_cast<std::size_t>(loc)] = last_glob;
    m.loc2glob.pop_back();
    m.glob2loc[last_glob] = loc;
  }
  if (!sort_removals) {
    // Tetra2Triangle: the local ids sorted descending, then swapped and popped.
    std::sort(local.begin(), local.end(), std::greater<Index>());
    for (const Index loc : local) {
      const Index last_glob = m.loc2glob.back();
      m.loc2glob[static_cast<std::size_t>(loc)] = last_glob;
      m.loc2glob.pop_back();
      m.glob2loc[last_glob] = loc;
    }
  }
  if (!local.empty()) RemoveFromOutput(m, local);
}

// element_map before a change: every output element where it is.
void StartElementMap(MappedTopology& mapped) {
  mapped.element_map.resize(ElementCount(mapped.topology, OutputLevel(mapped.rule)));
  for (std::size_t e = 0; e < mapped.element_map.size(); ++e)
    mapped.element_map[e] = static_cast<Index>(e);
}

}  // namespace

void FollowAddition(MappedTopology& mapped, const TopologyAddition& addition) {
  StartElementMap(mapped);
  const Topology& input = addition.topology;
  switch (mapped.rule) {
    case TopologyMappingRule::kQuad2Triangle: {
      std::vector<std::array<Index, 3>> triangles;
      auto count = static_cast<Index>(mapped.topology.triangles.size());
      for (Index k = addition.first_added; k < addition.first_added + addition.added; ++k) {
        const auto& q = input.quads[static_cast<std::size_t>(k)];
        triangles.push_back({q[0], q[1], q[2]});
        triangles.push_back({q[0], q[2], q[3]});
        mapped.loc2glob.push_back(k);
        mapped.loc2glob.push_back(k);
        mapped.in2out[k] = {count, count + 1};
        count += 2;
      }
      AddWithEdges(mapped.topology.triangles, mapped.topology.edges, triangles);
      break;
    }
    case TopologyMappingRule::kHexa2Quad:
      break;
    case TopologyMappingRule::kTetra2Triangle: {
      // EDGESADDED: the input's new edges appended to the output's.
      mapped.topology.edges.insert(mapped.topology.edges.end(), addition.created_edges.begin(),
                                   addition.created_edges.end());
      if (mapped.no_new_triangles) break;
      BorderAdded<std::array<Index, 3>>(
          mapped, addition, TopologyLevel::kTetrahedron, false,
          [&](Index face) { return input.triangles[static_cast<std::size_t>(face)]; },
          [&](const std::vector<std::array<Index, 3>>& created) {
            AddWithEdges(mapped.topology.triangles, mapped.topology.edges, created);
          });
      break;
    }
    case TopologyMappingRule::kTriangle2Edge:
      BorderAdded<std::array<Index, 2>>(
          mapped, addition, TopologyLevel::kTriangle, true,
          [&](Index face) { return input.edges[static_cast<std::size_t>(face)]; },
          [&](const std::vector<std::array<Index, 2>>& created) {
            mapped.topology.edges.insert(mapped.topology.edges.end(), created.begin(),
                                         created.end());
          });
      break;
  }
  mapped.topology.points = input.points;
}

MappedTopology StartMappedTopology(TopologyMappingRule rule, const Topology& input, Topology output,
                                   bool flip_normals, bool no_new_triangles) {
  MappedTopology mapped;
  mapped.rule = rule;
  mapped.flip_normals = flip_normals;
  mapped.no_new_triangles = no_new_triangles;
  const auto unmatched = [](std::size_t e) {
    return ConfigError("", "element " + std::to_string(e) +
                               " of the mapped topology matches no element of its input "
                               "(expected the mapping's output as it built it)");
  };
  switch (rule) {
    case TopologyMappingRule::kQuad2Triangle:
      for (std::size_t t = 0; t < output.triangles.size(); ++t) {
        const auto quad = static_cast<Index>(t / 2);
        mapped.loc2glob.push_back(quad);
        mapped.in2out[quad].push_back(static_cast<Index>(t));
      }
      break;
    case TopologyMappingRule::kHexa2Quad: {
      const std::map<ElementKey, Index> index = KeyIndex(input.quads);
      for (std::size_t e = 0; e < output.quads.size(); ++e) {
        const auto found = index.find(SortedElementKey(output.quads[e]));
        if (found == index.end()) throw unmatched(e);
        mapped.loc2glob.push_back(found->second);
      }
      break;
    }
    case TopologyMappingRule::kTetra2Triangle: {
      const std::map<ElementKey, Index> index = KeyIndex(input.triangles);
      for (std::size_t e = 0; e < output.triangles.size(); ++e) {
        const auto found = index.find(SortedElementKey(output.triangles[e]));
        if (found == index.end()) throw unmatched(e);
        mapped.loc2glob.push_back(found->second);
      }
      break;
    }
    case TopologyMappingRule::kTriangle2Edge: {
      const std::map<ElementKey, Index> index = KeyIndex(input.edges);
      for (std::size_t e = 0; e < output.edges.size(); ++e) {
        const auto found = index.find(SortedElementKey(output.edges[e]));
        if (found == index.end()) throw unmatched(e);
        mapped.loc2glob.push_back(found->second);
      }
      break;
    }
  }
  if (rule != TopologyMappingRule::kQuad2Triangle)
    for (std::size_t e = 0; e < mapped.loc2glob.size(); ++e)
      mapped.glob2loc[mapped.loc2glob[e]] = static_cast<Index>(e);
  mapped.topology = std::move(output);
  return mapped;
}

void FollowRemoval(MappedTopology& mapped, const Topology& input_before,
                   const TopologyRemoval& removal) {
  StartElementMap(mapped);
  switch (mapped.rule) {
    case TopologyMappingRule::kQuad2Triangle:
      Quad2TriangleQuadsRemoved(mapped, removal.removed_quads, input_before.quads.size());
      break;
    case TopologyMappingRule::kHexa2Quad:
      Hexa2QuadHexahedraRemoved(mapped, input_before, removal.removed_hexahedra);
      FacesRemoved(mapped, removal.removed_quads, input_before.quads.size(),
                   mapped.topology.quads.size());
      break;
    case TopologyMappingRule::kTetra2Triangle:
      Tetra2TriangleTetrahedraRemoved(mapped, input_before, removal.removed_tetrahedra);
      Tetra2TriangleTrianglesRemoved(mapped, removal.removed_triangles,
                                     input_before.triangles.size());
      break;
    case TopologyMappingRule::kTriangle2Edge:
      Triangle2EdgeTrianglesRemoved(mapped, input_before, removal.removed_triangles);
      FacesRemoved(mapped, removal.removed_edges, input_before.edges.size(),
                   mapped.topology.edges.size());
      break;
  }
  if (!removal.removed_points.empty()) PointsRemoved(mapped, removal);
}

}  // namespace fluxion::internal
