// scene-regress --cluster: the cases' scene-runner commands run as Dask tasks, by the Python
// helper `python3 -m fluxion.cluster_run` (python/fluxion/cluster_run.py), on a Dask cluster or a
// LocalCluster. The comparisons stay here: the report is the one a local run prints.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "subprocess.h"
#include "suite.h"

namespace fluxion::regress {

/// How one command ended on the cluster, and how long it ran there [s].
struct ClusterRun {
  ProcessResult process;
  double seconds = 0;
};

/// Runs every command (scene-runner with its arguments, from this process's working folder,
/// stderr into its log) as a Dask task on `address`: a scheduler ("tcp://host:8786"), "local"
/// (a LocalCluster of one worker per core) or "local:N". The folders must be shared with the
/// workers (one machine, or a shared file system). Returns the runs in the commands' order, or
/// nullopt with `why` when the helper or the cluster could not be used (its error is on stderr).
std::optional<std::vector<ClusterRun>> RunOnCluster(const std::string& address,
                                                    const std::filesystem::path& scene_runner,
                                                    const std::vector<CaseCommand>& commands,
                                                    const std::vector<std::string>& names,
                                                    const std::filesystem::path& scratch,
                                                    bool quiet, std::string& why);

}  // namespace fluxion::regress
