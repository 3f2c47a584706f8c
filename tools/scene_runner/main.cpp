// scene-runner: steps a SOFA-style XML scene with run-time solver plugins and writes its
// trajectory as CSV. Exit statuses: see exit_status.h and the README.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <utility>

#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "command_line.h"
#include "exit_status.h"
#include "failure_report.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/text.h"
#include "fluxion/threads.h"
#include "fluxion/version.h"
#include "listing.h"
#include "render.h"
#include "run.h"

using namespace fluxion;

namespace {

using fluxion::tools::FiniteIn;
using fluxion::tools::OneOf;
using fluxion::tools::WholeIn;

constexpr double kLargest = std::numeric_limits<double>::max();
constexpr long kMostSteps = long{1} << 62;

std::string Join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

// --solver NAME, checked before the scene is read: a mistake on the command line is reported as
// one, with the solvers there are; a bundled solver whose plugin is missing is a plugin problem.
// Returns the exit status (kExitSuccess when the solver exists).
int CheckSolverName(const Host& host, const std::string& name) {
  const ComponentInfo* entry = host.FindComponent(name);
  if (entry != nullptr && entry->spec.kind == ComponentKind::kOdeSolver)
    return runner::kExitSuccess;
  const std::vector<std::string> solvers = runner::SolverNames(host);
  const std::string known =
      solvers.empty() ? "no solver is loaded" : "known solvers: " + Join(solvers);
  if (entry != nullptr) {
    std::fprintf(stderr, "error: --solver %s: is a %s, not an ODE solver (expected one; %s)\n",
                 name.c_str(), std::string(ComponentKindName(entry->spec.kind)).c_str(),
                 known.c_str());
    return runner::kExitInvalidInput;
  }
  if (const std::string plugin = Host::BundledPluginFor(name); !plugin.empty()) {
    std::string searched;
    for (const auto& [directory, source] : host.plugin_directories())
      searched += (searched.empty() ? "" : " ") + directory.string();
    std::fprintf(stderr,
                 "error: --solver %s: provided by plugin 'fluxion_%s.so', which is not on the "
                 "plugin search path (searched: %s); add the folder holding it with --plugin-dir "
                 "DIR or FLUXION_PLUGIN_PATH=DIR\n",
                 name.c_str(), plugin.c_str(), searched.empty() ? "no folder" : searched.c_str());
    return runner::kExitPluginProblem;
  }
  const std::string suggestion = SuggestClosest(name, solvers);
  std::fprintf(
      stderr,
      "error: --solver %s: no ODE solver of that name (%s%s; see scene-runner --list-solvers)\n",
      name.c_str(), suggestion.empty() ? "" : ("did you mean '" + suggestion + "'? ").c_str(),
      known.c_str());
  return runner::kExitInvalidInput;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef __GLIBC__
  // Vectors as large as a scene (128 KiB and more) in mappings of their own, returned to the
  // system when freed. glibc otherwise raises this threshold to the size of the first such block
  // freed, and the later ones come from the heap, where the build's freed lists (the springs'
  // pair list, the topologies) stay resident: 4 MB more peak memory for the 256² cloth. Steps
  // allocate nothing, so the cost (a mapping per large allocation) is paid while loading only.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
  // HDF5 outputs are written through NAME.partial, which scene-runner already holds locked (one
  // run per output file): HDF5's own lock on a second descriptor of that file would refuse it.
  ::setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);
  CLI::App app{"scene-runner: run a SOFA-style mass-spring scene and write its trajectory as CSV"};
  app.set_version_flag("--version",
                       std::string("scene-runner (Fluxion) ") + FLUXION_VERSION_STRING);
  runner::RunOptions options;
  std::vector<std::string> plugin_dirs;
  bool list_plugins = false, list_solvers = false, json = false, ignore_plugin_errors = false,
       quiet = false;
  bool markdown = false;
  std::optional<std::string> list_components;
  std::string log_level = "warn";
  long steps = 0;
  long threads = 0;
  double end_time = 0, dt = 0;
  double python_timeout = std::chrono::duration<double>(runner::kDefaultPythonSceneTimeout).count();

