#include "components/triangle_bending_springs.h"

#include <cmath>
#include <map>
#include <span>
#include <utility>

#include "mechanics/spring_force_field.h"

namespace fluxion::internal {

ComponentSpec TriangleBendingSpringsComponent::Spec() {
  return ComponentSpec{
      .name = "TriangleBendingSprings",
      .kind = ComponentKind::kForceField,
      .summary = "Bending springs between the vertices facing each other across shared edges",
      .fields = {FieldSpec::RealList("stiffness",
                                     "stiffness of each spring (the first value) [N/m]")
                     .DefaultText("100")
                     .AtLeast(0),
                 FieldSpec::RealList("damping", "damping of each spring (the first value) [N·s/m]")
                     .DefaultText("5")
                     .AtLeast(0),
                 FieldSpec::Link("topology",
                                 "the topology, e.g. topology=\"@../Container\" (default: the "
                                 "node's)")},
      .aliases = {}};
}

void TriangleBendingSpringsComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  const bool linked = p.has("topology") && !p.text("topology").empty();
  const std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (linked && !topology) return;  // reported
  if (!topology || (topology->triangles.empty() && topology->quads.empty())) {
    context.Error("TriangleBendingSprings needs a topology with triangles or quads in node '" +
                  context.node_path() + "'");
    return;
  }
  const std::vector<double>& ks = p.reals("stiffness");
  const std::vector<double>& kd = p.reals("damping");
  if (ks.empty() || kd.empty()) {
    context.Error(
        "TriangleBendingSprings 'stiffness' and 'damping' need a value (expected one each)");
    return;
  }
  const int dim = object.dimension;
  std::map<std::pair<Index, Index>, Index> first_opposite;  // edge (low, high) → vertex
  std::vector<Spring> springs;
  const auto add_spring = [&](Index a, Index b) {
    if (a == b) return;  // no force nor stiffness in SOFA (length 0 ≤ 1e-9)
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
  const auto register_edge = [&](Index a, Index b, Index opposite) {
    const auto [it, inserted] =
        first_opposite.emplace(std::pair{std::min(a, b), std::max(a, b)}, opposite);
    if (!inserted) add_spring(opposite, it->second);
  };
  const auto register_triangle = [&](Index a, Index b, Index c) {
    register_edge(a, b, c);
    register_edge(b, c, a);
    register_edge(c, a, b);
  };
  const auto beyond = [&](std::span<const Index> element) {
    for (const Index v : element)
      if (v >= object.num_points) {
        context.Error("TriangleBendingSprings: the topology's faces use point " +
                      std::to_string(v) + " (expected indices below the object's " +
                      std::to_string(object.num_points) + " points)");
        return true;
      }
    return false;
  };
  for (const auto& t : topology->triangles) {
    if (beyond(t)) return;
    register_triangle(t[0], t[1], t[2]);
  }
  for (const auto& q : topology->quads) {
    if (beyond(q)) return;
    register_triangle(q[0], q[1], q[2]);
    register_triangle(q[0], q[2], q[3]);
  }
  if (!context.ReserveSprings(springs.size()) || springs.empty()) return;
  context.AddForceField(object, std::make_unique<SpringForceField>(
                                    dim, std::move(springs), /*exact_damping_jacobian=*/false));
}

}  // namespace fluxion::internal
