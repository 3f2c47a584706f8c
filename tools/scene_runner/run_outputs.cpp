#include "run_outputs.h"

#include "fluxion/text.h"

#include <sys/stat.h>

#include <filesystem>

namespace fluxion::runner {

bool IsDirectOutput(const std::string& path) {
  struct stat existing {};
  return ::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
         !S_ISDIR(existing.st_mode);
}

bool IsHdf5Output(const std::string& path) {
  return path.ends_with(".h5") || path.ends_with(".hdf5");
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
  return claim(claims.render, options.render, "the final picture (--render)", "--render") &&
         claim(claims.animate, options.animate, "the animation (--animate)", "--animate");
}

}  // namespace fluxion::runner
