// Additions of elements to the live shells (mechanics/triangle_shells.h,
// mechanics/tetrahedron_shells.h): SOFA's addTriangles / addTetrahedra on the live topology, each
// side, face or edge looked up through the shells of the element's first vertex (the cost of the
// added elements and their vertices' shells), the rest appended. The order and orientation of
// what is created are AddElements' (mechanics/topology_addition.h), which a rebuild uses: the
// tests compare the two.
#include <algorithm>
#include <array>

#include "mechanics/tetrahedron_shells.h"
#include "mechanics/triangle_shells.h"

namespace fluxion::internal {

namespace {

// SOFA's local numbering of a tetrahedron's faces (face j opposite vertex j) and edges
// (TetrahedronSetTopologyContainer: trianglesOrientationInTetrahedronArray,
// edgesInTetrahedronArray).
constexpr std::array<std::array<int, 3>, 4> kAddedFaces{
    {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}}};
constexpr std::array<std::array<int, 2>, 6> kAddedEdges{
    {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};

bool SameEdge(const std::array<Index, 2>& edge, Index a, Index b) {
  return (edge[0] == a && edge[1] == b) || (edge[0] == b && edge[1] == a);
}

// The vertices are points, and each element's are distinct (an element with a repeated vertex is
// left to the rebuild, which reports what the scene's components make of it).
template <std::size_t N>
bool UsableVertices(std::span<const Index> vertices, std::size_t points) {
  if (vertices.size() % N != 0) return false;
  for (std::size_t k = 0; k < vertices.size(); k += N)
    for (std::size_t i = 0; i < N; ++i) {
      const Index v = vertices[k + i];
      if (v < 0 || static_cast<std::size_t>(v) >= points) return false;
      for (std::size_t j = 0; j < i; ++j)
        if (vertices[k + j] == v) return false;
    }
  return true;
}

}  // namespace

bool TriangleShells::Add(Topology& topology, std::span<const Index> vertices, ShellAddition& done) {
  done.created_edges.clear();
  done.created_triangles.clear();
  done.first_added = static_cast<Index>(topology.triangles.size());
  done.added = 0;
  // Without bare edges every edge is the side of a triangle around each of its ends.
  if (bare_edges_ != 0 || !UsableVertices<3>(vertices, topology.points.size())) return false;
  const auto find_edge = [&](Index a, Index b) -> Index {
    for (const Index t : triangles_around_vertex_[static_cast<std::size_t>(a)])
      for (const Index e : edges_in_triangle_[static_cast<std::size_t>(t)])
        if (SameEdge(topology.edges[static_cast<std::size_t>(e)], a, b)) return e;
    return -1;
  };
  for (std::size_t k = 0; k < vertices.size(); k += 3) {
    const std::array<Index, 3> triangle = {vertices[k], vertices[k + 1], vertices[k + 2]};
    const auto t = static_cast<Index>(topology.triangles.size());
    std::array<Index, 3> edges{};
    for (std::size_t j = 0; j < 3; ++j) {
      const Index a = triangle[(j + 1) % 3], b = triangle[(j + 2) % 3];
      Index e = find_edge(a, b);
      if (e < 0) {
        e = static_cast<Index>(topology.edges.size());
        topology.edges.push_back({a, b});
        triangles_around_edge_.emplace_back();
        done.created_edges.push_back(e);
      }
      edges[j] = e;
    }
    topology.triangles.push_back(triangle);
    edges_in_triangle_.push_back(edges);
    for (const Index e : edges) triangles_around_edge_[static_cast<std::size_t>(e)].push_back(t);
    for (const Index v : triangle)
      triangles_around_vertex_[static_cast<std::size_t>(v)].push_back(t);
    ++done.added;
  }
  return true;
}

bool TetrahedronShells::Add(Topology& topology, std::span<const Index> vertices,
                            ShellAddition& done) {
  done.created_edges.clear();
  done.created_triangles.clear();
  done.first_added = static_cast<Index>(topology.tetrahedra.size());
  done.added = 0;
  // Every triangle and edge is then in a tetrahedron around each of its vertices. A container
  // without any element yet (SOFA's AddingTetraProcess.scn) lists its faces and edges from its
  // first addition on, as AddElements gives them.
  const bool empty =
      topology.tetrahedra.empty() && topology.triangles.empty() && topology.edges.empty();
  if ((!empty && (!has_triangles_ || !has_edges_)) || bare_triangles_ != 0 || bare_edges_ != 0 ||
      !UsableVertices<4>(vertices, topology.points.size()))
    return false;
  std::size_t edges_before = 0;  // the edges created for the current tetrahedron start here
  const auto find_edge = [&](Index a, Index b) -> Index {
    for (const Index t : tetrahedra_around_vertex_[static_cast<std::size_t>(a)])
      for (const Index e : edges_in_tetrahedron_[static_cast<std::size_t>(t)])
        if (SameEdge(topology.edges[static_cast<std::size_t>(e)], a, b)) return e;
    for (std::size_t k = edges_before; k < done.created_edges.size(); ++k)
      if (SameEdge(topology.edges[static_cast<std::size_t>(done.created_edges[k])], a, b))
        return done.created_edges[k];
    return -1;
  };
  const auto edge = [&](Index a, Index b) {
    Index e = find_edge(a, b);
    if (e < 0) {
      e = static_cast<Index>(topology.edges.size());
      topology.edges.push_back({a, b});
      tetrahedra_around_edge_.emplace_back();
      done.created_edges.push_back(e);
    }
    return e;
  };
  const auto find_triangle = [&](const std::array<Index, 3>& face) -> Index {
    std::array<Index, 3> key = face;
    std::sort(key.begin(), key.end());
    for (const Index t : tetrahedra_around_vertex_[static_cast<std::size_t>(face[0])])
      for (const Index f : triangles_in_tetrahedron_[static_cast<std::size_t>(t)]) {
        std::array<Index, 3> other = topology.triangles[static_cast<std::size_t>(f)];
        std::sort(other.begin(), other.end());
        if (other == key) return f;
      }
    return -1;
  };
  for (std::size_t k = 0; k < vertices.size(); k += 4) {
    const std::array<Index, 4> tetrahedron = {vertices[k], vertices[k + 1], vertices[k + 2],
                                              vertices[k + 3]};
    const auto at = [&](int j) { return tetrahedron[static_cast<std::size_t>(j)]; };
    const auto t = static_cast<Index>(topology.tetrahedra.size());
    edges_before = done.created_edges.size();
    std::array<Index, 4> faces{};
    for (std::size_t j = 0; j < kAddedFaces.size(); ++j) {
      const std::array<Index, 3> face = {at(kAddedFaces[j][0]), at(kAddedFaces[j][1]),
                                         at(kAddedFaces[j][2])};
      Index f = find_triangle(face);
      if (f < 0) {  // addTriangleProcess: its missing sides, then the triangle
        for (std::size_t s = 0; s < 3; ++s) edge(face[(s + 1) % 3], face[(s + 2) % 3]);
        f = static_cast<Index>(topology.triangles.size());
        topology.triangles.push_back(face);
        tetrahedra_around_triangle_.emplace_back();
        done.created_triangles.push_back(f);
      }
      faces[j] = f;
    }
    std::array<Index, 6> edges{};
    for (std::size_t j = 0; j < kAddedEdges.size(); ++j)
      edges[j] = edge(at(kAddedEdges[j][0]), at(kAddedEdges[j][1]));
    topology.tetrahedra.push_back(tetrahedron);
    triangles_in_tetrahedron_.push_back(faces);
    edges_in_tetrahedron_.push_back(edges);
    for (const Index f : faces)
      tetrahedra_around_triangle_[static_cast<std::size_t>(f)].push_back(t);
    for (const Index e : edges) tetrahedra_around_edge_[static_cast<std::size_t>(e)].push_back(t);
    for (const Index v : tetrahedron)
      tetrahedra_around_vertex_[static_cast<std::size_t>(v)].push_back(t);
    ++done.added;
  }
  if (done.added > 0) has_triangles_ = has_edges_ = true;
  return true;
}

}  // namespace fluxion::internal
