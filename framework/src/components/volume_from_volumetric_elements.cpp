#include "components/volume_from_volumetric_elements.h"
#include "fluxion/log.h"
#include "fluxion/text.h"

#include <cmath>

#include "components/engine_inputs.h"

namespace fluxion::internal {

ComponentSpec VolumeFromVolumetricElementsComponent::Spec() {
  return ComponentSpec{
      .name = "VolumeFromVolumetricElements",
      .kind = ComponentKind::kEngine,
      .summary = "Volume of a tetrahedron/hexahedron mesh (output for links)",
      .fields = {FieldSpec::Choice("template", "Vec3d", {"Vec3d", "Vec3", "Vec3f"}, "point type"),
                 FieldSpec::RealList("position", "points [m] (default: the object's positions)")
                     .Alias("positions"),
                 FieldSpec::IndexList("tetras", "tetrahedra (default: the topology's)"),
                 FieldSpec::IndexList("hexas", "hexahedra (default: the topology's)"),
                 FieldSpec::Link("topology", "the topology (default: the node's)"),
                 FieldSpec::Link("mechanical",
                                 "the object (default: the node's, else an ancestor's)"),
                 FieldSpec::Bool("update", false,
                                 "SOFA: recompute every step (here: computed once at load time)")},
      .aliases = {}};
}

namespace {
double TetrahedronVolume(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
  const Point3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const Point3 v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Point3 w{d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  const double triple = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
                        u[2] * (v[0] * w[1] - v[1] * w[0]);
  return std::abs(triple) / 6.0;
}
}  // namespace

void VolumeFromVolumetricElementsComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const auto positions = PositionsOrState(context, "position", "mechanical");
  if (!positions) return;
  const auto points = static_cast<Index>(positions->size());
  std::vector<std::array<Index, 4>> tetras;
  std::vector<std::array<Index, 8>> hexas;
  std::shared_ptr<const Topology> topology;
  if (!p.has("tetras") || !p.has("hexas")) topology = context.LinkedTopology("topology");
  if (p.has("tetras")) {
    auto read = ReadElements<4>(context, "tetras", points);
    if (!read) return;
    tetras = std::move(*read);
  } else if (topology != nullptr) {
    tetras = topology->tetrahedra;
  }
  if (p.has("hexas")) {
    auto read = ReadElements<8>(context, "hexas", points);
    if (!read) return;
    hexas = std::move(*read);
  } else if (topology != nullptr) {
    hexas = topology->hexahedra;
  }
  if (tetras.empty() && hexas.empty()) {
    context.Error(
        "VolumeFromVolumetricElements has no tetrahedra or hexahedra (expected them given, or a "
        "volume topology in context)");
    return;
  }
  if (!CheckIndices(context, "tetras", Flatten(tetras), points) ||
      !CheckIndices(context, "hexas", Flatten(hexas), points))
    return;
  const auto& x = *positions;
  const auto at = [&](Index i) -> const Point3& { return x[static_cast<std::size_t>(i)]; };
  double volume = 0.0;
  for (const auto& t : tetras) volume += TetrahedronVolume(at(t[0]), at(t[1]), at(t[2]), at(t[3]));
  static constexpr std::array<std::array<int, 4>, 6> kSplit = {
      {{0, 5, 1, 6}, {0, 1, 3, 6}, {1, 3, 6, 2}, {6, 3, 0, 7}, {6, 7, 0, 5}, {7, 5, 4, 0}}};
  for (const auto& h : hexas)
    for (const auto& s : kSplit)
      volume += TetrahedronVolume(
          at(h[static_cast<std::size_t>(s[0])]), at(h[static_cast<std::size_t>(s[1])]),
          at(h[static_cast<std::size_t>(s[2])]), at(h[static_cast<std::size_t>(s[3])]));
  LogInfo(context.Where() + "VolumeFromVolumetricElements volume = " + FormatReal(volume));
  context.SetOutput("volume", volume);
}

}  // namespace fluxion::internal