  app.add_option("scene", options.scene, "scene file (SOFA XML, or a Python scene: .py)");
  // Values are checked as text before CLI11 converts them: NaN and out-of-range integers are
  // refused with a readable range, never clamped.
  auto* steps_option = app.add_option("--steps", steps, "number of steps (default 100)")
                           ->transform(WholeIn(0, kMostSteps, "from 0 to 2^62"));
  auto* end_option = app.add_option("--end-time", end_time, "run until this time [s]")
                         ->transform(FiniteIn(0, kLargest, ">= 0"));
  steps_option->excludes(end_option);
  auto* dt_option =
      app.add_option("--dt", dt, "time step [s], replacing the scene's root dt")
          ->transform(FiniteIn(std::numeric_limits<double>::denorm_min(), kLargest, "> 0"));
  auto* output_option =
      app.add_option("--output,-o", options.output,
                     "CSV file to write (default: stdout when it is a pipe or a file; a terminal "
                     "gets a summary, '-' prints the rows there); written as FILE.partial, renamed "
                     "when the run ends");
  auto* no_rows_option = app.add_flag(
      "--no-rows", options.no_rows,
      "write no trajectory rows, print the summary instead (for --vtk or the scene's own files; "
      "a scene whose points change stops a CSV or HDF5 trajectory)");
  no_rows_option->excludes(output_option);
  app.add_option("--output-dir", options.output_dir,
                 "folder the scene's own files (e.g. an energy file) are written in (default: the "
                 "current folder)");
  app.add_flag("--overwrite", options.overwrite,
               "let the scene replace existing files in --output-dir");
  app.add_option("--data-path", options.data_path,
                 "a folder where the files a scene names (meshes, included fragments) are also "
                 "looked for, after the scene's own folder (repeatable); SOFA_ROOT=DIR adds a SOFA "
                 "tree's share/ and examples/")
      ->check(CLI::ExistingDirectory);
  std::string memory_limit;
  app.add_option("--memory-limit", memory_limit,
                 "refuse, before loading it, a scene estimated to need more memory than SIZE "
                 "bytes (K, M, G, T: binary multiples, e.g. 2G); the machine's available memory "
                 "is always a limit");
  app.add_option("--python-timeout", python_timeout,
                 "SECONDS a Python scene (.py) may take to build its scene before it is stopped "
                 "(default 60; 0: no limit)")
      ->transform(FiniteIn(0, 1e9, "from 0 to 1e9"));
  app.add_option("--threads", threads,
                 "threads for force evaluation and vector updates (default: OMP_NUM_THREADS when "
                 "set, else every core, one fewer with an HDF5 output); results are the same "
                 "whatever the count")
      ->transform(WholeIn(1, 4096, "from 1 to 4096"));
  app.add_option("--every", options.every,
                 "record every K steps (the first and last are always recorded)")
      ->transform(WholeIn(1, kMostSteps, "from 1 to 2^62"));
  auto* vtk_option =
      app.add_option("--vtk", options.vtk,
                     "also write the run as a ParaView time series in this folder (inside "
                     "--output-dir; created if missing): SCENE.pvd and one .vtu per object and "
                     "recorded step");
  app.add_option("--topologies", options.topologies,
                 "also write each node's topology (edges, triangles, quads, tetrahedra, "
                 "hexahedra) as it is during every step into this file, in the records of SOFA's "
                 "WriteTopology (topological changes; tools/sofa_regression compares them)");
  app.add_option("--render", options.render,
                 "draw the final state into this PNG (Cairo: springs coloured by strain)");
  std::vector<std::string> render_every;
  app.add_option("--render-every", render_every,
                 "K DIR: draw the state every K steps into DIR/frame_<step>.png (one camera; DIR "
                 "inside --output-dir, created if missing)")
      ->expected(2);
  app.add_option("--view", options.view,
                 "camera of --render: iso, x, y or z (default: iso, "
                 "or z when no object is 3-D)")
      ->check(CLI::IsMember({"auto", "iso", "x", "y", "z"}));
  app.add_option("--animate", options.animate,
                 "write a looping GIF of the run (the pictures of --render, one camera)");
  app.add_option("--animate-every", options.animate_every,
                 "a frame every K steps in --animate (default: about 100 frames)")
      ->check(CLI::Range(1L, 1L << 62));
  std::string render_size;
  app.add_option("--render-size", render_size, "picture size WxH in pixels (default 800x600)");
  app.add_flag("--vtk-ascii", options.vtk_ascii,
               "with --vtk: write the arrays as text instead of zlib-compressed binary")
      ->needs(vtk_option);
  app.add_flag("--energy", options.energy, "add kinetic,potential,total energy columns");
  auto* compare_option =
      app.add_option("--compare", options.compare,
                     "compare the run with this reference trajectory CSV: prints a "
                     "report, exit 0 on match, 1 on mismatch");
  compare_option->excludes(no_rows_option);
  std::string align = "step";
  app.add_option("--align", align,
                 "--compare: pair the rows by 'step' number (default: the same run) or by 'time' "
                 "(runs at another dt or with another solver: compared at the sparser run's times, "
                 "the other interpolated to fourth order; reports the error over time per object)")
      ->check(OneOf("an alignment", {"step", "time"}))
      ->needs(compare_option);
  app.add_option("--rtol", options.rtol, "--compare: relative tolerance (default 1e-9)")
      ->transform(FiniteIn(0, kLargest, ">= 0"))
      ->needs(compare_option);
  app.add_option("--atol", options.atol, "--compare: absolute tolerance (default 1e-12)")
      ->transform(FiniteIn(0, kLargest, ">= 0"))
      ->needs(compare_option);
  app.add_flag(
      "--solver-outputs", options.solver_outputs,
      "add each solver's outputs (e.g. VariationalSymplecticSolver's hamiltonian) as columns "
      "<node path>/<solver>/<output>");
  std::string solver;
  std::vector<std::string> params;
  auto* solver_option =
      app.add_option("--solver", solver,
                     "replace every ODE solver of the scene by this one (e.g. RungeKutta4Solver)");
  app.add_option("--param", params, "a parameter of --solver as key=value, as in XML (repeatable)")
      ->needs(solver_option);
  app.add_option("--plugin-dir", plugin_dirs, "also search this folder for plugins (repeatable)");
  app.add_flag("--list-plugins", list_plugins,
               "list the plugins found on the search path and exit");
  app.add_flag("--json", json, "with --list-plugins: print JSON");
  app.add_flag("--list-solvers", list_solvers,
               "list the ODE solvers (name, order, explicit or implicit, plugin file) and exit");
  app.add_option(
         "--list-components", list_components,
         "list the available components, describe one (NAME), or list those whose name or kind "
         "contains WORD (e.g. Spring, mass, solver), and exit")
      ->expected(0, 1);
  app.add_flag("--markdown", markdown,
               "with --list-components: print the docs/scene-format.md reference");
  app.add_flag("--ignore-plugin-errors", ignore_plugin_errors,
               "run even if some plugin file on the search path could not be loaded");
  bool strict_plugins = false;
  app.add_flag("--strict-plugins", strict_plugins,
               "refuse plugin files and folders that every user may write (default: a warning)");
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error (default warn)")
      ->check(OneOf("a log level", {"trace", "debug", "info", "warn", "error"}));
  bool no_stability_check = false;
  app.add_flag("--no-stability-check", no_stability_check,
               "do not estimate the stiffest mode before stepping an explicit solver");
  bool progress = false;
  auto* progress_option = app.add_flag(
      "--progress", progress,
      "report progress on stderr even when it is not a terminal (one line a second); on a "
      "terminal a progress bar is shown anyway");
  app.add_flag("--quiet,-q", quiet, "only errors on stderr, no progress")
      ->excludes(progress_option);
  app.footer(
      "Exit status: 0 success, 1 --compare mismatch, 2 invalid input (command line, scene, values, "
      "output file), 3 plugin\n"
      "problem (not found, wrong ABI, duplicate component), 4 numerical failure (with step and "
      "time).\n"
      "Plugins are searched in <libdir>/fluxion/plugins, then FLUXION_PLUGIN_PATH, then "
      "--plugin-dir.");

