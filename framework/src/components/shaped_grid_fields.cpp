#include "components/shaped_grid_fields.h"
#include "components/point_selection.h"

#include <algorithm>
#include <cmath>

#include "components/grid_size.h"
#include "fluxion/text.h"
#include "mechanics/regular_grid.h"

namespace fluxion::internal {

std::vector<FieldSpec> ShapedGridFields() {
  std::vector<FieldSpec> fields = {
      FieldSpec::IndexList("n", "number of points along x, y, z").DefaultText("2 2 2"),
      FieldSpec::OptionalReal("nx", "legacy: points along x").AtLeast(1),
      FieldSpec::OptionalReal("ny", "legacy: points along y").AtLeast(1),
      FieldSpec::OptionalReal("nz", "legacy: points along z").AtLeast(1),
      FieldSpec::RealList("center", "center [m]").DefaultText("0 0 0"),
      FieldSpec::RealList("axis", "main direction (the grid's z)").DefaultText("0 0 1")};
  for (FieldSpec& field : GridListFields()) fields.push_back(std::move(field));
  return fields;
}

bool ShapedGridSetup(BuildContext& context, const std::string& type, Index min_z,
                     std::array<Index, 3>& n, std::array<double, 3>& center,
                     std::array<double, 3>& axis) {
  std::array<double, 3> counts{};
  if (!GridSize(context, type, n, counts)) return false;
  if (n[0] < 2 || n[1] < 2 || n[2] < min_z) {
    context.Error(type + " has " + std::to_string(n[0]) + "×" + std::to_string(n[1]) + "×" +
                  std::to_string(n[2]) + " points (expected at least 2 along x and y" +
                  (min_z > 1 ? " and z" : "") + ": SOFA spreads them between −radius and radius)");
    return false;
  }
  const double points = counts[0] * counts[1] * counts[2];
  const Index limit = std::min<Index>(kMaxGridPoints, context.max_scene_points());
  if (points + static_cast<double>(context.topology_points()) > static_cast<double>(limit)) {
    context.Error(type + " of " + FormatReal(points) + " points is too large (expected " +
                  PointLimitText(context, limit) + ")");
    return false;
  }
  const Parameters& p = context.parameters();
  const std::vector<double>& c = p.reals("center");
  const std::vector<double>& a = p.reals("axis");
  if (c.size() != 3 || a.size() != 3) {
    context.Error(type + " 'center' and 'axis' need 3 numbers each");
    return false;
  }
  if (std::hypot(a[0], a[1], a[2]) == 0.0) {
    context.Error(type + " 'axis' is 0 0 0 (expected a direction)");
    return false;
  }
  std::copy(c.begin(), c.end(), center.begin());
  std::copy(a.begin(), a.end(), axis.begin());
  return true;
}

}  // namespace fluxion::internal
