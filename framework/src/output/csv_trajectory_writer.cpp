// The CSV trajectory writer (fluxion/trajectory_writer.h): the first TrajectoryWriter.
#include <string>
#include <vector>

#include "fluxion/text.h"
#include "fluxion/trajectory_writer.h"
#include "output/trajectory_columns.h"

namespace fluxion {

TrajectoryWriter::~TrajectoryWriter() = default;
void TrajectoryWriter::End(const Simulation& /*simulation*/) {}
std::string TrajectoryWriter::error() const { return {}; }

namespace {

class CsvTrajectoryWriter final : public TrajectoryWriter {
 public:
  CsvTrajectoryWriter(std::FILE* stream, const CsvTrajectoryOptions& options)
      : stream_(stream), options_(options) {}

  void Begin(const Simulation& simulation) override {
    points_ = internal::ObjectPointCounts(simulation);
    line_ = "step,time";
    internal::ForEachTrajectoryColumn(simulation, options_.solver_outputs, options_.energy,
                                      [&](std::string_view column) {
                                        line_ += ',';
                                        line_ += column;
                                        WriteFull();
                                      });
    if (options_.solver_outputs) {
      output_counts_.clear();
      for (const SolverNode& node : simulation.solver_nodes()) {
        const std::size_t count = node.solver->OutputNames().size();
        output_counts_.push_back(count);
        if (count > outputs_.size()) outputs_.resize(count);
      }
    }
    line_ += '\n';
    Write();
  }

  void Record(const Simulation& simulation) override {
    if (!ok_) return;
    if (std::string why = internal::ChangedPointsError(simulation, points_, "a CSV trajectory");
        !why.empty()) {
      ok_ = false;
      error_ = std::move(why);
      return;
    }
    line_.clear();
    line_ += std::to_string(simulation.step_count());
    line_ += ',';
    AppendReal(line_, simulation.time());
    for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
      for (const auto& values : {simulation.position(k), simulation.velocity(k)}) {
        for (Index i = 0; i < values.size(); ++i) {
          line_ += ',';
          AppendReal(line_, values[i]);
          WriteFull();
        }
      }
    }
    if (options_.solver_outputs) {
      for (std::size_t n = 0; n < output_counts_.size(); ++n) {
        const SolverNode& node = simulation.solver_nodes()[n];
        const std::size_t count = output_counts_[n];
        if (count == 0) continue;
        node.solver->ReadOutputs(outputs_.data());
        for (std::size_t k = 0; k < count; ++k) {
          line_ += ',';
          AppendReal(line_, outputs_[k]);
        }
      }
    }
    if (options_.energy) {
      const double kinetic = simulation.KineticEnergy();
      const double potential = simulation.PotentialEnergy();
      for (const double value : {kinetic, potential, kinetic + potential}) {
        line_ += ',';
        AppendReal(line_, value);
      }
    }
    line_ += '\n';
    Write();
  }

  bool ok() const override { return ok_; }
  std::string error() const override { return error_; }

 private:
  // Each row is flushed when it is complete: a run that stops early leaves complete rows.
  void Write() {
    ok_ = ok_ && std::fwrite(line_.data(), 1, line_.size(), stream_) == line_.size() &&
          std::fflush(stream_) == 0;
    line_.clear();
  }
  // A row of a large scene is written in pieces of kPiece bytes, not held whole (the 256² cloth's
  // row is 23 MB of text).
  void WriteFull() {
    if (line_.size() < kPiece) return;
    ok_ = ok_ && std::fwrite(line_.data(), 1, line_.size(), stream_) == line_.size();
    line_.clear();
  }
  static constexpr std::size_t kPiece = std::size_t{1} << 16;

  std::FILE* stream_;
  CsvTrajectoryOptions options_;
  std::vector<double> outputs_;             // scratch for one solver's outputs
  std::vector<std::size_t> output_counts_;  // outputs per solver node, fixed by Begin
  std::vector<Index> points_;               // each object's points at Begin: the columns
  bool ok_ = true;
  std::string error_;  // empty for a failed write, which says nothing more
  std::string line_;
};

}  // namespace

std::unique_ptr<TrajectoryWriter> MakeCsvTrajectoryWriter(std::FILE* stream,
                                                          const CsvTrajectoryOptions& options) {
  return std::make_unique<CsvTrajectoryWriter>(stream, options);
}

}  // namespace fluxion