  // Unknown arguments are kept, to be reported with the option they are closest to.
  app.allow_extras();
  if (const std::optional<int> status =
          tools::ParseCommandLine(app, argc, argv, "scene-runner", "one scene file"))
    return *status;
  if (!memory_limit.empty()) {
    const std::optional<std::uint64_t> bytes = ParseMemorySize(memory_limit);
    if (!bytes) {
      std::fprintf(stderr,
                   "error: --memory-limit: '%s' is not a memory size (expected a positive number "
                   "of bytes with an optional K, M, G or T, e.g. 2G)\n",
                   memory_limit.c_str());
      return runner::kExitInvalidInput;
    }
    options.memory_limit = *bytes;
  }
  if (threads > 0) {
    fluxion::SetThreadCount(static_cast<int>(threads));
  } else if (std::getenv("OMP_NUM_THREADS") == nullptr &&
             (options.output.ends_with(".h5") || options.output.ends_with(".hdf5")) &&
             fluxion::ThreadCount() > 1) {
    // The HDF5 writer compresses on a thread of its own: leave it a core. Stepping threads that
    // spin-wait on every core would take turns with it (on 2 cores the 256² cloth run of
    // docs/output-formats.md takes 3.1 s that way, 2.5 s with one stepping thread). Results do
    // not depend on the thread count.
    fluxion::SetThreadCount(fluxion::ThreadCount() - 1);
    fluxion::LogInfo("stepping on " + std::to_string(fluxion::ThreadCount()) +
                     " thread(s): one core is left to the HDF5 writer (--threads overrides)");
  }
  options.python_timeout = std::chrono::milliseconds(std::llround(python_timeout * 1000.0));
  if (options.output == "-") {
    options.output.clear();
    options.rows_to_terminal = true;
  }
  SolverChoice choice{solver, {}};
  for (const std::string& param : params) {
    const auto equals = param.find('=');
    if (equals == std::string::npos || equals == 0) {
      std::fprintf(stderr, "error: --param '%s' is not key=value (see scene-runner --help)\n",
                   param.c_str());
      return runner::kExitInvalidInput;
    }
    choice.parameters.emplace_back(param.substr(0, equals), param.substr(equals + 1));
  }
  if (!solver.empty()) options.solver = std::move(choice);
  if (!render_every.empty()) {
    const std::optional<long> every = runner::ParseRenderEvery(render_every[0]);
    if (!every) {
      std::fprintf(stderr,
                   "error: --render-every: '%s' is not a number of steps (expected K DIR, K a "
                   "whole number from 1 to 2^62)\n",
                   render_every[0].c_str());
      return runner::kExitInvalidInput;
    }
    options.render_every = *every;
    options.render_dir = render_every[1];
  }
  if (!render_size.empty() &&
      !runner::ParseRenderSize(render_size, options.render_width, options.render_height)) {
    std::fprintf(stderr,
                 "error: --render-size: '%s' is not a picture size (expected WxH, e.g. 800x600, "
                 "each from 64 to 8192)\n",
                 render_size.c_str());
    return runner::kExitInvalidInput;
  }
  if (align == "time") options.align = regress::Alignment::kTime;
  if (*steps_option) options.steps = steps;
  if (*end_option) options.end_time = end_time;
  if (*dt_option) options.dt = dt;
  // Progress on stderr: a bar on a terminal, lines elsewhere only when asked for. Rows printed
  // on the same terminal (--output -) would break the bar's line: then lines, if asked for.
  const bool terminal = ::isatty(::fileno(stderr)) == 1 &&
                        !(options.rows_to_terminal && ::isatty(::fileno(stdout)) == 1);
  if (quiet)
    options.progress = runner::ProgressStyle::kOff;
  else if (terminal)
    options.progress = runner::ProgressStyle::kTerminal;
  else if (progress)
    options.progress = runner::ProgressStyle::kLines;
  options.stability_check = !no_stability_check;

