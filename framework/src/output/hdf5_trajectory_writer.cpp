// The HDF5 trajectory writer (fluxion/trajectory_writer.h): large runs in a compact, chunked,
// compressed binary file that h5py, ParaView (through the XDMF side file) and --compare read.
//
// Layout (format_version 1; docs/output-formats.md):
//   /                       attributes format = "fluxion-trajectory", format_version, scene, dt
//   /columns                the CSV's column names after step,time, in the CSV's order
//   /step, /time            one value per recorded state [n]
//   /objects/<id>/position  [n, points, dimension]   (the object's id as a group path)
//   /objects/<id>/velocity  [n, points, dimension]
//   /objects/<id>/edges, triangles, quads, tetrahedra, hexahedra   the topology, stored once
//   /solver_outputs/<node path>/<solver>/<output>  [n]   with solver_outputs
//   /energy/kinetic, potential, total               [n]   with energy
// Row k of every [n, …] dataset is the k-th recorded state; the CSV's row k is /step[k], /time[k],
// then each object's position[k] and velocity[k] flattened, then the solver outputs, then the
// energies: the same numbers, bit for bit (no conversion to text and back).
//
// Why HDF5 (Debian's libhdf5): the standard container of simulation data, read by h5py, ParaView,
// MATLAB and Julia without a Fluxion reader; chunked datasets grow one state at a time, and
// shuffle + deflate compress smooth trajectories without losing a bit.
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "fluxion/text.h"
#include "fluxion/trajectory_writer.h"
#include "output/trajectory_columns.h"

namespace fluxion {

namespace {

// Deflate's fastest level: on trajectories it compresses within a few per cent of level 4 in
// about half the time (measured on a 256² cloth), and a writer must keep up with the run.
constexpr int kDeflateLevel = 1;
constexpr hsize_t kChunkBytes = 1 << 20;  // about 1 MiB per chunk: HDF5's advice

// An HDF5 identifier closed by its own close function when the holder goes.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(close_, other.close_);
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { Reset(); }
  void Reset() {
    if (id_ >= 0 && close_ != nullptr) close_(id_);
    id_ = -1;
  }
  /// Gives up ownership: the caller closes the identifier.
  hid_t Release() {
    const hid_t id = id_;
    id_ = -1;
    return id;
  }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// Link creation that makes the groups of a path ("objects/root/cloth/dofs") as needed.
Handle IntermediateGroups() {
  Handle properties(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(properties.get(), 1);
  return properties;
}

Handle Group(hid_t parent, const std::string& path) {
  return {H5Gcreate2(parent, path.c_str(), IntermediateGroups().get(), H5P_DEFAULT, H5P_DEFAULT),
          H5Gclose};
}

void StringAttribute(hid_t target, const char* name, const std::string& value) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), std::max<std::size_t>(value.size(), 1));
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(target, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                   H5Aclose);
  H5Awrite(attribute.get(), type.get(), value.c_str());
}

template <class T>
void ScalarAttribute(hid_t target, const char* name, hid_t type, T value) {
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(target, name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  H5Awrite(attribute.get(), type, &value);
}

// A dataset that grows by one row per recorded state: [0, shape…] now, [unlimited, shape…] at
// most, chunked along the rows and compressed (shuffle, then deflate).
class GrowingDataset {
 public:
  GrowingDataset(hid_t parent, const std::string& name, hid_t type, std::vector<hsize_t> shape)
      : type_(type), shape_(std::move(shape)) {
    std::vector<hsize_t> now{0}, most{H5S_UNLIMITED}, chunk{1};
    hsize_t row_bytes = 8;
    for (const hsize_t extent : shape_) {
      now.push_back(extent);
      most.push_back(extent);
      chunk.push_back(std::max<hsize_t>(extent, 1));
      row_bytes *= std::max<hsize_t>(extent, 1);
    }
    chunk[0] = std::max<hsize_t>(1, kChunkBytes / row_bytes);
    Handle space(H5Screate_simple(static_cast<int>(now.size()), now.data(), most.data()), H5Sclose);
    Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
    H5Pset_shuffle(properties.get());
    H5Pset_deflate(properties.get(), kDeflateLevel);
    dataset_ = Handle(H5Dcreate2(parent, name.c_str(), type, space.get(),
                                 IntermediateGroups().get(), properties.get(), H5P_DEFAULT),
                      H5Dclose);
  }

  bool valid() const { return dataset_.valid(); }

  // Appends one row of values (shape's product of them).
  bool Append(const void* values) {
    std::vector<hsize_t> extent{rows_ + 1}, start{rows_}, count{1};
    for (const hsize_t size : shape_) {
      extent.push_back(size);
      start.push_back(0);
      count.push_back(size);
    }
    if (H5Dset_extent(dataset_.get(), extent.data()) < 0) return false;
    Handle file_space(H5Dget_space(dataset_.get()), H5Sclose);
    H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                        nullptr);
    Handle memory_space(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr),
                        H5Sclose);
    ++rows_;
    return H5Dwrite(dataset_.get(), type_, memory_space.get(), file_space.get(), H5P_DEFAULT,
                    values) >= 0;
  }

 private:
  Handle dataset_;
  hid_t type_;
  std::vector<hsize_t> shape_;
  hsize_t rows_ = 0;
};

