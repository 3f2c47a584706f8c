#include "components/fast_triangular_bending_springs.h"

#include <Eigen/Dense>
#include <map>

#include "mechanics/bending_stencils.h"

namespace fluxion::internal {

ComponentSpec FastTriangularBendingSpringsComponent::Spec() {
  return ComponentSpec{
      .name = "FastTriangularBendingSprings",
      .kind = ComponentKind::kForceField,
      .summary = "Linear bending stencils across the edges of a triangle mesh",
      .fields = {FieldSpec::Real("bendingStiffness", 1.0,
                                 "bending stiffness of the material [N·m]"),
                 FieldSpec::Real("minDistValidity", 1e-6,
                                 "an edge or a pair of opposite vertices closer than this gets "
                                 "no stencil [m]"),
                 FieldSpec::Link("topology", "the topology (only the node's own is supported)")},
      .aliases = {}};
}

void FastTriangularBendingSpringsComponent::Build(BuildContext& context) {
  const ObjectModel* found = context.NodeObject();
  if (found == nullptr) return;
  const ObjectModel& object = *found;
  const Parameters& p = context.parameters();
  if (p.has("topology") && !p.text("topology").empty()) {
    context.Error(
        "FastTriangularBendingSprings 'topology' links are not supported yet (expected the "
        "topology of its own node)");
    return;
  }
  if (object.dimension != 3) {
    context.Error("FastTriangularBendingSprings needs a Vec3 object (found Vec" +
                  std::to_string(object.dimension) + "d)");
    return;
  }
  const std::shared_ptr<const Topology> topology = context.topology();
  if (!topology || topology->triangles.empty()) {
    context.Error("FastTriangularBendingSprings needs a topology with triangles in node '" +
                  context.node_path() + "'");
    return;
  }
  // The triangles around each edge, in triangle order.
  std::map<std::array<Index, 2>, std::vector<std::size_t>> around;
  for (std::size_t t = 0; t < topology->triangles.size(); ++t) {
    const auto& tri = topology->triangles[t];
    for (int j = 0; j < 3; ++j) {
      const Index a = tri[static_cast<std::size_t>((j + 1) % 3)];
      const Index b = tri[static_cast<std::size_t>((j + 2) % 3)];
      if (tri[static_cast<std::size_t>(j)] >= object.num_points || a >= object.num_points ||
          b >= object.num_points) {
        context.Error(
            "FastTriangularBendingSprings: the topology's triangles use points beyond the "
            "object's " +
            std::to_string(object.num_points));
        return;
      }
      around[{std::min(a, b), std::max(a, b)}].push_back(t);
    }
  }
  const auto opposite = [&](std::size_t t, Index a, Index b) {
    for (const Index v : topology->triangles[t])
      if (v != a && v != b) return v;
    return topology->triangles[t][0];
  };
  const auto rest = [&](Index point) -> Eigen::Vector3d {
    return object.rest_position.segment<3>(point * 3);
  };
  const double epsilon2 = p.real("minDistValidity") * p.real("minDistValidity");
  std::vector<BendingStencil> stencils;
  for (const auto& edge : topology->edges) {
    const auto shell = around.find({std::min(edge[0], edge[1]), std::max(edge[0], edge[1])});
    if (shell == around.end() || shell->second.size() != 2) continue;
    // A: opposite in the lower-numbered triangle (SOFA's last setting wins), B in the other.
    const std::array<Index, 4> id = {opposite(shell->second[0], edge[0], edge[1]),
                                     opposite(shell->second[1], edge[0], edge[1]), edge[0],
                                     edge[1]};
    const Eigen::Vector3d A = rest(id[0]), B = rest(id[1]), C = rest(id[2]), D = rest(id[3]);
    if (!((B - A).squaredNorm() > epsilon2 && (D - C).squaredNorm() > epsilon2)) continue;
    const double na = (A - C).cross(A - D).norm(), nb = (B - D).cross(B - C).norm();
    const double nc = (C - B).cross(C - A).norm(), nd = (D - A).cross(D - B).norm();
    const Eigen::Vector3d direction = (C - D).normalized();
    const Eigen::Vector3d ac = C - A, bc = C - B;
    const double ha = (ac - direction * ac.dot(direction)).norm();  // distance from A to CD
    const double hb = (bc - direction * bc.dot(direction)).norm();  // distance from B to CD
    if (!(ha > 0 && hb > 0 && na + nb > 0 && nc + nd > 0)) continue;
    BendingStencil stencil;
    for (std::size_t k = 0; k < 4; ++k) stencil.first[k] = object.offset + id[k] * 3;
    stencil.alpha = {nb / (na + nb), na / (na + nb), -nd / (nc + nd), -nc / (nc + nd)};
    stencil.lambda =
        2.0 / 3.0 * (ha + hb) / (ha * ha * hb * hb) * (C - D).norm() * p.real("bendingStiffness");
    stencils.push_back(stencil);
  }
  if (!context.ReserveSprings(stencils.size()) || stencils.empty()) return;
  context.AddForceField(object, std::make_unique<BendingStencils>(3, std::move(stencils)));
}

}  // namespace fluxion::internal