  LogLevel level = LogLevel::kWarn;
  ParseLogLevel(log_level, level);
  if (quiet) level = LogLevel::kError;
  SetLogLevel(level);

  try {
    HostOptions host_options;
    host_options.plugin_directories.assign(plugin_dirs.begin(), plugin_dirs.end());
    // Refused files are reported below as errors (or listed); log them only when they are skipped.
    host_options.log_plugin_refusals = ignore_plugin_errors;
    host_options.strict_plugin_permissions = strict_plugins;
    const Host host(host_options);

    if (list_plugins) {
      std::fputs((json ? runner::ListPluginsJson(host) : runner::ListPluginsText(host)).c_str(),
                 stdout);
      return runner::kExitSuccess;
    }
    if (list_solvers) {
      std::fputs(runner::ListSolversText(host).c_str(), stdout);
      return runner::kExitSuccess;
    }
    if (list_components) {
      if (list_components->empty()) {
        std::fputs((markdown ? runner::ComponentsMarkdown(host) : runner::ListComponentsText(host))
                       .c_str(),
                   stdout);
        return runner::kExitSuccess;
      }
      // A component's name describes it; any other word lists what contains it (name or kind).
      const ComponentInfo* entry = host.FindComponent(*list_components);
      const std::string found =
          entry == nullptr ? runner::SearchComponentsText(host, *list_components) : "";
      if (!found.empty()) {
        std::fputs(found.c_str(), stdout);
        return runner::kExitSuccess;
      }
      if (entry == nullptr) {
        const std::string suggestion = SuggestClosest(*list_components, host.component_names());
        std::fprintf(stderr,
                     "error: --list-components %s: no component's name or kind contains it (%s)\n",
                     list_components->c_str(),
                     suggestion.empty() ? "expected one listed by scene-runner --list-components"
                                        : ("did you mean '" + suggestion + "'?").c_str());
        return runner::kExitInvalidInput;
      }
      std::fputs(runner::DescribeComponentText(*entry).c_str(), stdout);
      return runner::kExitSuccess;
    }
    if (options.scene.empty()) {
      std::fprintf(
          stderr, "error: no scene file given (usage: scene-runner SCENE [options]; see --help)\n");
      return runner::kExitInvalidInput;
    }
    if (host.has_plugin_failures() && !ignore_plugin_errors) {
      // One line per problem, each saying how to go on without the file or folder.
      for (const std::string& problem : host.plugin_directory_problems())
        std::fprintf(stderr, "error: %s\n", problem.c_str());
      for (const PluginInfo& record : host.plugins())
        if (!record.loaded)
          std::fprintf(stderr,
                       "error: plugin %s was refused: %s; fix or remove it, or run with "
                       "--ignore-plugin-errors\n",
                       record.path.c_str(), record.error.c_str());
      return runner::kExitPluginProblem;
    }
    if (options.solver) {
      if (const int status = CheckSolverName(host, options.solver->name);
          status != runner::kExitSuccess)
        return status;
    }
    return runner::RunScene(options, host);
  } catch (...) {
    return tools::ReportCurrentException(options.scene);
  }
}