// A topology list written once, [elements, vertices per element], as 64-bit indices.
template <std::size_t N>
void WriteElements(hid_t group, const char* name, const std::vector<std::array<Index, N>>& list) {
  if (list.empty()) return;
  std::vector<long long> flat;
  flat.reserve(list.size() * N);
  for (const auto& element : list)
    for (const Index vertex : element) flat.push_back(static_cast<long long>(vertex));
  const std::array<hsize_t, 2> dims{list.size(), N};
  Handle space(H5Screate_simple(2, dims.data(), nullptr), H5Sclose);
  Handle dataset(
      H5Dcreate2(group, name, H5T_NATIVE_LLONG, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose);
  H5Dwrite(dataset.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data());
}

// The CSV's column names after step,time (fluxion/trajectory_writer.h), as one dataset of
// fixed-length strings, chunked and compressed: a 256² cloth has 393,216 names, which as
// variable-length strings would take more room than a tenth of its states.
void WriteColumns(hid_t file, const std::vector<std::string>& columns) {
  std::size_t width = 1;
  for (const std::string& column : columns) width = std::max(width, column.size());
  std::vector<char> packed(columns.size() * width, '\0');
  for (std::size_t k = 0; k < columns.size(); ++k)
    std::copy(columns[k].begin(), columns[k].end(), packed.begin() + k * width);
  const hsize_t count = columns.size();
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), width);
  H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  Handle space(H5Screate_simple(1, &count, nullptr), H5Sclose);
  Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  if (count > 0) {
    const hsize_t chunk = std::min<hsize_t>(count, std::max<hsize_t>(1, kChunkBytes / width));
    H5Pset_chunk(properties.get(), 1, &chunk);
    H5Pset_deflate(properties.get(), kDeflateLevel);
  }
  Handle dataset(H5Dcreate2(file, "columns", type.get(), space.get(), H5P_DEFAULT, properties.get(),
                            H5P_DEFAULT),
                 H5Dclose);
  if (count > 0) H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data());
}

class Hdf5TrajectoryWriter final : public TrajectoryWriter {
 public:
  Hdf5TrajectoryWriter(std::string path, const Hdf5TrajectoryOptions& options)
      : path_(std::move(path)), options_(options) {}

