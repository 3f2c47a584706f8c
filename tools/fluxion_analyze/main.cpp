// fluxion-analyze: stability, frequency and order of any ODE solver plugin, measured by stepping
// it on the harmonic oscillator (Hoffmann's r and Ψ, Howe's e_λ), and its convergence order and
// energy drift on any scene. See tools/fluxion_analyze/README.md and docs/integrators.md.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis.h"
#include "command_line.h"
#include "exit_status.h"
#include "failure_report.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/text.h"
#include "fluxion/version.h"
#include "plot.h"
#include "report.h"

using namespace fluxion;
using namespace fluxion::analysis;

namespace {

using tools::PrintError;

// Each --param belongs to the nearest --solver before it on the command line.
std::optional<std::vector<SolverChoice>> BindParameters(const CLI::App& app,
                                                        const CLI::Option* solver_option,
                                                        const CLI::Option* param_option,
                                                        const std::vector<std::string>& names,
                                                        const std::vector<std::string>& params) {
  std::vector<SolverChoice> choices;
  std::size_t next_name = 0, next_param = 0;
  for (const CLI::Option* option : app.parse_order()) {
    if (option == solver_option && next_name < names.size()) {
      choices.push_back({names[next_name++], {}});
    } else if (option == param_option && next_param < params.size()) {
      const std::string& text = params[next_param++];
      const std::size_t equals = text.find('=');
      if (choices.empty()) {
        PrintError("--param " + text +
                   " comes before any --solver (each --param applies to the --solver before it)");
        return std::nullopt;
      }
      if (equals == std::string::npos || equals == 0) {
        PrintError("--param '" + text + "': expected key=value, e.g. --param symplectic=0");
        return std::nullopt;
      }
      choices.back().parameters.emplace_back(text.substr(0, equals), text.substr(equals + 1));
    }
  }
  return choices;
}

// --order's progress on stderr: a line as each run starts (the reference first, 128 times the
// finest run's steps), and one every few seconds within a run.
class OrderProgress {
 public:
  void operator()(const ConvergenceProgress& progress) {
    const auto now = std::chrono::steady_clock::now();
    const bool starting = progress.done == 0;
    if (!starting && now - last_ < std::chrono::seconds(2)) return;
    last_ = now;
    const std::string run = "progress: --order: run " + std::to_string(progress.run + 1) + " of " +
                            std::to_string(progress.runs) +
                            (progress.run == 0 ? " (the reference)" : "") +
                            ", dt = " + FormatReal(progress.dt) + ": ";
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (starting)
      std::fprintf(stderr, "%s%ld steps (%.0f s so far)\n", run.c_str(), progress.steps, elapsed);
    else
      std::fprintf(stderr, "%s%ld of %ld steps (%.0f%%, %.0f s so far)\n", run.c_str(),
                   progress.done, progress.steps,
                   100.0 * static_cast<double>(progress.done) / static_cast<double>(progress.steps),
                   elapsed);
    std::fflush(stderr);
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "fluxion-analyze: stability, frequency and order of any ODE solver plugin, stepped on the\n"
      "harmonic oscillator (m = 1, k = 1, Φ = ω₀h); convergence order and energy drift on scenes"};
  app.set_version_flag("--version",
                       std::string("fluxion-analyze (Fluxion) ") + FLUXION_VERSION_STRING);
  std::vector<std::string> solver_names, params, plugin_dirs;
  double zeta = 0.0, dt = 0.0;
  long steps = 0;
  std::string phi_text, order_scene, energy_scene, plot_file, log_level = "warn";
  bool summary = false, all = false, markdown = false, recurrence = false, list_solvers = false;
  bool ignore_plugin_errors = false, text = false, quiet = false;

