#include "fluxion/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

namespace fluxion {

namespace fs = std::filesystem;

namespace {

std::mutex policy_mutex;
OutputPolicy& Policy() {
  static OutputPolicy policy;
  return policy;
}

// True if `inner` (resolved) is `root` (resolved) or lies below it.
bool IsWithin(const fs::path& inner, const fs::path& root) {
  auto i = inner.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++i)
    if (i == inner.end() || *i != *r) return false;
  return true;
}

}  // namespace

void SetOutputPolicy(OutputPolicy policy) {
  const std::lock_guard<std::mutex> lock(policy_mutex);
  Policy() = std::move(policy);
}

OutputPolicy CurrentOutputPolicy() {
  const std::lock_guard<std::mutex> lock(policy_mutex);
  return Policy();
}

OutputFile OpenSceneOutputFile(const std::string& name, std::string* why) {
  const OutputPolicy policy = CurrentOutputPolicy();
  const auto refuse = [&](const std::string& reason) {
    if (why) *why = "cannot open '" + name + "' for writing: " + reason;
    return OutputFile();
  };
  const fs::path relative(name);
  if (name.empty()) return refuse("the name is empty (expected a name like \"energy.csv\")");
  if (relative.is_absolute())
    return refuse("it is an absolute path (expected a name relative to the output folder)");
  for (const fs::path& component : relative)
    if (component == "..") return refuse("it leaves the output folder (expected no '..')");

  // The folder the file goes in, with every symbolic link resolved, must stay inside the output
  // folder (a link inside it pointing elsewhere is refused).
  std::error_code error;
  const fs::path root = fs::canonical(policy.directory, error);
  if (error)
    return refuse("the output folder '" + policy.directory.string() +
                  "' does not exist (expected an existing folder)");
  const fs::path folder = fs::canonical(root / relative.parent_path(), error);
  if (error)
    return refuse("its folder does not exist in the output folder '" + root.string() +
                  "' (expected an existing folder)");
  if (!IsWithin(folder, root))
    return refuse("it resolves outside the output folder '" + root.string() +
                  "' (expected a file below it)");
  const fs::path target = folder / relative.filename();

  // O_NOFOLLOW: the file itself may not be a link. Without --overwrite, O_EXCL creates it fresh.
  int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC;
  if (!policy.overwrite) flags |= O_EXCL;
  const int fd = ::open(target.c_str(), flags, 0666);
  if (fd < 0) {
    if (errno == EEXIST)
      return refuse("it already exists in '" + root.string() +
                    "' (expected a new file; allow replacing it with --overwrite)");
    if (errno == ELOOP) return refuse("it is a symbolic link (expected a plain file)");
    return refuse(std::string(std::strerror(errno)) + " (expected a writable folder)");
  }
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    ::close(fd);
    return refuse("it is not a regular file (expected a plain file)");
  }
  // Never an input of the run, under whatever name: compared by identity, before truncating.
  for (const fs::path& input : policy.protected_files) {
    struct stat protected_info {};
    if (::stat(input.c_str(), &protected_info) == 0 && protected_info.st_dev == opened.st_dev &&
        protected_info.st_ino == opened.st_ino) {
      ::close(fd);
      return refuse("it is an input of this run (" + input.string() + "; expected another file)");
    }
  }
  if (::ftruncate(fd, 0) != 0) {
    ::close(fd);
    return refuse(std::string("it cannot be truncated: ") + std::strerror(errno));
  }
  std::FILE* file = ::fdopen(fd, "w");
  if (file == nullptr) {
    ::close(fd);
    return refuse("no stream could be opened on it");
  }
  return OutputFile(file);
}

}  // namespace fluxion
