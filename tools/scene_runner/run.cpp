#include "run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <tuple>

#include <unistd.h>

#include "animation.h"
#include "command_line.h"
#include "contact_tally.h"
#include "controller_run.h"
#include "failure_advice.h"
#include "failure_report.h"
#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/output_files.h"
#include "fluxion/text.h"
#include "fluxion/trajectory_writer.h"
#include "output_file.h"
#include "output_folder.h"
#include "python_process.h"
#include "python_scene.h"
#include "render.h"
#include "run_outputs.h"
#include "stability_check.h"
#include "topology_record.h"

namespace fluxion::runner {

namespace {

using tools::PrintError;

// "SCENE:LINE" for a line of the scene (of a Python scene: the model's lines are already the
// Python calls that made the elements, LoadOptions::python_origins); "SCENE" for line 0.
std::string SceneWhere(const std::string& scene, int line) {
  if (line <= 0) return scene;
  return scene + ":" + std::to_string(line);
}

// The scene line of the ODE solver of the solver node at `node_path` (0 if unknown).
int SolverLine(const Simulation& simulation, const std::string& node_path) {
  for (const ComponentModel& component : simulation.model().components)
    if (component.kind == ComponentKind::kOdeSolver && component.node_path == node_path &&
        component.line > 0)
      return component.line;
  return 0;
}

// "SCENE:LINE: " of the ODE solver of the solver node at `node_path` ("SCENE: " if unknown).
std::string SolverWhere(const std::string& scene, const Simulation& simulation,
                        const std::string& node_path) {
  return SceneWhere(scene, SolverLine(simulation, node_path)) + ": ";
}

// What to change after `error`: the failing node's advice (failure_advice.h), measured on the
// stiffest mode the stability check found at the start when it checked that node.
std::string FailureAdvice(const Host& host, const Simulation& simulation,
                          const std::vector<StabilityVerdict>& verdicts,
                          const NumericalError& error) {
  for (const SolverNode& node : simulation.solver_nodes()) {
    if (SolverLine(simulation, node.node_path) != error.line()) continue;
    std::optional<FailingMode> mode;
    for (const StabilityVerdict& verdict : verdicts)
      if (verdict.node_path == node.node_path)
        mode = FailingMode{verdict.omega_max, verdict.zeta, verdict.implicit_zeta};
    return AdviseOnFailure(host, simulation, node, mode);
  }
  return {};
}

// The buffer of an open_memstream stream, freed when it goes out of scope.
struct MemoryBuffer {
  char* data = nullptr;
  std::size_t size = 0;
  MemoryBuffer() = default;
  MemoryBuffer(const MemoryBuffer&) = delete;
  MemoryBuffer& operator=(const MemoryBuffer&) = delete;
  ~MemoryBuffer() { std::free(data); }
};

// RUN.xdmf (claimed before the run) beside a finished RUN.h5, naming it by its file name: what
// ParaView opens.
bool WriteXdmf(const std::string& h5_path, const OutputClaim& xdmf, std::string& why) {
  if (WriteXdmfForHdf5Trajectory(h5_path, std::filesystem::path(h5_path).filename().string(), xdmf,
                                 why))
    return true;
  why = xdmf.name + ": the XDMF description of " + h5_path + " could not be written (" + why + ")";
  return false;
}

// The inputs of the run are read and checked before anything is written: the --compare reference
// is read whole (a missing one fails before the simulation runs). That no output is an input is
// the output policy's to check (run_outputs.h). Returns an exit status, kExitSuccess when all is
// well.
int CheckInputs(const RunOptions& options, std::string& reference) {
  if (!options.compare.empty()) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(options.compare, error)) {
      PrintError(options.compare +
                 ": cannot read the reference trajectory (expected a trajectory file: CSV, or HDF5 "
                 "ending .h5)");
      return kExitInvalidInput;
    }
    if (IsHdf5Output(options.compare)) {
      // An HDF5 reference is compared as the CSV of the same run (the same numbers, bit for bit).
      std::string why;
      std::optional<std::string> text =
          Hdf5TrajectoryToCsv(options.compare, why, options.memory_limit);
      if (!text) {
        PrintError(options.compare + ": cannot read the reference trajectory: " + why +
                   " (expected a Fluxion HDF5 trajectory)");
        return kExitInvalidInput;
      }
      reference = std::move(*text);
    } else {
      std::ifstream stream(options.compare, std::ios::binary);
      if (!stream) {
        PrintError(options.compare +
                   ": cannot read the reference trajectory (expected a trajectory file: CSV, or "
                   "HDF5 ending .h5)");
        return kExitInvalidInput;
      }
      std::ostringstream text;
      text << stream.rdbuf();
      reference = text.str();
    }
  }
  if (options.output.empty()) return kExitSuccess;
  if (IsHdf5Output(options.output) && !HasHdf5TrajectoryWriter()) {
    PrintError(options.output +
               ": this scene-runner was built without HDF5 (expected a .csv output, or a build "
               "with libhdf5-dev installed)");
    return kExitInvalidInput;
  }
  std::error_code error;
  if (std::filesystem::is_directory(options.output, error)) {
    PrintError(options.output + ": is a directory (expected an output file name)");
    return kExitInvalidInput;
  }
  return kExitSuccess;
}

