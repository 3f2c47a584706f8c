#include "output/csv_trajectory_writer.h"

#include "core/text_parsing.h"

namespace fluxion::internal {

namespace {
constexpr const char* kAxes[3] = {"x", "y", "z"};
}

CsvTrajectoryWriter::CsvTrajectoryWriter(std::FILE* stream, bool with_energy)
    : stream_(stream), with_energy_(with_energy) {}

void CsvTrajectoryWriter::WriteHeader(const Simulation& simulation) {
  line_ = "step,time";
  for (const MechanicalObjectData& object : simulation.objects()) {
    for (const char kind : {'p', 'v'})
      for (Index i = 0; i < object.num_points; ++i)
        for (int axis = 0; axis < object.dimension; ++axis)
          line_ += "," + object.id + "/" + kind + std::to_string(i) + "." + kAxes[axis];
  }
  if (with_energy_) line_ += ",kinetic,potential,total";
  line_ += '\n';
  ok_ = ok_ && std::fwrite(line_.data(), 1, line_.size(), stream_) == line_.size() && std::fflush(stream_) == 0;
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
  if (with_energy_) {
    const double kinetic = simulation.KineticEnergy();
    const double potential = simulation.PotentialEnergy();
    for (const double value : {kinetic, potential, kinetic + potential}) {
      line_ += ',';
      AppendReal(line_, value);
    }
  }
  line_ += '\n';
  ok_ = ok_ && std::fwrite(line_.data(), 1, line_.size(), stream_) == line_.size() && std::fflush(stream_) == 0;
}

}  // namespace fluxion::internal
