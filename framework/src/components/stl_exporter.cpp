#include "components/stl_exporter.h"

#include <cstdio>
#include <cstring>

#include "components/scene_exporter.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

class StlExporter final : public ScheduledExporter {
 public:
  StlExporter(const Parameters& p, std::string filename, PointSource points,
              std::vector<std::array<Index, 3>> triangles)
      : ScheduledExporter(p),
        filename_(std::move(filename)),
        binary_(p.flag("binaryformat")),
        points_(std::move(points)),
        triangles_(std::move(triangles)) {}

 private:
  void Write(const ObservedState& state) override {
    const auto points = points_.Points(state);
    for (const auto& triangle : triangles_)
      for (const Index i : triangle)
        if (i >= static_cast<Index>(points.size()))
          throw Error("triangle point " + std::to_string(i) + " is out of range (expected < " +
                      std::to_string(points.size()) + " points)");
    std::string name = filename_;
    if (every() > 0) {
      char number[32];
      std::snprintf(number, sizeof number, "%05ld", step_counter() / every());
      name += number;
    }
    files_.Write(name + ".stl", binary_ ? Binary(points) : Ascii(points));
  }

  std::string Ascii(const std::vector<std::array<double, 3>>& points) const {
    std::string out = "solid Exported from Sofa\n";
    for (const auto& triangle : triangles_) {
      out += "facet normal 0 0 0\nouter loop\n";
      for (const Index i : triangle) {
        out += "vertex ";
        AppendPoint(out, points[static_cast<std::size_t>(i)]);
        out += '\n';
      }
      out += "endloop\nendfacet\n";
    }
    return out + "endsolid Exported from Sofa\n";
  }

  // Little-endian, as every machine Fluxion builds on (x86-64, arm64) stores numbers.
  std::string Binary(const std::vector<std::array<double, 3>>& points) const {
    std::string out(80, '\0');
    std::memcpy(out.data(), "Exported from Sofa", 18);
    const auto count = static_cast<std::uint32_t>(triangles_.size());
    AppendRawBytes(out, &count, 4);
    for (const auto& triangle : triangles_) {
      const float normal[3] = {0.0F, 0.0F, 0.0F};
      AppendRawBytes(out, normal, sizeof normal);
      for (const Index i : triangle) {
        const auto& point = points[static_cast<std::size_t>(i)];
        const float vertex[3] = {static_cast<float>(point[0]), static_cast<float>(point[1]),
                                 static_cast<float>(point[2])};
        AppendRawBytes(out, vertex, sizeof vertex);
      }
      const std::uint16_t attributes = 0;
      AppendRawBytes(out, &attributes, 2);
    }
    return out;
  }

  std::string filename_;
  bool binary_;
  PointSource points_;
  std::vector<std::array<Index, 3>> triangles_;
  SceneFileWriter files_;
};

}  // namespace

ComponentSpec StlExporterComponent::Spec() {
  std::vector<FieldSpec> fields = ExporterScheduleFields(
      "file name without \".stl\", relative to the output folder (default: the component's "
      "name)");
  fields.push_back(FieldSpec::Bool("binaryformat", true, "binary STL (else ASCII)"));
  fields.push_back(FieldSpec::RealList(
      "position", "points [m], 3 per point (default: the node's MechanicalObject's)"));
  fields.push_back(
      FieldSpec::IndexList("triangle", "triangles, 3 point indices each (default: the topology's)")
          .Alias("triangles"));
  fields.push_back(
      FieldSpec::IndexList("quad", "quads, 4 point indices each (default: the topology's)")
          .Alias("quads"));
  return ComponentSpec{.name = "STLExporter",
                       .kind = ComponentKind::kObserver,
                       .summary = "Writes a triangle surface as STL files while the scene runs",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void StlExporterComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::shared_ptr<const Topology> topology = context.topology();
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 4>> quads;
  if (p.has("triangle") || p.has("quad")) {
    const std::vector<Index>& t = p.indices("triangle");
    const std::vector<Index>& q = p.indices("quad");
    if (t.size() % 3 != 0 || q.size() % 4 != 0) {
      context.Error("STLExporter 'triangle'/'quad' have " + std::to_string(t.size()) + "/" +
                    std::to_string(q.size()) + " indices (expected 3 per triangle, 4 per quad)");
      return;
    }
    for (std::size_t k = 0; k < t.size(); k += 3) triangles.push_back({t[k], t[k + 1], t[k + 2]});
    for (std::size_t k = 0; k < q.size(); k += 4)
      quads.push_back({q[k], q[k + 1], q[k + 2], q[k + 3]});
  } else if (topology) {
    triangles = topology->triangles;
    quads = topology->quads;
  }
  // SOFA uses the quads only when there are no triangles, each cut along its diagonal a–c.
  if (triangles.empty())
    for (const auto& quad : quads) {
      triangles.push_back({quad[0], quad[1], quad[2]});
      triangles.push_back({quad[0], quad[2], quad[3]});
    }
  if (triangles.empty()) {
    context.Error(
        "STLExporter has no triangles nor quads (expected 'triangle', 'quad' or a topology with "
        "triangles or quads in its node)");
    return;
  }
  PointSource points;
  if (!ChoosePoints(context, topology.get(), points)) {
    context.Error(
        "STLExporter has no points (expected 'position', a MechanicalObject or a "
        "topology in its node)");
    return;
  }
  const std::string filename = p.text("filename").empty() ? context.name() : p.text("filename");
  context.AddObserver(
      std::make_unique<StlExporter>(p, filename, std::move(points), std::move(triangles)));
}

}  // namespace fluxion::internal