// The state at the end of a run, for a terminal: what ran, where each object ended, and how to
// get the rows (never printed on a terminal unless asked for: they would scroll by unread).
std::string RunSummary(const RunOptions& options, const Simulation& simulation, long rows,
                       const RunOutputClaims& claims) {
  std::string solvers;
  for (const SolverNode& node : simulation.solver_nodes())
    if (solvers.find(node.solver_type) == std::string::npos)
      solvers += (solvers.empty() ? "" : ", ") + node.solver_type;
  std::string text = options.scene + ": " + std::to_string(simulation.step_count()) +
                     " steps of dt = " + FormatReal(simulation.dt()) +
                     " s to t = " + FormatReal(simulation.time()) + " s" +
                     (solvers.empty() ? std::string() : " (" + solvers + ")") + "\n";
  constexpr std::size_t kShownObjects = 8;
  const std::vector<ObjectModel>& objects = simulation.objects();
  for (std::size_t k = 0; k < objects.size() && k < kShownObjects; ++k) {
    const ObjectModel& object = objects[k];
    const auto x = simulation.position(static_cast<int>(k));
    // One point: where it is; more: their centroid.
    std::string where = "(";
    for (int axis = 0; axis < object.dimension; ++axis) {
      double sum = 0;
      for (Index point = 0; point < object.num_points; ++point)
        sum += x[point * object.dimension + axis];
      where += (axis == 0 ? "" : ", ") +
               FormatReal(object.num_points > 0 ? sum / static_cast<double>(object.num_points) : 0);
    }
    where += ")";
    text += "  " + object.id + ": " + std::to_string(object.num_points) +
            (object.num_points == 1 ? " point at " : " points, centroid at ") + where +
            (object.system < 0 ? " (static)" : "") + "\n";
  }
  if (objects.size() > kShownObjects)
    text += "  and " + std::to_string(objects.size() - kShownObjects) + " more objects\n";
  if (options.output.empty())
    text += std::to_string(rows) +
            " trajectory rows not shown on the terminal: write them to a file with --output "
            "FILE.csv, pipe them (| less), or show them here with --output -\n";
  return text + WrittenFilesText(claims);
}

// The writer of this run's trajectory rows: HDF5 into the output's NAME.partial for a .h5 output,
// else CSV into `stream`.
std::unique_ptr<TrajectoryWriter> MakeWriter(const RunOptions& options, std::FILE* stream,
                                             const std::string& partial_path) {
  if (!options.output.empty() && IsHdf5Output(options.output))
    return MakeHdf5TrajectoryWriter(
        partial_path, {.energy = options.energy, .solver_outputs = options.solver_outputs});
  return MakeCsvTrajectoryWriter(
      stream, {.energy = options.energy, .solver_outputs = options.solver_outputs});
}

