// The neighbourhood of a model's vertices and edges on its topology's surface: what
// LocalMinDistance's cone filters read (SOFA's BaseMeshTopology getTrianglesAroundVertex,
// getEdgesAroundVertex, getTrianglesAroundEdge), built once when the model is described so that
// detection reads it without allocating.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "collision/detection.h"

namespace fluxion::internal::collision {

/// The edges SOFA's topology gives a model (and its LineCollisionModel's elements): the
/// topology's own, else made from its triangles as TriangleSetTopologyContainer::
/// createEdgeSetArray and MeshTopology's EdgeUpdate make them: triangle by triangle, side j =
/// (t[j+1], t[j+2]), each unordered pair once, kept in the orientation it was first met.
std::vector<std::array<Index, 2>> SurfaceEdges(const ObjectTopology& topology);

/// Lists indexed by a vertex or an edge, in compressed rows.
class IndexLists {
 public:
  IndexLists() = default;
  /// `rows[i]` becomes list i.
  explicit IndexLists(const std::vector<std::vector<Index>>& rows);
  std::span<const Index> of(Index i) const {
    if (i < 0 || i + 1 >= static_cast<Index>(offsets_.size())) return {};
    return {items_.data() + offsets_[static_cast<std::size_t>(i)],
            items_.data() + offsets_[static_cast<std::size_t>(i) + 1]};
  }

 private:
  std::vector<std::size_t> offsets_;
  std::vector<Index> items_;
};

/// The topology's triangles (not those made from quads: SOFA's getTrianglesAroundVertex and
/// getTrianglesAroundEdge list the topology's triangles only) and edges (SurfaceEdges), and which
/// of them lie around each vertex and edge.
class SurfaceNeighbourhood {
 public:
  SurfaceNeighbourhood() = default;
  explicit SurfaceNeighbourhood(const ObjectTopology& topology);

  const std::array<Index, 3>& triangle(Index t) const {
    return triangles_[static_cast<std::size_t>(t)];
  }
  const std::array<Index, 2>& edge(Index e) const { return edges_[static_cast<std::size_t>(e)]; }
  /// The triangles having vertex v, ascending (SOFA's createTrianglesAroundVertexArray).
  std::span<const Index> triangles_around_vertex(Index v) const { return around_vertex_.of(v); }
  /// The edges having vertex v, ascending (createEdgesAroundVertexArray).
  std::span<const Index> edges_around_vertex(Index v) const { return edges_around_vertex_.of(v); }
  /// The triangles having edge e as a side, in SOFA's order (createTrianglesAroundEdgeArray): a
  /// triangle whose side runs the edge's way (the triangle on the edge's left) is put first, any
  /// other is appended; so one left and one right triangle come as (left, right).
  std::span<const Index> triangles_around_edge(Index e) const { return around_edge_.of(e); }

 private:
  std::vector<std::array<Index, 3>> triangles_;
  std::vector<std::array<Index, 2>> edges_;
  IndexLists around_vertex_;
  IndexLists edges_around_vertex_;
  IndexLists around_edge_;
};

}  // namespace fluxion::internal::collision
