// The live element shells (see the header). Shell lists are unordered: an element leaves one by
// taking the list's last entry into its place, and the lists keep their capacity.
#include "mechanics/element_shells.h"

#include <algorithm>
#include <functional>
#include <map>
#include <span>
#include <type_traits>

#include "mechanics/triangle_shells.h"

namespace fluxion::internal {

namespace {

// Removes `value` from `list` (present once), the last entry taking its place.
void DropFromElementShell(std::vector<Index>& list, Index value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found == list.end()) return;
  *found = list.back();
  list.pop_back();
}

void RenameInElementShell(std::vector<Index>& list, Index from, Index to) {
  std::replace(list.begin(), list.end(), from, to);
}

template <std::size_t N>
std::array<Index, N> SortedVertices(std::array<Index, N> vertices) {
  std::sort(vertices.begin(), vertices.end());
  return vertices;
}

// Removes the slots `sorted_descending` of `items` (each taking the last item) and of their
// shells `around`; `in_element` (per element) renames the moved last item.
template <class Item, std::size_t N>
void RemoveItemsMovingLast(std::vector<Item>& items, std::vector<std::vector<Index>>& around,
                           std::vector<std::array<Index, N>>& in_element,
                           std::span<const Index> sorted_descending) {
  for (const Index slot : sorted_descending) {
    const auto s = static_cast<std::size_t>(slot);
    const auto last = static_cast<Index>(items.size() - 1);
    if (slot != last) {
      for (const Index t : around.back())
        for (Index& item : in_element[static_cast<std::size_t>(t)])
          if (item == last) item = slot;
      std::swap(around[s], around.back());  // capacity kept
      items[s] = items.back();
    }
    items.pop_back();
    around.pop_back();
  }
}

// The element vertices `local` of `element`, as an array.
template <std::size_t N, class Element>
std::array<Index, N> Pick(const Element& element, const std::array<int, N>& local) {
  std::array<Index, N> vertices{};
  for (std::size_t j = 0; j < N; ++j) vertices[j] = element[static_cast<std::size_t>(local[j])];
  return vertices;
}

}  // namespace

