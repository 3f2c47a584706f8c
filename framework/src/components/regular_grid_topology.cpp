#include "components/regular_grid_topology.h"

#include <algorithm>
#include <cmath>

#include "components/sofa_float.h"
#include "fluxion/text.h"
#include "mechanics/regular_grid.h"

namespace fluxion::internal {

ComponentSpec RegularGridTopologyComponent::Spec() {
  return ComponentSpec{
      .name = "RegularGridTopology",
      .kind = ComponentKind::kTopology,
      .summary =
          "A regular grid of nx×ny×nz points between min and max, with its lines, quads and "
          "hexahedra",
      .fields =
          {FieldSpec::IndexList("n", "number of points along x, y, z").DefaultText("2 2 2"),
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
           FieldSpec::RealList("p0", "SOFA option: only supported as 0 0 0").DefaultText("0 0 0"),
           FieldSpec::Bool("computeHexaList", true, "SOFA option, ignored"),
           FieldSpec::Bool("computeQuadList", true, "SOFA option, ignored"),
           FieldSpec::Bool("computeEdgeList", true, "SOFA option, ignored"),
           FieldSpec::Bool("computeTriangleList", true, "SOFA option, ignored")},
      .aliases = {}};
}

namespace {

// The number of points along each axis (`counts` as written: a legacy nx may exceed any Index);
// false after reporting.
bool GridSize(BuildContext& context, std::array<Index, 3>& n, std::array<double, 3>& counts) {
  const Parameters& p = context.parameters();
  const std::vector<Index>& n_list = p.indices("n");
  const int legacy = int(p.has("nx")) + int(p.has("ny")) + int(p.has("nz"));
  if (legacy > 0 && legacy < 3) {
    // SOFA reads nx ny nz only all together and otherwise silently keeps `n` (2 2 2 by default):
    // a grid of another size than the one written. Fluxion says so instead.
    std::string given, missing;
    for (const char* field : {"nx", "ny", "nz"}) {
      std::string& list = p.has(field) ? given : missing;
      list += (list.empty() ? "'" : ", '") + std::string(field) + "'";
    }
    context.Error("RegularGridTopology has " + given + " but not " + missing +
                  " (SOFA ignores the legacy sizes unless all three are given; expected nx, ny "
                  "and nz together, or 'n')");
    return false;
  }
  if (legacy == 3) {  // SOFA: legacy nx ny nz only all together
    bool whole = true;
    for (int axis = 0; axis < 3; ++axis) {
      const char* field = axis == 0 ? "nx" : axis == 1 ? "ny" : "nz";
      const double value = p.real(field);  // >= 1 and finite (the field's bounds)
      if (value != std::floor(value)) {
        context.Error("RegularGridTopology '" + std::string(field) + "' is " + FormatReal(value) +
                      " (expected a whole number of points)");
        whole = false;
      }
      counts[axis] = value;
      const Index too_many = context.max_scene_points() + 1;
      n[axis] = value > static_cast<double>(context.max_scene_points()) ? too_many
                                                                        : static_cast<Index>(value);
    }
    if (!whole) return false;
  } else if (n_list.size() == 3) {
    n = {n_list[0], n_list[1], n_list[2]};
    for (int axis = 0; axis < 3; ++axis) counts[axis] = static_cast<double>(n[axis]);
  } else {
    context.Error("RegularGridTopology 'n' has " + std::to_string(n_list.size()) +
                  " numbers (expected 3: nx ny nz)");
    return false;
  }
  if (n[0] < 1 || n[1] < 1 || n[2] < 1) {
    context.Error("RegularGridTopology needs at least 1 point along each axis");
    return false;
  }
  return true;
}

}  // namespace

void RegularGridTopologyComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  std::array<Index, 3> n{};
  std::array<double, 3> counts{};
  if (!GridSize(context, n, counts)) return;
  const double points = counts[0] * counts[1] * counts[2];
  const Index limit = std::min<Index>(kMaxGridPoints, context.max_scene_points());
  if (points + static_cast<double>(context.topology_points()) > static_cast<double>(limit)) {
    context.Error("RegularGridTopology of " + FormatReal(points) +
                  " points is too large (expected at most " + std::to_string(limit) +
                  " grid points in the whole scene)");
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
  if (p0.size() != 3 || p0[0] != 0.0 || p0[1] != 0.0 || p0[2] != 0.0)
    context.Error("RegularGridTopology 'p0' is not supported (expected min/max)");
  context.SetTopology(MakeRegularGrid(n, min, max));
}

}  // namespace fluxion::internal
