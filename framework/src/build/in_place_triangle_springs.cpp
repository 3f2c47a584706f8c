// Delingette's triangular spring fields followed in place (see the header).
#include "build/in_place_triangle_springs.h"

#include <algorithm>
#include <array>

#include "mechanics/assembled_system.h"
#include "mechanics/triangular_biquadratic_springs.h"
#include "mechanics/triangular_quadratic_springs.h"

namespace fluxion::internal {

namespace {

// Calls `body` with field `index` of `system` as its concrete type.
template <class Body>
void WithField(AssembledSystem& system, std::size_t index, bool biquadratic, Body&& body) {
  if (biquadratic)
    body(static_cast<TriangularBiquadraticSprings&>(system.MutableField(index)));
  else
    body(static_cast<TriangularQuadraticSprings&>(system.MutableField(index)));
}

// Why `field` is not on `topology`'s edges and triangles in order (empty when it is): edge e
// from point edges[e][0] to edges[e][1], triangle t on triangles[t] with its edge j the side
// opposite vertex j — what the build of the reduced mesh gives and the follow keeps.
template <class Field>
std::string Mismatch(const Field& field, const Topology& topology, Index first_dof) {
  const auto dof = [&](Index point) { return first_dof + 3 * point; };
  if (field.num_edges() != topology.edges.size()) return "its edges are not the topology's";
  for (std::size_t e = 0; e < field.num_edges(); ++e)
    if (field.edge(e).a != dof(topology.edges[e][0]) ||
        field.edge(e).b != dof(topology.edges[e][1]))
      return "its edges are not the topology's in order";
  if (field.num_triangles() != topology.triangles.size())
    return "its triangles are not the topology's";
  for (std::size_t t = 0; t < field.num_triangles(); ++t) {
    const auto& triangle = topology.triangles[t];
    for (std::size_t j = 0; j < 3; ++j) {
      if (field.triangle(t).dof[j] != dof(triangle[j]))
        return "its triangles are not the topology's in order";
      const auto& side = topology.edges[field.triangle(t).edge[j]];
      const std::array<Index, 2> ends = {triangle[(j + 1) % 3], triangle[(j + 2) % 3]};
      if (!std::is_permutation(side.begin(), side.end(), ends.begin()))
        return "a triangle's edge is not its side";
    }
  }
  return {};
}

}  // namespace

bool InPlaceTriangleSprings::Add(AssembledSystem& system, const ForceField* field,
                                 const Topology& topology, Index first_dof, std::string& why) {
  const int index = system.FieldIndex(field);
  const bool biquadratic = dynamic_cast<const TriangularBiquadraticSprings*>(field) != nullptr;
  if (index < 0 ||
      (!biquadratic && dynamic_cast<const TriangularQuadraticSprings*>(field) == nullptr)) {
    why = "is not one triangular spring field of the node";
    return false;
  }
  WithField(system, static_cast<std::size_t>(index), biquadratic,
            [&](const auto& springs) { why = Mismatch(springs, topology, first_dof); });
  if (!why.empty()) return false;
  system_ = &system;
  first_dof_ = first_dof;
  fields_.push_back({static_cast<std::size_t>(index), biquadratic});
  touched_.reserve(3 * topology.triangles.size());
  around_.reserve(8);  // an edge's triangles: two on a manifold
  return true;
}

bool InPlaceTriangleSprings::Follows(std::size_t index) const {
  return std::any_of(fields_.begin(), fields_.end(),
                     [&](const Followed& f) { return f.index == index; });
}

void InPlaceTriangleSprings::BeforeRemoval(const Topology& topology, const TriangleShells& shells,
                                           std::span<const Index> ids) {
  touched_.clear();
  edges_before_ = static_cast<Index>(topology.edges.size());
  if (fields_.empty()) return;
  for (const Index t : ids)
    if (t >= 0 && t < static_cast<Index>(topology.triangles.size()))
      for (const Index e : shells.EdgesInTriangle(t)) touched_.push_back(e);
}

void InPlaceTriangleSprings::SetTriangle(const Followed& f, const Topology& topology,
                                         const TriangleShells& shells, Index t) {
  const auto& triangle = topology.triangles[static_cast<std::size_t>(t)];
  const std::array<Index, 3> dof = {first_dof_ + 3 * triangle[0], first_dof_ + 3 * triangle[1],
                                    first_dof_ + 3 * triangle[2]};
  WithField(*system_, f.index, f.biquadratic, [&](auto& springs) {
    springs.SetTriangle(static_cast<std::size_t>(t), dof, shells.EdgesInTriangle(t));
  });
}

void InPlaceTriangleSprings::SetEdgeEnds(const Followed& f, const Topology& topology, Index e) {
  const auto& edge = topology.edges[static_cast<std::size_t>(e)];
  WithField(*system_, f.index, f.biquadratic, [&](auto& springs) {
    springs.SetEdgeEnds(static_cast<std::size_t>(e), first_dof_ + 3 * edge[0],
                        first_dof_ + 3 * edge[1]);
  });
}

void InPlaceTriangleSprings::AfterRemoval(const Topology& topology, const TriangleShells& shells,
                                          const ShellRemoval& done) {
  if (fields_.empty()) return;
  // The noted edges under their numbers now: each removed edge's slot took the then last edge.
  Index count = edges_before_;
  for (const Index removed : done.removed_edges) {
    --count;
    std::erase(touched_, removed);
    std::replace(touched_.begin(), touched_.end(), count, removed);
  }
  const auto triangles = static_cast<Index>(topology.triangles.size());
  const auto edges = static_cast<Index>(topology.edges.size());
  for (const Followed& f : fields_) {
    // The rest data move with their elements (SOFA's TopologyData::remove).
    WithField(*system_, f.index, f.biquadratic, [&](auto& springs) {
      springs.RemoveTrianglesMovingLast(done.removed_triangles);
      springs.RemoveEdgesMovingLast(done.removed_edges);
    });
    // The moved triangles and those around moved edges take the edges' numbers now.
    for (const Index slot : done.removed_triangles)
      if (slot < triangles) SetTriangle(f, topology, shells, slot);
    for (const Index slot : done.removed_edges)
      if (slot < edges)
        for (const Index t : shells.TrianglesAroundEdge(slot)) SetTriangle(f, topology, shells, t);
    // A point moved into a freed slot: the triangles and edges around it take its DOFs.
    for (std::size_t i = 0; i < done.removed_points.size(); ++i) {
      const Index p = done.removed_points[i];
      if (p == done.moved_points[i] || p >= static_cast<Index>(topology.points.size())) continue;
      for (const Index t : shells.TrianglesAroundVertex(p)) {
        SetTriangle(f, topology, shells, t);
        for (const Index e : shells.EdgesInTriangle(t)) SetEdgeEnds(f, topology, e);
      }
    }
  }
  // k_e again where an edge lost a triangle, or a moved triangle changed the order of its sum.
  for (const Index slot : done.removed_triangles)
    if (slot < triangles)
      for (const Index e : shells.EdgesInTriangle(slot)) touched_.push_back(e);
  std::sort(touched_.begin(), touched_.end());
  touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
  for (const Index e : touched_) {
    const std::vector<Index>& around = shells.TrianglesAroundEdge(e);
    around_.assign(around.begin(), around.end());
    std::sort(around_.begin(), around_.end());
    for (const Followed& f : fields_)
      WithField(*system_, f.index, f.biquadratic, [&](auto& springs) {
        springs.SumEdgeStiffness(static_cast<std::size_t>(e), around_);
      });
  }
}

}  // namespace fluxion::internal
