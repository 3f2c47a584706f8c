#include "components/quad_bending_springs.h"

#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

ComponentSpec QuadBendingSpringsComponent::Spec() {
  return ComponentSpec{
      .name = "QuadBendingSprings",
      .kind = ComponentKind::kForceField,
      .summary = "Bending springs across the edges of a quad mesh",
      .fields = {FieldSpec::RealList("stiffness",
                                     "stiffness of each spring (the first value) [N/m]")
                     .DefaultText("100")
                     .AtLeast(0),
                 FieldSpec::RealList("damping", "damping of each spring (the first value) [N·s/m]")
                     .DefaultText("5")
                     .AtLeast(0),
                 FieldSpec::RealList("localRange", "first and last point, -1 for open")
                     .DefaultText("-1 -1"),
                 FieldSpec::Link("topology", "the topology (only the node's own is supported)")},
      .aliases = {}};
}

void QuadBendingSpringsComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (p.has("topology") && !p.text("topology").empty()) {
    context.Error(
        "QuadBendingSprings 'topology' links are not supported yet (expected the topology of "
        "its own node)");
    return;
  }
  const std::vector<double>& ks = p.reals("stiffness");
  const std::vector<double>& kd = p.reals("damping");
  const std::vector<double>& range = p.reals("localRange");
  if (ks.empty() || kd.empty()) {
    context.Error("QuadBendingSprings 'stiffness' and 'damping' need a value (expected one each)");
    return;
  }
  if (range.size() != 2 || range[0] != std::floor(range[0]) || range[1] != std::floor(range[1])) {
    context.Error(
        "QuadBendingSprings 'localRange' needs 2 whole numbers (first last, -1 for open)");
    return;
  }
  const std::shared_ptr<const Topology> topology = context.topology();
  if (!topology || topology->quads.empty()) {
    context.Error("QuadBendingSprings needs a topology with quads in node '" + context.node_path() +
                  "'");
    return;
  }
  const Index low = static_cast<Index>(range[0]), high = static_cast<Index>(range[1]);
  using Pair = std::pair<Index, Index>;
  const int dim = object.dimension;
  std::map<Pair, Pair> first_opposites;  // edge (low, high) → the first quad's opposite pair
  std::set<Pair> joined;
  std::vector<Spring> springs;
  const auto add_spring = [&](Index a, Index b) {
    if (low >= 0 && a < low && b < low) return;
    if (high >= 0 && a > high && b > high) return;
    if (!joined.insert({std::min(a, b), std::max(a, b)}).second) return;
    double length2 = 0.0;
    for (int c = 0; c < dim; ++c) {
      const double u = object.position[a * dim + c] - object.position[b * dim + c];
      length2 += u * u;
    }
    springs.push_back(Spring{.a = object.offset + a * dim,
                             .b = object.offset + b * dim,
                             .stiffness = ks[0],
                             .damping = kd[0],
                             .rest_length = std::sqrt(length2)});
  };
  const auto register_edge = [&](Pair edge, Pair opposite) {
    if (edge.first > edge.second) {
      std::swap(edge.first, edge.second);
      std::swap(opposite.first, opposite.second);
    }
    const auto [it, inserted] = first_opposites.emplace(edge, opposite);
    if (inserted) return;
    add_spring(opposite.first, it->second.first);
    add_spring(opposite.second, it->second.second);
  };
  for (const auto& q : topology->quads) {
    for (const Index v : q)
      if (v >= object.num_points) {
        context.Error("QuadBendingSprings: the topology's quads use points beyond the object's " +
                      std::to_string(object.num_points));
        return;
      }
    register_edge({q[0], q[1]}, {q[3], q[2]});
    register_edge({q[1], q[2]}, {q[0], q[3]});
    register_edge({q[2], q[3]}, {q[1], q[0]});
    register_edge({q[3], q[0]}, {q[2], q[1]});
  }
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  context.AddForceField(object, std::make_unique<SpringForceField>(
                                    dim, std::move(springs), /*exact_damping_jacobian=*/false));
}

}  // namespace fluxion::internal
