// SOFA's addition of elements (sources in the header).
#include "mechanics/topology_addition.h"

#include <algorithm>
#include <map>
#include <string>

#include "fluxion/errors.h"
#include "mechanics/topology_elements.h"

namespace fluxion::internal {

namespace {

// The container while elements are added: each list with a lookup by vertex set (SOFA's
// getEdgeIndex / getTriangleIndex / getQuadIndex find an element whatever its orientation).
class Growing {
 public:
  explicit Growing(TopologyAddition& addition) : a_(addition) {
    Index k = 0;
    for (const auto& e : a_.topology.edges) edges_.emplace(SortedElementKey(e), k++);
    k = 0;
    for (const auto& t : a_.topology.triangles) triangles_.emplace(SortedElementKey(t), k++);
    k = 0;
    for (const auto& q : a_.topology.quads) quads_.emplace(SortedElementKey(q), k++);
  }

  void Edge(const std::array<Index, 2>& e) {
    if (!edges_.emplace(SortedElementKey(e), static_cast<Index>(a_.topology.edges.size())).second)
      return;
    a_.topology.edges.push_back(e);
    a_.created_edges.push_back(e);
  }
  // addTriangleProcess / addQuadProcess: the sides first, then the element. A volume's face is
  // added only when missing (`always` false); an element the file adds is appended even when
  // it exists (SOFA reports it and appends it).
  template <std::size_t N>
  void Face(const std::array<Index, N>& f, std::vector<std::array<Index, N>>& list,
            std::map<ElementKey, Index>& index, bool always) {
    if (!index.emplace(SortedElementKey(f), static_cast<Index>(list.size())).second && !always)
      return;
    for (std::size_t j = 0; j < N; ++j) Edge({f[(j + 1) % N], f[(j + 2) % N]});
    list.push_back(f);
  }
  void Triangle(const std::array<Index, 3>& t, bool always) {
    Face(t, a_.topology.triangles, triangles_, always);
  }
  void Quad(const std::array<Index, 4>& q, bool always) {
    Face(q, a_.topology.quads, quads_, always);
  }

 private:
  TopologyAddition& a_;
  std::map<ElementKey, Index> edges_, triangles_, quads_;
};

template <std::size_t N>
std::array<Index, N> Take(const std::vector<Index>& vertices) {
  std::array<Index, N> element{};
  std::copy_n(vertices.begin(), N, element.begin());
  return element;
}

}  // namespace

TopologyAddition AddElements(const Topology& topology, TopologyLevel level,
                             const std::vector<std::vector<Index>>& elements) {
  constexpr std::array<std::size_t, kTopologyLevels> kSizes = {1, 2, 3, 4, 4, 8};
  const std::size_t size = kSizes[static_cast<std::size_t>(level)];
  for (std::size_t e = 0; e < elements.size(); ++e) {
    if (elements[e].size() != size || level == TopologyLevel::kPoint)
      throw ConfigError("", "element " + std::to_string(e) + " to add has " +
                                std::to_string(elements[e].size()) + " vertices (expected " +
                                std::to_string(size) + ")");
    for (const Index v : elements[e])
      if (v < 0 || static_cast<std::size_t>(v) >= topology.points.size())
        throw ConfigError("", "element " + std::to_string(e) + " to add uses point " +
                                  std::to_string(v) + " (expected a point of the topology's " +
                                  std::to_string(topology.points.size()) + ")");
  }
  TopologyAddition addition;
  addition.topology = topology;
  addition.first_added = static_cast<Index>(ElementCount(topology, level));
  addition.added = static_cast<Index>(elements.size());
  Growing growing(addition);
  Topology& t = addition.topology;
  static constexpr std::array<std::array<int, 3>, 4> kTetrahedronFaces = {
      {{1, 2, 3}, {0, 3, 2}, {1, 3, 0}, {0, 2, 1}}};
  static constexpr std::array<std::array<int, 2>, 6> kTetrahedronEdges = {
      {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}};
  static constexpr std::array<std::array<int, 4>, 6> kHexahedronFaces = {
      {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}};
  static constexpr std::array<std::array<int, 2>, 12> kHexahedronEdges = {{{0, 1},
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
  for (const std::vector<Index>& vertices : elements) {
    const auto at = [&](int j) { return vertices[static_cast<std::size_t>(j)]; };
    switch (level) {
      case TopologyLevel::kPoint:
        break;
      case TopologyLevel::kEdge:
        t.edges.push_back(Take<2>(vertices));  // addEdgesProcess appends as given
        break;
      case TopologyLevel::kTriangle:
        growing.Triangle(Take<3>(vertices), true);
        break;
      case TopologyLevel::kQuad:
        growing.Quad(Take<4>(vertices), true);
        break;
      case TopologyLevel::kTetrahedron:
        for (const auto& f : kTetrahedronFaces)
          growing.Triangle({at(f[0]), at(f[1]), at(f[2])}, false);
        for (const auto& e : kTetrahedronEdges) growing.Edge({at(e[0]), at(e[1])});
        t.tetrahedra.push_back(Take<4>(vertices));
        break;
      case TopologyLevel::kHexahedron:
        for (const auto& f : kHexahedronFaces)
          growing.Quad({at(f[0]), at(f[1]), at(f[2]), at(f[3])}, false);
        for (const auto& e : kHexahedronEdges) growing.Edge({at(e[0]), at(e[1])});
        t.hexahedra.push_back(Take<8>(vertices));
        break;
    }
  }
  return addition;
}

}  // namespace fluxion::internal
