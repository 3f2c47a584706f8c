// The file policy for what a scene writes: files a component or solver creates because the scene
// asks for it (an energy file, an exporter's output) are created only below the output folder the
// user gave, never through a symbolic link, never over an input of the run, and never over an
// existing file unless the user allowed it. The host sets the policy; components open through it.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "fluxion/export.h"

namespace fluxion {

/// Where scene-written files may go (scene-runner --output-dir, --overwrite).
struct OutputPolicy {
  /// Every scene-written file is created below this folder (it must exist).
  std::filesystem::path directory = ".";
  /// Replace an existing file; by default a scene-written file is created fresh or refused.
  bool overwrite = false;
  /// Files that are never written, whatever their name: the scene, a reference being compared.
  std::vector<std::filesystem::path> protected_files;
};

/// Sets the process's policy (hosts do, before loading a scene). Thread-safe.
FLUXION_API void SetOutputPolicy(OutputPolicy policy);
/// The policy in force.
FLUXION_API OutputPolicy CurrentOutputPolicy();

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using OutputFile = std::unique_ptr<std::FILE, FileCloser>;

/// Opens `name` for writing under the policy in force: `name` is relative to the policy's folder
/// (an absolute name or a ".." component is refused), its folder must already exist inside the
/// policy's folder once symbolic links are resolved, the file itself may not be a symbolic link,
/// an input of the run, or (unless `overwrite`) an existing file. Returns null and sets `why`
/// ("what is wrong (what was expected)") when it refuses or cannot open.
FLUXION_API OutputFile OpenSceneOutputFile(const std::string& name, std::string* why);

}  // namespace fluxion
