#include "components/triangle_spring_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "mechanics/topology_elements.h"

namespace fluxion::internal {

std::optional<TriangleSpringMesh> BuildTriangleSpringMesh(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return std::nullopt;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (std::abs(p.real("poissonRatio")) == 1.0) {
    context.Error(context.type() + " 'poissonRatio' is " + p.source_text("poissonRatio") +
                  " (expected a value other than ±1: λ and μ divide by 1 − ν²)");
    return std::nullopt;
  }
  const bool linked = p.has("topology") && !p.text("topology").empty();
  std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return std::nullopt;  // reported
  if (!topology) topology = object.topology;
  if (!topology || topology->triangles.empty() || object.dimension != 3) {
    context.Error(context.type() + " needs a Vec3 object with a triangle topology in node '" +
                  context.node_path() + "' (SOFA: \"object must have a Triangular Set Topology\")");
    return std::nullopt;
  }
  // SOFA's edges: the topology's, or derived from its triangles as its containers do.
  Topology completed;
  const Topology* source = topology.get();
  if (source->edges.empty()) {
    completed.points = source->points;
    completed.triangles = source->triangles;
    CompleteTopology(completed);
    source = &completed;
  }
  const auto point = [&](Index i) { return object.rest_position.segment<3>(3 * i); };
  TriangleSpringMesh mesh;
  mesh.object = &object;
  std::map<std::pair<Index, Index>, std::size_t> edge_of;
  for (const auto& e : source->edges) {
    if (e[0] >= object.num_points || e[1] >= object.num_points) {
      context.Error(context.type() + ": the topology's edges use points beyond the object's " +
                    std::to_string(object.num_points));
      return std::nullopt;
    }
    edge_of.emplace(std::minmax(e[0], e[1]), mesh.edges.size());
    mesh.edges.push_back({e[0], e[1]});
    mesh.rest_square_length.push_back((point(e[0]) - point(e[1])).squaredNorm());
  }
  mesh.triangles.reserve(source->triangles.size());
  mesh.opposite_edge.reserve(source->triangles.size());
  for (std::size_t t = 0; t < source->triangles.size(); ++t) {
    const auto& tri = source->triangles[t];
    std::array<std::size_t, 3> opposite{};
    for (int j = 0; j < 3; ++j) {
      const auto at = edge_of.find(std::minmax(tri[(j + 1) % 3], tri[(j + 2) % 3]));
      if (tri[j] >= object.num_points || at == edge_of.end()) {
        context.Error(context.type() + ": triangle " + std::to_string(t) +
                      " uses a point beyond the object's or an edge the topology lacks");
        return std::nullopt;
      }
      opposite[static_cast<std::size_t>(j)] = at->second;
    }
    mesh.triangles.push_back({tri[0], tri[1], tri[2]});
    mesh.opposite_edge.push_back(opposite);
  }
  return mesh;
}

}  // namespace fluxion::internal
