#include "components/generate_grid.h"

#include <array>
#include <string>
#include <vector>

#include "components/point_selection.h"

namespace fluxion::internal {

ComponentSpec GenerateGridComponent::Spec() {
  return ComponentSpec{
      .name = "GenerateGrid",
      .kind = ComponentKind::kEngine,
      .summary = "A box cut into hexahedra and tetrahedra, or a flat grid of quads and triangles",
      .fields =
          {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f", "Vec2d", "Vec2"},
                             "point type: Vec2 keeps x and y of each point"),
           FieldSpec::RealList("min", "the minimum corner (x, y, z) [m]").DefaultText("0 0 0"),
           FieldSpec::RealList("max", "the maximum corner (x, y, z) [m]").DefaultText("0 0 0"),
           FieldSpec::IndexList("resolution", "cells along x, y and z; 0 along z makes a flat grid")
               .DefaultText("3 3 3")},
      .aliases = {}};
}

void GenerateGridComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::vector<double>& min = p.reals("min");
  const std::vector<double>& max = p.reals("max");
  const std::vector<Index>& resolution = p.indices("resolution");
  bool ok = true;
  for (const auto& [field, size] : {std::pair{"min", min.size()}, std::pair{"max", max.size()},
                                    std::pair{"resolution", resolution.size()}})
    if (size != 3) {
      context.Error(std::string("GenerateGrid '") + field + "' has " + std::to_string(size) +
                    " numbers (expected 3: x y z)");
      ok = false;
    }
  if (!ok) return;
  const Index nl = resolution[0], nw = resolution[1], nh = resolution[2];
  if (nl == 0 || nw == 0) {
    context.Error("GenerateGrid 'resolution' has 0 cells along " +
                  std::string(nl == 0 ? "x" : "y") + " (expected at least 1 along x and y)");
    return;
  }
  // Points (L + 1)(W + 1)(H + 1), checked factor by factor against the budget before any product
  // can overflow.
  const Index limit = context.max_scene_points();
  if (nl + 1 > limit || nw + 1 > limit / (nl + 1) || nh + 1 > limit / ((nl + 1) * (nw + 1))) {
    context.Error("GenerateGrid 'resolution' makes too many points (expected " +
                  PointLimitText(context, limit) + ")");
    return;
  }
  const int dimension = p.text("template").starts_with("Vec2") ? 2 : 3;
  // Cell sizes as SOFA computes them: (max − min) / cells, 0 along z for a flat grid.
  const double dx = (max[0] - min[0]) / static_cast<double>(nl);
  const double dy = (max[1] - min[1]) / static_cast<double>(nw);
  const double dz = nh == 0 ? 0.0 : (max[2] - min[2]) / static_cast<double>(nh);
  std::vector<double> position;
  position.reserve(static_cast<std::size_t>((nl + 1) * (nw + 1) * (nh + 1) * dimension));
  for (Index k = 0; k <= nh; ++k)
    for (Index j = 0; j <= nw; ++j)
      for (Index i = 0; i <= nl; ++i) {
        const std::array<double, 3> t = {static_cast<double>(i) * dx, static_cast<double>(j) * dy,
                                         static_cast<double>(k) * dz};
        for (int c = 0; c < dimension; ++c) position.push_back(t[c] + min[c]);
      }

  const auto point = [&](Index i, Index j, Index k) { return i + (nl + 1) * (j + (nw + 1) * k); };
  std::vector<Index> hexahedra, tetrahedra, quads, triangles;
  if (nh == 0) {
    for (Index i = 0; i < nl; ++i)
      for (Index j = 0; j < nw; ++j) {
        const std::array<Index, 4> q = {point(i, j, 0), point(i + 1, j, 0), point(i + 1, j + 1, 0),
                                        point(i, j + 1, 0)};
        quads.insert(quads.end(), q.begin(), q.end());
        triangles.insert(triangles.end(), {q[0], q[1], q[3], q[3], q[1], q[2]});
      }
  } else {
    for (Index i = 0; i < nl; ++i)
      for (Index j = 0; j < nw; ++j)
        for (Index k = 0; k < nh; ++k) {
          const std::array<Index, 8> h = {point(i, j, k),
                                          point(i + 1, j, k),
                                          point(i + 1, j + 1, k),
                                          point(i, j + 1, k),
                                          point(i, j, k + 1),
                                          point(i + 1, j, k + 1),
                                          point(i + 1, j + 1, k + 1),
                                          point(i, j + 1, k + 1)};
          hexahedra.insert(hexahedra.end(), h.begin(), h.end());
          // SOFA's split of the hexahedron into 6 tetrahedra around its diagonal 0–6.
          tetrahedra.insert(tetrahedra.end(), {h[0], h[5], h[1], h[6], h[0], h[1], h[3], h[6],
                                               h[1], h[3], h[6], h[2], h[6], h[3], h[0], h[7],
                                               h[6], h[7], h[0], h[5], h[7], h[5], h[4], h[0]});
        }
  }
  context.SetOutput("output_position", position);
  context.SetOutput("position", std::move(position));
  context.SetOutput("hexahedra", std::move(hexahedra));
  context.SetOutput("tetrahedra", std::move(tetrahedra));
  context.SetOutput("quads", std::move(quads));
  context.SetOutput("triangles", std::move(triangles));
}

}  // namespace fluxion::internal
