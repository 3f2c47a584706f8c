// scene-runner: steps a SOFA-style XML scene with run-time solver plugins and writes its
// trajectory as CSV. Exit statuses: see exit_status.h and the README.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "core/logging.h"
#include "exit_status.h"
#include "fluxion/errors.h"
#include "fluxion/version.h"
#include "listing.h"
#include "run.h"

using namespace fluxion;

int main(int argc, char** argv) {
  CLI::App app{"scene-runner: run a SOFA-style mass-spring scene and write its trajectory as CSV"};
  app.set_version_flag("--version",
                       std::string("scene-runner (Fluxion) ") + FLUXION_VERSION_STRING);
  runner::RunOptions options;
  std::vector<std::string> plugin_dirs;
  bool list_plugins = false, json = false, ignore_plugin_errors = false, quiet = false;
  bool markdown = false;
  std::optional<std::string> list_components;
  std::string log_level = "warn";
  long steps = 0;
  double end_time = 0, dt = 0;

  app.add_option("scene", options.scene, "scene file (SOFA XML)");
  auto* steps_option = app.add_option("--steps", steps, "number of steps (default 100)")
                           ->check(CLI::NonNegativeNumber);
  auto* end_option = app.add_option("--end-time", end_time, "run until this time [s]")
                         ->check(CLI::NonNegativeNumber);
  steps_option->excludes(end_option);
  auto* dt_option = app.add_option("--dt", dt, "time step [s], replacing the scene's root dt")
                        ->check(CLI::PositiveNumber);
  app.add_option("--output,-o", options.output, "CSV file to write (default: stdout)");
  app.add_option("--every", options.every,
                 "record every K steps (the first and last are always recorded)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--energy", options.energy, "add kinetic,potential,total energy columns");
  auto* compare_option =
      app.add_option("--compare", options.compare,
                     "compare the run with this reference trajectory CSV: prints a "
                     "report, exit 0 on match, 1 on mismatch");
  app.add_option("--rtol", options.rtol, "--compare: relative tolerance (default 1e-9)")
      ->check(CLI::NonNegativeNumber)
      ->needs(compare_option);
  app.add_option("--atol", options.atol, "--compare: absolute tolerance (default 1e-12)")
      ->check(CLI::NonNegativeNumber)
      ->needs(compare_option);
  app.add_flag(
      "--solver-outputs", options.solver_outputs,
      "add each solver's outputs (e.g. VariationalSymplecticSolver's hamiltonian) as columns "
      "<node path>/<solver>/<output>");
  std::vector<std::string> params;
  auto* solver_option =
      app.add_option("--solver", options.solver,
                     "replace every ODE solver of the scene by this one (e.g. RungeKutta4Solver)");
  app.add_option("--param", params, "a parameter of --solver as key=value, as in XML (repeatable)")
      ->needs(solver_option);
  app.add_option("--plugin-dir", plugin_dirs, "also search this folder for plugins (repeatable)");
  app.add_flag("--list-plugins", list_plugins,
               "list the plugins found on the search path and exit");
  app.add_flag("--json", json, "with --list-plugins: print JSON");
  app.add_option("--list-components", list_components,
                 "list the available components (or describe one) and exit")
      ->expected(0, 1);
  app.add_flag("--markdown", markdown,
               "with --list-components: print the docs/scene-format.md reference");
  app.add_flag("--ignore-plugin-errors", ignore_plugin_errors,
               "run even if some plugin file on the search path could not be loaded");
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error (default warn)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));
  app.add_flag("--quiet,-q", quiet, "only errors on stderr, no progress");
  app.footer(
      "Exit status: 0 success, 1 --compare mismatch, 2 invalid input (command line, scene, values, "
      "output file), 3 plugin\n"
      "problem (not found, wrong ABI, duplicate component), 4 numerical failure (with step and "
      "time).\n"
      "Plugins are searched in <libdir>/fluxion/plugins, then FLUXION_PLUGIN_PATH, then "
      "--plugin-dir.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s (see scene-runner --help)\n", e.what());
    return runner::kExitInvalidInput;
  }
  for (const std::string& param : params) {
    const auto equals = param.find('=');
    if (equals == std::string::npos || equals == 0) {
      std::fprintf(stderr, "error: --param '%s' is not key=value (see scene-runner --help)\n",
                   param.c_str());
      return runner::kExitInvalidInput;
    }
    options.solver_params.emplace_back(param.substr(0, equals), param.substr(equals + 1));
  }
  if (*steps_option) options.steps = steps;
  if (*end_option) options.end_time = end_time;
  if (*dt_option) options.dt = dt;
  options.progress = !quiet;

  LogLevel level = LogLevel::kWarn;
  internal::ParseLogLevel(log_level, level);
  if (quiet) level = LogLevel::kError;
  internal::SetLogLevel(level);

  try {
    internal::ComponentRegistry registry = internal::ComponentRegistry::WithBuiltins();
    internal::PluginLoader plugins(registry);
    // Refused files are reported below as errors (or listed); log them only when they are skipped.
    plugins.LogRefusals(ignore_plugin_errors);
    plugins.AddDefaultDirectories();
    for (const std::string& dir : plugin_dirs) plugins.AddDirectory(dir, "--plugin-dir");
    plugins.LoadAll();

    if (list_plugins) {
      std::fputs(
          (json ? runner::ListPluginsJson(plugins) : runner::ListPluginsText(plugins)).c_str(),
          stdout);
      return runner::kExitSuccess;
    }
    if (list_components) {
      if (list_components->empty()) {
        std::fputs(
            (markdown ? runner::ComponentsMarkdown(registry) : runner::ListComponentsText(registry))
                .c_str(),
            stdout);
        return runner::kExitSuccess;
      }
      const internal::ComponentEntry* entry = registry.Find(*list_components);
      if (entry == nullptr) {
        std::fprintf(stderr,
                     "error: no component named '%s' (see scene-runner --list-components)\n",
                     list_components->c_str());
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
    if (plugins.has_failures() && !ignore_plugin_errors) {
      // One line per problem, each saying how to go on without the file or folder.
      for (const std::string& problem : plugins.directory_problems())
        std::fprintf(stderr, "error: %s\n", problem.c_str());
      for (const internal::PluginRecord& record : plugins.records())
        if (!record.loaded)
          std::fprintf(stderr,
                       "error: plugin %s was refused: %s; fix or remove it, or run with "
                       "--ignore-plugin-errors\n",
                       record.path.c_str(), record.error.c_str());
      return runner::kExitPluginProblem;
    }
    return runner::RunScene(options, registry, plugins);
  } catch (const PluginError& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return runner::kExitPluginProblem;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: internal error: %s\n", error.what());
    return 70;
  }
}
