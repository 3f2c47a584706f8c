// Trajectory writers: how a run's states leave the process. The host (scene-runner, a binding,
// a user's program) chooses the writer; the writer reads the model and the current state.
#pragma once

#include <cstdio>
#include <memory>

#include "fluxion/export.h"
#include "fluxion/simulation.h"

namespace fluxion {

/// Writes a trajectory: `Begin` once (the model is known: columns, topology), `Record` for every
/// recorded state (step 0 included), `End` once when the run stops, normally or not.
/// Writers never throw for I/O trouble: `ok()` turns false and stays so.
class FLUXION_API TrajectoryWriter {
 public:
  virtual ~TrajectoryWriter();
  virtual void Begin(const Simulation& simulation) = 0;
  virtual void Record(const Simulation& simulation) = 0;
  virtual void End(const Simulation& simulation);
  /// False once a write failed (disk full, closed pipe).
  virtual bool ok() const = 0;
};

/// Options of the CSV trajectory.
struct CsvTrajectoryOptions {
  bool energy = false;          ///< add kinetic,potential,total columns
  bool solver_outputs = false;  ///< add each solver's outputs as <node path>/<solver>/<output>
};

/// The trajectory CSV format:
///   step,time,<id>/p0.x,<id>/p0.y,...,<id>/v0.x,...   (per object: positions, then velocities)
/// with optional trailing columns: solver outputs, then kinetic,potential,total. Numbers are
/// printed in the shortest form that parses back to the same double. Each row is written and
/// flushed as a whole, so a run that stops early leaves only complete rows. `stream` is not owned.
FLUXION_API std::unique_ptr<TrajectoryWriter> MakeCsvTrajectoryWriter(
    std::FILE* stream, const CsvTrajectoryOptions& options = {});

}  // namespace fluxion