  auto* solver_option =
      app.add_option("--solver", solver_names, "ODE solver component to analyse (repeatable)")
          ->allow_extra_args(false);
  auto* param_option =
      app.add_option(
             "--param", params,
             "key=value: a parameter of the preceding --solver, as its XML attribute (repeatable)")
          ->allow_extra_args(false);
  auto* zeta_option =
      app.add_option("--zeta", zeta, "damping ratio ζ of the oscillator (default 0)")
          ->transform(tools::FiniteIn(0, std::numeric_limits<double>::max(), ">= 0"));
  auto* phi_option = app.add_option("--phi", phi_text,
                                    "A:B:N: CSV of r, Ψ, Ψ/Φ, r − 1 at N values of Φ from A to B");
  app.add_flag("--summary", summary, "JSON: stability limit, order k and e_I of e_λ, costs");
  app.add_flag("--all", all,
               "summarise every ODE solver on the plugin path (then any --solver too)");
  app.add_flag("--markdown", markdown,
               "with --summary or --all: the Markdown table of docs/integrators.md");
  auto* order_option =
      app.add_option("--order", order_scene, "SCENE: observed convergence order of the positions");
  auto* energy_option = app.add_option("--energy", energy_scene,
                                       "SCENE: relative drift and oscillation of the total energy");
  auto* plot_option =
      app.add_option("--plot", plot_file, "FILE.svg|png: r and Ψ/Φ against Φ for the --solver(s)");
  auto* steps_option = app.add_option("--steps", steps,
                                      "--order: steps at the scene's dt (default 100); "
                                      "--energy: steps (default 1000)")
                           ->transform(tools::WholeIn(1, long{1} << 62, "from 1 to 2^62"));
  auto* dt_option =
      app.add_option("--dt", dt, "--order/--energy: time step replacing the scene's dt [s]")
          ->transform(tools::FiniteIn(std::numeric_limits<double>::denorm_min(),
                                      std::numeric_limits<double>::max(), "> 0"));
  app.add_flag("--text", text,
               "with --order or --energy: a summary for people (for --order a table of the runs "
               "and the order, or why there is none) instead of JSON");
  app.add_flag("--quiet,-q", quiet,
               "no progress on stderr (--order reports each run, and every few seconds within "
               "one)");
  app.add_flag("--recurrence", recurrence,
               "measure one-step methods by the recurrence of a long run too");
  app.add_flag("--list-solvers", list_solvers,
               "list the ODE solvers on the plugin search path and exit");
  app.add_option("--plugin-dir", plugin_dirs, "also search this folder for plugins (repeatable)");
  app.add_flag("--ignore-plugin-errors", ignore_plugin_errors,
               "run even if some plugin file on the search path could not be loaded");
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error (default warn)")
      ->transform(tools::OneOf("a log level", {"trace", "debug", "info", "warn", "error"}));
  app.footer(
      "Modes (one per run): --phi A:B:N | --summary | --all | --order SCENE | --energy SCENE |\n"
      "--plot FILE [--phi A:B:N, default 0.02:4:200] | --list-solvers.\n"
      "--order and --energy use the scene's own solvers unless --solver replaces them.\n"
      "Exit status: 0 success, 2 invalid input (command line, solver, parameter, scene), 3 plugin\n"
      "problem, 4 numerical failure (--order, --energy), 5 gnuplot not found or failed (--plot).");

  // Unknown arguments are kept, to be reported with the option they are closest to.
  app.allow_extras();
  if (const std::optional<int> status =
          tools::ParseCommandLine(app, argc, argv, "fluxion-analyze", "only options"))
    return *status;
  LogLevel level = LogLevel::kWarn;
  ParseLogLevel(log_level, level);
  SetLogLevel(level);

  const std::optional<std::vector<SolverChoice>> bound =
      BindParameters(app, solver_option, param_option, solver_names, params);
  if (!bound) return kExitInvalidInput;
  std::vector<SolverChoice> choices = *bound;

  // Exactly one mode; --phi is a mode alone and the range of --plot otherwise.
  const bool plot = plot_option->count() > 0, order = order_option->count() > 0;
  const bool energy = energy_option->count() > 0, phi = phi_option->count() > 0 && !plot;
  const int modes = phi + summary + all + order + energy + plot + list_solvers;
  if (modes != 1) {
    PrintError(
        modes == 0
            ? "nothing to do: choose one of --phi, --summary, --all, --order, --energy, --plot, "
              "--list-solvers (see --help)"
            : "choose one mode per run (--phi, --summary, --all, --order, --energy, --plot, "
              "--list-solvers; --phi with --plot sets its range)");
    return kExitInvalidInput;
  }
  if ((phi || summary || plot) && choices.empty()) {
    PrintError("--solver NAME is required (see --list-solvers)");
    return kExitInvalidInput;
  }
  if (phi && choices.size() != 1) {
    PrintError("--phi takes one --solver (use --plot to compare several)");
    return kExitInvalidInput;
  }
  if ((order || energy) && choices.size() > 1) {
    PrintError("--order and --energy take at most one --solver (it replaces the scene's solvers)");
    return kExitInvalidInput;
  }
  if (markdown && !(summary || all)) {
    PrintError("--markdown goes with --summary or --all");
    return kExitInvalidInput;
  }
  if (zeta_option->count() > 0 && !(phi || plot)) {
    PrintError(
        "--zeta goes with --phi or --plot (the summary is measured on the undamped oscillator, "
        "λ = iω₀, as Howe's e_λ and the stability limit are defined)");
    return kExitInvalidInput;
  }
  if ((steps_option->count() > 0 || dt_option->count() > 0 || text) && !(order || energy)) {
    PrintError("--steps, --dt and --text go with --order or --energy");
    return kExitInvalidInput;
  }

