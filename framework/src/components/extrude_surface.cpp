#include "components/extrude_surface.h"

#include <cmath>
#include <map>

#include "components/engine_inputs.h"
#include "fluxion/log.h"

namespace fluxion::internal {

ComponentSpec ExtrudeSurfaceComponent::Spec() {
  return ComponentSpec{
      .name = "ExtrudeSurface",
      .kind = ComponentKind::kEngine,
      .summary = "Extrudes part of a triangle surface along its normals (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::Bool("isVisible", true, "SOFA display option, ignored"),
                 FieldSpec::Real("heightFactor", 1.0, "extrusion height along the unit normals"),
                 FieldSpec::IndexList("triangles", "triangles of the surface"),
                 FieldSpec::RealList("surfaceVertices", "points of the surface [m]"),
                 FieldSpec::IndexList("surfaceTriangles", "the triangles to extrude (indices)")},
      .aliases = {}};
}

namespace {

Point3 Normalised(Point3 v) {
  const double norm = std::hypot(v[0], v[1], v[2]);
  if (norm > 0.0)
    for (double& c : v) c /= norm;
  return v;
}

}  // namespace

void ExtrudeSurfaceComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto x = ReadPoints(context, "surfaceVertices");
  if (!x) return;
  const auto triangles = ReadElements<3>(context, "triangles", static_cast<Index>(x->size()));
  if (!triangles) return;
  const std::vector<Index>& selected = p.indices("surfaceTriangles");
  if (!CheckIndices(context, "surfaceTriangles", selected, static_cast<Index>(triangles->size())))
    return;
  std::vector<double> vertices;
  std::vector<Index> faces;
  if (x->size() <= 1 && selected.size() <= 1) {
    context.SetOutput("extrusionVertices", std::move(vertices));
    context.SetOutput("extrusionTriangles", std::move(faces));
    return;
  }
  const auto at = [&](Index i) -> const Point3& { return (*x)[static_cast<std::size_t>(i)]; };

  // Vertex normals: the sum of the unit normals of the selected triangles, normalised.
  std::map<Index, Point3> normal;
  for (const Index t : selected) {
    const auto& tri = (*triangles)[static_cast<std::size_t>(t)];
    const Point3 &a = at(tri[0]), &b = at(tri[1]), &c = at(tri[2]);
    const Point3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const Point3 v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const Point3 n = Normalised(
        {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]});
    for (const Index i : tri) {
      Point3& sum = normal.try_emplace(i, Point3{0.0, 0.0, 0.0}).first->second;
      for (std::size_t k = 0; k < 3; ++k) sum[k] += n[k];
    }
  }
  for (auto& [point, n] : normal) n = Normalised(n);

  const double height = p.real("heightFactor");
  std::map<Index, Index> bottom;  // surface point → its even output index
  std::map<std::pair<Index, Index>, bool> on_border;
  for (const Index t : selected) {
    const auto& tri = (*triangles)[static_cast<std::size_t>(t)];
    std::array<Index, 3> low{}, high{};
    for (std::size_t i = 0; i < 3; ++i) {
      const auto found = bottom.find(tri[i]);
      if (found == bottom.end()) {
        const Point3& q = at(tri[i]);
        const Point3& n = normal[tri[i]];
        const auto index = static_cast<Index>(vertices.size() / 3);
        vertices.insert(vertices.end(), q.begin(), q.end());
        vertices.insert(vertices.end(),
                        {q[0] + n[0] * height, q[1] + n[1] * height, q[2] + n[2] * height});
        bottom[tri[i]] = index;
        low[i] = index;
      } else {
        low[i] = found->second;
      }
      high[i] = low[i] + 1;
    }
    // An edge met once is on the border; met again (either way) it is not.
    for (const auto& [a, b] :
         {std::pair{low[0], low[1]}, std::pair{low[0], low[2]}, std::pair{low[1], low[2]}}) {
      if (on_border.count({a, b}) != 0)
        on_border[{a, b}] = false;
      else if (on_border.count({b, a}) != 0)
        on_border[{b, a}] = false;
      else
        on_border[{a, b}] = true;
    }
    faces.insert(faces.end(), {low[0], low[2], low[1], high[0], high[1], high[2]});
  }
  for (const auto& [edge, border] : on_border) {
    if (!border) continue;
    const auto [a, b] = edge;
    faces.insert(faces.end(), {a, b, a + 1, b + 1, a + 1, b});
  }
  LogInfo(context.Where() + "ExtrudeSurface: " + std::to_string(vertices.size() / 3) + " points, " +
          std::to_string(faces.size() / 3) + " triangles");
  context.SetOutput("extrusionVertices", std::move(vertices));
  context.SetOutput("extrusionTriangles", std::move(faces));
}

}  // namespace fluxion::internal
