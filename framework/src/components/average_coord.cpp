#include "components/average_coord.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {
// SOFA's VecCoordId indices (Sofa/framework/Core/src/sofa/core/VecId.h).
constexpr long kPosition = 1;
constexpr long kRestPosition = 2;
}  // namespace

ComponentSpec AverageCoordComponent::Spec() {
  return ComponentSpec{
      .name = "AverageCoord",
      .kind = ComponentKind::kEngine,
      .summary = "Mean position of some points of an object (output for links)",
      .fields = {FieldSpec::Text("template", "Vec3d", "SOFA's point type (that of the object)"),
                 FieldSpec::IndexList("indices", "points to average (default: every point)"),
                 FieldSpec::Integer("vecId", kPosition,
                                    "which coordinates: 1 position, 2 rest position"),
                 FieldSpec::Link("mstate", "the object (default: the node's, else an ancestor's)")},
      .aliases = {}};
}

void AverageCoordComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const long vec_id = p.integer("vecId");
  if (vec_id != kPosition && vec_id != kRestPosition) {
    context.Error("AverageCoord 'vecId' is " + std::to_string(vec_id) +
                  " (expected 1 for position or 2 for rest position)");
    return;
  }
  const ObjectModel* object = context.LinkedObject("mstate");
  if (object == nullptr) return;
  const Vector& x = vec_id == kPosition ? object->position : object->rest_position;
  const std::vector<Index>& indices = p.indices("indices");
  for (const Index i : indices)
    if (i < 0 || i >= object->num_points) {
      context.Error("AverageCoord 'indices' has point " + std::to_string(i) +
                    " (expected indices below the " + std::to_string(object->num_points) +
                    " points of '" + object->name + "')");
      return;
    }
  const Index n = indices.empty() ? object->num_points : static_cast<Index>(indices.size());
  if (n == 0) {
    context.Error("AverageCoord has no point to average (expected an object with points)");
    return;
  }
  const int d = object->dimension;
  std::vector<double> average(static_cast<std::size_t>(d), 0.0);
  for (Index k = 0; k < n; ++k) {
    const Index i = indices.empty() ? k : indices[static_cast<std::size_t>(k)];
    for (int a = 0; a < d; ++a) average[static_cast<std::size_t>(a)] += x[i * d + a];
  }
  const double inverse = 1.0 / static_cast<double>(n);  // SOFA multiplies by 1/n
  for (double& value : average) value *= inverse;
  std::string text;
  for (const double value : average) text += " " + FormatReal(value);
  LogInfo(context.Where() + "AverageCoord average =" + text);
  context.SetOutput("average", std::move(average));
}

}  // namespace fluxion::internal
