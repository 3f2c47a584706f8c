// Writes a simulation's trajectory as CSV, one row per recorded step, flushed row by row.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "fluxion/export.h"
#include "simulation/simulation.h"

namespace fluxion::internal {

/// The trajectory CSV format:
///   step,time,<id>/p0.x,<id>/p0.y,...,<id>/v0.x,...   (per object: positions, then velocities)
/// with optional trailing columns: solver outputs, then kinetic,potential,total. Numbers are
/// printed in the shortest form that parses back to the same double. Each row is written and
/// flushed as a whole, so a run that stops early leaves only complete rows.
class FLUXION_API CsvTrajectoryWriter {
 public:
  /// Writes to `stream` (not owned; stdout or an opened file).
  /// `with_solver_outputs` adds each solver's outputs as columns <node path>/<solver>/<output>.
  CsvTrajectoryWriter(std::FILE* stream, bool with_energy, bool with_solver_outputs = false);

  void WriteHeader(const Simulation& simulation);
  void WriteRow(const Simulation& simulation);
  /// False once a write failed (disk full, closed pipe).
  bool ok() const { return ok_; }

 private:
  std::FILE* stream_;
  bool with_energy_;
  bool with_solver_outputs_;
  std::vector<double> outputs_;             // scratch for one solver's outputs
  std::vector<std::size_t> output_counts_;  // outputs per solver node, fixed by WriteHeader
  bool ok_ = true;
  std::string line_;
};

}  // namespace fluxion::internal