template <class Shape>
std::optional<ElementShells<Shape>> ElementShells<Shape>::Build(const Topology& topology) {
  // Only the elements, their faces and their edges: another list would have to follow too.
  const void* element_list = &(topology.*Shape::kElements);
  const void* face_list =
      kFaces != 0 ? static_cast<const void*>(&(topology.*Shape::kFaceList)) : nullptr;
  const auto other = [&](const auto& list) {
    return !list.empty() && static_cast<const void*>(&list) != element_list &&
           static_cast<const void*>(&list) != face_list;
  };
  if (other(topology.triangles) || other(topology.quads) || other(topology.tetrahedra) ||
      other(topology.hexahedra) || topology.sparse_grid != nullptr)
    return std::nullopt;
  const auto& elements = topology.*Shape::kElements;
  const auto& faces = topology.*Shape::kFaceList;
  const std::size_t points = topology.points.size();
  const auto is_point = [&](Index v) { return v >= 0 && static_cast<std::size_t>(v) < points; };
  ElementShells shells;
  shells.has_faces_ = kFaces != 0 && !faces.empty();
  shells.has_edges_ = !topology.edges.empty();
  // The faces and edges by their sorted vertices (one listed twice: not followed here).
  using Face = typename std::decay_t<decltype(faces)>::value_type;
  std::map<Face, Index> face_index;
  std::map<std::array<Index, 2>, Index> edge_index;
  for (std::size_t k = 0; shells.has_faces_ && k < faces.size(); ++k) {
    if (!std::all_of(faces[k].begin(), faces[k].end(), is_point) ||
        !face_index.emplace(SortedVertices(faces[k]), static_cast<Index>(k)).second)
      return std::nullopt;
  }
  for (std::size_t k = 0; k < topology.edges.size(); ++k) {
    const auto& edge = topology.edges[k];
    if (!is_point(edge[0]) || !is_point(edge[1]) || edge[0] == edge[1] ||
        !edge_index.emplace(SortedVertices(edge), static_cast<Index>(k)).second)
      return std::nullopt;
  }
  const std::size_t count = elements.size();
  shells.around_vertex_.resize(points);
  shells.around_face_.resize(shells.has_faces_ ? faces.size() : 0);
  shells.around_edge_.resize(topology.edges.size());
  shells.faces_in_element_.resize(shells.has_faces_ ? count : 0);
  shells.edges_in_element_.resize(shells.has_edges_ ? count : 0);
  for (std::size_t t = 0; t < count; ++t) {
    const auto& element = elements[t];
    if (!std::all_of(element.begin(), element.end(), is_point)) return std::nullopt;
    for (const Index v : element)
      shells.around_vertex_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(t));
    if constexpr (kFaces != 0) {
      for (std::size_t j = 0; shells.has_faces_ && j < kFaces; ++j) {
        const auto found = face_index.find(SortedVertices(Pick(element, Shape::kFaces[j])));
        if (found == face_index.end()) return std::nullopt;
        shells.faces_in_element_[t][j] = found->second;
        shells.around_face_[static_cast<std::size_t>(found->second)].push_back(
            static_cast<Index>(t));
      }
    }
    for (std::size_t j = 0; shells.has_edges_ && j < kEdges; ++j) {
      const auto found = edge_index.find(SortedVertices(Pick(element, Shape::kEdges[j])));
      if (found == edge_index.end()) return std::nullopt;
      shells.edges_in_element_[t][j] = found->second;
      shells.around_edge_[static_cast<std::size_t>(found->second)].push_back(static_cast<Index>(t));
    }
  }
  for (const std::vector<Index>& shell : shells.around_face_)
    if (shell.empty()) ++shells.bare_faces_;
  shells.bare_edges_around_vertex_.resize(points);
  for (std::size_t e = 0; e < shells.around_edge_.size(); ++e)
    if (shells.around_edge_[e].empty())
      for (const Index v : topology.edges[e])
        shells.bare_edges_around_vertex_[static_cast<std::size_t>(v)].push_back(
            static_cast<Index>(e));
  return shells;
}

template <class Shape>
bool ElementShells<Shape>::WouldFreePoints(const Topology& topology,
                                           std::span<const Index> ids) const {
  const auto& elements = topology.*Shape::kElements;
  SortRemovalIds(ids, static_cast<Index>(elements.size()), sorted_, nullptr);
  // A point is freed when every element around it is removed (sorted_ is descending).
  const auto removed = [&](Index t) {
    return std::binary_search(sorted_.begin(), sorted_.end(), t, std::greater<Index>());
  };
  for (const Index t : sorted_)
    for (const Index v : elements[static_cast<std::size_t>(t)]) {
      const std::vector<Index>& shell = around_vertex_[static_cast<std::size_t>(v)];
      if (std::all_of(shell.begin(), shell.end(), removed)) return true;
    }
  return false;
}

