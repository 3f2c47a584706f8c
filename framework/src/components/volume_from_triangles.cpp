#include "components/volume_from_triangles.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

#include <cmath>

#include "components/engine_inputs.h"

namespace fluxion::internal {

ComponentSpec VolumeFromTrianglesComponent::Spec() {
  return ComponentSpec{
      .name = "VolumeFromTriangles",
      .kind = ComponentKind::kEngine,
      .summary = "Volume enclosed by a closed triangle/quad surface (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::RealList("position", "points [m] (default: the object's positions)")
                     .Alias("positions"),
                 FieldSpec::IndexList("triangles", "triangles (default: the topology's)"),
                 FieldSpec::IndexList("quads", "quads (default: the topology's)"),
                 FieldSpec::Link("topology", "the topology (default: the node's)"),
                 FieldSpec::Link("mechanical",
                                 "the object (default: the node's, else an ancestor's)"),
                 FieldSpec::Bool("update", false,
                                 "SOFA: recompute every step (here: computed once at load time)")},
      .aliases = {}};
}

namespace {
// SOFA's per-triangle term: the flux of F = (x, 0, 0) through the triangle.
double Flux(const Point3& p0, const Point3& p1, const Point3& p2) {
  return ((p1[1] - p0[1]) * (p2[2] - p0[2]) - (p2[1] - p0[1]) * (p1[2] - p0[2])) *
         (p0[0] + p1[0] + p2[0]) / 6.0;
}
}  // namespace

void VolumeFromTrianglesComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto positions = PositionsOrState(context, "position", "mechanical");
  if (!positions) return;
  const auto points = static_cast<Index>(positions->size());
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads;
  std::shared_ptr<const Topology> topology;
  if (!p.has("triangles") || !p.has("quads")) {
    topology = context.LinkedTopology("topology");
    if (topology == nullptr && !p.has("triangles") && !p.has("quads")) {
      context.Error(
          "VolumeFromTriangles has no triangles or quads (expected them given, or a topology in "
          "context)");
      return;
    }
  }
  if (p.has("triangles")) {
    auto read = ReadElements<3>(context, "triangles", points);
    if (!read) return;
    triangles = std::move(*read);
  } else if (topology != nullptr) {
    triangles = topology->triangles;
  }
  if (p.has("quads")) {
    auto read = ReadElements<4>(context, "quads", points);
    if (!read) return;
    quads = std::move(*read);
  } else if (topology != nullptr) {
    quads = topology->quads;
  }
  if (!CheckIndices(context, "triangles", Flatten(triangles), points) ||
      !CheckIndices(context, "quads", Flatten(quads), points))
    return;
  const auto& x = *positions;
  const auto at = [&](Index i) -> const Point3& { return x[static_cast<std::size_t>(i)]; };
  double volume = 0.0;
  for (const auto& t : triangles) volume += Flux(at(t[0]), at(t[1]), at(t[2]));
  for (const auto& q : quads) {
    volume += Flux(at(q[0]), at(q[1]), at(q[2]));
    volume += Flux(at(q[0]), at(q[2]), at(q[3]));
  }
  volume = std::abs(volume);
  LogInfo(context.Where() + "VolumeFromTriangles volume = " + FormatReal(volume));
  context.SetOutput("volume", volume);
}

}  // namespace fluxion::internal
