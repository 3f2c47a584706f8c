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
}

}  // namespace fluxion::python