  const bool scene_mode = order || energy;
  try {
    HostOptions host_options;
    host_options.plugin_directories.assign(plugin_dirs.begin(), plugin_dirs.end());
    const Host host(host_options);
    if (host.has_plugin_failures() && !ignore_plugin_errors) {
      for (const std::string& problem : host.plugin_directory_problems()) PrintError(problem);
      for (const PluginInfo& record : host.plugins())
        if (!record.loaded) PrintError("plugin " + record.path + " was refused: " + record.error);
      PrintError("fix or remove the plugins above (or run with --ignore-plugin-errors)");
      return kExitPluginProblem;
    }

    if (list_solvers) {
      for (const ComponentInfo* entry : host.components())
        if (entry->spec.kind == ComponentKind::kOdeSolver)
          std::printf("%s\t%s\n", entry->spec.name.c_str(), entry->origin.c_str());
      return kExitSuccess;
    }
    if (all) {
      std::vector<SolverChoice> every;
      for (const ComponentInfo* entry : host.components())
        // Static solvers (kStaticMethod) have no motion to analyse.
        if (entry->spec.kind == ComponentKind::kOdeSolver &&
            (entry->traits.flags & kStaticMethod) == 0)
          every.push_back({entry->spec.name, {}});
      choices.insert(choices.begin(), every.begin(), every.end());
    }

    AnalyzerOptions options;
    options.zeta = zeta;
    options.force_recurrence = recurrence;

    if (order || energy) {
      const std::optional<SolverChoice> solver =
          choices.empty() ? std::nullopt : std::optional<SolverChoice>(choices.front());
      const std::string label = solver ? Label(*solver) : std::string();
      if (order) {
        ConvergenceOptions convergence;
        if (steps_option->count() > 0) convergence.steps = steps;
        if (dt_option->count() > 0) convergence.dt = dt;
        OrderProgress progress;
        if (!quiet) convergence.progress = std::ref(progress);
        const ConvergenceResult result = MeasureConvergence(host, order_scene, solver, convergence);
        std::fputs((text ? ConvergenceText(result, order_scene, label)
                         : ConvergenceJson(result, order_scene, label))
                       .c_str(),
                   stdout);
      } else {
        EnergyOptions options_energy;
        if (steps_option->count() > 0) options_energy.steps = steps;
        if (dt_option->count() > 0) options_energy.dt = dt;
        const EnergyResult result = MeasureEnergy(host, energy_scene, solver, options_energy);
        std::fputs((text ? EnergyText(result, energy_scene, label)
                         : EnergyJson(result, energy_scene, label))
                       .c_str(),
                   stdout);
      }
      return kExitSuccess;
    }

    // Every other mode analyses the oscillator with each chosen solver.
    std::vector<std::unique_ptr<Analyzer>> analyzers;
    for (const SolverChoice& choice : choices)
      analyzers.push_back(std::make_unique<Analyzer>(host, choice, options));

    if (phi) {
      std::vector<TransitionPoint> points;
      for (const double value : ParsePhiRange(phi_text)) {
        points.push_back(analyzers.front()->Measure(value));
        if (!points.back().ok)
          std::fprintf(stderr, "warning: Φ = %s: %s\n", FormatReal(value).c_str(),
                       points.back().message.c_str());
      }
      std::fputs(PhiCsv(points).c_str(), stdout);
      return kExitSuccess;
    }
    if (plot) {
      // Check the output name and gnuplot before the sweeps.
      CheckPlotFile(plot_file);
      const std::string gnuplot = FindGnuplot();
      if (gnuplot.empty()) {
        PrintError(
            "--plot needs gnuplot (Debian package gnuplot-nox), which is not on PATH "
            "(or set FLUXION_GNUPLOT to its path)");
        return kExitPlotterUnavailable;
      }
      const std::vector<double> range =
          ParsePhiRange(phi_option->count() > 0 ? phi_text : "0.02:4:200");
      std::vector<PlotSeries> series;
      for (const auto& analyzer : analyzers) {
        PlotSeries s{Label(analyzer->solver()), {}};
        for (const double value : range) s.points.push_back(analyzer->Measure(value));
        series.push_back(std::move(s));
      }
      if (const std::string problem = RunGnuplot(gnuplot, GnuplotScript(series, plot_file, zeta));
          !problem.empty()) {
        PrintError("--plot " + plot_file + ": " + problem);
        return kExitPlotterUnavailable;
      }
      return kExitSuccess;
    }
    // --summary, --all
    std::vector<SolverReport> reports;
    for (const auto& analyzer : analyzers)
      reports.push_back({analyzer.get(), analyzer->Summarize()});
    std::fputs((markdown ? SummaryMarkdown(reports) : SummaryJson(reports)).c_str(), stdout);
    return kExitSuccess;
  } catch (const SceneError& error) {
    // Scenes given on the command line are located FILE:LINE; problems with the generated
    // oscillator can only come from the solver's parameters.
    for (const SceneDiagnostic& diagnostic : error.diagnostics())
      PrintError(scene_mode ? diagnostic.Format() : "--solver/--param: " + diagnostic.message);
    return kExitInvalidInput;
  } catch (...) {
    return tools::ReportCurrentException("");
  }
}
