#include "run_outputs.h"

#include "fluxion/text.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

namespace fluxion::runner {

bool IsDirectOutput(const std::string& path) {
  struct stat existing {};
  return ::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
         !S_ISDIR(existing.st_mode);
}

bool IsHdf5Output(const std::string& path) {
  return path.ends_with(".h5") || path.ends_with(".hdf5");
}

std::string WrittenFilesText(const RunOutputClaims& claims) {
  namespace fs = std::filesystem;
  // The files, folder by folder in the order of their first file.
  std::vector<std::pair<fs::path, std::vector<std::string>>> folders;
  std::error_code error;
  for (fs::path file : OpenedOutputFiles()) {
    if (claims.partial && claims.trajectory && file == claims.partial->path)
      file = claims.trajectory->path;  // renamed at the end of a finished run
    if (!fs::is_regular_file(file, error)) continue;
    auto folder = std::find_if(folders.begin(), folders.end(), [&](const auto& entry) {
      return entry.first == file.parent_path();
    });
    if (folder == folders.end())
      folder = folders.insert(folders.end(), {file.parent_path(), std::vector<std::string>{}});
    if (std::find(folder->second.begin(), folder->second.end(), file.filename().string()) ==
        folder->second.end())
      folder->second.push_back(file.filename().string());
  }
  if (folders.empty()) return {};
  std::string text = "files written:\n";
  const fs::path here = fs::current_path(error);
  for (const auto& [folder, names] : folders) {
    // Paths as the user can type them: relative to the current folder when below it.
    const fs::path relative = folder.lexically_relative(here);
    const fs::path shown = !relative.empty() && *relative.begin() != ".." ? relative : folder;
    const auto path_of = [&](const std::string& name) {
      return EscapeControl((shown == "." ? fs::path(name) : shown / name).string());
    };
    // A series (more than four files of one extension: --vtk's .vtu, --render-every's .png) is
    // one line; the others (the .pvd beside its .vtu files) are listed by name.
    constexpr std::ptrdiff_t kListedPerExtension = 4;
    const auto extension = [](const std::string& name) { return fs::path(name).extension(); };
    std::vector<fs::path> summarised;
    for (const std::string& name : names) {
      const fs::path type = extension(name);
      const auto same = [&](const std::string& other) { return extension(other) == type; };
      const std::ptrdiff_t count = std::count_if(names.begin(), names.end(), same);
      if (count <= kListedPerExtension) {
        text += "  " + path_of(name) + "\n";
      } else if (std::find(summarised.begin(), summarised.end(), type) == summarised.end()) {
        summarised.push_back(type);
        const auto last = std::find_if(names.rbegin(), names.rend(), same);
        text += "  " + std::to_string(count) + " " + EscapeControl(type.string()) +
                " files: " + path_of(name) + " … " + path_of(*last) + "\n";
      }
    }
  }
  return text;
}

bool ClaimRunOutputs(const RunOptions& options, RunOutputClaims& claims, std::string& why) {
  OutputPolicy policy;
  policy.directory = options.output_dir;
  policy.overwrite = options.overwrite;
  if (options.scene != "-") policy.protected_files.emplace_back(options.scene);
  if (!options.compare.empty()) policy.protected_files.emplace_back(options.compare);
  SetOutputPolicy(std::move(policy));

  // Each named file, in the order the run writes them; the first refusal is the error.
  const auto claim = [&](std::optional<OutputClaim>& slot, const std::string& name,
                         const std::string& what, const std::string& option) {
    if (name.empty()) return true;
    std::string reason;
    slot = ClaimOutputFile(name, OutputOrigin::kUser, what, &reason);
    // FILE: what is wrong, as for every file error; the option names which file it is.
    if (!slot) why = EscapeControl(name) + ": " + option + ": " + reason;
    return slot.has_value();
  };
  if (!options.output.empty() && !IsDirectOutput(options.output)) {
    std::filesystem::path xdmf = options.output;
    xdmf.replace_extension(".xdmf");
    if (!claim(claims.trajectory, options.output, "the trajectory (--output)", "--output") ||
        !claim(claims.partial, options.output + ".partial", "the trajectory (--output)",
               "--output") ||
        (IsHdf5Output(options.output) &&
         !claim(claims.xdmf, xdmf.string(), "the XDMF file of the trajectory (--output)",
                "--output")))
      return false;
  }
  return claim(claims.topologies, options.topologies, "the topologies (--topologies)",
               "--topologies") &&
         claim(claims.render, options.render, "the final picture (--render)", "--render") &&
         claim(claims.animate, options.animate, "the animation (--animate)", "--animate");
}

}  // namespace fluxion::runner