  void Begin(const Simulation& simulation) override {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported through ok()
    file_ = Handle(H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) return Fail();
    const Model& model = simulation.model();
    StringAttribute(file_.get(), "format", "fluxion-trajectory");
    ScalarAttribute(file_.get(), "format_version", H5T_NATIVE_INT, 1);
    StringAttribute(file_.get(), "scene", model.file);
    ScalarAttribute(file_.get(), "dt", H5T_NATIVE_DOUBLE, simulation.dt());

    steps_.emplace(file_.get(), "step", H5T_NATIVE_LLONG, std::vector<hsize_t>{});
    times_.emplace(file_.get(), "time", H5T_NATIVE_DOUBLE, std::vector<hsize_t>{});
    for (const ObjectModel& object : model.objects) {
      Handle group = Group(file_.get(), "objects/" + object.id);
      if (!group.valid()) return Fail();
      StringAttribute(group.get(), "id", object.id);
      ScalarAttribute(group.get(), "dimension", H5T_NATIVE_INT, object.dimension);
      const std::vector<hsize_t> shape{static_cast<hsize_t>(object.num_points),
                                       static_cast<hsize_t>(object.dimension)};
      states_.emplace_back(group.get(), "position", H5T_NATIVE_DOUBLE, shape);
      states_.emplace_back(group.get(), "velocity", H5T_NATIVE_DOUBLE, shape);
      if (object.topology != nullptr) {
        WriteElements(group.get(), "edges", object.topology->edges);
        WriteElements(group.get(), "triangles", object.topology->triangles);
        WriteElements(group.get(), "quads", object.topology->quads);
        WriteElements(group.get(), "tetrahedra", object.topology->tetrahedra);
        WriteElements(group.get(), "hexahedra", object.topology->hexahedra);
      }
    }
    if (options_.solver_outputs) {
      for (const SolverNode& node : simulation.solver_nodes()) {
        const std::vector<std::string> names = node.solver->OutputNames();
        output_counts_.push_back(names.size());
        outputs_.resize(std::max(outputs_.size(), names.size()));
        for (const std::string& name : names) {
          scalars_.emplace_back(
              file_.get(), "solver_outputs/" + node.node_path + "/" + node.solver_type + "/" + name,
              H5T_NATIVE_DOUBLE, std::vector<hsize_t>{});
        }
      }
    }
    if (options_.energy) {
      for (const char* name : {"kinetic", "potential", "total"}) {
        scalars_.emplace_back(file_.get(), std::string("energy/") + name, H5T_NATIVE_DOUBLE,
                              std::vector<hsize_t>{});
      }
    }
    WriteColumns(file_.get(),
                 internal::TrajectoryColumns(simulation, options_.solver_outputs, options_.energy));
    ok_ = steps_->valid() && times_->valid() &&
          std::all_of(states_.begin(), states_.end(), [](auto& d) { return d.valid(); }) &&
          std::all_of(scalars_.begin(), scalars_.end(), [](auto& d) { return d.valid(); });
  }

  void Record(const Simulation& simulation) override {
    if (!ok_) return;
    const long long step = simulation.step_count();
    const double time = simulation.time();
    bool written = steps_->Append(&step) && times_->Append(&time);
    for (std::size_t k = 0; k < states_.size() / 2; ++k) {
      const int object = static_cast<int>(k);
      written = written && states_[2 * k].Append(simulation.position(object).data()) &&
                states_[2 * k + 1].Append(simulation.velocity(object).data());
    }
    std::size_t next = 0;
    for (std::size_t n = 0; n < output_counts_.size(); ++n) {
      if (output_counts_[n] == 0) continue;
      simulation.solver_nodes()[n].solver->ReadOutputs(outputs_.data());
      for (std::size_t k = 0; k < output_counts_[n]; ++k)
        written = written && scalars_[next++].Append(&outputs_[k]);
    }
    if (options_.energy) {
      const double kinetic = simulation.KineticEnergy();
      const double potential = simulation.PotentialEnergy();
      const double total = kinetic + potential;
      written = written && scalars_[next].Append(&kinetic) &&
                scalars_[next + 1].Append(&potential) && scalars_[next + 2].Append(&total);
    }
    // Every recorded state reaches the file before the next step: a run that stops early, or
    // is killed, keeps what it recorded.
    ok_ = written && H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) >= 0;
  }

  void End(const Simulation& /*simulation*/) override {
    scalars_.clear();
    states_.clear();
    steps_.reset();
    times_.reset();
    if (file_.valid() && H5Fclose(file_.Release()) < 0) ok_ = false;
  }

  bool ok() const override { return ok_; }

 private:
  void Fail() { ok_ = false; }

  std::string path_;
  Hdf5TrajectoryOptions options_;
  Handle file_;
  std::optional<GrowingDataset> steps_, times_;
  std::vector<GrowingDataset> states_;   // position, velocity of each object, in model order
  std::vector<GrowingDataset> scalars_;  // solver outputs, then energies
  std::vector<std::size_t> output_counts_;
  std::vector<double> outputs_;
  bool ok_ = true;
};

