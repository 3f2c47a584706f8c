#include "components/vtk_exporter.h"

#include "components/scene_exporter.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::internal {

namespace {

// One "NAME=OBJECT.DATA" of pointsDataFields.
struct PointData {
  std::string name;
  std::string object_id;
  std::string data;  // position, velocity or force
};

class VtkExporter final : public ScheduledExporter {
 public:
  VtkExporter(const Parameters& p, std::string filename, std::shared_ptr<const Topology> topology,
              PointSource points, std::vector<PointData> point_data)
      : ScheduledExporter(p),
        filename_(std::move(filename)),
        xml_(p.flag("XMLformat")),
        overwrite_(p.flag("overwrite")),
        topology_(std::move(topology)),
        points_(std::move(points)),
        point_data_(std::move(point_data)),
        cells_(CollectVtkCells(*topology_, p.flag("edges"), p.flag("triangles"), p.flag("quads"),
                               p.flag("tetras"), p.flag("hexas"))) {}

 private:
  void Write(const ObservedState& state) override {
    const std::string name = xml_ ? XmlName() : LegacyName();
    files_.Write(name, xml_ ? Xml(state) : Legacy(state));
    ++files_written_;
  }

  static bool EndsWith(const std::string& text, const char* tail) {
    return text.size() >= 4 && text.ends_with(tail);
  }
  std::string XmlName() const {
    const std::string number = overwrite_ ? "" : std::to_string(files_written_);
    if (EndsWith(filename_, ".vtu"))
      return filename_.substr(0, filename_.size() - 4) + number + ".vtu";
    return filename_ + number + ".vtu";
  }
  std::string LegacyName() const {
    // SOFA keeps a name of 3 characters or fewer as it is.
    if (filename_.size() <= 3) return filename_;
    std::string base = filename_, extension = ".vtu";
    if (EndsWith(filename_, ".vtu") || EndsWith(filename_, ".vtk")) {
      extension = filename_.substr(filename_.size() - 4);
      base = filename_.substr(0, filename_.size() - 4);
    }
    return base + (overwrite_ ? "" : "_" + std::to_string(files_written_)) + extension;
  }

  // The values of one point data, 3 per point (1-D and 2-D objects padded with zeros).
  static std::vector<std::array<double, 3>> DataValues(const ObservedState& state,
                                                       const PointData& data) {
    const int index = state.model().FindObject(data.object_id);
    FLUXION_DEMAND(index >= 0);
    const ObjectModel& object = state.model().objects[static_cast<std::size_t>(index)];
    Vector values;
    if (data.data == "position")
      values = state.position(index);
    else if (data.data == "velocity")
      values = state.velocity(index);
    else
      values = state.force(index);
    std::vector<std::array<double, 3>> out(static_cast<std::size_t>(object.num_points),
                                           {0.0, 0.0, 0.0});
    for (Index i = 0; i < object.num_points; ++i)
      for (int a = 0; a < object.dimension; ++a)
        out[static_cast<std::size_t>(i)][static_cast<std::size_t>(a)] =
            values[i * object.dimension + a];
    return out;
  }

  std::string Legacy(const ObservedState& state) const {
    const auto points = points_.Points(state);
    std::string out =
        "# vtk DataFile Version 2.0\nExported VTK file\nASCII\n\nDATASET UNSTRUCTURED_GRID\n";
    out += "POINTS " + std::to_string(points.size()) + " float\n";
    for (const auto& point : points) {
      AppendPoint(out, point);
      out += '\n';
    }
    out += "\nCELLS " + std::to_string(cells_.cells.size()) + " " +
           std::to_string(cells_.total_size()) + "\n";
    for (const auto& cell : cells_.cells) {
      out += std::to_string(cell.size());
      for (const Index i : cell) out += " " + std::to_string(i);
      out += '\n';
    }
    out += "\nCELL_TYPES " + std::to_string(cells_.cells.size()) + "\n";
    for (const int type : cells_.types) out += std::to_string(type) + "\n";
    out += '\n';
    if (!point_data_.empty()) {
      out += "POINT_DATA " + std::to_string(points.size()) + "\n";
      for (const PointData& data : point_data_) {
        out += "VECTORS " + data.name + " double\n";
        for (const auto& value : DataValues(state, data)) {
          AppendPoint(out, value);
          out += '\n';
        }
        out += '\n';
      }
    }
    return out;
  }

