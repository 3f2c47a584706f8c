#include "components/smooth_mesh_engine.h"

#include <algorithm>
#include <cmath>

#include "components/engine_inputs.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

namespace fluxion::internal {

ComponentSpec SmoothMeshEngineComponent::Spec() {
  return ComponentSpec{
      .name = "SmoothMeshEngine",
      .kind = ComponentKind::kEngine,
      .summary = "Laplacian smoothing of a mesh's points (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::RealList("input_position", "points to smooth [m]"),
                 FieldSpec::IndexList("input_indices", "points that move (default: every point)"),
                 FieldSpec::Integer("nb_iterations", 1, "number of smoothing sweeps").AtLeast(0),
                 FieldSpec::Link("topology",
                                 "the topology whose edges say the neighbours "
                                 "(default: the node's)")},
      .aliases = {}};
}

void SmoothMeshEngineComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto input = ReadPoints(context, "input_position");
  if (!input) return;
  const std::shared_ptr<const Topology> topology = context.LinkedTopology("topology");
  if (topology == nullptr) {
    if (p.has("topology")) return;  // reported
    context.Error("SmoothMeshEngine needs a topology (expected one in its node or 'topology')");
    return;
  }
  const auto points = static_cast<Index>(input->size());
  const std::vector<Index> edge_points = Flatten(topology->edges);
  const std::vector<Index>& indices = p.indices("input_indices");
  if (!CheckIndices(context, "topology edges", edge_points, points) ||
      !CheckIndices(context, "input_indices", indices, points))
    return;
  // Each edge makes its two ends neighbours (an edge listed twice counts twice, as in SOFA).
  std::vector<std::vector<Index>> neighbours(input->size());
  for (const auto& edge : topology->edges) {
    neighbours[static_cast<std::size_t>(edge[0])].push_back(edge[1]);
    neighbours[static_cast<std::size_t>(edge[1])].push_back(edge[0]);
  }
  std::vector<Point3> x = *input;
  const auto smoothed = [&](Index i, const std::vector<Point3>& from) {
    const std::vector<Index>& around = neighbours[static_cast<std::size_t>(i)];
    if (around.empty()) return from[static_cast<std::size_t>(i)];
    Point3 sum{0.0, 0.0, 0.0};
    for (const Index j : around)
      for (std::size_t k = 0; k < 3; ++k) sum[k] += from[static_cast<std::size_t>(j)][k];
    for (double& s : sum) s /= static_cast<double>(around.size());
    return sum;
  };
  for (long n = 0; n < p.integer("nb_iterations"); ++n) {
    std::vector<Point3> next = x;
    if (indices.empty()) {
      for (Index i = 0; i < points; ++i) next[static_cast<std::size_t>(i)] = smoothed(i, x);
    } else {
      for (const Index i : indices) next[static_cast<std::size_t>(i)] = smoothed(i, x);
    }
    x = std::move(next);
  }
  double moved = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i)
    moved = std::max(moved, std::hypot(x[i][0] - (*input)[i][0], x[i][1] - (*input)[i][1],
                                       x[i][2] - (*input)[i][2]));
  LogInfo(context.Where() + "SmoothMeshEngine moved " + std::to_string(x.size()) +
          " points by at most " + FormatReal(moved));
  context.SetOutput("output_position", Flatten(x));
}

}  // namespace fluxion::internal
