// fluxion-view: a scene running live in the browser (issue #31). The simulation steps on its own
// thread; a local web page (three.js) draws it from positions streamed over a WebSocket, with
// play/pause/step/reset, the scene graph, fields editable between steps, the solver and a
// recording. Design and protocol: docs/viewer.md.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "browser.h"
#include "command_line.h"
#include "exit_status_common.h"
#include "failure_report.h"
#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/output_files.h"
#include "fluxion/threads.h"
#include "fluxion/version.h"
#include "server.h"
#include "session.h"

namespace {

using fluxion::tools::kExitInvalidInput;
using fluxion::tools::kExitSuccess;
using fluxion::tools::PrintError;

// The page's files: <prefix>/share/fluxion/view beside <prefix>/bin/fluxion-view, in the build
// tree as once installed.
std::string PageFolder() {
  char path[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return "share/fluxion/view";
  path[length] = '\0';
  return (std::filesystem::path(path).parent_path().parent_path() / "share" / "fluxion" / "view")
      .string();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fluxion;
  CLI::App app{"fluxion-view: watch a scene run in the browser, change it between steps"};
  app.set_version_flag("--version",
                       std::string("fluxion-view (Fluxion) ") + FLUXION_VERSION_STRING);
  std::string scene, host_address = "127.0.0.1", record, solver, log_level = "info";
  std::vector<std::string> params, plugin_dirs, data_path;
  unsigned port = 0;
  bool no_browser = false;
  double dt = 0;
  long linger_ms = 3000;
  app.add_option("scene", scene, "scene file (SOFA XML)")->required();
  app.add_option("--port", port, "TCP port of the page (default 0: any free port, printed)")
      ->transform(fluxion::tools::WholeIn(0, 65535, "from 0 to 65535"));
  app.add_option("--host", host_address,
                 "address to serve on (default 127.0.0.1; any other is reachable from other "
                 "machines: a warning is printed)");
  app.add_flag("--no-browser", no_browser, "do not open a browser; print the page's address");
  auto* solver_option = app.add_option(
      "--solver", solver, "replace every ODE solver of the scene by this one (as scene-runner)");
  app.add_option("--param", params, "a parameter of --solver as key=value (repeatable)")
      ->needs(solver_option);
  auto* dt_option =
      app.add_option("--dt", dt, "time step [s], replacing the scene's root dt")
          ->transform(fluxion::tools::FiniteIn(std::numeric_limits<double>::denorm_min(),
                                               std::numeric_limits<double>::max(), "> 0"));
  app.add_option("--record", record,
                 "write the trajectory from step 0 into this CSV file, as scene-runner --output "
                 "does, until reset or exit (the page's record button stops and restarts it)");
  app.add_option("--data-path", data_path,
                 "a folder where the files a scene names are also looked for (repeatable)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--plugin-dir", plugin_dirs, "a further folder of solver plugins (repeatable)");
  app.add_option("--linger-ms", linger_ms,
                 "how long to wait for the page to come back after it closed before stopping "
                 "(default 3000: a reload keeps the server)")
      ->transform(fluxion::tools::WholeIn(0, 3'600'000, "from 0 to 3600000"));
  long threads = 0;
  app.add_option("--threads", threads,
                 "threads stepping the simulation (default: OMP_NUM_THREADS when set, else one "
                 "fewer than the cores, at least 1: the browser draws on the other); results are "
                 "the same whatever the count")
      ->transform(fluxion::tools::WholeIn(1, 4096, "from 1 to 4096"));
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error (default info)");
  // Unknown arguments are kept, to be reported with the option they are closest to.
  app.allow_extras();
  if (const std::optional<int> status =
          tools::ParseCommandLine(app, argc, argv, "fluxion-view", "one scene file"))
    return *status;
  LogLevel level = LogLevel::kInfo;
  if (!ParseLogLevel(log_level, level)) {
    PrintError("--log-level " + log_level +
               ": unknown (expected trace, debug, info, warn or error)");
    return kExitInvalidInput;
  }
  SetLogLevel(level);
  if (threads > 0)
    SetThreadCount(static_cast<int>(threads));
  else if (std::getenv("OMP_NUM_THREADS") == nullptr && ThreadCount() > 1)
    SetThreadCount(ThreadCount() - 1);

  if (scene == "-" || scene.ends_with(".py")) {
    PrintError(
        scene + ": fluxion-view reads XML scene files (expected a .scn or .xml file; " +
        (scene == "-" ? "reset reads the file again" : "run a Python scene with scene-runner") +
        ")");
    return kExitInvalidInput;
  }
  view::SessionOptions options;
  options.scene = scene;
  options.load.data_path = data_path;
  if (*dt_option) options.load.dt = dt;
  if (!solver.empty()) {
    SolverChoice choice{solver, {}};
    for (const std::string& param : params) {
      const auto equals = param.find('=');
      if (equals == std::string::npos || equals == 0) {
        PrintError("--param '" + param + "' is not key=value (see fluxion-view --help)");
        return kExitInvalidInput;
      }
      choice.parameters.emplace_back(param.substr(0, equals), param.substr(equals + 1));
    }
    options.load.solver = std::move(choice);
  }
  // Recordings: the --record file anywhere the user says; the record button's files in the
  // current folder, never over an existing file; never the scene itself.
  SetOutputPolicy(OutputPolicy{.directory = ".", .overwrite = false, .protected_files = {scene}});
  if (!record.empty()) {
    std::string why;
    options.record = ClaimOutputFile(record, OutputOrigin::kUser, "the recording (--record)", &why);
    if (!options.record) {
      PrintError("--record: " + why);
      return kExitInvalidInput;
    }
  }

  view::StaticFiles files;
  if (std::string why; !view::LoadStaticFiles(PageFolder(), files, why)) {
    PrintError(why);
    return kExitInvalidInput;
  }
  try {
    HostOptions host_options;
    host_options.plugin_directories.assign(plugin_dirs.begin(), plugin_dirs.end());
    const Host host(host_options);
    view::Session session(host, std::move(options));
    view::ServerOptions server_options{.address = host_address,
                                       .port = static_cast<unsigned short>(port),
                                       .linger = std::chrono::milliseconds(linger_ms)};
    std::optional<view::Server> server;
    try {
      server.emplace(server_options, session, std::move(files));
    } catch (const std::runtime_error& error) {
      PrintError(error.what());
      return kExitInvalidInput;
    }
    if (host_address != "127.0.0.1" && host_address != "::1")
      LogWarn("--host " + host_address +
              ": the page and its controls are reachable from other machines (the default, "
              "127.0.0.1, keeps them on this one)");
    const std::string shown = host_address.find(':') != std::string::npos ? "[" + host_address + "]"
                              : host_address == "0.0.0.0"                 ? "127.0.0.1"
                                                                          : host_address;
    const std::string url = "http://" + shown + ":" + std::to_string(server->port()) + "/";
    std::fprintf(stderr, "fluxion-view: %s at %s (Ctrl-C to stop)\n", scene.c_str(), url.c_str());
    std::string why;
    if (!no_browser && !view::OpenBrowser(url, why))
      std::fprintf(stderr, "fluxion-view: %s: open %s in a browser\n", why.c_str(), url.c_str());
    const std::string reason = server->Run();
    std::fprintf(stderr, "fluxion-view: stopped: %s\n", reason.c_str());
    return kExitSuccess;
  } catch (...) {
    return tools::ReportCurrentException(scene);
  }
}