template <class Shape>
void ElementShells<Shape>::Remove(Topology& topology, std::span<const Index> ids, bool free_points,
                                  ElementRemoval& done) {
  auto& elements = topology.*Shape::kElements;
  SortRemovalIds(ids, static_cast<Index>(elements.size()), done.removed_elements,
                 &done.out_of_range);
  done.removed_faces.clear();
  done.removed_edges.clear();
  done.removed_points.clear();
  done.moved_points.clear();
  // remove*Process: each removed element leaves the shells of its vertices, edges and faces (one
  // whose shell empties is removed after), the last one takes its slot.
  for (const Index slot : done.removed_elements) {
    const auto s = static_cast<std::size_t>(slot);
    for (const Index v : elements[s]) {
      std::vector<Index>& shell = around_vertex_[static_cast<std::size_t>(v)];
      DropFromElementShell(shell, slot);
      if (free_points && shell.empty()) done.removed_points.push_back(v);
    }
    if (has_edges_)
      for (const Index e : edges_in_element_[s]) {
        std::vector<Index>& shell = around_edge_[static_cast<std::size_t>(e)];
        DropFromElementShell(shell, slot);
        if (shell.empty()) done.removed_edges.push_back(e);
      }
    if (has_faces_)
      for (const Index f : faces_in_element_[s]) {
        std::vector<Index>& shell = around_face_[static_cast<std::size_t>(f)];
        DropFromElementShell(shell, slot);
        if (shell.empty()) done.removed_faces.push_back(f);
      }
    const auto last = static_cast<Index>(elements.size() - 1);
    if (slot != last) {
      for (const Index v : elements.back())
        RenameInElementShell(around_vertex_[static_cast<std::size_t>(v)], last, slot);
      if (has_edges_) {
        for (const Index e : edges_in_element_.back())
          RenameInElementShell(around_edge_[static_cast<std::size_t>(e)], last, slot);
        edges_in_element_[s] = edges_in_element_.back();
      }
      if (has_faces_) {
        for (const Index f : faces_in_element_.back())
          RenameInElementShell(around_face_[static_cast<std::size_t>(f)], last, slot);
        faces_in_element_[s] = faces_in_element_.back();
      }
      elements[s] = elements.back();
    }
    elements.pop_back();
    if (has_edges_) edges_in_element_.pop_back();
    if (has_faces_) faces_in_element_.pop_back();
  }
  // The edges in no element on a freed point go with it (RemoveElements' deviation from SOFA),
  // leaving the lists of both their points.
  if (free_points)
    for (const Index v : done.removed_points) {
      std::vector<Index>& bare = bare_edges_around_vertex_[static_cast<std::size_t>(v)];
      while (!bare.empty()) {
        const Index e = bare.back();
        done.removed_edges.push_back(e);
        for (const Index end : topology.edges[static_cast<std::size_t>(e)])
          DropFromElementShell(bare_edges_around_vertex_[static_cast<std::size_t>(end)], e);
      }
    }
  // The faces' remove*Process, then removeEdgesProcess: descending, the last one taking each
  // slot and renamed in the elements around it (or, in no element, in its points' lists).
  std::sort(done.removed_faces.begin(), done.removed_faces.end(), std::greater<Index>());
  std::sort(done.removed_edges.begin(), done.removed_edges.end(), std::greater<Index>());
  if (has_faces_)
    RemoveItemsMovingLast(topology.*Shape::kFaceList, around_face_, faces_in_element_,
                          done.removed_faces);
  for (const Index slot : done.removed_edges) {
    const auto last = static_cast<Index>(topology.edges.size() - 1);
    if (slot != last && around_edge_.back().empty())
      for (const Index end : topology.edges.back())
        RenameInElementShell(bare_edges_around_vertex_[static_cast<std::size_t>(end)], last, slot);
    RemoveItemsMovingLast(topology.edges, around_edge_, edges_in_element_,
                          std::span<const Index>(&slot, 1));
  }
  if (!free_points) return;
  // removePointsProcess: the freed points in descending order, the last point taking each slot
  // and renamed in the elements around it, their faces and edges, and its edges in no element
  // (every face on it is an element's: points_follow()).
  std::sort(done.removed_points.begin(), done.removed_points.end(), std::greater<Index>());
  for (const Index slot : done.removed_points) {
    const auto s = static_cast<std::size_t>(slot);
    const auto last = static_cast<Index>(topology.points.size() - 1);
    done.moved_points.push_back(last);
    if (slot != last) {
      const auto rename = [&](auto& vertices) {
        for (Index& v : vertices)
          if (v == last) v = slot;
      };
      for (const Index e : bare_edges_around_vertex_.back())
        rename(topology.edges[static_cast<std::size_t>(e)]);
      for (const Index t : around_vertex_.back()) {
        const auto ts = static_cast<std::size_t>(t);
        rename(elements[ts]);
        if (has_faces_)
          for (const Index f : faces_in_element_[ts])
            rename((topology.*Shape::kFaceList)[static_cast<std::size_t>(f)]);
        if (has_edges_)
          for (const Index e : edges_in_element_[ts])
            rename(topology.edges[static_cast<std::size_t>(e)]);
      }
      std::swap(around_vertex_[s], around_vertex_.back());  // capacity kept
      std::swap(bare_edges_around_vertex_[s], bare_edges_around_vertex_.back());
      topology.points[s] = topology.points.back();
    }
    topology.points.pop_back();
    around_vertex_.pop_back();
    bare_edges_around_vertex_.pop_back();
  }
}

