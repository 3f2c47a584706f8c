#include "components/points_from_indices.h"

#include <algorithm>
#include <string>
#include <vector>

namespace fluxion::internal {

ComponentSpec PointsFromIndicesComponent::Spec() {
  return ComponentSpec{.name = "PointsFromIndices",
                       .kind = ComponentKind::kEngine,
                       .summary = "The points of some indices of a point list (output for links)",
                       .fields = {FieldSpec::Choice("template", "Vec3d",
                                                    {"Vec1d", "Vec1", "Vec1f", "Vec2d", "Vec2",
                                                     "Vec2f", "Vec3d", "Vec3", "Vec3f"},
                                                    "point type"),
                                  FieldSpec::RealList("position", "points [m]"),
                                  FieldSpec::IndexList("indices", "the points to take")},
                       .aliases = {}};
}

void PointsFromIndicesComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::string& type = p.text("template");
  const std::size_t d = type.starts_with("Vec1") ? 1 : type.starts_with("Vec2") ? 2 : 3;
  const std::vector<double>& position = p.reals("position");
  const std::size_t points = position.size() / d;
  std::vector<double> taken;
  for (const Index index : p.indices("indices")) {
    if (index < 0 || static_cast<std::size_t>(index) >= points) {
      context.Error("PointsFromIndices 'indices' has point " + std::to_string(index) +
                    " (expected indices below the " + std::to_string(points) + " points of " +
                    "'position')");
      return;
    }
    const auto point = position.begin() + static_cast<std::ptrdiff_t>(index * d);
    bool seen = false;
    for (std::size_t k = 0; k + d <= taken.size() && !seen; k += d)
      seen = std::equal(point, point + static_cast<std::ptrdiff_t>(d),
                        taken.begin() + static_cast<std::ptrdiff_t>(k));
    if (!seen) taken.insert(taken.end(), point, point + static_cast<std::ptrdiff_t>(d));
  }
  context.SetOutput("indices_position", std::move(taken));
}

}  // namespace fluxion::internal
