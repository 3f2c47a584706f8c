#include "output_folder.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fluxion::runner {

namespace fs = std::filesystem;

namespace {

// True if `inner` is `root` or lies below it (both canonical).
bool IsWithin(const fs::path& inner, const fs::path& root) {
  auto i = inner.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++i)
    if (i == inner.end() || *i != *r) return false;
  return true;
}

}  // namespace

bool PrepareOutputFolder(const std::string& folder, const std::string& output_dir,
                         std::string& relative, std::string& why) {
  std::error_code error;
  const fs::path root = fs::canonical(output_dir, error);
  if (error) {
    why = "the output folder '" + output_dir + "' does not exist (expected an existing folder)";
    return false;
  }
  // Relative to the working folder, as every path on the command line.
  fs::path target = fs::absolute(folder, error).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();  // "out/" is "out"
  const auto outside = [&] {
    why = "'" + folder + "' is outside the output folder '" + root.string() +
          "' (expected a folder below it; choose the output folder with --output-dir)";
    return false;
  };
  // The parent must exist inside the output folder once links are resolved; the folder itself
  // is created if missing, then resolved again.
  if (!fs::exists(fs::symlink_status(target, error))) {
    const fs::path parent = fs::canonical(target.parent_path(), error);
    if (error) {
      why = "the folder holding '" + folder + "' does not exist (expected an existing folder)";
      return false;
    }
    if (!IsWithin(parent, root)) return outside();
    if (::mkdir(target.c_str(), 0777) != 0 && errno != EEXIST) {
      why = "cannot create '" + folder + "': " + std::strerror(errno) +
            " (expected a writable folder)";
      return false;
    }
  }
  const fs::path resolved = fs::canonical(target, error);
  if (error || !fs::is_directory(resolved, error)) {
    why = "'" + folder + "' is not a folder (expected a folder for the numbered files)";
    return false;
  }
  if (!IsWithin(resolved, root)) return outside();
  relative = resolved.lexically_relative(root).string();
  if (relative.empty()) relative = ".";
  return true;
}

}  // namespace fluxion::runner
