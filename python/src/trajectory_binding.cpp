#include "trajectory_binding.h"

#include <cstdio>
#include <memory>
#include <string>

#include <unistd.h>

#include "fluxion/errors.h"
#include "fluxion/simulation.h"
#include "fluxion/trajectory_writer.h"

namespace fluxion::python {

namespace py = pybind11;

namespace {

// A CSV trajectory on its own duplicate of a file descriptor (closed with it), written by the
// writer scene-runner uses.
class CsvTrajectory {
 public:
  CsvTrajectory(int fd, bool energy, bool solver_outputs) {
    const int own = ::dup(fd);
    stream_ = own < 0 ? nullptr : ::fdopen(own, "w");
    if (stream_ == nullptr) {
      if (own >= 0) ::close(own);
      throw UsageError("CsvTrajectory: file descriptor " + std::to_string(fd) +
                       " cannot be written");
    }
    writer_ = MakeCsvTrajectoryWriter(
        stream_, CsvTrajectoryOptions{.energy = energy, .solver_outputs = solver_outputs});
  }
  CsvTrajectory(const CsvTrajectory&) = delete;
  CsvTrajectory& operator=(const CsvTrajectory&) = delete;
  ~CsvTrajectory() { Close(); }

  void Begin(const Simulation& simulation) { writer_->Begin(simulation); }
  void Record(const Simulation& simulation) { writer_->Record(simulation); }
  bool ok() const { return writer_ && writer_->ok(); }
  // Ends the trajectory and closes the stream; true when every row was written.
  bool Close() {
    if (stream_ == nullptr) return ok();
    const bool written = ok() && std::fclose(stream_) == 0;
    if (!written && stream_ != nullptr) std::fclose(stream_);
    stream_ = nullptr;
    return written;
  }

 private:
  std::FILE* stream_ = nullptr;
  std::unique_ptr<TrajectoryWriter> writer_;
};

// An HDF5 trajectory written by the writer scene-runner -o FILE.h5 uses, into `path` (created
// at begin, by the writer's own thread while the run steps).
class Hdf5Trajectory {
 public:
  Hdf5Trajectory(const std::string& path, bool energy, bool solver_outputs)
      : writer_(MakeHdf5TrajectoryWriter(
            path, Hdf5TrajectoryOptions{.energy = energy, .solver_outputs = solver_outputs})) {}

  void Begin(const Simulation& simulation) { writer_->Begin(simulation); }
  void Record(const Simulation& simulation) { writer_->Record(simulation); }
  // Waits for every recorded state to be written and closes the file; true when all was written.
  bool End(const Simulation& simulation) {
    if (!ended_) {
      const py::gil_scoped_release release;  // the writer thread may still be compressing
      writer_->End(simulation);
      ended_ = true;
    }
    return writer_->ok();
  }
  bool ok() const { return writer_->ok(); }
  std::string error() const { return writer_->error(); }

 private:
  std::unique_ptr<TrajectoryWriter> writer_;
  bool ended_ = false;
};

}  // namespace

void BindTrajectory(py::module_& module) {
  py::class_<CsvTrajectory>(module, "CsvTrajectory",
                            "scene-runner's trajectory CSV (fluxion/trajectory_writer.h) on a "
                            "duplicate of file descriptor `fd`: begin(sim) writes the header, "
                            "record(sim) a row, close() ends it.")
      .def(py::init<int, bool, bool>(), py::arg("fd"), py::arg("energy") = false,
           py::arg("solver_outputs") = false)
      .def("begin", &CsvTrajectory::Begin, py::arg("simulation"))
      .def("record", &CsvTrajectory::Record, py::arg("simulation"))
      .def_property_readonly("ok", &CsvTrajectory::ok)
      .def("close", &CsvTrajectory::Close);
  py::class_<Hdf5Trajectory>(module, "Hdf5Trajectory",
                             "scene-runner's HDF5 trajectory (fluxion/trajectory_writer.h) into "
                             "`path`: begin(sim) creates the file, record(sim) adds a state, "
                             "end(sim) finishes and closes it (True when everything was written). "
                             "The same run writes the same bytes as scene-runner -o FILE.h5.")
      .def(py::init<const std::string&, bool, bool>(), py::arg("path"), py::arg("energy") = false,
           py::arg("solver_outputs") = false)
      .def("begin", &Hdf5Trajectory::Begin, py::arg("simulation"))
      .def("record", &Hdf5Trajectory::Record, py::arg("simulation"))
      .def("end", &Hdf5Trajectory::End, py::arg("simulation"))
      .def_property_readonly("ok", &Hdf5Trajectory::ok)
      .def_property_readonly("error", &Hdf5Trajectory::error);
  module.def(
      "write_xdmf",
      [](const std::string& h5_path, const std::string& h5_name, const std::string& xdmf_path) {
        std::string why;
        if (!WriteXdmfForHdf5Trajectory(h5_path, h5_name, xdmf_path, why))
          throw UsageError(xdmf_path + ": " + why);
      },
      py::arg("h5_path"), py::arg("h5_name"), py::arg("xdmf_path"),
      "Writes the XDMF file ParaView opens for an HDF5 trajectory, naming it `h5_name` "
      "(relative to the XDMF's folder), as scene-runner -o FILE.h5 writes FILE.xdmf beside it.");
  module.def("has_hdf5", &HasHdf5TrajectoryWriter,
             "True when this Fluxion was built with HDF5 (Hdf5Trajectory works).");
}

}  // namespace fluxion::python
