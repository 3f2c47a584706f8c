#include "build/input_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/text_parsing.h"
#include "fluxion/log.h"

namespace fluxion::internal {

namespace fs = std::filesystem;

namespace {

// The canonical form of an existing folder, or nothing.
std::optional<fs::path> CanonicalFolder(const fs::path& folder) {
  std::error_code error;
  const fs::path canonical = fs::canonical(folder, error);
  if (error || !fs::is_directory(canonical, error)) return std::nullopt;
  return canonical;
}

// A folder `name` directly in `tree` that is a real folder, not a symbolic link: a link could
// lead anywhere (`share -> /`), and an archive or a git checkout keeps links.
bool IsRealSubfolder(const fs::path& tree, const char* name) {
  std::error_code error;
  return fs::symlink_status(tree / name, error).type() == fs::file_type::directory;
}

// The SOFA source tree `folder` lies in, for a hint only: the nearest ancestor holding share/
// and examples/ as real folders (SOFA's DataRepository looks for meshes in those two).
std::optional<fs::path> SofaTreeAround(fs::path folder) {
  for (; !folder.empty(); folder = folder.parent_path()) {
    if (IsRealSubfolder(folder, "share") && IsRealSubfolder(folder, "examples")) return folder;
    if (folder == folder.parent_path()) break;
  }
  return std::nullopt;
}

}  // namespace

InputFolders::InputFolders(const std::string& scene_file, const LoadOptions& options)
    : max_bytes_(options.max_input_bytes) {
  const auto add = [&](const fs::path& folder) {
    const std::optional<fs::path> canonical = CanonicalFolder(folder);
    if (!canonical) {
      LogWarn("data folder '" + Shown(folder.string()) + "' does not exist: skipped");
      return;
    }
    if (std::find(folders_.begin(), folders_.end(), *canonical) == folders_.end())
      folders_.push_back(*canonical);
  };
  const fs::path scene_folder = fs::path(scene_file).parent_path();
  add(scene_folder.empty() || scene_file == "-" ? fs::path(".") : scene_folder);
  for (const std::string& folder : options.data_path) add(folder);
  // A SOFA tree is a data root only when the user names it (SOFA_ROOT), never guessed from the
  // scene's ancestors: a downloaded scene must not choose what it may read. Its share/ and
  // examples/ must be real folders of the tree, not links out of it.
  const char* sofa_root = options.sofa_data_path ? std::getenv("SOFA_ROOT") : nullptr;
  if (sofa_root != nullptr && *sofa_root != '\0') {
    const fs::path tree(sofa_root);
    for (const char* data : {"share", "examples"}) {
      if (IsRealSubfolder(tree, data))
        add(tree / data);
      else
        LogWarn("SOFA_ROOT '" + Shown(tree.string()) + "' has no folder " + data +
                "/ (a symbolic link is not followed): skipped");
    }
  } else if (!folders_.empty()) {
    unnamed_sofa_tree_ = SofaTreeAround(folders_.front());
  }
}

bool InputFolders::Contains(const fs::path& canonical) const {
  for (const fs::path& folder : folders_) {
    auto [end, ignored] =
        std::mismatch(folder.begin(), folder.end(), canonical.begin(), canonical.end());
    if (end == folder.end()) return true;
  }
  return false;
}

bool InputFolders::AddFolder(const std::string& folder, std::string& why) {
  const std::string shown = "'" + Shown(folder) + "'";
  if (folder.empty() || folder.find('\0') != std::string::npos || folders_.empty()) {
    why = "no folder given (expected a folder below the scene's folder)";
    return false;
  }
  const fs::path given(folder);
  const std::optional<fs::path> canonical =
      CanonicalFolder(given.is_absolute() ? given : folders_.front() / given);
  if (!canonical) {
    why = shown + " is not an existing folder (expected a folder, relative to the scene's)";
    return false;
  }
  if (!Contains(*canonical)) {
    why = shown + " leads to " + Shown(canonical->string()) +
          ", outside the folders a scene may read (expected a folder below " + FolderList() +
          "; scene-runner --data-path adds a folder)";
    return false;
  }
  if (std::find(folders_.begin(), folders_.end(), *canonical) == folders_.end())
    folders_.push_back(*canonical);
  return true;
}

std::string InputFolders::FolderList() const {
  std::string list;
  for (const fs::path& folder : folders_) list += (list.empty() ? "" : ", ") + folder.string();
  return list;
}

std::optional<BuildContext::InputFile> InputFolders::Read(const std::string& name,
                                                          std::string& why) const {
  return ReadFrom(name, "", why);
}

std::optional<BuildContext::InputFile> InputFolders::ReadFrom(const std::string& name,
                                                              const std::string& including_file,
                                                              std::string& why) const {
  const std::string shown = "'" + Shown(name) + "'";
  if (name.empty() || name.find('\0') != std::string::npos) {
    why = "no file name given (expected the name of a file)";
    return std::nullopt;
  }
  std::vector<fs::path> candidates;
  if (fs::path(name).is_absolute())
    candidates.emplace_back(name);
  else {
    if (!including_file.empty()) {
      const std::optional<fs::path> own = CanonicalFolder(fs::path(including_file).parent_path());
      if (own && Contains(*own)) candidates.push_back(*own / name);
    }
    for (const fs::path& folder : folders_) candidates.push_back(folder / name);
  }

  for (const fs::path& candidate : candidates) {
    std::error_code error;
    if (!fs::exists(fs::symlink_status(candidate, error))) continue;
    const fs::path canonical = fs::canonical(candidate, error);
    if (error) continue;  // a dangling link: as if absent
    if (!Contains(canonical)) {
      why = shown + " leads to " + Shown(canonical.string()) +
            ", outside the folders a scene may read (expected a file below " + FolderList() +
            "; scene-runner --data-path adds a folder)";
      return std::nullopt;
    }
    // O_NONBLOCK: a FIFO must not block the open; it is refused just below.
    const int fd = ::open(canonical.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      why = "cannot read " + shown + " (" + std::strerror(errno) + ")";
      return std::nullopt;
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
      ::close(fd);
      why = shown + " is not a regular file (expected a file, not a folder, FIFO or device)";
      return std::nullopt;
    }
    if (static_cast<std::size_t>(info.st_size) > max_bytes_) {
      ::close(fd);
      why = shown + " holds " + std::to_string(info.st_size) + " bytes (expected at most " +
            std::to_string(max_bytes_) + ": LoadOptions::max_input_bytes)";
      return std::nullopt;
    }
    BuildContext::InputFile file;
    file.path = candidate.lexically_normal().string();
    file.bytes.resize(static_cast<std::size_t>(info.st_size));
    std::size_t done = 0;
    while (done < file.bytes.size()) {
      const ssize_t got = ::read(fd, file.bytes.data() + done, file.bytes.size() - done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      done += static_cast<std::size_t>(got);
    }
    ::close(fd);
    file.bytes.resize(done);  // a file that shrank while read: what was there
    return file;
  }
  why = shown + " was not found (searched " + FolderList() + ")";
  if (unnamed_sofa_tree_)
    why += "; the scene lies in the SOFA tree " + Shown(unnamed_sofa_tree_->string()) +
           ": SOFA_ROOT=" + Shown(unnamed_sofa_tree_->string()) +
           " makes its share/ and examples/ data folders";
  return std::nullopt;
}

}  // namespace fluxion::internal
