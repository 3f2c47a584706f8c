#include "components/triangular_bending_springs.h"

#include <cmath>
#include <map>

#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

ComponentSpec TriangularBendingSpringsComponent::Spec() {
  return ComponentSpec{
      .name = "TriangularBendingSprings",
      .kind = ComponentKind::kForceField,
      .summary = "Bending springs across the edges of a triangle mesh",
      .fields =
          {FieldSpec::Real("stiffness", 100000.0, "stiffness of each spring [N/m]").AtLeast(0),
           FieldSpec::Real("damping", 1.0, "damping of each spring [N·s/m]").AtLeast(0),
           FieldSpec::Link("topology",
                           "the topology, e.g. topology=\"@../Container\" (default: the node's)")},
      .aliases = {}};
}

void TriangularBendingSpringsComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const bool linked = p.has("topology") && !p.text("topology").empty();
  const std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return;  // reported
  if (!topology || topology->triangles.empty()) {
    context.Error("TriangularBendingSprings needs a topology with triangles in node '" +
                  context.node_path() + "'");
    return;
  }
  // The triangles around each edge, in triangle order.
  std::map<std::array<Index, 2>, std::vector<std::size_t>> around;
  for (std::size_t t = 0; t < topology->triangles.size(); ++t) {
    const auto& tri = topology->triangles[t];
    for (int j = 0; j < 3; ++j) {
      const Index a = tri[(j + 1) % 3], b = tri[(j + 2) % 3];
      if (a >= object.num_points || b >= object.num_points || tri[j] >= object.num_points) {
        context.Error(
            "TriangularBendingSprings: the topology's triangles use points beyond the "
            "object's " +
            std::to_string(object.num_points));
        return;
      }
      around[{std::min(a, b), std::max(a, b)}].push_back(t);
    }
  }
  // The vertex of triangle `t` opposite the edge {a, b}.
  const auto opposite = [&](std::size_t t, Index a, Index b) {
    for (const Index v : topology->triangles[t])
      if (v != a && v != b) return v;
    return topology->triangles[t][0];
  };
  const int dim = object.dimension;
  std::vector<Spring> springs;
  for (const auto& edge : topology->edges) {
    const auto shell = around.find({std::min(edge[0], edge[1]), std::max(edge[0], edge[1])});
    if (shell == around.end() || shell->second.size() != 2) continue;
    const Index m1 = opposite(shell->second[1], edge[0], edge[1]);
    const Index m2 = opposite(shell->second[0], edge[0], edge[1]);
    double length2 = 0.0;
    for (int c = 0; c < dim; ++c) {
      const double u = object.rest_position[m1 * dim + c] - object.rest_position[m2 * dim + c];
      length2 += u * u;
    }
    springs.push_back(Spring{.a = object.offset + m1 * dim,
                             .b = object.offset + m2 * dim,
                             .stiffness = p.real("stiffness"),
                             .damping = p.real("damping"),
                             .rest_length = std::sqrt(length2)});
  }
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  context.AddForceField(object, std::make_unique<SpringForceField>(dim, std::move(springs),
                                                                   /*exact_damping_jacobian=*/false,
                                                                   /*min_length=*/1e-4));
}

}  // namespace fluxion::internal
