// The elements of one collision model, read from its object's topology once, with what SOFA's
// models precompute from the topology: which vertices and edges each triangle owns (its flags),
// the neighbourhoods the self-collision rules need, and those LocalMinDistance's filters read.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "collision/detection.h"
#include "collision/surface_neighbourhood.h"

namespace fluxion::internal::collision {

/// SOFA's TriangleCollisionModel flags (TriangleCollisionModel.h, FLAG_P1 …): the features a
/// triangle is the first owner of, so that a vertex or an edge shared by several triangles is
/// tested once. NewProximityIntersection reads them.
enum TriangleFlag : int {
  kFlagP1 = 1 << 0,
  kFlagP2 = 1 << 1,
  kFlagP3 = 1 << 2,
  kFlagE23 = 1 << 3,
  kFlagE31 = 1 << 4,
  kFlagE12 = 1 << 5,
  kFlagBoundaryE23 = 1 << 6,
  kFlagBoundaryE31 = 1 << 7,
  kFlagBoundaryE12 = 1 << 8,
};

/// Lists indexed by a vertex, in compressed rows (a neighbourhood per vertex).
class VertexLists {
 public:
  VertexLists() = default;
  /// `pairs` (vertex, item) in the order the items are to be listed for each vertex.
  VertexLists(Index num_vertices, std::span<const std::array<Index, 2>> pairs);
  std::span<const Index> of(Index vertex) const {
    if (vertex < 0 || vertex + 1 >= static_cast<Index>(offsets_.size())) return {};
    return {items_.data() + offsets_[static_cast<std::size_t>(vertex)],
            items_.data() + offsets_[static_cast<std::size_t>(vertex) + 1]};
  }

 private:
  std::vector<std::size_t> offsets_;
  std::vector<Index> items_;
};

/// The elements of a model (SOFA's Sofa/Component/Collision/Geometry/):
/// - kPoint, kSphere: one element per point of the object (PointCollisionModel::init,
///   SphereCollisionModel: the mechanical state's size);
/// - kLine: the topology's edges, in their order (LineCollisionModel::updateFromTopology). When the
///   topology lists no edges but triangles, the edges are made from the triangles as SOFA's
///   TriangleSetTopologyContainer::createEdgeSetArray makes them: triangle by triangle, side j =
///   (t[j+1], t[j+2]), each unordered pair once, kept in its first orientation;
/// - kTriangle: the topology's triangles, then two per quad (q1,q2,q0) and (q3,q0,q2)
///   (TriangleCollisionModel::updateFromTopology).
/// The lines' edges are SurfaceEdges(topology).
class ModelElements {
 public:
  explicit ModelElements(const CollisionModelDescription& model);

  ElementKind kind() const { return kind_; }
  Index size() const { return size_; }
  /// Vertex k of element e (k < 1 for points and spheres, 2 for lines, 3 for triangles).
  Index vertex(Index e, int k) const {
    return vertices_[static_cast<std::size_t>(e * stride_ + k)];
  }
  /// kSphere: SphereCollisionModel::getRadius: listRadius[e] when the list has it, else radius.
  double radius(Index e) const {
    return static_cast<std::size_t>(e) < radii_.size() ? radii_[static_cast<std::size_t>(e)]
                                                       : default_radius_;
  }
  /// kTriangle: SOFA's TriangleCollisionModel::getTriangleFlags (TriangleFlag bits). A triangle
  /// owns vertex j when it is the first triangle around it (lowest index), edge j (opposite vertex
  /// j) when it is the first triangle around that edge, and marks the edge a boundary when no other
  /// triangle has it. Triangles made from quads have no flags (SOFA computes flags only for the
  /// topology's own triangles).
  int triangle_flags(Index e) const { return flags_[static_cast<std::size_t>(e)]; }
  /// kLine: the lines around a vertex, ascending (SOFA's getEdgesAroundVertex).
  std::span<const Index> lines_around_vertex(Index v) const { return lines_around_.of(v); }
  /// The vertices joined to v by an edge of the object (SOFA's getVerticesAroundVertex; the edges
  /// are the topology's, else the triangles' and quads' sides).
  std::span<const Index> vertices_around_vertex(Index v) const { return neighbours_.of(v); }
  /// kPoint, kLine: the triangles and edges around the model's vertices and edges on its
  /// topology, for LocalMinDistance's filters (empty for triangles and spheres, which it does not
  /// filter by their neighbourhood). A line's index is its edge's index there.
  const SurfaceNeighbourhood& surface() const { return surface_; }
  /// CollisionModelDescription::line_model_in_context.
  bool line_model_in_context() const { return line_model_in_context_; }

 private:
  ElementKind kind_;
  Index size_ = 0;
  int stride_ = 1;
  std::vector<Index> vertices_;
  std::vector<double> radii_;
  double default_radius_ = 1.0;
  std::vector<int> flags_;
  VertexLists lines_around_;
  VertexLists neighbours_;
  SurfaceNeighbourhood surface_;
  bool line_model_in_context_ = false;
};

}  // namespace fluxion::internal::collision
