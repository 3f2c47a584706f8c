#include "cluster.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace fluxion::regress {

namespace fs = std::filesystem;

namespace {

// The fluxion package beside this scene-regress: python/ in the build tree, the install folder
// of the Python package once installed (both relative to the folder above bin/).
fs::path PackageFolder() {
  std::error_code error;
  const fs::path prefix = fs::read_symlink("/proc/self/exe", error).parent_path().parent_path();
  for (const char* folder : {"python", FLUXION_PYTHON_INSTALL_DIR}) {
    if (fs::is_regular_file(prefix / folder / "fluxion" / "cluster_run.py", error))
      return prefix / folder;
  }
  return {};
}

}  // namespace

std::optional<std::vector<ClusterRun>> RunOnCluster(const std::string& address,
                                                    const fs::path& scene_runner,
                                                    const std::vector<CaseCommand>& commands,
                                                    const std::vector<std::string>& names,
                                                    const fs::path& scratch, bool quiet,
                                                    std::string& why) {
  const char* python = std::getenv("FLUXION_PYTHON");
  const std::string interpreter =
      python != nullptr && *python != '\0' ? python : FLUXION_PYTHON_EXECUTABLE;
  const fs::path package = PackageFolder();
  if (interpreter.empty() || package.empty()) {
    why =
        "--cluster needs the fluxion Python package beside scene-regress (expected a build "
        "with FLUXION_PYTHON)";
    return std::nullopt;
  }

  // The commands, as the helper reads them; scene-runner by absolute path (workers may start
  // elsewhere), run from our working folder.
  std::error_code error;
  nlohmann::json jobs;
  jobs["cwd"] = fs::current_path(error).string();
  jobs["program"] = fs::absolute(scene_runner, error).string();
  jobs["cases"] = nlohmann::json::array();
  for (std::size_t i = 0; i < commands.size(); ++i)
    jobs["cases"].push_back({{"name", names[i]},
                             {"arguments", commands[i].arguments},
                             {"stderr", fs::absolute(commands[i].log, error).string()}});
  const fs::path jobs_file = scratch / "cluster-jobs.json";
  const fs::path results_file = scratch / "cluster-results.json";
  {
    std::ofstream out(jobs_file, std::ios::binary | std::ios::trunc);
    out << jobs.dump(1);
    if (!out) {
      why = jobs_file.string() + ": cannot write the cluster's job list";
      return std::nullopt;
    }
  }
  fs::remove(results_file, error);

  // The helper finds the package through PYTHONPATH, first; its errors go to our stderr.
  const char* given = std::getenv("PYTHONPATH");
  const std::string path =
      package.string() + (given != nullptr && *given != '\0' ? ":" + std::string(given) : "");
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> arguments = {
      "-m",     "fluxion.cluster_run", "--cluster", address,
      "--jobs", jobs_file.string(),    "--results", results_file.string()};
  if (quiet) arguments.push_back("--quiet");
  const ProcessResult helper = RunProcess(interpreter, arguments, "", "-");
  if (!helper.started || helper.exit_code != 0) {
    why = "--cluster " + address + ": the cases could not be run on the Dask cluster" +
          (helper.started ? " (fluxion.cluster_run exit " + std::to_string(helper.exit_code) + ")"
                          : " (" + helper.error + ")");
    return std::nullopt;
  }

  // The results, one per command, in order.
  std::ifstream in(results_file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const nlohmann::json results = nlohmann::json::parse(text.str());
    if (!results.is_array() || results.size() != commands.size()) {
      why = results_file.string() + ": the cluster's results are not one per case";
      return std::nullopt;
    }
    std::vector<ClusterRun> runs;
    for (const nlohmann::json& result : results) {
      ClusterRun run;
      run.process.started = result.at("started").get<bool>();
      run.process.exit_code = result.at("exit_code").get<int>();
      run.process.signal = result.at("signal").get<int>();
      run.process.error = result.at("error").get<std::string>();
      run.seconds = result.at("seconds").get<double>();
      runs.push_back(std::move(run));
    }
    return runs;
  } catch (const nlohmann::json::exception& problem) {
    why = results_file.string() + ": the cluster's results cannot be read (" + problem.what() + ")";
    return std::nullopt;
  }
}

}  // namespace fluxion::regress