// Reads a whole dataset of doubles (or integers converted to doubles) into `values`; its shape
// into `dims`. False when the dataset is missing or unreadable.
bool ReadDoubles(hid_t file, const std::string& name, std::vector<double>& values,
                 std::vector<hsize_t>& dims) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return false;
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!dataset.valid()) return false;
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 1 || rank > 3) return false;
  dims.assign(static_cast<std::size_t>(rank), 0);
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  hsize_t count = 1;
  for (const hsize_t extent : dims) count *= extent;
  values.resize(count);
  return count == 0 || H5Dread(dataset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                               values.data()) >= 0;
}

// The object ids, solver outputs and energies a file holds, from its /columns, in order.
std::vector<std::string> ReadColumnNames(hid_t file) {
  std::vector<std::string> names;
  if (H5Lexists(file, "columns", H5P_DEFAULT) <= 0) return names;
  Handle dataset(H5Dopen2(file, "columns", H5P_DEFAULT), H5Dclose);
  Handle type(H5Dget_type(dataset.get()), H5Tclose);
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  hsize_t count = 0;
  H5Sget_simple_extent_dims(space.get(), &count, nullptr);
  const std::size_t width = H5Tget_size(type.get());
  if (H5Tis_variable_str(type.get()) > 0 || width == 0) return names;
  std::vector<char> packed(count * width);
  if (count > 0 &&
      H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0)
    return names;
  for (hsize_t k = 0; k < count; ++k) {
    const char* begin = packed.data() + k * width;
    names.emplace_back(begin, std::find(begin, begin + width, '\0'));
  }
  return names;
}

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

// The dimensions of a dataset, or none.
std::vector<hsize_t> Dimensions(hid_t file, const std::string& name) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return {};
  Handle dataset(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
  Handle space(H5Dget_space(dataset.get()), H5Sclose);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

// XML text with &, <, > and quotes escaped (object ids come from the scene).
std::string Escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// One state row k of an [n, points, dimension] dataset, as an XDMF hyperslab.
std::string Slab(const std::string& h5, const std::string& dataset, std::size_t k, hsize_t rows,
                 hsize_t points, hsize_t dimension) {
  const std::string p = std::to_string(points), d = std::to_string(dimension);
  return "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" + p + " " + d +
         "\" Type=\"HyperSlab\"><DataItem Dimensions=\"3 3\" Format=\"XML\">" + std::to_string(k) +
         " 0 0 1 1 1 1 " + p + " " + d + "</DataItem><DataItem Dimensions=\"" +
         std::to_string(rows) + " " + p + " " + d +
         "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" + Escaped(h5) + ":/" +
         Escaped(dataset) + "</DataItem></DataItem>";
}

}  // namespace

bool HasHdf5TrajectoryWriter() { return true; }

