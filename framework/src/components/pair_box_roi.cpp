#include "components/pair_box_roi.h"

#include <algorithm>
#include <array>

namespace fluxion::internal {

ComponentSpec PairBoxRoiComponent::Spec() {
  return ComponentSpec{
      .name = "PairBoxROI",
      .kind = ComponentKind::kEngine,
      .summary =
          "Selects the points inside an outer box and outside an inner one (outputs for "
          "links)",
      .fields = {FieldSpec::RealList("inclusiveBox", "outer box, xmin ymin zmin xmax ymax zmax [m]")
                     .DefaultText("0 0 0 0 0 0"),
                 FieldSpec::RealList("includedBox", "inner box, xmin ymin zmin xmax ymax zmax [m]")
                     .DefaultText("0 0 0 0 0 0"),
                 FieldSpec::RealList("position",
                                     "points to select from (default: the node's object's rest "
                                     "positions)")
                     .Alias("rest_position"),
                 FieldSpec::RealList("meshPosition", "SOFA data, unused")},
      .aliases = {}};
}

namespace {

// The box of `field`, min and max ordered on each axis; false after reporting.
bool ReadBox(BuildContext& context, const char* field, std::array<double, 6>& box) {
  const std::vector<double>& numbers = context.parameters().reals(field);
  if (numbers.size() != 6) {
    context.Error("PairBoxROI '" + std::string(field) + "' has " + std::to_string(numbers.size()) +
                  " numbers (expected 6: xmin ymin zmin xmax ymax zmax)");
    return false;
  }
  std::copy(numbers.begin(), numbers.end(), box.begin());
  for (int axis = 0; axis < 3; ++axis)
    if (box[axis] > box[axis + 3]) std::swap(box[axis], box[axis + 3]);
  return true;
}

bool Inside(const double* point, const std::array<double, 6>& box) {
  for (int axis = 0; axis < 3; ++axis)
    if (!(point[axis] >= box[axis] && point[axis] <= box[axis + 3])) return false;
  return true;
}

}  // namespace

void PairBoxRoiComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  std::array<double, 6> outer{}, inner{};
  if (!ReadBox(context, "inclusiveBox", outer) || !ReadBox(context, "includedBox", inner)) return;
  std::vector<double> x;
  if (p.has("position")) {
    x = p.reals("position");
  } else {
    const ObjectModel* object = context.NodeObject();
    if (object == nullptr) return;
    if (object->dimension != 3) {
      context.Error("PairBoxROI works on 3-D points ('" + object->id + "' has " +
                    std::to_string(object->dimension) + " coordinates per point; expected Vec3)");
      return;
    }
    x.assign(object->rest_position.data(),
             object->rest_position.data() + object->rest_position.size());
  }
  if (x.size() % 3 != 0) {
    context.Error("PairBoxROI 'position' has " + std::to_string(x.size()) +
                  " numbers (expected 3 per point)");
    return;
  }
  // SOFA selects nothing while either box keeps its all-zero default.
  const auto zero = [](const std::array<double, 6>& box) {
    return std::all_of(box.begin(), box.end(), [](double c) { return c == 0.0; });
  };
  std::vector<Index> indices;
  std::vector<double> points;
  if (!zero(outer) && !zero(inner)) {
    for (std::size_t i = 0; 3 * i < x.size(); ++i) {
      const double* point = &x[3 * i];
      if (!Inside(point, outer) || Inside(point, inner)) continue;
      indices.push_back(static_cast<Index>(i));
      points.insert(points.end(), point, point + 3);
    }
  }
  context.SetOutput("indices", indices);
  context.SetOutput("pointsInROI", points);
  context.SetOutput("pointsInBox", std::move(points));
}

}  // namespace fluxion::internal