template <class Shape>
Index ElementShells<Shape>::FindEdge(const Topology& topology, Index a, Index b) const {
  const auto is = [&](Index e) {
    const auto& edge = topology.edges[static_cast<std::size_t>(e)];
    return (edge[0] == a && edge[1] == b) || (edge[0] == b && edge[1] == a);
  };
  for (const Index t : around_vertex_[static_cast<std::size_t>(a)])
    for (const Index e : edges_in_element_[static_cast<std::size_t>(t)])
      if (is(e)) return e;
  for (const Index e : bare_edges_around_vertex_[static_cast<std::size_t>(a)])
    if (is(e)) return e;
  return -1;
}

template <class Shape>
template <class Face>
Index ElementShells<Shape>::FindFace(const Topology& topology, const Face& face) const {
  const auto& faces = topology.*Shape::kFaceList;
  const Face key = SortedVertices(face);
  const auto is = [&](Index f) {
    return SortedVertices(faces[static_cast<std::size_t>(f)]) == key;
  };
  for (const Index f : pending_faces_)
    if (is(f)) return f;
  for (const Index t : around_vertex_[static_cast<std::size_t>(face[0])])
    for (const Index f : faces_in_element_[static_cast<std::size_t>(t)])
      if (is(f)) return f;
  return -1;
}

template <class Shape>
bool ElementShells<Shape>::HasElement(const Topology& topology,
                                      std::span<const Index> vertices) const {
  using Element = typename std::decay_t<decltype(topology.*Shape::kElements)>::value_type;
  Element key{};
  std::copy(vertices.begin(), vertices.end(), key.begin());
  key = SortedVertices(key);
  for (const Index t : around_vertex_[static_cast<std::size_t>(vertices[0])])
    if (SortedVertices((topology.*Shape::kElements)[static_cast<std::size_t>(t)]) == key)
      return true;
  return false;
}

