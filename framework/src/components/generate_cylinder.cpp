#include "components/generate_cylinder.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "components/point_selection.h"

namespace fluxion::internal {

ComponentSpec GenerateCylinderComponent::Spec() {
  return ComponentSpec{
      .name = "GenerateCylinder",
      .kind = ComponentKind::kEngine,
      .summary = "A cylinder's tetrahedral volume and triangulated surface",
      .fields =
          {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                             "point type (3 coordinates per point)"),
           FieldSpec::Real("radius", 0.2, "radius of the cylinder [m]"),
           FieldSpec::Real("height", 1.0, "height of the cylinder along z [m]"),
           FieldSpec::RealList("origin", "centre of the bottom face [m]").DefaultText("0 0 0"),
           FieldSpec::Bool("openSurface", true, "the surface has no caps at its two ends"),
           FieldSpec::Integer("resCircumferential", 6, "points around each ring").AtLeast(0),
           FieldSpec::Integer("resRadial", 3, "rings from the axis to the outer surface")
               .AtLeast(0),
           FieldSpec::Integer("resHeight", 5, "layers along z").AtLeast(0),
           FieldSpec::Integer("BezierTetrahedronDegree", 0,
                              "Bézier tetrahedra's degree: only 0 or 1 (none) here")
               .AtLeast(0)
               .AtMost(1),
           FieldSpec::Integer("BezierTriangleDegree", 0,
                              "Bézier triangles' degree: only 0 or 1 (none) here")
               .AtLeast(0)
               .AtMost(1)},
      .aliases = {}};
}

void GenerateCylinderComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::string type = "GenerateCylinder";
  const std::vector<double>& origin = p.reals("origin");
  if (origin.size() != 3) {
    context.Error(type + " 'origin' has " + std::to_string(origin.size()) +
                  " numbers (expected 3: x y z)");
    return;
  }
  const Index nt = p.integer("resCircumferential"), nr = p.integer("resRadial"),
              nz = p.integer("resHeight");
  const bool open = p.flag("openSurface");
  if (nz < 2 || nr < 1 || nt < 1 || (!open && nr < 2)) {
    context.Error(type + " has resCircumferential=" + std::to_string(nt) +
                  " resRadial=" + std::to_string(nr) + " resHeight=" + std::to_string(nz) +
                  " (expected resHeight ≥ 2, resCircumferential ≥ 1, and resRadial ≥ 1, or ≥ 2 "
                  "with openSurface=0)");
    return;
  }
  const double volume_points =
      (static_cast<double>(nt) * static_cast<double>(nr) + 1.0) * static_cast<double>(nz);
  const Index limit = context.max_scene_points();
  if (volume_points > static_cast<double>(limit)) {
    context.Error(type + " makes too many points (expected " + PointLimitText(context, limit) +
                  ")");
    return;
  }
  const double radius = p.real("radius"), height = p.real("height");
  // A point at (x, y, z) from the origin, appended to `out`.
  const auto add = [&](std::vector<double>& out, double x, double y, double z) {
    out.insert(out.end(), {x + origin[0], y + origin[1], z + origin[2]});
  };
  // SOFA's ring angles θ_k = k·2·π/nt and layer heights z_i = i·height/(nz − 1), in its order of
  // operations (the same bits).
  const auto theta = [&](Index k) {
    return static_cast<double>(k * 2) * M_PI / static_cast<double>(nt);
  };
  const auto layer_z = [&](Index i) {
    return static_cast<double>(i) * height / static_cast<double>(nz - 1);
  };

  // The volume: per layer, the centre, then the rings outwards.
  std::vector<double> volume;
  volume.reserve(static_cast<std::size_t>(volume_points) * 3);
  for (Index i = 0; i < nz; ++i) {
    const double z = layer_z(i);
    add(volume, 0.0, 0.0, z);
    for (Index j = 1; j <= nr; ++j) {
      const double r = static_cast<double>(j) * radius / static_cast<double>(nr);
      for (Index k = 0; k < nt; ++k) add(volume, r * std::cos(theta(k)), r * std::sin(theta(k)), z);
    }
  }
  std::vector<Index> tetrahedra;
  tetrahedra.reserve(
      static_cast<std::size_t>(4 * (3 * nt * (nz - 1) + 6 * (nr - 1) * nt * (nz - 1))));
  const Index layer = nt * nr + 1;
  for (Index i = 1; i < nz; ++i) {
    Index centre = i * layer;
    // Prisms between the axis and the first ring: (centre, previous, current) over the layer
    // below, 3 tetrahedra each.
    Index previous = nt;
    for (Index k = 1; k <= nt; ++k) {
      const std::array<Index, 6> s = {
          centre,         centre + previous,         centre + k,
          centre - layer, centre + previous - layer, centre + k - layer};
      tetrahedra.insert(tetrahedra.end(),
                        {s[1], s[0], s[2], s[3], s[1], s[2], s[4], s[3], s[3], s[4], s[5], s[2]});
      previous = k;
    }
    // Hexahedra between rings j and j + 1, 6 tetrahedra each.
    for (Index j = 1; j < nr; ++j) {
      previous = nt;
      for (Index k = 1; k <= nt; ++k) {
        const std::array<Index, 8> h = {centre + k,
                                        centre + previous,
                                        centre + k + nt,
                                        centre + previous + nt,
                                        centre + k - layer,
                                        centre + previous - layer,
                                        centre + k + nt - layer,
                                        centre + previous + nt - layer};
        tetrahedra.insert(tetrahedra.end(),
                          {h[0], h[5], h[4], h[7], h[0], h[1], h[5], h[3], h[5], h[0], h[3], h[7],
                           h[0], h[3], h[7], h[2], h[7], h[0], h[2], h[4], h[6], h[7], h[2], h[4]});
        previous = k;
      }
      centre += nt;
    }
  }

  // The surface: the outer ring of every layer, then (closed) each cap's centre and inner rings.
  std::vector<double> surface;
  for (Index i = 0; i < nz; ++i)
    for (Index k = 0; k < nt; ++k)
      add(surface, radius * std::cos(theta(k)), radius * std::sin(theta(k)), layer_z(i));
  if (!open)
    for (Index cap = 0; cap < 2; ++cap) {
      const double z = static_cast<double>(cap) * height;
      add(surface, 0.0, 0.0, z);
      for (Index j = 1; j < nr; ++j) {
        const double r = static_cast<double>(j) * radius / static_cast<double>(nr);
        for (Index k = 0; k < nt; ++k)
          add(surface, r * std::cos(theta(k)), r * std::sin(theta(k)), z);
      }
    }
  std::vector<Index> triangles;
  const auto wrap = [&](Index k) { return (k + 1) % nt; };
  for (Index i = 1; i < nz; ++i)
    for (Index k = 0; k < nt; ++k)
      triangles.insert(triangles.end(), {i * nt + k, (i - 1) * nt + k, (i - 1) * nt + wrap(k),
                                         i * nt + k, (i - 1) * nt + wrap(k), i * nt + wrap(k)});
  if (!open)
    for (Index cap = 0; cap < 2; ++cap) {
      const Index centre = nt * nz + cap * (nt * (nr - 1) + 1);
      const bool top = cap == 1;
      const auto emit = [&](Index a, Index b, Index c) {
        triangles.insert(triangles.end(), {a, b, c});
      };
      const auto ring = [&](Index j, Index k) { return centre + 1 + j * nt + k; };
      // The fan around the centre, oriented outwards (+z on top, −z at the bottom).
      for (Index k = 0; k < nt; ++k)
        top ? emit(centre, ring(0, k), ring(0, wrap(k)))
            : emit(centre, ring(0, wrap(k)), ring(0, k));
      // Between inner rings j and j + 1.
      for (Index j = 0; j + 2 < nr; ++j)
        for (Index k = 0; k < nt; ++k) {
          if (top) {
            emit(ring(j, k), ring(j + 1, k), ring(j + 1, wrap(k)));
            emit(ring(j, k), ring(j + 1, wrap(k)), ring(j, wrap(k)));
          } else {
            emit(ring(j, k), ring(j + 1, wrap(k)), ring(j + 1, k));
            emit(ring(j, k), ring(j, wrap(k)), ring(j + 1, wrap(k)));
          }
        }
      // The last inner ring to the outer ring of the cap's layer.
      const Index j = nr - 2, outer = cap * (nz - 1) * nt;
      for (Index k = 0; k < nt; ++k) {
        if (top) {
          emit(ring(j, k), outer + k, outer + wrap(k));
          emit(ring(j, k), outer + wrap(k), ring(j, wrap(k)));
        } else {
          emit(ring(j, k), outer + wrap(k), outer + k);
          emit(ring(j, k), ring(j, wrap(k)), outer + wrap(k));
        }
      }
    }

  context.SetOutput("output_TetrahedraPosition", volume);
  context.SetOutput("output_position", volume);
  context.SetOutput("position", std::move(volume));
  context.SetOutput("tetrahedra", std::move(tetrahedra));
  context.SetOutput("output_TrianglesPosition", std::move(surface));
  context.SetOutput("triangles", std::move(triangles));
}

}  // namespace fluxion::internal
