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
// deflate compresses smooth trajectories without losing a bit.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "fluxion/trajectory_writer.h"
#include "output/hdf5_files.h"
#include "output/trajectory_columns.h"

namespace fluxion {

namespace {

using internal::Handle;

// Deflate's fastest level: on trajectories it compresses within a few per cent of level 4 in
// about half the time (measured on a 256² cloth), and a writer must keep up with the run.
constexpr int kDeflateLevel = 1;
constexpr hsize_t kChunkBytes = 1 << 20;  // about 1 MiB per chunk: HDF5's advice

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
// most, chunked along the rows and deflated. (HDF5's shuffle filter before deflate made the
// 256² cloth's file larger, 198.2 MB against 196.5, and its writing 14 % slower: left out.)
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

}  // namespace

bool HasHdf5TrajectoryWriter() { return true; }

std::unique_ptr<TrajectoryWriter> MakeHdf5TrajectoryWriter(const std::string& path,
                                                           const Hdf5TrajectoryOptions& options) {
  return std::make_unique<Hdf5TrajectoryWriter>(path, options);
}

}  // namespace fluxion
