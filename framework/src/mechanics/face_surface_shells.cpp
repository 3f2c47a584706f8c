// A mapped output of triangles or quads kept live (see the header).
#include "mechanics/face_surface_shells.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "mechanics/topology_elements.h"

namespace fluxion::internal {

namespace {

// Takes `value` out of `list` (its order does not matter: the last entry takes its place).
void Erase(std::vector<Index>& list, Index value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found == list.end()) return;
  *found = list.back();
  list.pop_back();
}

void Rename(std::vector<Index>& list, Index from, Index to) {
  for (Index& v : list)
    if (v == from) v = to;
}

template <std::size_t M>
void Rename(std::array<Index, M>& element, Index from, Index to) {
  for (Index& v : element)
    if (v == from) v = to;
}

}  // namespace

template <std::size_t N>
std::vector<typename FaceSurfaceShells<N>::Element>& FaceSurfaceShells<N>::Elements(
    Topology& surface) {
  if constexpr (N == 3)
    return surface.triangles;
  else
    return surface.quads;
}

template <std::size_t N>
const std::vector<typename FaceSurfaceShells<N>::Element>& FaceSurfaceShells<N>::Elements(
    const Topology& surface) {
  if constexpr (N == 3)
    return surface.triangles;
  else
    return surface.quads;
}

template <std::size_t N>
std::optional<FaceSurfaceShells<N>> FaceSurfaceShells<N>::Build(const Topology& surface,
                                                                std::size_t max_elements,
                                                                std::size_t max_edges) {
  if ((N == 3 ? !surface.quads.empty() : !surface.triangles.empty()) ||
      !surface.tetrahedra.empty() || !surface.hexahedra.empty())
    return std::nullopt;
  const std::size_t points = surface.points.size();
  FaceSurfaceShells shells;
  shells.around_vertex_.resize(points);
  shells.edges_around_vertex_.resize(points);
  std::map<ElementKey, Index> edge_index;
  for (std::size_t e = 0; e < surface.edges.size(); ++e) {
    const auto& edge = surface.edges[e];
    if (edge[0] < 0 || edge[1] < 0 || static_cast<std::size_t>(edge[0]) >= points ||
        static_cast<std::size_t>(edge[1]) >= points || edge[0] == edge[1] ||
        !edge_index.emplace(SortedElementKey(edge), static_cast<Index>(e)).second)
      return std::nullopt;
    for (const Index v : edge)
      shells.edges_around_vertex_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(e));
  }
  shells.around_edge_.resize(surface.edges.size());
  const std::vector<Element>& elements = Elements(surface);
  for (std::size_t t = 0; t < elements.size(); ++t) {
    const Element& element = elements[t];
    std::array<Index, N> edges{};
    for (std::size_t j = 0; j < N; ++j) {
      if (element[j] < 0 || static_cast<std::size_t>(element[j]) >= points) return std::nullopt;
      const std::array<Index, 2> side = {element[(j + 1) % N], element[(j + 2) % N]};
      const auto found = edge_index.find(SortedElementKey(side));
      if (found == edge_index.end()) return std::nullopt;
      edges[j] = found->second;
    }
    shells.edges_in_element_.push_back(edges);
    for (const Index e : edges)
      shells.around_edge_[static_cast<std::size_t>(e)].push_back(static_cast<Index>(t));
    for (const Index v : element)
      shells.around_vertex_[static_cast<std::size_t>(v)].push_back(static_cast<Index>(t));
  }
  // An edge in no element would stay when its points go: the output the mapping builds has none
  // (its container creates the edges of its elements).
  for (const std::vector<Index>& around : shells.around_edge_)
    if (around.empty()) return std::nullopt;
  shells.edges_in_element_.reserve(max_elements);
  shells.around_edge_.reserve(max_edges);
  shells.freed_edges_.reserve(max_edges);
  return shells;
}

template <std::size_t N>
Index FaceSurfaceShells<N>::FindEdge(const Topology& surface, Index a, Index b) const {
  for (const Index e : edges_around_vertex_[static_cast<std::size_t>(a)]) {
    const auto& edge = surface.edges[static_cast<std::size_t>(e)];
    if ((edge[0] == a && edge[1] == b) || (edge[0] == b && edge[1] == a)) return e;
  }
  return -1;
}

