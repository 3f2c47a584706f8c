#include "output/csv_trajectory_writer.h"

#include "core/text_parsing.h"

namespace fluxion::internal {

namespace {
constexpr const char* kAxes[3] = {"x", "y", "z"};
}

CsvTrajectoryWriter::CsvTrajectoryWriter(std::FILE* stream, bool with_energy,
                                         bool with_solver_outputs)
    : stream_(stream), with_energy_(with_energy), with_solver_outputs_(with_solver_outputs) {}

void CsvTrajectoryWriter::WriteHeader(const Simulation& simulation) {
  line_ = "step,time";
  for (const MechanicalObjectData& object : simulation.objects()) {
    for (const char kind : {'p', 'v'})
      for (Index i = 0; i < object.num_points; ++i)
        for (int axis = 0; axis < object.dimension; ++axis)
          line_ += "," + object.id + "/" + kind + std::to_string(i) + "." + kAxes[axis];
  }
  if (with_solver_outputs_) {
    output_counts_.clear();
    for (const SolverNode& node : simulation.solver_nodes()) {
      const std::vector<std::string> names = node.solver->OutputNames();
      output_counts_.push_back(names.size());
      if (names.size() > outputs_.size()) outputs_.resize(names.size());
      for (const std::string& name : names)
        line_ += "," + node.node_path + "/" + node.solver_type + "/" + name;
    }
  }
  if (with_energy_) line_ += ",kinetic,potential,total";
  line_ += '\n';
  ok_ = ok_ && std::fwrite(line_.data(), 1, line_.size(), stream_) == line_.size() &&
        std::fflush(stream_) == 0;
}

void CsvTrajectoryWriter::WriteRow(const Simulation& simulation) {
  line_.clear();
  line_ += std::to_string(simulation.step_count());
  line_ += ',';
  AppendReal(line_, simulation.time());
  for (int k = 0; k < static_cast<int>(simulation.objects().size()); ++k) {
    for (const auto& values : {simulation.position(k), simulation.velocity(k)}) {
      for (Index i = 0; i < values.size(); ++i) {
        line_ += ',';
        AppendReal(line_, values[i]);
      }
    }
  }
  if (with_solver_outputs_) {
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
  if (with_energy_) {
    const double kinetic = simulation.KineticEnergy();
    const double potential = simulation.PotentialEnergy();
    for (const double value : {kinetic, potential, kinetic + potential}) {
      line_ += ',';
      AppendReal(line_, value);
    }
  }
  line_ += '\n';
  ok_ = ok_ && std::fwrite(line_.data(), 1, line_.size(), stream_) == line_.size() &&
        std::fflush(stream_) == 0;
}

}  // namespace fluxion::internal