bool WriteXdmfForHdf5Trajectory(const std::string& h5_path, const std::string& h5_name,
                                const std::string& xdmf_path, std::string& why) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle file(H5Fopen(h5_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  std::vector<double> times;
  std::vector<hsize_t> dims;
  if (!file.valid() || !ReadDoubles(file.get(), "time", times, dims)) {
    why = "not a Fluxion HDF5 trajectory";
    return false;
  }
  const hsize_t rows = times.size();
  // The objects, in the order of /columns (the model's order).
  std::vector<std::string> objects;
  for (const std::string& column : ReadColumnNames(file.get())) {
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
    const std::vector<hsize_t> shape = Dimensions(file.get(), group + "/position");
    if (shape.size() != 3 || (shape[2] != 2 && shape[2] != 3)) continue;  // XDMF has no 1-D XYZ
    const hsize_t points = shape[1], dimension = shape[2];
    const XdmfCells cells = CellsOf(file.get(), group);
    std::string topology;
    if (cells.dataset != nullptr) {
      const std::vector<hsize_t> elements = Dimensions(file.get(), group + "/" + cells.dataset);
      topology = "<Topology TopologyType=\"" + std::string(cells.type) + "\" NumberOfElements=\"" +
                 std::to_string(elements[0]) + "\"" +
                 (std::string(cells.type) == "Polyline" ? " NodesPerElement=\"2\"" : "") +
                 "><DataItem Dimensions=\"" + std::to_string(elements[0]) + " " +
                 std::to_string(elements[1]) +
                 "\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">" + Escaped(h5_name) + ":/" +
                 Escaped(group) + "/" + cells.dataset + "</DataItem></Topology>";
    } else {
      topology = "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" +
                 std::to_string(points) + "\"/>";
    }
    xml +=
        "<Grid Name=\"" + Escaped(id) + "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    for (hsize_t k = 0; k < rows; ++k) {
      std::string time;
      AppendReal(time, times[k]);
      xml += "<Grid Name=\"" + Escaped(id) + "\" GridType=\"Uniform\"><Time Value=\"" + time +
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
  std::ofstream out(xdmf_path, std::ios::binary | std::ios::trunc);
  out << xml;
  out.close();
  if (!out) {
    why = "cannot write " + xdmf_path;
    return false;
  }
  return true;
}

std::optional<std::string> Hdf5TrajectoryToCsv(const std::string& path, std::string& why) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    why = "not an HDF5 file";
    return std::nullopt;
  }
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  const std::vector<std::string> columns = ReadColumnNames(file.get());
  std::vector<double> steps, times;
  std::vector<hsize_t> dims;
  if (!file.valid() || columns.empty() || !ReadDoubles(file.get(), "step", steps, dims) ||
      !ReadDoubles(file.get(), "time", times, dims) || times.size() != steps.size()) {
    why = "not a Fluxion trajectory (expected /columns, /step and /time)";
    return std::nullopt;
  }
  const std::size_t rows = steps.size();
  // Each column's source: a state dataset (and the offset in its row) or a scalar dataset, read
  // once. The columns come in the writer's order: per object p…, v…; solver outputs; energies.
  struct Source {
    std::vector<double> values;
    std::size_t row_size = 1;
  };
  std::vector<Source> sources;
  std::vector<std::pair<std::size_t, std::size_t>> column_source;  // (source, offset in row)
  std::string previous_dataset;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns[c];
    const std::size_t slash = name.rfind('/');
    const std::string tail = slash == std::string::npos ? name : name.substr(slash + 1);
    const bool state =
        slash != std::string::npos && tail.size() > 3 && (tail[0] == 'p' || tail[0] == 'v') &&
        tail.find('.') != std::string::npos &&
        H5Lexists(file.get(), ("objects/" + name.substr(0, slash)).c_str(), H5P_DEFAULT) > 0;
    std::string dataset;
    if (state) {
      dataset = "objects/" + name.substr(0, slash) + (tail[0] == 'p' ? "/position" : "/velocity");
    } else if (tail == name && (name == "kinetic" || name == "potential" || name == "total")) {
      dataset = "energy/" + name;
    } else {
      dataset = "solver_outputs/" + name;
    }
    if (sources.empty() || dataset != previous_dataset) {
      Source source;
      if (!ReadDoubles(file.get(), dataset, source.values, dims) || dims[0] != rows) {
        why = "dataset /" + dataset + " is missing or has the wrong number of rows";
        return std::nullopt;
      }
      source.row_size = rows == 0 ? 0 : source.values.size() / rows;
      sources.push_back(std::move(source));
      previous_dataset = dataset;
      column_source.emplace_back(sources.size() - 1, 0);
    } else {
      column_source.emplace_back(sources.size() - 1, column_source.back().second + 1);
    }
  }
  std::string text = "step,time";
  for (const std::string& name : columns) text += "," + name;
  text += '\n';
  for (std::size_t r = 0; r < rows; ++r) {
    text += std::to_string(static_cast<long long>(steps[r]));
    text += ',';
    AppendReal(text, times[r]);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto [source, offset] = column_source[c];
      const Source& from = sources[source];
      if (offset >= from.row_size) {
        why = "column " + columns[c] + " has no data";
        return std::nullopt;
      }
      text += ',';
      AppendReal(text, from.values[r * from.row_size + offset]);
    }
    text += '\n';
  }
  return text;
}

std::unique_ptr<TrajectoryWriter> MakeHdf5TrajectoryWriter(const std::string& path,
                                                           const Hdf5TrajectoryOptions& options) {
  return std::make_unique<Hdf5TrajectoryWriter>(path, options);
}

}  // namespace fluxion
