#include "fluxion/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/text_parsing.h"

namespace fluxion {

namespace fs = std::filesystem;

namespace {

// A file as the kernel knows it: two names of one file have one identity.
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

FileIdentity IdentityOf(const struct stat& info) { return {info.st_dev, info.st_ino}; }

// A claim as the policy keeps it. Until its file is opened it holds for the whole run (the
// trajectory, claimed before the scene is loaded); once opened, for as long as the descriptor
// opened on it still refers to that file: a writer that closed its file gives the name back
// (a Python host running the same scene twice under one policy).
struct HeldClaim {
  OutputClaim claim;
  int descriptor = -1;
  FileIdentity opened;

  bool live() const {
    if (descriptor < 0) return true;
    struct stat info {};
    return ::fstat(descriptor, &info) == 0 && IdentityOf(info) == opened;
  }
};

struct RunOutputs {
  OutputPolicy policy;
  std::vector<HeldClaim> claims;
  std::vector<fs::path> opened;  ///< every file opened for writing in this run, in order
};

std::mutex run_mutex;
RunOutputs& Run() {
  static RunOutputs run;
  return run;
}

// True if `inner` (resolved) is `root` (resolved) or lies below it.
bool IsWithin(const fs::path& inner, const fs::path& root) {
  auto i = inner.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++i)
    if (i == inner.end() || *i != *r) return false;
  return true;
}

bool HasControlCharacter(const std::string& name) {
  return std::any_of(name.begin(), name.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

// The folder `name` goes in, every link resolved, or the reason it may not be used. A scene's
// name is relative to the output folder and must stay below it; a user's is taken as given.
std::optional<fs::path> ResolvedFolder(const fs::path& name, OutputOrigin origin,
                                       const OutputPolicy& policy, std::string& reason) {
  std::error_code error;
  if (origin == OutputOrigin::kUser) {
    const fs::path folder = fs::canonical(fs::absolute(name, error).parent_path(), error);
    if (!error) return folder;
    reason = "its folder does not exist (expected an existing folder)";
    return std::nullopt;
  }
  if (name.is_absolute()) {
    reason = "it is an absolute path (expected a name relative to the output folder)";
    return std::nullopt;
  }
  for (const fs::path& component : name)
    if (component == "..") {
      reason = "it leaves the output folder (expected no '..')";
      return std::nullopt;
    }
  const fs::path root = fs::canonical(policy.directory, error);
  if (error) {
    reason = "the output folder '" + internal::Shown(policy.directory.string()) +
             "' does not exist (expected an existing folder)";
    return std::nullopt;
  }
  const fs::path folder = fs::canonical(root / name.parent_path(), error);
  if (error) {
    reason = "its folder does not exist in the output folder '" + internal::Shown(root.string()) +
             "' (expected an existing folder)";
    return std::nullopt;
  }
  if (!IsWithin(folder, root)) {
    reason = "it resolves outside the output folder '" + internal::Shown(root.string()) +
             "' (expected a file below it)";
    return std::nullopt;
  }
  return folder;
}

// What an existing file at `target` forbids, "" if nothing: it is checked without being opened.
std::string ExistingFileProblem(const fs::path& target, OutputOrigin origin,
                                const OutputPolicy& policy) {
  struct stat existing {};
  if (::lstat(target.c_str(), &existing) != 0) return "";  // a new file
  if (S_ISLNK(existing.st_mode)) return "it is a symbolic link (expected a plain file)";
  if (!S_ISREG(existing.st_mode))
    return "it is not a regular file (a folder, a pipe or a device; expected a plain file)";
  // Never an input of the run, under whatever name.
  for (const fs::path& input : policy.protected_files) {
    struct stat input_info {};
    if (::stat(input.c_str(), &input_info) == 0 && IdentityOf(input_info) == IdentityOf(existing))
      return "it is an input of this run (" + internal::Shown(input.string()) +
             "; expected another file: an output never replaces an input)";
  }
  if (origin == OutputOrigin::kScene && !policy.overwrite)
    return "it already exists in '" + internal::Shown(target.parent_path().string()) +
           "' (expected a new file; allow replacing it with --overwrite)";
  return "";
}

// May the claim's file replace an existing one?
bool MayReplace(const OutputClaim& claim, const OutputPolicy& policy) {
  return claim.origin == OutputOrigin::kUser || policy.overwrite;
}

// A fresh file beside `target`, named so that no scene name collides with it by chance.
int CreateTemporary(const fs::path& target, fs::path& temporary) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary =
        target.parent_path() / ("." + target.filename().string() + ".fluxion-" +
                                std::to_string(::getpid()) + "-" + std::to_string(counter++));
    const int fd = ::open(temporary.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

}  // namespace

void SetOutputPolicy(OutputPolicy policy) {
  const std::lock_guard<std::mutex> lock(run_mutex);
  Run() = {std::move(policy), {}, {}};
}

OutputPolicy CurrentOutputPolicy() {
  const std::lock_guard<std::mutex> lock(run_mutex);
  return Run().policy;
}

std::vector<fs::path> OpenedOutputFiles() {
  const std::lock_guard<std::mutex> lock(run_mutex);
  return Run().opened;
}

std::optional<OutputClaim> ClaimOutputFile(const std::string& name, OutputOrigin origin,
                                           const std::string& what, std::string* why) {
  const auto refuse = [&](const std::string& reason) {
    if (why) *why = "cannot open '" + internal::Shown(name) + "' for writing: " + reason;
    return std::nullopt;
  };
  if (name.empty()) return refuse("the name is empty (expected a name like \"energy.csv\")");
  if (HasControlCharacter(name))
    return refuse("the name holds a control character (expected printable characters only)");
  const fs::path given(name);
  if (!given.has_filename() || given.filename() == "." || given.filename() == "..")
    return refuse("it names a folder (expected a file name)");

  const std::lock_guard<std::mutex> lock(run_mutex);
  RunOutputs& run = Run();
  std::string reason;
  const std::optional<fs::path> folder = ResolvedFolder(given, origin, run.policy, reason);
  if (!folder) return refuse(reason);
  OutputClaim claim{name, *folder / given.filename(), what, origin};
  if (reason = ExistingFileProblem(claim.path, origin, run.policy); !reason.empty())
    return refuse(reason);
  // One writer per file: the run's other outputs, whatever flags are given.
  std::erase_if(run.claims, [](const HeldClaim& held) { return !held.live(); });
  for (const HeldClaim& held : run.claims)
    if (held.claim.path == claim.path)
      return refuse("it is already written by " + held.claim.what +
                    " in this run (expected one writer per file)");
  run.claims.push_back({claim, -1, {}});
  return claim;
}

int OpenClaimedOutputDescriptor(const OutputClaim& claim, std::string* why) {
  const OutputPolicy policy = CurrentOutputPolicy();
  // A file that could not be opened gives its name back: nothing of this writer remains.
  const auto refuse = [&](const std::string& reason) {
    if (why) *why = "cannot open '" + internal::Shown(claim.name) + "' for writing: " + reason;
    const std::lock_guard<std::mutex> lock(run_mutex);
    std::erase_if(Run().claims, [&](const HeldClaim& held) {
      return held.claim.path == claim.path && held.descriptor < 0;
    });
    return -1;
  };
  // Checked again: the folder may have changed since the claim.
  if (const std::string problem = ExistingFileProblem(claim.path, claim.origin, policy);
      !problem.empty())
    return refuse(problem);

  // A new file in either case: created where no file may be replaced (O_EXCL), else created
  // beside it and renamed over whatever is there. rename() neither opens nor follows the old
  // name, so an existing file's inode (a hard link to a file elsewhere) is never written.
  int fd = -1;
  if (!MayReplace(claim, policy)) {
    fd = ::open(claim.path.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST)
      return refuse("it already exists (expected a new file; allow replacing it with --overwrite)");
  } else {
    fs::path temporary;
    fd = CreateTemporary(claim.path, temporary);
    if (fd >= 0 && ::rename(temporary.c_str(), claim.path.c_str()) != 0) {
      const int rename_error = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      return refuse(std::string(std::strerror(rename_error)) + " (expected a plain file)");
    }
  }
  if (fd < 0) return refuse(std::string(std::strerror(errno)) + " (expected a writable folder)");
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
    ::close(fd);
    return refuse("it is not a regular file (expected a plain file)");
  }
  // Blocking writes from here on: the file is a regular one.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);

  // The claim now holds while this descriptor is open on this file.
  const std::lock_guard<std::mutex> lock(run_mutex);
  Run().opened.push_back(claim.path);
  for (HeldClaim& held : Run().claims)
    if (held.claim.path == claim.path && held.descriptor < 0) {
      held.descriptor = fd;
      held.opened = IdentityOf(opened);
      break;
    }
  return fd;
}

OutputFile OpenClaimedOutputFile(const OutputClaim& claim, std::string* why) {
  const int fd = OpenClaimedOutputDescriptor(claim, why);
  if (fd < 0) return OutputFile();
  std::FILE* file = ::fdopen(fd, "w");
  if (file == nullptr) {
    ::close(fd);
    if (why) *why = "cannot open '" + internal::Shown(claim.name) + "' for writing: no stream";
  }
  return OutputFile(file);
}

OutputFile OpenSceneOutputFile(const std::string& name, std::string* why) {
  const std::optional<OutputClaim> claim =
      ClaimOutputFile(name, OutputOrigin::kScene, "another component of the scene", why);
  if (!claim) return OutputFile();
  return OpenClaimedOutputFile(*claim, why);
}

}  // namespace fluxion
