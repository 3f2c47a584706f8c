#include "components/quadular_bending_springs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

ComponentSpec QuadularBendingSpringsComponent::Spec() {
  return ComponentSpec{
      .name = "QuadularBendingSprings",
      .kind = ComponentKind::kForceField,
      .summary = "Bending springs across the edges of a quad mesh, two per inner edge",
      .fields =
          {FieldSpec::Real("stiffness", 100000.0, "stiffness of each spring [N/m]").AtLeast(0),
           FieldSpec::Real("damping", 1.0, "damping of each spring [N·s/m]").AtLeast(0),
           FieldSpec::Link("topology",
                           "the topology, e.g. topology=\"@../Container\" (default: the node's)")},
      .aliases = {}};
}

void QuadularBendingSpringsComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const bool linked = p.has("topology") && !p.text("topology").empty();
  const std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return;  // reported
  if (!topology || topology->quads.empty()) {
    context.Error("QuadularBendingSprings needs a topology with quads in node '" +
                  context.node_path() + "' (SOFA's \"No Quads found in linked Topology\")");
    return;
  }
  const auto& quads = topology->quads;
  for (const auto& quad : quads)
    for (const Index v : quad)
      if (v < 0 || v >= object.num_points) {
        context.Error("QuadularBendingSprings: the topology's quads use point " +
                      std::to_string(v) + " but '" + object.id + "' has " +
                      std::to_string(object.num_points) + " points");
        return;
      }
  // SOFA's edges of the quads, in order of first appearance (createEdgeSetArray), and for each
  // the quads around it in quad order with the edge's place j in each (edge j = (q[j+1], q[j+2])).
  struct Shell {
    std::vector<std::pair<std::size_t, int>> quads;  // (quad, j)
  };
  std::map<std::array<Index, 2>, std::size_t> edge_index;
  std::vector<Shell> shells;
  for (std::size_t q = 0; q < quads.size(); ++q)
    for (int j = 0; j < 4; ++j) {
      const Index a = quads[q][(j + 1) % 4], b = quads[q][(j + 2) % 4];
      const auto [it, inserted] =
          edge_index.try_emplace({std::min(a, b), std::max(a, b)}, shells.size());
      if (inserted) shells.emplace_back();
      shells[it->second].quads.emplace_back(q, j);
    }
  const int dim = object.dimension;
  const auto rest_distance = [&](Index m, Index n) {
    double length2 = 0.0;
    for (int c = 0; c < dim; ++c) {
      const double u = object.rest_position[m * dim + c] - object.rest_position[n * dim + c];
      length2 += u * u;
    }
    return std::sqrt(length2);
  };
  std::vector<Spring> springs;
  const auto add = [&](Index m, Index n) {
    springs.push_back(Spring{.a = object.offset + m * dim,
                             .b = object.offset + n * dim,
                             .stiffness = p.real("stiffness"),
                             .damping = p.real("damping"),
                             .rest_length = rest_distance(m, n)});
  };
  // Edge by edge in the topology's edge order (SOFA's edgeInfo), else in the order the quads
  // give them (a topology without edges: SOFA's container derives them so).
  std::vector<const Shell*> ordered;
  if (topology->edges.empty()) {
    for (const Shell& shell : shells) ordered.push_back(&shell);
  } else {
    for (const auto& edge : topology->edges) {
      const auto it = edge_index.find({std::min(edge[0], edge[1]), std::max(edge[0], edge[1])});
      if (it != edge_index.end()) ordered.push_back(&shells[it->second]);
    }
  }
  for (const Shell* in_order : ordered) {
    const Shell& shell = *in_order;
    if (shell.quads.size() != 2) continue;
    const auto& [q2, i2] = shell.quads[0];  // SOFA's t2: the quad that initialises the edge
    const auto& [q1, i1] = shell.quads[1];  // t1: the other one
    const auto& t1 = quads[q1];
    const auto& t2 = quads[q2];
    add(t1[i1], t2[(i2 + 3) % 4]);
    add(t1[(i1 + 3) % 4], t2[i2]);
  }
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  context.AddForceField(object, std::make_unique<SpringForceField>(dim, std::move(springs),
                                                                   /*exact_damping_jacobian=*/false,
                                                                   /*min_length=*/1e-4));
}

}  // namespace fluxion::internal