template <std::size_t N>
void FaceSurfaceShells<N>::Add(Topology& surface, const Element& element) {
  std::array<Index, N> edges{};
  for (std::size_t j = 0; j < N; ++j) {
    const Index a = element[(j + 1) % N], b = element[(j + 2) % N];
    Index e = FindEdge(surface, a, b);
    if (e < 0) {
      e = static_cast<Index>(surface.edges.size());
      surface.edges.push_back({a, b});
      around_edge_.emplace_back();
      edges_around_vertex_[static_cast<std::size_t>(a)].push_back(e);
      edges_around_vertex_[static_cast<std::size_t>(b)].push_back(e);
    }
    edges[j] = e;
  }
  std::vector<Element>& elements = Elements(surface);
  const auto t = static_cast<Index>(elements.size());
  elements.push_back(element);
  edges_in_element_.push_back(edges);
  for (const Index e : edges) around_edge_[static_cast<std::size_t>(e)].push_back(t);
  for (const Index v : element) around_vertex_[static_cast<std::size_t>(v)].push_back(t);
}

template <std::size_t N>
void FaceSurfaceShells<N>::Remove(Topology& surface, std::span<const Index> descending) {
  std::vector<Element>& elements = Elements(surface);
  freed_edges_.clear();
  for (const Index t : descending) {
    const auto slot = static_cast<std::size_t>(t);
    const auto last = static_cast<Index>(elements.size()) - 1;
    for (const Index e : edges_in_element_[slot]) {
      std::vector<Index>& around = around_edge_[static_cast<std::size_t>(e)];
      Erase(around, t);
      if (around.empty()) freed_edges_.push_back(e);
    }
    for (const Index v : elements[slot]) Erase(around_vertex_[static_cast<std::size_t>(v)], t);
    if (t != last) {
      elements[slot] = elements.back();
      edges_in_element_[slot] = edges_in_element_.back();
      for (const Index e : edges_in_element_[slot])
        Rename(around_edge_[static_cast<std::size_t>(e)], last, t);
      for (const Index v : elements[slot])
        Rename(around_vertex_[static_cast<std::size_t>(v)], last, t);
    }
    elements.pop_back();
    edges_in_element_.pop_back();
  }
  // removeEdgesProcess: the freed edges, descending, each slot taking the edge then last.
  std::sort(freed_edges_.begin(), freed_edges_.end(), std::greater<Index>());
  for (const Index e : freed_edges_) {
    const auto slot = static_cast<std::size_t>(e);
    const auto last = static_cast<Index>(surface.edges.size()) - 1;
    for (const Index v : surface.edges[slot])
      Erase(edges_around_vertex_[static_cast<std::size_t>(v)], e);
    if (e != last) {
      surface.edges[slot] = surface.edges.back();
      std::swap(around_edge_[slot], around_edge_.back());
      for (const Index v : surface.edges[slot])
        Rename(edges_around_vertex_[static_cast<std::size_t>(v)], last, e);
      for (const Index t : around_edge_[slot])
        Rename(edges_in_element_[static_cast<std::size_t>(t)], last, e);
    }
    surface.edges.pop_back();
    around_edge_.pop_back();
  }
}

template <std::size_t N>
void FaceSurfaceShells<N>::MovePoint(Topology& surface, Index removed, Index moved) {
  const auto slot = static_cast<std::size_t>(removed);
  if (removed != moved) {
    const auto from = static_cast<std::size_t>(moved);
    std::vector<Element>& elements = Elements(surface);
    for (const Index t : around_vertex_[from])
      Rename(elements[static_cast<std::size_t>(t)], moved, removed);
    for (const Index e : edges_around_vertex_[from])
      Rename(surface.edges[static_cast<std::size_t>(e)], moved, removed);
    std::swap(around_vertex_[slot], around_vertex_[from]);
    std::swap(edges_around_vertex_[slot], edges_around_vertex_[from]);
    surface.points[slot] = surface.points[from];
  }
  around_vertex_.pop_back();
  edges_around_vertex_.pop_back();
  surface.points.pop_back();
}

template class FaceSurfaceShells<3>;
template class FaceSurfaceShells<4>;

}  // namespace fluxion::internal