template <class Shape>
bool ElementShells<Shape>::Add(Topology& topology, std::span<const Index> vertices,
                               ElementAddition& done) {
  auto& elements = topology.*Shape::kElements;
  using Element = typename std::decay_t<decltype(elements)>::value_type;
  constexpr std::size_t N = std::tuple_size_v<Element>;
  if (vertices.size() % N != 0 || !has_edges_ || (kFaces != 0 && (!has_faces_ || bare_faces_ != 0)))
    return false;
  const std::size_t count = vertices.size() / N;
  const auto points = static_cast<Index>(topology.points.size());
  for (std::size_t k = 0; k < count; ++k) {
    const std::span<const Index> element = vertices.subspan(k * N, N);
    for (std::size_t a = 0; a < N; ++a) {
      if (element[a] < 0 || element[a] >= points) return false;
      for (std::size_t b = 0; b < a; ++b)
        if (element[a] == element[b]) return false;
    }
    if (HasElement(topology, element)) return false;
    for (std::size_t l = 0; l < k; ++l)
      if (std::is_permutation(element.begin(), element.end(), vertices.begin() + l * N))
        return false;
  }
  done.first_added = static_cast<Index>(elements.size());
  done.added = static_cast<Index>(count);
  done.created_faces.clear();
  done.created_edges.clear();
  // An edge missing from the topology is appended, bare until its element takes it.
  const auto edge = [&](Index a, Index b) {
    if (FindEdge(topology, a, b) >= 0) return;
    const auto e = static_cast<Index>(topology.edges.size());
    topology.edges.push_back({a, b});
    around_edge_.emplace_back();
    bare_edges_around_vertex_[static_cast<std::size_t>(a)].push_back(e);
    bare_edges_around_vertex_[static_cast<std::size_t>(b)].push_back(e);
    done.created_edges.push_back(e);
  };
  // SOFA's edgesInHexahedronArray: the order addHexahedronProcess creates missing edges in
  // (mechanics/topology_addition.cpp); tetrahedra: edgesInTetrahedronArray, Shape::kEdges.
  static constexpr std::array<std::array<int, 2>, 12> kHexahedronCreation = {{{0, 1},
                                                                              {0, 3},
                                                                              {0, 4},
                                                                              {1, 2},
                                                                              {1, 5},
                                                                              {2, 3},
                                                                              {2, 6},
                                                                              {3, 7},
                                                                              {4, 5},
                                                                              {4, 7},
                                                                              {5, 6},
                                                                              {6, 7}}};
  for (std::size_t k = 0; k < count; ++k) {
    Element element{};
    std::copy_n(vertices.begin() + static_cast<std::ptrdiff_t>(k * N), N, element.begin());
    pending_faces_.clear();
    if constexpr (kFaces == 0) {
      for (std::size_t j = 0; j < N; ++j) edge(element[(j + 1) % N], element[(j + 2) % N]);
    } else {
      auto& faces = topology.*Shape::kFaceList;
      using Face = typename std::decay_t<decltype(faces)>::value_type;
      constexpr std::size_t F = std::tuple_size_v<Face>;
      for (const auto& local : Shape::kFaces) {
        const Face face = Pick(element, local);
        if (FindFace(topology, face) >= 0) continue;
        for (std::size_t j = 0; j < F; ++j) edge(face[(j + 1) % F], face[(j + 2) % F]);
        const auto f = static_cast<Index>(faces.size());
        faces.push_back(face);
        around_face_.emplace_back();
        pending_faces_.push_back(f);
        done.created_faces.push_back(f);
      }
      if constexpr (kEdges == 12) {
        for (const auto& local : kHexahedronCreation) edge(element[local[0]], element[local[1]]);
      } else {
        for (const auto& local : Shape::kEdges) edge(element[local[0]], element[local[1]]);
      }
    }
    // The element and its shells.
    const auto t = static_cast<Index>(elements.size());
    std::array<Index, kFaces> faces_in{};
    if constexpr (kFaces != 0)
      for (std::size_t j = 0; j < kFaces; ++j)
        faces_in[j] = FindFace(topology, Pick(element, Shape::kFaces[j]));
    std::array<Index, kEdges> edges_in{};
    for (std::size_t j = 0; j < kEdges; ++j)
      edges_in[j] = FindEdge(topology, element[static_cast<std::size_t>(Shape::kEdges[j][0])],
                             element[static_cast<std::size_t>(Shape::kEdges[j][1])]);
    elements.push_back(element);
    for (const Index v : element) around_vertex_[static_cast<std::size_t>(v)].push_back(t);
    if constexpr (kFaces != 0) {
      faces_in_element_.push_back(faces_in);
      for (const Index f : faces_in) around_face_[static_cast<std::size_t>(f)].push_back(t);
    }
    edges_in_element_.push_back(edges_in);
    for (const Index e : edges_in) {
      std::vector<Index>& around = around_edge_[static_cast<std::size_t>(e)];
      if (around.empty())  // no longer bare
        for (const Index v : topology.edges[static_cast<std::size_t>(e)])
          DropFromElementShell(bare_edges_around_vertex_[static_cast<std::size_t>(v)], e);
      around.push_back(t);
    }
  }
  pending_faces_.clear();
  return true;
}

template class ElementShells<QuadShape>;
template class ElementShells<HexahedronShape>;
template class ElementShells<TetrahedronShape>;

}  // namespace fluxion::internal