  std::string Xml(const ObservedState& state) const {
    const auto points = points_.Points(state);
    std::string out =
        "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"BigEndian\">\n"
        "  <UnstructuredGrid>\n";
    out += "    <Piece NumberOfPoints=\"" + std::to_string(points.size()) + "\" NumberOfCells=\"" +
           std::to_string(cells_.cells.size()) + "\">\n";
    if (!point_data_.empty()) {
      out += "      <PointData>\n";
      for (const PointData& data : point_data_) {
        out += "        <DataArray type=\"Float64\" Name=\"" + data.name +
               "\" NumberOfComponents=\"3\" format=\"ascii\">\n";
        for (const auto& value : DataValues(state, data)) {
          AppendPoint(out, value);
          out += '\n';
        }
        out += "        </DataArray>\n";
      }
      out += "      </PointData>\n";
    }
    out +=
        "      <Points>\n"
        "        <DataArray type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (const auto& point : points) {
      out += '\t';
      AppendPoint(out, point);
      out += '\n';
    }
    out +=
        "        </DataArray>\n"
        "      </Points>\n"
        "      <Cells>\n"
        "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n";
    for (const auto& cell : cells_.cells) {
      out += "          ";
      for (std::size_t k = 0; k < cell.size(); ++k)
        out += (k > 0 ? " " : "") + std::to_string(cell[k]);
      out += '\n';
    }
    out +=
        "        </DataArray>\n"
        "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n"
        "          ";
    std::size_t offset = 0;
    for (const auto& cell : cells_.cells) {
      offset += cell.size();
      out += std::to_string(offset) + " ";
    }
    out +=
        "\n        </DataArray>\n"
        "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n"
        "          ";
    for (const int type : cells_.types) out += std::to_string(type) + " ";
    out +=
        "\n        </DataArray>\n"
        "      </Cells>\n"
        "    </Piece>\n"
        "  </UnstructuredGrid>\n"
        "</VTKFile>\n";
    return out;
  }

  std::string filename_;
  bool xml_, overwrite_;
  std::shared_ptr<const Topology> topology_;
  PointSource points_;
  std::vector<PointData> point_data_;
  VtkCells cells_;
  long files_written_ = 0;
  SceneFileWriter files_;
};

}  // namespace

ComponentSpec VtkExporterComponent::Spec() {
  std::vector<FieldSpec> fields = ExporterScheduleFields(
      "file name, relative to the output folder (default: the component's name); SOFA's "
      "numbering: NAME0.vtu, NAME1.vtu, …, legacy NAME_0.vtk");
  fields.push_back(FieldSpec::Bool("XMLformat", true, "write XML .vtu files (else legacy VTK)"));
  fields.push_back(FieldSpec::RealList(
      "position", "points [m], 3 per point (default: the node's MechanicalObject's)"));
  fields.push_back(FieldSpec::Bool("edges", true, "write the topology's edges"));
  fields.push_back(FieldSpec::Bool("triangles", false, "write the topology's triangles"));
  fields.push_back(FieldSpec::Bool("quads", false, "write the topology's quads"));
  fields.push_back(FieldSpec::Bool("tetras", false, "write the topology's tetrahedra"));
  fields.push_back(FieldSpec::Bool("hexas", false, "write the topology's hexahedra"));
  fields.push_back(
      FieldSpec::Text("pointsDataFields", "",
                      "point data to write: [NAME=]OBJECT.DATA, DATA position, velocity or force"));
  fields.push_back(FieldSpec::Text("cellsDataFields", "", "cell data (not supported: refused)"));
  fields.push_back(FieldSpec::Bool("overwrite", false,
                                   "rewrite one file at every export instead of numbering them"));
  return ComponentSpec{.name = "VTKExporter",
                       .kind = ComponentKind::kObserver,
                       .summary = "Writes the node's mesh as VTK files while the scene runs",
                       .fields = std::move(fields),
                       .aliases = {}};
}

void VtkExporterComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const std::shared_ptr<const Topology> topology = context.topology();
  if (!topology) {
    context.Error("VTKExporter has no topology in node '" + context.node_path() +
                  "' (expected a topology component, e.g. MeshTopology, in its node)");
    return;
  }
  if (!p.text("cellsDataFields").empty()) {
    context.Error(
        "VTKExporter 'cellsDataFields' is not supported (expected it empty: Fluxion components "
        "publish no per-cell data)");
    return;
  }
  PointSource points;
  if (!ChoosePoints(context, topology.get(), points)) return;

  // pointsDataFields: "[NAME=]OBJECT.DATA" words, OBJECT the node's MechanicalObject.
  std::vector<PointData> point_data;
  std::string words = p.text("pointsDataFields");
  for (std::size_t start = 0; start < words.size();) {
    const std::size_t end = std::min(words.find_first_of(" \t\n", start), words.size());
    std::string word = words.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    PointData data;
    if (const std::size_t equals = word.find('='); equals != std::string::npos) {
      data.name = word.substr(0, equals);
      word = word.substr(equals + 1);
    }
    if (word.starts_with('@')) word = word.substr(1);
    const std::size_t dot = word.rfind('.');
    const ObjectModel* object = context.NodeObject();
    if (object == nullptr) return;
    if (dot == std::string::npos || word.substr(0, dot) != object->name ||
        (word.substr(dot + 1) != "position" && word.substr(dot + 1) != "velocity" &&
         word.substr(dot + 1) != "force")) {
      context.Error("VTKExporter 'pointsDataFields': '" + word +
                    "' is not a data Fluxion exports (expected " + object->name +
                    ".position, .velocity or .force)");
      return;
    }
    data.data = word.substr(dot + 1);
    if (data.name.empty()) data.name = data.data;
    data.object_id = object->id;
    point_data.push_back(std::move(data));
  }
  // SOFA's default file name is the component's name.
  const std::string filename = p.text("filename").empty() ? context.name() : p.text("filename");
  context.AddObserver(std::make_unique<VtkExporter>(p, filename, topology, std::move(points),
                                                    std::move(point_data)));
}

}  // namespace fluxion::internal
