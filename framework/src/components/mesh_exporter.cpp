#include "components/mesh_exporter.h"

#include <cstdio>

#include "components/scene_exporter.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

class MeshExporter final : public ScheduledExporter {
 public:
  MeshExporter(const Parameters& p, std::string filename, const Topology& topology,
               PointSource points)
      : ScheduledExporter(p),
        filename_(std::move(filename)),
        points_(std::move(points)),
        cells_(CollectVtkCells(topology, p.flag("edges"), p.flag("triangles"), p.flag("quads"),
                               p.flag("tetras"), p.flag("hexas"))) {
    // SOFA's %e: elements of the highest dimension written (volumes, else surfaces, else edges).
    const auto count = [&](const char* field, std::size_t n) { return p.flag(field) ? n : 0; };
    elements_ =
        count("tetras", topology.tetrahedra.size()) + count("hexas", topology.hexahedra.size());
    if (elements_ == 0)
      elements_ =
          count("triangles", topology.triangles.size()) + count("quads", topology.quads.size());
    if (elements_ == 0) elements_ = count("edges", topology.edges.size());
  }

 private:
  void Write(const ObservedState& state) override {
    const auto points = points_.Points(state);
    std::string out =
        "# vtk DataFile Version 2.0\nSOFA Exported Mesh file\nASCII\nDATASET "
        "UNSTRUCTURED_GRID\n";
    out += "POINTS " + std::to_string(points.size()) + " float\n";
    for (const auto& point : points) {
      AppendPoint(out, point);
      out += '\n';
    }
    out += "CELLS " + std::to_string(cells_.cells.size()) + " " +
           std::to_string(cells_.total_size()) + "\n";
    for (const auto& cell : cells_.cells) {
      out += std::to_string(cell.size());
      for (const Index i : cell) out += " " + std::to_string(i);
      out += '\n';
    }
    out += "CELL_TYPES " + std::to_string(cells_.cells.size()) + "\n";
    for (const int type : cells_.types) out += std::to_string(type) + "\n";
    files_.Write(Name(points.size()), out);
  }

  std::string Name(std::size_t num_points) const {
    std::string name;
    for (std::size_t k = 0; k < filename_.size(); ++k) {
      if (filename_[k] != '%' || k + 1 >= filename_.size()) {
        name += filename_[k];
        continue;
      }
      switch (filename_[++k]) {
        case 'n':
          name += std::to_string(step_counter());
          break;
        case 'p':
          name += std::to_string(num_points);
          break;
        case 'E':
          name += std::to_string(cells_.cells.size());
          break;
        case 'e':
          name += std::to_string(elements_ != 0 ? elements_ : num_points);
          break;
        default:
          name += '%';
          break;
      }
    }
    if (every() > 0) {
      char number[32];
      std::snprintf(number, sizeof number, "%05ld", step_counter() / every());
      name += number;
    }
    return name + ".vtk";
  }

  std::string filename_;
  PointSource points_;
  VtkCells cells_;
  std::size_t elements_ = 0;
  SceneFileWriter files_;
};

}  // namespace

ComponentSpec MeshExporterComponent::Spec() {
  std::vector<FieldSpec> fields = ExporterScheduleFields(
      "file name without extension, relative to the output folder (default: the component's "
      "name); %n %p %E %e %% are replaced");
  fields.push_back(FieldSpec::Choice("format", "ALL",
                                     {"ALL", "vtkxml", "vtk", "netgen", "tetgen", "gmsh", "obj"},
                                     "file format (Fluxion writes vtk only)"));
  fields.push_back(FieldSpec::RealList(
      "position", "points [m], 3 per point (default: the node's MechanicalObject's)"));
  for (const char* cells : {"edges", "triangles", "quads", "tetras", "hexas"})
    fields.push_back(FieldSpec::Bool(cells, true, std::string("write the topology's ") + cells));
  return ComponentSpec{.name = "MeshExporter",
                       .kind = ComponentKind::kObserver,
                       .summary = "Writes the node's mesh (VTK) while the scene runs",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void MeshExporterComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  if (p.text("format") != "vtk") {
    context.Error("MeshExporter format '" + p.text("format") +
                  "' is not written by Fluxion (expected format=\"vtk\"; SOFA's default ALL "
                  "also writes vtkxml, netgen, tetgen, gmsh and obj files)");
    return;
  }
  const std::shared_ptr<const Topology> topology = context.topology();
  if (!topology) {
    context.Error("MeshExporter has no topology in node '" + context.node_path() +
                  "' (expected a topology component in its node)");
    return;
  }
  PointSource points;
  if (!ChoosePoints(context, topology.get(), points)) return;
  const std::string filename = p.text("filename").empty() ? context.name() : p.text("filename");
  context.AddObserver(std::make_unique<MeshExporter>(p, filename, *topology, std::move(points)));
}

}  // namespace fluxion::internal
