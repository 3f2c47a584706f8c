#include "components/grid_size.h"

#include <cmath>

#include "fluxion/text.h"

namespace fluxion::internal {

bool GridSize(BuildContext& context, const std::string& type, std::array<Index, 3>& n,
              std::array<double, 3>& counts) {
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
    context.Error(type + " has " + given + " but not " + missing +
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
        context.Error(type + " '" + std::string(field) + "' is " + FormatReal(value) +
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
    context.Error(type + " 'n' has " + std::to_string(n_list.size()) +
                  " numbers (expected 3: nx ny nz)");
    return false;
  }
  if (n[0] < 1 || n[1] < 1 || n[2] < 1) {
    context.Error(type + " needs at least 1 point along each axis");
    return false;
  }
  return true;
}

std::vector<FieldSpec> GridListFields() {
  return {FieldSpec::Bool("computeHexaList", true, "keep the hexahedra"),
          FieldSpec::Bool("computeQuadList", true,
                          "keep the quads (kept anyway while computeTriangleList is on)"),
          FieldSpec::Bool("computeEdgeList", true, "keep the edges"),
          FieldSpec::Bool("computeTriangleList", true,
                          "keep the triangles (off: the edges are the grid's lines, without "
                          "the quads' diagonals)")};
}

GridLists ReadGridLists(const Parameters& parameters) {
  return GridLists{.hexahedra = parameters.flag("computeHexaList"),
                   .quads = parameters.flag("computeQuadList"),
                   .triangles = parameters.flag("computeTriangleList"),
                   .edges = parameters.flag("computeEdgeList")};
}

}  // namespace fluxion::internal
