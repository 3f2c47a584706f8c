// Running one scene: load, step, write the trajectory; errors mapped to exit statuses.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exit_status.h"
#include "fluxion/host.h"
#include "fluxion/simulation.h"
#include "progress.h"
#include "python_process.h"
#include "trajectory_alignment.h"

namespace fluxion::runner {

struct RunOptions {
  std::string scene;
  std::optional<long> steps;           ///< number of steps (default 100 unless end_time)
  std::optional<double> end_time;      ///< run until t ≥ end_time
  std::optional<double> dt;            ///< overrides the scene's dt
  std::string output;                  ///< CSV file; empty: stdout
  std::string output_dir = ".";        ///< where the scene may write its own files
  std::vector<std::string> data_path;  ///< further folders the scene may read meshes from
  std::uint64_t memory_limit = 0;      ///< --memory-limit [bytes], 0 for none
  /// --python-timeout: how long a Python scene may take to build its graph (0: no limit)
  std::chrono::milliseconds python_timeout = kDefaultPythonSceneTimeout;
  bool overwrite = false;  ///< the scene may replace existing files there
  /// --every K: record every K steps (and always the last); without it the trajectory records
  /// every step and --vtk about 100 states (AboutHundredRecords)
  std::optional<long> every;
  bool energy = false;                 ///< add kinetic,potential,total columns
  bool solver_outputs = false;         ///< add each solver's outputs (e.g. hamiltonian) as columns
  std::optional<SolverChoice> solver;  ///< replaces every ODE solver of the scene (none: keep)
  std::string compare;                 ///< reference CSV to compare the run with (empty: none)
  /// --align: pair the rows by step number (the same run) or by time (another dt or solver).
  regress::Alignment align = regress::Alignment::kStep;
  double rtol = 1e-9;  ///< --compare: a value passes if |a − b| ≤ atol + rtol·|b|
  double atol = 1e-12;
  ProgressStyle progress = ProgressStyle::kOff;  ///< the progress report on stderr
  std::string vtk;            ///< --vtk: folder of the ParaView files (empty: none)
  std::string topologies;     ///< --topologies: each node's topology after every step (empty: none)
  bool vtk_ascii = false;     ///< --vtk-ascii: their arrays as text instead of compressed binary
  std::string render;         ///< --render: PNG of the final state (empty: none)
  long render_every = 0;      ///< --render-every K DIR: a PNG every K steps (0: none)
  std::string render_dir;     ///<   into this folder, frame_<step>.png
  std::string animate;        ///< --animate: a looping GIF of the run (empty: none)
  long animate_every = 0;     ///< --animate-every K (0: about 100 frames over the run)
  std::string view = "auto";  ///< --view iso|x|y|z (auto: iso in 3-D, z otherwise)
  int render_width = 800;     ///< --render-size WxH
  int render_height = 600;
  bool stability_check = true;  ///< warn before stepping when dt is too large (explicit solvers)
  /// The trajectory rows go to stdout even when it is a terminal (--output -); otherwise a
  /// terminal gets a short summary of the run instead of the rows.
  bool rows_to_terminal = false;
  bool no_rows = false;  ///< --no-rows: the summary, wherever stdout goes
};

inline constexpr long kDefaultSteps = 100;

/// The K of "every K steps" that records about 100 states of a run of `steps` (at most 101 with
/// the first, and the last when K does not divide `steps`): the default of --vtk and --animate,
/// whose files and frames every step would swamp (3,002 files for 3 s of a cloth at dt 0.001).
inline long AboutHundredRecords(long steps) {
  return std::max(1L, steps / 100 + (steps % 100 != 0));
}

/// Compares `candidate` (trajectory CSV text) with `reference` (the text of options.compare),
/// prints the report on stdout and returns 0 (match), 1 (mismatch) or 2 (malformed reference).
int CompareWithReference(const RunOptions& options, const std::string& reference,
                         const std::string& candidate);

/// Loads and runs `options.scene` with the components of `host`. Prints each problem as
/// "error: ..." on stderr and returns the exit status.
int RunScene(const RunOptions& options, const Host& host);

}  // namespace fluxion::runner
