#include "components/plane_roi.h"

#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "components/roi_geometry.h"
#include "components/roi_selection.h"

namespace fluxion::internal {

ComponentSpec PlaneRoiComponent::Spec() {
  ComponentSpec spec{
      .name = "PlaneROI",
      .kind = ComponentKind::kEngine,
      .summary = "Selects the points and elements inside thick parallelograms (outputs for links)",
      .fields =
          {FieldSpec::RealList("plane",
                               "planes, 10 numbers each: three points p0 p1 p2 of a "
                               "parallelogram (its fourth corner p0 + p2 − p1) and its "
                               "depth [m]")
               .DefaultText("0 0 0 0 0 0 0 0 0 0"),
           FieldSpec::Bool("drawBoxes", false, "SOFA drawing option: no effect").Alias("isVisible"),
           FieldSpec::Bool("drawPoints", false, "SOFA drawing option: no effect"),
           FieldSpec::Bool("drawEdges", false, "SOFA drawing option: no effect"),
           FieldSpec::Bool("drawTriangles", false, "SOFA drawing option: no effect"),
           FieldSpec::Bool("drawTetrahedra", false, "SOFA drawing option: no effect"),
           FieldSpec::Real("drawSize", 1.0, "SOFA drawing option: no effect")},
      .aliases = {}};
  for (FieldSpec& field : RoiFields()) spec.fields.push_back(std::move(field));
  for (FieldSpec& field : spec.fields)
    if (field.name == "position") field.Alias("rest_position");
  return spec;
}

namespace {

// One thick parallelogram, with the quantities SOFA's computePlane derives from its 10 numbers.
struct Slab {
  roi::Point p0, p2, normal, side0, side1, side2, side3;
  double depth = 0, width = 0, length = 0;

  explicit Slab(const double* v) {
    p0 = {v[0], v[1], v[2]};
    const roi::Point p1{v[3], v[4], v[5]};
    p2 = {v[6], v[7], v[8]};
    depth = v[9];
    normal = roi::Normalized(roi::Cross(roi::Minus(p1, p0), roi::Minus(p2, p0)));
    const roi::Point p3 = roi::Plus(p0, roi::Minus(p2, p1));
    const roi::Point p4 = roi::Plus(p0, roi::Times(normal, depth / 2));
    const roi::Point p6 = roi::Plus(p2, roi::Times(normal, depth / 2));
    side0 = roi::Normalized(roi::Cross(roi::Minus(p1, p0), roi::Minus(p4, p0)));
    side1 = roi::Normalized(roi::Cross(roi::Minus(p2, p3), roi::Minus(p6, p3)));
    side2 = roi::Normalized(roi::Cross(roi::Minus(p3, p0), roi::Minus(p4, p0)));
    side3 = roi::Normalized(roi::Cross(roi::Minus(p2, p1), roi::Minus(p6, p2)));
    width = std::fabs(roi::Dot(roi::Minus(p2, p0), side0));
    length = std::fabs(roi::Dot(roi::Minus(p2, p0), side2));
  }

  bool Contains(const roi::Point& x) const {
    const roi::Point from0 = roi::Minus(x, p0), from2 = roi::Minus(x, p2);
    return std::fabs(roi::Dot(from0, side0)) <= width &&
           std::fabs(roi::Dot(from2, side1)) <= width &&
           std::fabs(roi::Dot(from0, side2)) <= length &&
           std::fabs(roi::Dot(from2, side3)) <= length &&
           std::fabs(roi::Dot(from0, normal)) <= std::fabs(depth / 2);
  }
};

}  // namespace

void PlaneRoiComponent::Build(BuildContext& context) {
  const std::vector<double>& numbers = context.parameters().reals("plane");
  if (numbers.size() % 10 != 0) {
    context.Error("PlaneROI 'plane' has " + std::to_string(numbers.size()) +
                  " numbers (expected 10 per plane: three points and a depth)");
    return;
  }
  if (!context.parameters().flag("strict")) {
    context.Error(
        "PlaneROI 'strict' is 0 (expected 1: an element is inside when all its points "
        "are, PlaneROI's only rule)");
    return;
  }
  std::vector<Slab> slabs;
  for (std::size_t k = 0; k < numbers.size(); k += 10) slabs.emplace_back(numbers.data() + k);
  if (slabs.empty()) context.Warn("PlaneROI has no 'plane': it selects nothing");
  RoiTests tests;
  tests.contains = [slabs](const roi::Point& x) {
    for (const Slab& slab : slabs)
      if (slab.Contains(x)) return true;
    return false;
  };
  // SOFA tests an element against each plane in turn: all its points must be in the same one.
  tests.element_test = [slabs](std::span<const Index> element, std::span<const roi::Point> x) {
    for (const Slab& slab : slabs) {
      bool all = true;
      for (const Index v : element) all = all && slab.Contains(x[static_cast<std::size_t>(v)]);
      if (all) return true;
    }
    return false;
  };
  SelectRoi(context, tests);
}

}  // namespace fluxion::internal
