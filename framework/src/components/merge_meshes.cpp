#include "components/merge_meshes.h"

#include <array>

namespace fluxion::internal {

namespace {

constexpr int kMaxMeshes = 8;

struct Kind {
  const char* name;
  std::size_t size;  // points per element
};
constexpr std::array<Kind, 5> kKinds = {
    {{"edges", 2}, {"triangles", 3}, {"quads", 4}, {"tetrahedra", 4}, {"hexahedra", 8}}};

}  // namespace

ComponentSpec MergeMeshesComponent::Spec() {
  ComponentSpec spec{
      .name = "MergeMeshes",
      .kind = ComponentKind::kEngine,
      .summary = "Concatenates meshes, renumbering their elements (outputs for links)",
      .fields = {FieldSpec::Integer("nbMeshes", 2, "number of meshes to merge (at most 8)")
                     .AtLeast(0)
                     .AtMost(kMaxMeshes),
                 FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"},
                                   "point type (3 coordinates per point)")},
      .aliases = {}};
  for (int m = 1; m <= kMaxMeshes; ++m) {
    const std::string n = std::to_string(m);
    spec.fields.push_back(FieldSpec::RealList("position" + n, "points of mesh " + n + " [m]"));
    for (const Kind& kind : kKinds)
      spec.fields.push_back(
          FieldSpec::IndexList(kind.name + n, std::string(kind.name) + " of mesh " + n));
  }
  return spec;
}

void MergeMeshesComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const int meshes = static_cast<int>(p.integer("nbMeshes"));
  bool ok = true;
  // Inputs beyond nbMeshes do not exist in SOFA: refuse them rather than ignore them.
  for (int m = meshes + 1; m <= kMaxMeshes; ++m) {
    const std::string n = std::to_string(m);
    for (const std::string& field : {"position" + n, "edges" + n, "triangles" + n, "quads" + n,
                                     "tetrahedra" + n, "hexahedra" + n})
      if (p.has(field)) {
        context.Error("MergeMeshes '" + field + "' is beyond nbMeshes=" + std::to_string(meshes) +
                      " (expected inputs 1 to nbMeshes)");
        ok = false;
      }
  }
  std::vector<double> position;
  std::array<std::vector<Index>, kKinds.size()> elements;
  Index shift = 0;
  for (int m = 1; m <= meshes; ++m) {
    const std::string n = std::to_string(m);
    const std::vector<double>& x = p.reals("position" + n);
    if (x.size() % 3 != 0) {
      context.Error("MergeMeshes 'position" + n + "' has " + std::to_string(x.size()) +
                    " numbers (expected 3 per point)");
      ok = false;
      continue;
    }
    const Index points = static_cast<Index>(x.size() / 3);
    for (std::size_t k = 0; k < kKinds.size(); ++k) {
      const std::string field = kKinds[k].name + n;
      const std::vector<Index>& flat = p.indices(field);
      if (flat.size() % kKinds[k].size != 0) {
        context.Error("MergeMeshes '" + field + "' has " + std::to_string(flat.size()) +
                      " indices (expected " + std::to_string(kKinds[k].size) + " per element)");
        ok = false;
        continue;
      }
      for (const Index v : flat) {
        if (v >= points) {
          context.Error("MergeMeshes '" + field + "' uses point " + std::to_string(v) +
                        " (expected indices below the " + std::to_string(points) +
                        " points of 'position" + n + "')");
          ok = false;
          break;
        }
        elements[k].push_back(v + shift);
      }
    }
    position.insert(position.end(), x.begin(), x.end());
    shift += points;
  }
  if (!ok) return;
  context.SetOutput("npoints", static_cast<long>(shift));
  context.SetOutput("position", std::move(position));
  for (std::size_t k = 0; k < kKinds.size(); ++k)
    context.SetOutput(kKinds[k].name, std::move(elements[k]));
}

}  // namespace fluxion::internal
