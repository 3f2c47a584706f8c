// The XDMF description of an HDF5 trajectory (fluxion/trajectory_writer.h): what ParaView and
// VisIt open. XDMF 3: per object a temporal collection of uniform grids, each state's points and
// velocities selected from the [n, points, dimension] datasets by hyperslabs.
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "fluxion/text.h"
#include "fluxion/trajectory_writer.h"
#include "output/hdf5_files.h"

namespace fluxion {

namespace {

using internal::Handle;

// The cells an XDMF grid draws for an object: its highest-dimensional elements, as XDMF names
// them (one kind per grid: XDMF's Mixed topology needs a per-cell type code), or none.
struct XdmfCells {
  const char* dataset = nullptr;
  const char* type = nullptr;
};

XdmfCells CellsOf(hid_t file, const std::string& group) {
  constexpr std::array<XdmfCells, 5> kOrder = {{{"hexahedra", "Hexahedron"},
                                                {"tetrahedra", "Tetrahedron"},
                                                {"quads", "Quadrilateral"},
                                                {"triangles", "Triangle"},
                                                {"edges", "Polyline"}}};
  for (const XdmfCells& cells : kOrder)
    if (H5Lexists(file, (group + "/" + cells.dataset).c_str(), H5P_DEFAULT) > 0) return cells;
  return {};
}

// One state row k of an [n, points, dimension] dataset, as an XDMF hyperslab.
std::string Slab(const std::string& h5, const std::string& dataset, std::size_t k, hsize_t rows,
                 hsize_t points, hsize_t dimension) {
  const std::string p = std::to_string(points), d = std::to_string(dimension);
  return "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" + p + " " + d +
         "\" Type=\"HyperSlab\"><DataItem Dimensions=\"3 3\" Format=\"XML\">" + std::to_string(k) +
         " 0 0 1 1 1 1 " + p + " " + d + "</DataItem><DataItem Dimensions=\"" +
         std::to_string(rows) + " " + p + " " + d +
         "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" + EscapeXml(h5) + ":/" +
         EscapeXml(dataset) + "</DataItem></DataItem>";
}

}  // namespace

bool WriteXdmfForHdf5Trajectory(const std::string& h5_path, const std::string& h5_name,
                                const std::string& xdmf_path, std::string& why) {
  const std::optional<OutputClaim> claim =
      ClaimOutputFile(xdmf_path, OutputOrigin::kUser, "the XDMF file of " + h5_name, &why);
  return claim && WriteXdmfForHdf5Trajectory(h5_path, h5_name, *claim, why);
}

bool WriteXdmfForHdf5Trajectory(const std::string& h5_path, const std::string& h5_name,
                                const OutputClaim& xdmf, std::string& why) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle file(H5Fopen(h5_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  std::vector<double> times;
  std::vector<hsize_t> dims;
  if (!file.valid() || !internal::ReadDoubles(file.get(), "time", times, dims)) {
    why = "not a Fluxion HDF5 trajectory";
    return false;
  }
  const hsize_t rows = times.size();
  // The objects, in the order of /columns (the model's order).
  std::vector<std::string> objects;
  for (const std::string& column : internal::ReadColumnNames(file.get())) {
    const std::size_t slash = column.rfind('/');
    if (slash == std::string::npos) continue;
    const std::string id = column.substr(0, slash);
    if (H5Lexists(file.get(), ("objects/" + id).c_str(), H5P_DEFAULT) > 0 &&
        (objects.empty() || objects.back() != id))
      objects.push_back(id);
  }
  std::string xml = "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n<Domain>\n";
  for (const std::string& id : objects) {
    const std::string group = "objects/" + id;
    const std::vector<hsize_t> shape = internal::Dimensions(file.get(), group + "/position");
    if (shape.size() != 3 || (shape[2] != 2 && shape[2] != 3)) continue;  // XDMF has no 1-D XYZ
    const hsize_t points = shape[1], dimension = shape[2];
    const XdmfCells cells = CellsOf(file.get(), group);
    std::string topology;
    if (cells.dataset != nullptr) {
      const std::vector<hsize_t> elements =
          internal::Dimensions(file.get(), group + "/" + cells.dataset);
      topology = "<Topology TopologyType=\"" + std::string(cells.type) + "\" NumberOfElements=\"" +
                 std::to_string(elements[0]) + "\"" +
                 (std::string(cells.type) == "Polyline" ? " NodesPerElement=\"2\"" : "") +
                 "><DataItem Dimensions=\"" + std::to_string(elements[0]) + " " +
                 std::to_string(elements[1]) +
                 "\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">" + EscapeXml(h5_name) +
                 ":/" + EscapeXml(group) + "/" + cells.dataset + "</DataItem></Topology>";
    } else {
      topology = "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" +
                 std::to_string(points) + "\"/>";
    }
    xml += "<Grid Name=\"" + EscapeXml(id) +
           "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (hsize_t k = 0; k < rows; ++k) {
      std::string time;
      AppendReal(time, times[k]);
      xml += "<Grid Name=\"" + EscapeXml(id) + "\" GridType=\"Uniform\"><Time Value=\"" + time +
             "\"/>" + topology + "<Geometry GeometryType=\"" + (dimension == 3 ? "XYZ" : "XY") +
             "\">" + Slab(h5_name, group + "/position", k, rows, points, dimension) +
             "</Geometry>" +
             (dimension == 3
                  ? "<Attribute Name=\"velocity\" AttributeType=\"Vector\" "
                    "Center=\"Node\">" +
                        Slab(h5_name, group + "/velocity", k, rows, points, 3) + "</Attribute>"
                  : std::string()) +
             "</Grid>\n";
    }
    xml += "</Grid>\n";
  }
  xml += "</Domain>\n</Xdmf>\n";
  // Through the output policy: never over an input, through a link or into an existing inode.
  const OutputFile out = OpenClaimedOutputFile(xdmf, &why);
  if (!out) return false;
  if (std::fwrite(xml.data(), 1, xml.size(), out.get()) != xml.size() ||
      std::fflush(out.get()) != 0) {
    why = "cannot write " + xdmf.path.string();
    return false;
  }
  return true;
}

}  // namespace fluxion