// The rows of a run shown as a summary on a terminal: counted, written nowhere (so that a scene
// whose points change, which a CSV trajectory refuses, still runs with --vtk).
class RowCounter final : public TrajectoryWriter {
 public:
  void Begin(const Simulation& /*simulation*/) override {}
  void Record(const Simulation& /*simulation*/) override {}
  bool ok() const override { return true; }
};

// The base of the --vtk files' names: the scene's file name without its extension.
std::string VtkName(const std::string& scene) {
  const std::string stem = std::filesystem::path(scene).stem().string();
  return scene == "-" || stem.empty() ? "stdin" : stem;
}

}  // namespace

int RunScene(const RunOptions& options, const Host& host) {
  std::string reference;
  if (const int status = CheckInputs(options, reference); status != kExitSuccess) return status;
  // Every file of the run goes through the output policy: the ones the command line names are
  // claimed now, so that none the scene names can be one of them.
  RunOutputClaims claims;
  if (std::string why; !ClaimRunOutputs(options, claims, why)) {
    PrintError(why);
    return kExitInvalidInput;
  }

  std::optional<Simulation> simulation;
  std::optional<PythonScene> python_scene;  // a .py scene: its XML, to report its Python lines
  try {
    // The model's topologies and initial vectors are read after the load only by the ParaView
    // files, the HDF5 file's mesh and the pictures; CSV rows need the state alone, so without
    // those outputs the load releases them (16 MB of the 256² cloth's peak).
    const bool reads_model = !options.vtk.empty() || !options.topologies.empty() ||
                             IsHdf5Output(options.output) || !options.render.empty() ||
                             options.render_every > 0 || !options.animate.empty();
    const LoadOptions load_options{.dt = options.dt,
                                   .solver = options.solver,
                                   .data_path = options.data_path,
                                   .memory_limit = options.memory_limit,
                                   .keep_initial_data = reads_model};
    if (IsPythonScene(options.scene)) {
      python_scene.emplace(RunPythonScene(
          options.scene, PythonSceneLimits{.max_scene_bytes = LoadOptions{}.max_scene_bytes,
                                           .timeout = options.python_timeout}));
      if (python_scene->has_controllers()) return RunSceneWithControllers(options, *python_scene);
      simulation.emplace(python_scene->Load(host, load_options));
    } else {
      simulation.emplace(host.LoadFile(options.scene, load_options));
    }
  } catch (...) {
    return tools::ReportCurrentException(options.scene);
  }

  long steps = kDefaultSteps;
  if (options.steps) {
    steps = *options.steps;
  } else if (options.end_time) {
    const std::optional<long> until = simulation->StepsUntil(*options.end_time);
    if (!until) {
      PrintError("--end-time " + FormatReal(*options.end_time) + " with dt = " +
                 FormatReal(simulation->dt()) + " needs too many steps (expected at most 2^62)");
      return kExitInvalidInput;
    }
    steps = *until;
  }

  // Warn before the first step when dt is beyond what the solver can integrate on the scene's
  // stiffest mode, with a dt that works.
  std::vector<StabilityVerdict> verdicts;
  if (options.stability_check) verdicts = CheckStability(host, *simulation, steps);
  for (const StabilityVerdict& verdict : verdicts) {
    if (!verdict.unstable) continue;
    LogWarn(SolverWhere(options.scene, *simulation, verdict.node_path) + verdict.solver +
            " in node '" + verdict.node_path + "': dt = " + FormatReal(verdict.dt) +
            " is too large for this scene: " + verdict.Comparison() + "; the run will diverge" +
            (!verdict.explicit_method && verdict.explicit_damping_fraction > 0.0
                 ? " (the springs' dashpots are explicit in " + verdict.solver +
                       ", as in SOFA: exactDampingJacobian=\"1\" makes them implicit)"
                 : std::string()) +
            (verdict.advised_dt > 0.0 ? ": use dt ≤ " + FormatReal(verdict.advised_dt) +
                                            " (e.g. --dt " + FormatReal(verdict.advised_dt) + ")"
                                      : std::string()));
  }

  // The folders of numbered files (created if missing) are checked before any output is opened:
  // both below the output folder, as the files a scene names.
  std::string vtk_folder, render_folder;
  for (const auto& [option, folder, relative] :
       {std::tuple{"--vtk ", &options.vtk, &vtk_folder},
        std::tuple{"--render-every ", &options.render_dir, &render_folder}}) {
    std::string why;
    if (!folder->empty() && !PrepareOutputFolder(*folder, options.output_dir, *relative, why)) {
      PrintError(option + *folder + ": " + why);
      return kExitInvalidInput;
    }
  }

  // The output file is opened only once the scene is valid: a bad scene leaves no file behind.
  // With --compare the trajectory is also written to memory, as CSV, and compared from there:
  // never read back from the output, which may be a device (-o /dev/null), a pipe or HDF5. With
  // no --output, memory is its only destination and only the report is printed.
  MemoryBuffer memory;  // declared before the streams: freed after the one writing into it closes
  std::unique_ptr<std::FILE, FileCloser> candidate;  // --compare with --output: the memory copy
  std::unique_ptr<std::FILE, FileCloser> file;
  TrajectoryFile output;
  std::FILE* stream = stdout;
  // Rows for a terminal: a summary instead, unless asked for (--output -).
  const bool summary =
      options.no_rows || (options.output.empty() && options.compare.empty() &&
                          !options.rows_to_terminal && ::isatty(::fileno(stdout)) == 1);
  long rows = 0;
  if (summary) {
    file.reset(std::fopen("/dev/null", "w"));
    if (!file) {
      PrintError("cannot open /dev/null");
      return kExitInvalidInput;
    }
    stream = file.get();
  } else if (options.output.empty() && !options.compare.empty()) {
    file.reset(open_memstream(&memory.data, &memory.size));
    if (!file) {
      PrintError("cannot allocate the in-memory trajectory for --compare");
      return kExitInvalidInput;
    }
    stream = file.get();
  } else if (!options.output.empty()) {
    std::string why;
    if (!output.Open(options.output, claims.partial ? &*claims.partial : nullptr, why)) {
      PrintError(why);
      return kExitInvalidInput;
    }
    stream = output.stream();
    if (!options.compare.empty()) {
      candidate.reset(open_memstream(&memory.data, &memory.size));
      if (!candidate) {
        PrintError("cannot allocate the in-memory trajectory for --compare");
        output.Keep();
        return kExitInvalidInput;
      }
    }
  }
  // The trajectory's writers: the rows, and the ParaView files with --vtk (below the output
  // folder). Each records the same states.
  struct NamedWriter {
    std::unique_ptr<TrajectoryWriter> writer;
    std::string name;  // for messages: the output file, stdout or --vtk DIR
    long every;        // records every `every` steps, and the last
  };
  std::vector<NamedWriter> writers;
  writers.push_back({summary ? std::make_unique<RowCounter>()
                             : MakeWriter(options, stream, output.partial_path()),
                     options.output.empty() ? std::string("stdout") : options.output,
                     options.every.value_or(1)});
  if (candidate) {
    writers.push_back(
        {MakeCsvTrajectoryWriter(
             candidate.get(), {.energy = options.energy, .solver_outputs = options.solver_outputs}),
         "--compare (the run's trajectory in memory)", 1});
  }
  if (!options.vtk.empty()) {
    writers.push_back({MakeVtkTrajectoryWriter({.folder = vtk_folder,
                                                .name = VtkName(options.scene),
                                                .compress = !options.vtk_ascii}),
                       "--vtk " + options.vtk, options.every.value_or(AboutHundredRecords(steps))});
  }
  OutputFile topology_file;
  if (claims.topologies) {
    std::string why;
    topology_file = OpenClaimedOutputFile(*claims.topologies, &why);
    if (!topology_file) {
      PrintError(EscapeControl(options.topologies) + ": --topologies: " + why);
      if (!options.output.empty()) output.Keep();
      return kExitInvalidInput;
    }
    writers.push_back(
        {MakeTopologyRecordWriter(topology_file.get()), "--topologies " + options.topologies, 1});
  }
  // A writer that fails reports why (CSV: only that the write failed).
  const auto failed_writer = [&]() -> const NamedWriter* {
    for (const NamedWriter& named : writers)
      if (!named.writer->ok()) return &named;
    return nullptr;
  };
  const auto report_failure = [&](const NamedWriter& named) {
    const std::string why = named.writer->error();
    PrintError(named.name + ": " + (why.empty() ? std::string("write failed") : why));
  };
  for (NamedWriter& named : writers) {
    named.writer->Begin(*simulation);
    named.writer->Record(*simulation);
  }
  ++rows;
  if (const NamedWriter* failed = failed_writer(); failed != nullptr) {
    report_failure(*failed);
    if (!options.output.empty()) output.Keep();
    return kExitInvalidInput;
  }

  // Pictures: frames every K steps with one camera fitted to the start (a margin for the motion),
  // and the final state fitted to itself.
  const View view = options.view == "auto" ? DefaultView(*simulation)
                                           : ParseView(options.view).value_or(View::kIso);
  const std::string title = std::filesystem::path(options.scene).filename().string();
  std::optional<Camera> frame_camera;
  const auto render_frame = [&]() {
    std::string why;
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06ld.png", simulation->step_count());
    const std::optional<OutputClaim> claim =
        ClaimOutputFile((std::filesystem::path(render_folder) / name).string(),
                        OutputOrigin::kScene, "--render-every", &why);
    if (claim && RenderPng(*simulation, *frame_camera, title, *claim, why)) return true;
    PrintError("--render-every: " + why);
    return false;
  };
  if (options.render_every > 0) {
    frame_camera = FitCamera(*simulation, view, options.render_width, options.render_height, 0.25);
    if (!render_frame()) {
      if (!options.output.empty()) output.Keep();
      return kExitInvalidInput;
    }
  }

  // The animation: frames every K steps (about 100 over the run by default) and always the
  // last state, drawn at the end with one camera and one colour scale for the whole run.
  GifAnimation animation;
  const long animate_every =
      options.animate_every > 0 ? options.animate_every : AboutHundredRecords(steps);
  if (!options.animate.empty()) {
    std::string why;
    if (!animation.Open(*claims.animate, options.render_width, options.render_height, 4, why)) {
      PrintError("--animate: " + why);
      if (!options.output.empty()) output.Keep();
      return kExitInvalidInput;
    }
    animation.Add(*simulation);
  }

  // Step and record; a failure stops the run, and the writers are ended however the run stops.
  ProgressReporter progress(options.progress, steps, stderr);
  ContactTally contacts;  // each step's contacts, summarised at info level
  const auto stepping_started = std::chrono::steady_clock::now();
  int status = kExitSuccess;
  for (long step = 1; step <= steps; ++step) {
    try {
      simulation->Step();
    } catch (const SceneError& error) {
      // An observer of the scene failed (a file it may not write): the run stops, the rows and
      // files written so far are kept.
      progress.Clear();
      for (const SceneDiagnostic& diagnostic : error.diagnostics()) PrintError(diagnostic.Format());
      status = kExitInvalidInput;
      break;
    } catch (const NumericalError& error) {
      progress.Clear();
      // One line: the failure, and where the rows before it are (NAME.partial, never NAME).
      const std::string where = SceneWhere(options.scene, error.line());
      PrintError(where + ": numerical failure at " + error.what() +
                 FailureAdvice(host, *simulation, verdicts, error) +
                 (options.output.empty()
                      ? std::string()
                      : "; the rows written so far are in " + output.partial_path()));
      status = kExitNumericalFailure;  // the rows written so far are complete and flushed
      break;
    }
    contacts.AfterStep(*simulation);
    bool recorded = false;  // each writer on its own schedule (the rows: writers.front())
    for (NamedWriter& named : writers) {
      if (step % named.every != 0 && step != steps) continue;
      named.writer->Record(*simulation);
      recorded = true;
      rows += &named == &writers.front() ? 1 : 0;
    }
    if (recorded) {
      if (const NamedWriter* failed = failed_writer(); failed != nullptr) {
        progress.Clear();
        report_failure(*failed);
        status = kExitInvalidInput;
        break;
      }
    }
    if (!options.animate.empty() && (step % animate_every == 0 || step == steps))
      animation.Add(*simulation);
    if (options.render_every > 0 && step % options.render_every == 0 && !render_frame()) {
      progress.Clear();
      status = kExitInvalidInput;
      break;
    }
    progress.AfterStep(step, simulation->time());
  }
  if (!options.animate.empty()) {
    std::string why;
    if (!animation.Close(*simulation, view, title, why)) {
      PrintError("--animate: " + why);
      if (status == kExitSuccess) status = kExitInvalidInput;
    }
  }
  // The final picture shows the last good state, also of a run that failed.
  if (!options.render.empty()) {
    std::string why;
    const Camera camera = FitCamera(*simulation, view, options.render_width, options.render_height);
    if (!RenderPng(*simulation, camera, title, *claims.render, why)) {
      PrintError("--render: " + why);
      if (status == kExitSuccess) status = kExitInvalidInput;
    }
  }
  if (status == kExitSuccess) progress.Finish(simulation->step_count(), simulation->time());
  if (status == kExitSuccess) {
    // The scene's observers write their last files (exportAtEnd) and close them.
    try {
      simulation->Finish();
    } catch (const SceneError& error) {
      for (const SceneDiagnostic& diagnostic : error.diagnostics()) PrintError(diagnostic.Format());
      status = kExitInvalidInput;
    }
  }
  for (NamedWriter& named : writers) named.writer->End(*simulation);
  // A writer that fails only when it closes its file (HDF5 writes its last data then).
  if (status == kExitSuccess) {
    if (const NamedWriter* failed = failed_writer()) {
      report_failure(*failed);
      status = kExitInvalidInput;
    }
  }
  if (!options.output.empty()) {
    // A finished run's file takes its name; a failed one stays NAME.partial with its rows.
    std::string why;
    if (status != kExitSuccess) {
      output.Keep();
    } else if (!output.Commit(why)) {
      PrintError(why);
      return kExitInvalidInput;
    } else if (claims.xdmf && !WriteXdmf(options.output, *claims.xdmf, why)) {
      PrintError(why);
      return kExitInvalidInput;
    }
  }
  // The run's speed, at --log-level info: wall time of the stepping loop (writers and observers
  // included) and steps per second.
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stepping_started).count();
  LogInfo(options.scene + ": " + std::to_string(simulation->step_count()) + " steps in " +
          FormatReal(std::round(wall * 1e3) / 1e3) + " s of wall time (" +
          FormatReal(std::round(simulation->step_count() / std::max(wall, 1e-9))) + " steps/s)");
  contacts.Log(options.scene);
  // The summary, on a terminal that did not get the rows (they went to --output, or nowhere).
  if ((summary ||
       (claims.trajectory && options.compare.empty() && ::isatty(::fileno(stdout)) == 1)) &&
      status == kExitSuccess)
    std::fputs(RunSummary(options, *simulation, rows, claims).c_str(), stdout);
  if (status != kExitSuccess || options.compare.empty()) return status;

  // --compare: the whole trajectory, as written to memory, against the reference.
  if (options.output.empty())
    file.reset();  // closing a memory stream finalises memory.data and memory.size
  else
    candidate.reset();
  return CompareWithReference(options, reference, std::string(memory.data, memory.size));
}

}  // namespace fluxion::runner
