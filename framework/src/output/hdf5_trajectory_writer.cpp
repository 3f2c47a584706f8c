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
// HDF5's own shuffle and deflate filters compress trajectories without losing a bit and without a
// filter plugin on the reader's side.
//
// Speed: compressing is most of the cost of writing (deflate of a 256² cloth's state takes longer
// than a step), so Record only copies the state into one of a few preallocated rows and a writer
// thread does every HDF5 call, on the second core, while the run steps. The HDF5 calls are the
// same, in the same order, whatever the timing, so the file is byte for byte the same from run to
// run; End waits for the rows still queued, so a run that fails keeps every state it recorded.
#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <libdeflate.h>

#include "fluxion/trajectory_writer.h"
#include "output/hdf5_files.h"
#include "output/trajectory_columns.h"

namespace fluxion {

namespace {

using internal::Handle;

// Deflate's fastest level: on trajectories it compresses within a few per cent of level 4 in
// about half the time (measured on a 256² cloth), and a writer must keep up with the run.
constexpr int kDeflateLevel = 1;
constexpr hsize_t kChunkBytes = 1 << 20;  // about 1 MiB per chunk at most: HDF5's advice
// A chunk spanning several states (a small object's, /step's) is compressed again at every
// flush, so such chunks are kept to 64 KiB, and a state's chunk of 64 KiB or more spans that state
// alone: recording every step of a small scene stays cheap, and a large state is compressed once.
constexpr hsize_t kSpanningChunkBytes = 1 << 16;
// States copied and waiting for the writer thread: the memory the queue takes is bounded by
// this many states (3 × 3 MiB for a 256² cloth), and Record waits when they are all taken.
constexpr std::size_t kQueuedRows = 3;
// The file is flushed once about this many bytes of states have been written since the last
// flush (and at the end): every state of a large object (a 256² cloth's 3 MiB), every few hundred
// of a small one. A flush per state made a small scene's file 30 times slower to write than its
// CSV (200 states of an 8×8 cloth: 2.8 s against 0.1 s, most of it in H5Fflush's system calls and
// in compressing the states-spanning chunks again at each flush). The interval is counted in
// states, never in time, so that the HDF5 calls — and the file's bytes — do not depend on timing.
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

// Properties of every object created: no modification times in the object headers, so that the
// same run writes the same bytes (HDF5 records them by default).
Handle DatasetProperties() {
  Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_obj_track_times(properties.get(), 0);
  return properties;
}

Handle GroupProperties() {
  Handle properties(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
  H5Pset_obj_track_times(properties.get(), 0);
  return properties;
}

// Link creation that makes the groups of a path ("objects/root/cloth/dofs") as needed.
Handle IntermediateGroups() {
  Handle properties(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
  H5Pset_create_intermediate_group(properties.get(), 1);
  return properties;
}

Handle Group(hid_t parent, const std::string& path) {
  return {H5Gcreate2(parent, path.c_str(), IntermediateGroups().get(), GroupProperties().get(),
                     H5P_DEFAULT),
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
// most, compressed by HDF5's shuffle filter and deflate. The chunks of an object's states
// [n, points, dimension] hold one coordinate (x, y or z) of up to 1 MiB of points:
//   chunk = [max(1, 8192 / points), min(points, 2^17), 1],
// so that the shuffle filter, which regroups byte k of every double of a chunk, puts together
// bytes of one coordinate — exponents and leading mantissa bytes that neighbouring points share.
// Measured on the 256² cloth (docs/output-formats.md): 78 MB for positions and velocities with
// these chunks, against 113 MB for [1, points, 3] chunks deflated alone and 147 MB shuffled (the
// shuffle of interleaved x, y, z mixes bytes of unrelated magnitudes; that is what once made
// shuffle look worse). Blosc's zstd with bit-shuffle (a filter plugin) did no better: 79 MB.
class GrowingDataset {
 public:
  GrowingDataset(hid_t parent, const std::string& name, hid_t type, std::vector<hsize_t> shape)
      : type_(type), shape_(std::move(shape)) {
    std::vector<hsize_t> now{0}, most{H5S_UNLIMITED}, chunk{1};
    hsize_t chunk_elements = 1;
    for (std::size_t k = 0; k < shape_.size(); ++k) {
      now.push_back(shape_[k]);
      most.push_back(shape_[k]);
      // Points: as many as fit in a chunk; the coordinate (last extent of a state): one.
      const hsize_t extent = std::max<hsize_t>(shape_[k], 1);
      chunk.push_back(k == 0 && shape_.size() == 2 ? std::min(extent, kChunkBytes / 8)
                      : k + 1 == shape_.size()     ? 1
                                                   : extent);
      chunk_elements *= chunk.back();
    }
    chunk[0] = std::max<hsize_t>(1, kSpanningChunkBytes / (8 * chunk_elements));
    Handle space(H5Screate_simple(static_cast<int>(now.size()), now.data(), most.data()), H5Sclose);
    Handle properties = DatasetProperties();
    H5Pset_chunk(properties.get(), static_cast<int>(chunk.size()), chunk.data());
    H5Pset_shuffle(properties.get());
    H5Pset_deflate(properties.get(), kDeflateLevel);
    dataset_ = Handle(H5Dcreate2(parent, name.c_str(), type, space.get(),
                                 IntermediateGroups().get(), properties.get(), H5P_DEFAULT),
                      H5Dclose);
    // A state of doubles whose chunks span that state alone: written chunk by chunk, shuffled and
    // deflated here (AppendChunks).
    if (chunk[0] == 1 && shape_.size() == 2 && H5Tequal(type, H5T_NATIVE_DOUBLE) > 0) {
      chunk_points_ = chunk[1];
      shuffled_.resize(chunk_points_ * 8);
      compressor_.reset(libdeflate_alloc_compressor(kDeflateLevel));
      if (compressor_ == nullptr)
        dataset_.Reset();
      else
        compressed_.resize(libdeflate_zlib_compress_bound(compressor_.get(), shuffled_.size()));
    }
  }

  bool valid() const { return dataset_.valid(); }

  // Appends one row of values (shape's product of them).
  bool Append(const void* values) {
    if (chunk_points_ > 0) return AppendChunks(static_cast<const double*>(values));
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
  // Appends a state [points, dimension] through HDF5's direct chunk writes: each chunk (one
  // coordinate of up to chunk_points_ points) passed through the dataset's filters here, as
  // HDF5's would — the shuffle filter (byte k of element i at k·n + i, n the chunk's elements,
  // H5Zshuffle.c), then deflate in zlib's format (H5Zdeflate.c) at the same level, by libdeflate
  // (on the 256² cloth's chunks 1.0 s against zlib's 1.5, and 1 % smaller) — and written as it
  // is. Any HDF5 reader undoes them; HDF5's own path, which gathers the strided coordinate
  // element by element through its selections, took longer.
  bool AppendChunks(const double* values) {
    const hsize_t points = shape_[0], dimension = shape_[1];
    const std::array<hsize_t, 3> extent{rows_ + 1, points, dimension};
    if (H5Dset_extent(dataset_.get(), extent.data()) < 0) return false;
    for (hsize_t coordinate = 0; coordinate < dimension; ++coordinate) {
      for (hsize_t first = 0; first < points; first += chunk_points_) {
        // The last chunk of a row reaches past the points: HDF5 stores it whole, zero-filled.
        const hsize_t count = std::min(chunk_points_, points - first);
        unsigned char* planes = shuffled_.data();
        for (hsize_t i = 0; i < chunk_points_; ++i) {
          const double value = i < count ? values[(first + i) * dimension + coordinate] : 0.0;
          unsigned char bytes[8];
          std::memcpy(bytes, &value, 8);
          for (hsize_t k = 0; k < 8; ++k) planes[k * chunk_points_ + i] = bytes[k];
        }
        const std::size_t size =
            libdeflate_zlib_compress(compressor_.get(), shuffled_.data(), shuffled_.size(),
                                     compressed_.data(), compressed_.size());
        if (size == 0) return false;
        const std::array<hsize_t, 3> offset{rows_, first, coordinate};
        if (H5Dwrite_chunk(dataset_.get(), H5P_DEFAULT, 0, offset.data(), size,
                           compressed_.data()) < 0)
          return false;
      }
    }
    ++rows_;
    return true;
  }

  Handle dataset_;
  hid_t type_;
  std::vector<hsize_t> shape_;
  hsize_t rows_ = 0;
  hsize_t chunk_points_ = 0;  // > 0: rows written by AppendChunks, chunks of this many points
  std::vector<unsigned char> shuffled_, compressed_;
  struct FreeCompressor {
    void operator()(libdeflate_compressor* compressor) const {
      libdeflate_free_compressor(compressor);
    }
  };
  std::unique_ptr<libdeflate_compressor, FreeCompressor> compressor_;
};

// A topology list written once, [elements, vertices per element], as 64-bit indices, shuffled
// and deflated (a 256² grid's edges, triangles and quads: 8.3 MB raw, 60 kB so).
template <std::size_t N>
void WriteElements(hid_t group, const char* name, const std::vector<std::array<Index, N>>& list) {
  if (list.empty()) return;
  std::vector<long long> flat;
  flat.reserve(list.size() * N);
  for (const auto& element : list)
    for (const Index vertex : element) flat.push_back(static_cast<long long>(vertex));
  const std::array<hsize_t, 2> dims{list.size(), N};
  const std::array<hsize_t, 2> chunk{std::min<hsize_t>(dims[0], kChunkBytes / (8 * N)), N};
  Handle space(H5Screate_simple(2, dims.data(), nullptr), H5Sclose);
  Handle properties = DatasetProperties();
  H5Pset_chunk(properties.get(), 2, chunk.data());
  H5Pset_shuffle(properties.get());
  H5Pset_deflate(properties.get(), kDeflateLevel);
  Handle dataset(H5Dcreate2(group, name, H5T_NATIVE_LLONG, space.get(), H5P_DEFAULT,
                            properties.get(), H5P_DEFAULT),
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
  Handle properties = DatasetProperties();
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

// One recorded state as Record copies it for the writer thread: the step, then every double of
// the row in the file's order (time, each object's positions and velocities, the solver
// outputs, the energies).
struct QueuedRow {
  long long step = 0;
  std::vector<double> values;
};

class Hdf5TrajectoryWriter final : public TrajectoryWriter {
 public:
  Hdf5TrajectoryWriter(std::string path, const Hdf5TrajectoryOptions& options)
      : path_(std::move(path)), options_(options) {}

  ~Hdf5TrajectoryWriter() override { Close(); }

  void Begin(const Simulation& simulation) override {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported through ok()
    file_ = Handle(H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file_.valid()) return Fail();
    const Model& model = simulation.model();
    points_ = internal::ObjectPointCounts(simulation);
    StringAttribute(file_.get(), "format", "fluxion-trajectory");
    ScalarAttribute(file_.get(), "format_version", H5T_NATIVE_INT, 1);
    StringAttribute(file_.get(), "scene", model.file);
    ScalarAttribute(file_.get(), "dt", H5T_NATIVE_DOUBLE, simulation.dt());

    steps_.emplace(file_.get(), "step", H5T_NATIVE_LLONG, std::vector<hsize_t>{});
    times_.emplace(file_.get(), "time", H5T_NATIVE_DOUBLE, std::vector<hsize_t>{});
    std::size_t row_size = 1;  // the time
    for (const ObjectModel& object : model.objects) {
      Handle group = Group(file_.get(), "objects/" + object.id);
      if (!group.valid()) return Fail();
      StringAttribute(group.get(), "id", object.id);
      ScalarAttribute(group.get(), "dimension", H5T_NATIVE_INT, object.dimension);
      const std::vector<hsize_t> shape{static_cast<hsize_t>(object.num_points),
                                       static_cast<hsize_t>(object.dimension)};
      states_.emplace_back(group.get(), "position", H5T_NATIVE_DOUBLE, shape);
      states_.emplace_back(group.get(), "velocity", H5T_NATIVE_DOUBLE, shape);
      const std::size_t size =
          static_cast<std::size_t>(object.num_points) * static_cast<std::size_t>(object.dimension);
      state_sizes_.push_back(size);
      row_size += 2 * size;
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
    row_size += scalars_.size();
    WriteColumns(file_.get(),
                 internal::TrajectoryColumns(simulation, options_.solver_outputs, options_.energy));
    const bool valid =
        steps_->valid() && times_->valid() &&
        std::all_of(states_.begin(), states_.end(), [](auto& d) { return d.valid(); }) &&
        std::all_of(scalars_.begin(), scalars_.end(), [](auto& d) { return d.valid(); });
    if (!valid) return Fail();
    for (QueuedRow& row : rows_) row.values.resize(row_size);
    flush_every_ = std::max<std::size_t>(1, kFlushBytes / (8 * row_size));
    thread_ = std::thread([this] { WriteQueuedRows(); });
  }

  // Copies the state into the next free row (waiting while all kQueuedRows are queued) and
  // hands it to the writer thread.
  void Record(const Simulation& simulation) override {
    if (!ok_ || !thread_.joinable()) return;
    if (std::string why = internal::ChangedPointsError(simulation, points_, "an HDF5 trajectory");
        !why.empty()) {
      changed_points_ = std::move(why);
      Fail();
      return;
    }
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return queued_ - written_ < kQueuedRows; });
    }
    QueuedRow& row = rows_[queued_ % kQueuedRows];  // the writer thread is done with it
    row.step = simulation.step_count();
    double* next = row.values.data();
    *next++ = simulation.time();
    for (std::size_t k = 0; k < state_sizes_.size(); ++k) {
      const int object = static_cast<int>(k);
      next = std::copy_n(simulation.position(object).data(), state_sizes_[k], next);
      next = std::copy_n(simulation.velocity(object).data(), state_sizes_[k], next);
    }
    for (std::size_t n = 0; n < output_counts_.size(); ++n) {
      if (output_counts_[n] == 0) continue;
      simulation.solver_nodes()[n].solver->ReadOutputs(next);
      next += output_counts_[n];
    }
    if (options_.energy) {
      const double kinetic = simulation.KineticEnergy();
      const double potential = simulation.PotentialEnergy();
      *next++ = kinetic;
      *next++ = potential;
      *next++ = kinetic + potential;
    }
    {
      std::lock_guard lock(mutex_);
      ++queued_;
    }
    changed_.notify_all();
  }

  void End(const Simulation& /*simulation*/) override { Close(); }

  bool ok() const override { return ok_; }
  std::string error() const override { return changed_points_; }

 private:
  void Fail() { ok_ = false; }

  // The writer thread: writes the queued rows in order, flushing the file every flush_every_
  // rows (a run killed mid-way keeps every row flushed so far), until Close and none is left.
  void WriteQueuedRows() {
    // A thread-safe HDF5 keeps one error stack per thread: this one's must not print either.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return closing_ || written_ < queued_; });
        if (written_ == queued_) return;
      }
      if (ok_ && !Write(rows_[written_ % kQueuedRows])) ok_ = false;
      {
        std::lock_guard lock(mutex_);
        ++written_;
      }
      changed_.notify_all();
    }
  }

  bool Write(const QueuedRow& row) {
    const double* next = row.values.data();
    bool written = steps_->Append(&row.step) && times_->Append(next++);
    for (std::size_t k = 0; k < state_sizes_.size(); ++k) {
      written = written && states_[2 * k].Append(next);
      next += state_sizes_[k];
      written = written && states_[2 * k + 1].Append(next);
      next += state_sizes_[k];
    }
    for (GrowingDataset& scalar : scalars_) written = written && scalar.Append(next++);
    if (++unflushed_ < flush_every_) return written;
    unflushed_ = 0;
    return written && H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) >= 0;
  }

  // Waits for the queued rows to be written, stops the writer thread, closes the file.
  void Close() {
    if (thread_.joinable()) {
      {
        std::lock_guard lock(mutex_);
        closing_ = true;
      }
      changed_.notify_all();
      thread_.join();
    }
    scalars_.clear();
    states_.clear();
    steps_.reset();
    times_.reset();
    if (file_.valid() && H5Fclose(file_.Release()) < 0) ok_ = false;
  }

  std::string path_;
  Hdf5TrajectoryOptions options_;
  Handle file_;
  std::optional<GrowingDataset> steps_, times_;
  std::vector<GrowingDataset> states_;    // position, velocity of each object, in model order
  std::vector<GrowingDataset> scalars_;   // solver outputs, then energies
  std::vector<std::size_t> state_sizes_;  // doubles in an object's position (and velocity)
  std::vector<Index> points_;             // each object's points at Begin: the datasets' shape
  std::string changed_points_;            // why Record stopped when an object's points changed
  std::vector<std::size_t> output_counts_;
  std::atomic<bool> ok_ = true;
  std::size_t flush_every_ = 1;  // states written between flushes (kFlushBytes)
  std::size_t unflushed_ = 0;    // states written since the last flush (writer thread only)

  // The queue: rows_[k % kQueuedRows] holds the k-th recorded state from Record (which raises
  // queued_) until the writer thread has written it (and raised written_).
  std::array<QueuedRow, kQueuedRows> rows_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t queued_ = 0, written_ = 0;  // guarded by mutex_
  bool closing_ = false;                  // guarded by mutex_
  std::thread thread_;
};

}  // namespace

bool HasHdf5TrajectoryWriter() { return true; }

std::unique_ptr<TrajectoryWriter> MakeHdf5TrajectoryWriter(const std::string& path,
                                                           const Hdf5TrajectoryOptions& options) {
  return std::make_unique<Hdf5TrajectoryWriter>(path, options);
}

}  // namespace fluxion
