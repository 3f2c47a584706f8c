#include "components/regular_grid_topology.h"
#include "components/point_selection.h"

#include <algorithm>
#include <cmath>

#include "components/grid_size.h"
#include "components/sofa_float.h"
#include "fluxion/text.h"
#include "mechanics/regular_grid.h"

namespace fluxion::internal {

ComponentSpec RegularGridTopologyComponent::Spec() {
  ComponentSpec spec{
      .name = "RegularGridTopology",
      .kind = ComponentKind::kTopology,
      .summary =
          "A regular grid of nx×ny×nz points between min and max, with its lines, quads and "
          "hexahedra",
      .fields = {FieldSpec::IndexList("n", "number of points along x, y, z").DefaultText("2 2 2"),
                 FieldSpec::RealList("min", "first corner [m]").DefaultText("0 0 0"),
                 FieldSpec::RealList("max", "opposite corner [m]").DefaultText("1 1 1"),
                 FieldSpec::OptionalReal("nx", "legacy: points along x").AtLeast(1),
                 FieldSpec::OptionalReal("ny", "legacy: points along y").AtLeast(1),
                 FieldSpec::OptionalReal("nz", "legacy: points along z").AtLeast(1),
                 FieldSpec::OptionalReal("xmin", "legacy: min x [m]"),
                 FieldSpec::OptionalReal("ymin", "legacy: min y [m]"),
                 FieldSpec::OptionalReal("zmin", "legacy: min z [m]"),
                 FieldSpec::OptionalReal("xmax", "legacy: max x [m]"),
                 FieldSpec::OptionalReal("ymax", "legacy: max y [m]"),
                 FieldSpec::OptionalReal("zmax", "legacy: max z [m]"),
                 FieldSpec::RealList(
                     "p0", "the first point (default: min, the middle along a single-point x or y)")
                     .DefaultText("0 0 0"),
                 // A link kind so that "@object.position" is kept as text, not followed.
                 FieldSpec::Link("position",
                                 "SOFA's computed point list: the grid writes its own points "
                                 "there at init (computePointList), so a value or link given "
                                 "is overwritten; accepted and not read"),
                 FieldSpec::Link("src",
                                 "another grid whose n, min, max and p0 this one takes (those it "
                                 "does not give): SOFA's src link, e.g. src=\"@/Mesh/Grid\"")},
      .aliases = {}};
  for (FieldSpec& field : GridListFields()) spec.fields.push_back(std::move(field));
  return spec;
}

void RegularGridTopologyComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  std::array<Index, 3> n{};
  std::array<double, 3> counts{};
  if (!GridSize(context, "RegularGridTopology", n, counts)) return;
  const double points = counts[0] * counts[1] * counts[2];
  const Index limit = std::min<Index>(kMaxGridPoints, context.max_scene_points());
  if (points + static_cast<double>(context.topology_points()) > static_cast<double>(limit)) {
    context.Error("RegularGridTopology of " + FormatReal(points) +
                  " points is too large (expected " + PointLimitText(context, limit) + ")");
    return;
  }
  std::array<double, 3> min{}, max{};
  const std::vector<double>& min_list = p.reals("min");
  const std::vector<double>& max_list = p.reals("max");
  if (min_list.size() != 3 || max_list.size() != 3) {
    context.Error("RegularGridTopology 'min' and 'max' need 3 numbers each");
    return;
  }
  std::copy(min_list.begin(), min_list.end(), min.begin());
  std::copy(max_list.begin(), max_list.end(), max.begin());
  const char* legacy[6] = {"xmin", "ymin", "zmin", "xmax", "ymax", "zmax"};
  if (std::all_of(std::begin(legacy), std::end(legacy), [&](const char* f) { return p.has(f); })) {
    for (int axis = 0; axis < 3; ++axis) {
      min[axis] = AsSofaFloat(p.real(legacy[axis]));
      max[axis] = AsSofaFloat(p.real(legacy[axis + 3]));
    }
  }
  const std::vector<double>& p0 = p.reals("p0");
  if (p0.size() != 3) {
    context.Error("RegularGridTopology 'p0' has " + std::to_string(p0.size()) +
                  " numbers (expected 3)");
    return;
  }
  // SOFA: point (i, j, k) is p0 + i·dx + j·dy + k·dz, p0 from min and max unless given.
  const std::array<double, 3> origin = {p0[0], p0[1], p0[2]};
  Topology grid = MakeRegularGrid(n, min, max, p.has("p0") ? &origin : nullptr);
  // What another grid's src link takes (SOFA's BaseComponent::setSrc copies the data of the same
  // names): the size and corners in force, legacy fields resolved; p0 when it was given.
  context.SetOutput("n", std::vector<Index>{n[0], n[1], n[2]});
  context.SetOutput("min", std::vector<double>{min[0], min[1], min[2]});
  context.SetOutput("max", std::vector<double>{max[0], max[1], max[2]});
  if (p.has("p0")) context.SetOutput("p0", std::vector<double>{p0[0], p0[1], p0[2]});
  KeepGridLists(grid, ReadGridLists(p));
  context.SetTopology(std::move(grid));
}

}  // namespace fluxion::internal
