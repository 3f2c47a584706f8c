// scene-regress: runs a regression suite described by a JSON manifest through scene-runner and
// compares each case's trajectory with its reference CSV (docs/regression-testing.md); with
// --cluster, the scene-runner runs are Dask tasks and the comparisons stay here (docs/sweeps.md).
//
// Exit status: 0 every selected case passed (or was skipped / recorded), 1 some case mismatched or
// has no reference, 2 invalid manifest or arguments (or a case's scene or reference is invalid, or
// the --cluster cannot be used),
// 3 scene-runner reported a plugin problem, 4 a numerical failure, 5 scene-runner failed otherwise.
// With several failing cases, the highest status wins.
#include <stdlib.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include "cluster.h"
#include "junit_report.h"
#include "manifest.h"
#include "suite.h"

namespace fs = std::filesystem;
using namespace fluxion::regress;

namespace {

constexpr int kExitInvalid = 2;

// The scene-runner next to this executable.
fs::path DefaultSceneRunner() {
  std::error_code code;
  const fs::path self = fs::read_symlink("/proc/self/exe", code);
  return code ? fs::path("scene-runner") : self.parent_path() / "scene-runner";
}

// A private scratch folder under TMPDIR, removed on exit unless the user chose --output-dir.
struct ScratchDir {
  fs::path path;
  bool remove = false;
  ~ScratchDir() {
    std::error_code code;
    if (remove) fs::remove_all(path, code);
  }
};

std::string Pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "scene-regress: run a regression suite of scenes and compare each trajectory with its "
      "reference"};
  std::string manifest_path = "tests/regression/manifest.json";
  std::string scene_runner_path;
  std::vector<std::string> case_names, update_names, plugin_dirs;
  std::string filter, junit_path, output_dir, cluster;
  int jobs = 1;
  bool quiet = false, list = false;

  app.add_option("--manifest,-m", manifest_path,
                 "the suite's manifest (JSON; default tests/regression/manifest.json)");
  app.add_option("--scene-runner", scene_runner_path,
                 "scene-runner to run (default: the one next to scene-regress)");
  app.add_option("--case", case_names, "run only these cases (repeatable)")->expected(1, -1);
  app.add_option("--filter", filter,
                 "run only the cases whose name matches this regular expression");
  auto* update_option =
      app.add_option("--update", update_names,
                     "rewrite the references of these cases (all selected cases if none "
                     "named) with scene-runner's output and print what changed")
          ->expected(0, -1);
  app.add_option("--junit", junit_path, "also write a JUnit XML report to this file");
  app.add_option("--jobs,-j", jobs, "run this many cases in parallel (0: one per core; default 1)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--cluster", cluster,
                 "run the cases as Dask tasks: on the cluster of this scheduler "
                 "(tcp://host:8786), or on a LocalCluster (local: one worker per core, local:N)")
      ->excludes(app.get_option("--jobs"));
  app.add_option("--output-dir", output_dir,
                 "keep each case's trajectory (<case>.csv) and stderr here");
  app.add_option("--plugin-dir", plugin_dirs, "passed to scene-runner (repeatable)");
  app.add_flag("--list", list, "list the selected cases and exit");
  app.add_flag("--quiet,-q", quiet, "no progress on stderr");
  app.footer(
      "Exit status: 0 all selected cases passed (or were skipped/recorded), 1 a case mismatched or "
      "has no\n"
      "reference, 2 invalid manifest, arguments, scene, reference or --cluster, 3 plugin problem, "
      "4 "
      "numerical failure,\n"
      "5 scene-runner failed otherwise. See docs/regression-testing.md.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s (see scene-regress --help)\n", e.what());
    return kExitInvalid;
  }
  const bool update = update_option->count() > 0;
  // A bare --update gives one empty value (CLI11): it means "every selected case".
  std::erase(update_names, std::string());

  // The manifest and the selection.
  Manifest manifest;
  try {
    manifest = LoadManifest(manifest_path);
  } catch (const ManifestError& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return kExitInvalid;
  }
  std::set<std::string> named(case_names.begin(), case_names.end());
  named.insert(update_names.begin(), update_names.end());
  for (const std::string& name : named) {
    if (std::none_of(manifest.cases.begin(), manifest.cases.end(),
                     [&](const RegressionCase& c) { return c.name == name; })) {
      std::fprintf(stderr, "error: %s: no case named '%s' (see scene-regress --list)\n",
                   manifest_path.c_str(), name.c_str());
      return kExitInvalid;
    }
  }
  std::optional<std::regex> pattern;
  if (!filter.empty()) {
    try {
      pattern.emplace(filter);
    } catch (const std::regex_error& error) {
      std::fprintf(stderr, "error: --filter '%s': %s (expected an ECMAScript regular expression)\n",
                   filter.c_str(), error.what());
      return kExitInvalid;
    }
  }
  std::vector<const RegressionCase*> selected;
  for (const RegressionCase& c : manifest.cases) {
    const bool all = named.empty() && !pattern;
    if (all || named.contains(c.name) || (pattern && std::regex_search(c.name, *pattern)))
      selected.push_back(&c);
  }
  if (selected.empty()) {
    std::fprintf(stderr, "error: --filter '%s' selects no case of %s\n", filter.c_str(),
                 manifest_path.c_str());
    return kExitInvalid;
  }
  if (list) {
    for (const RegressionCase* c : selected)
      std::printf("%s  %s%s\n", Pad(c->name, 32).c_str(), c->scene_as_written.c_str(),
                  c->solver ? ("  --solver " + *c->solver).c_str() : "");
    return 0;
  }

  // scene-runner, the scratch folder, and whether scene-runner knows --solver yet.
  SuiteOptions options;
  options.scene_runner =
      scene_runner_path.empty() ? DefaultSceneRunner() : fs::path(scene_runner_path);
  if (access(options.scene_runner.c_str(), X_OK) != 0) {
    std::fprintf(stderr,
                 "error: scene-runner not found or not executable at %s (build it, or pass "
                 "--scene-runner PATH)\n",
                 options.scene_runner.c_str());
    return kExitInvalid;
  }
  options.plugin_dirs = plugin_dirs;
  options.update = update;
  ScratchDir scratch;
  std::error_code code;
  if (!output_dir.empty()) {
    scratch.path = fs::absolute(output_dir);
    fs::create_directories(scratch.path, code);
  } else {
    std::string templ = (fs::temp_directory_path(code) / "scene-regress-XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr) {
      std::fprintf(stderr, "error: cannot create a scratch folder in %s\n",
                   fs::temp_directory_path(code).c_str());
      return kExitInvalid;
    }
    scratch.path = templ;
    scratch.remove = true;
  }
  if (!fs::is_directory(scratch.path)) {
    std::fprintf(stderr, "error: --output-dir %s: cannot create the folder\n", output_dir.c_str());
    return kExitInvalid;
  }
  options.output_dir = scratch.path;
  if (std::any_of(selected.begin(), selected.end(),
                  [](const RegressionCase* c) { return c->solver.has_value(); }))
    options.runner_has_solver_option = ProbeSolverOption(options.scene_runner, scratch.path);

  std::vector<CaseResult> results(selected.size());
  if (!cluster.empty()) {
    // --cluster: the scene-runner commands run as Dask tasks, then each case is completed here
    // (compared, or recorded) as a local run completes it: the same report, the same status.
    std::vector<std::size_t> run;
    std::vector<CaseCommand> commands;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < selected.size(); ++i) {
      if (std::optional<CaseResult> skipped = SkippedCase(*selected[i], options)) {
        results[i] = *skipped;
        continue;
      }
      run.push_back(i);
      commands.push_back(CommandOf(*selected[i], options));
      names.push_back(selected[i]->name);
    }
    std::string why;
    const std::optional<std::vector<ClusterRun>> runs =
        commands.empty() ? std::vector<ClusterRun>{}
                         : RunOnCluster(cluster, options.scene_runner, commands, names,
                                        scratch.path, quiet, why);
    if (!runs) {
      std::fprintf(stderr, "error: %s\n", why.c_str());
      return kExitInvalid;
    }
    for (std::size_t k = 0; k < run.size(); ++k) {
      const std::size_t i = run[k];
      results[i] =
          CompleteCase(*selected[i], options, commands[k], (*runs)[k].process, (*runs)[k].seconds);
      if (!quiet)
        std::fprintf(stderr, "[%zu/%zu] %s: %s (%.1f s)\n", k + 1, run.size(),
                     selected[i]->name.c_str(), StatusName(results[i].status), results[i].seconds);
    }
  }

  // Run the cases on `jobs` threads; results keep the manifest's order whatever finishes first.
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex progress_mutex;
  if (!cluster.empty()) next = selected.size();  // done above
  const auto worker = [&] {
    for (std::size_t i = next++; i < selected.size(); i = next++) {
      results[i] = RunCase(*selected[i], options);
      const std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      if (!quiet)
        std::fprintf(stderr, "[%zu/%zu] %s: %s (%.1f s)\n", done, selected.size(),
                     selected[i]->name.c_str(), StatusName(results[i].status), results[i].seconds);
    }
  };
  const std::size_t threads = std::min<std::size_t>(
      cluster.empty() ? selected.size() : 1,
      jobs == 0 ? std::max(1u, std::thread::hardware_concurrency()) : static_cast<unsigned>(jobs));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();

  // Details of each failing case, then the summary table, then the totals.
  int exit_status = 0;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const RegressionCase& c = *selected[i];
    const CaseResult& r = results[i];
    for (const std::string& warning : r.warnings)
      std::fprintf(stderr, "warning: %s\n", warning.c_str());
    exit_status = std::max(exit_status, ExitStatusOf(r.status));
    if (!IsFailure(r.status)) continue;
    std::printf("--- %s: %s (scene %s%s, reference %s)\n", c.name.c_str(), StatusName(r.status),
                c.scene_as_written.c_str(), c.solver ? (", solver " + *c.solver).c_str() : "",
                c.reference_as_written.c_str());
    if (r.status != CaseStatus::kMismatch) std::printf("%s\n", r.summary.c_str());
    if (!r.details.empty()) std::printf("%s", r.details.c_str());
    std::printf("\n");
  }
  std::size_t width = 4;
  for (const RegressionCase* c : selected) width = std::max(width, c->name.size());
  // "worst error" is the error that decided the value closest to its tolerance: absolute where
  // the reference is so near 0 that the absolute tolerance dominates (a relative error of 317
  // there passes, and means nothing), relative elsewhere.
  std::printf("%s  %-13s  %-13s  %s\n", Pad("case", width).c_str(), "status", "worst error",
              update ? "what changed" : "first failure");
  std::map<std::string, int> counts;
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const CaseResult& r = results[i];
    ++counts[StatusName(r.status)];
    const std::string worst = r.comparison ? FormatDecidingError(r.comparison->deciding) : "-";
    std::string detail = r.summary.empty() ? "-" : r.summary;
    std::printf("%s  %-13s  %-13s  %s\n", Pad(selected[i]->name, width).c_str(),
                StatusName(r.status), worst.c_str(), detail.c_str());
  }
  std::string totals;
  for (const auto& [status, count] : counts)
    totals += (totals.empty() ? "" : ", ") + std::to_string(count) + " " + status;
  std::printf("%zu cases: %s\n", selected.size(), totals.c_str());
  if (!output_dir.empty()) std::printf("trajectories kept in %s\n", scratch.path.c_str());

  if (!junit_path.empty()) {
    std::ofstream out(junit_path, std::ios::binary | std::ios::trunc);
    out << JUnitXml(
        manifest.path.parent_path().filename().string() + "." + manifest.path.stem().string(),
        selected, results);
    if (!out) {
      std::fprintf(stderr, "error: --junit %s: cannot write the report\n", junit_path.c_str());
      return std::max(exit_status, kExitInvalid);
    }
  }
  std::fflush(stdout);
  return exit_status;
}
