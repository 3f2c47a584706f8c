// The output policy of a run: every file a run writes — the trajectory, its XDMF, pictures, the
// ParaView files, and what a scene's components write (exporters, WriteState, Monitor, an energy
// file) — is claimed here before it is written, and opened here. A claim is refused when the file
// is an input of the run (by identity: device and inode, whatever its name), is already claimed
// by another writer of the run, is a symbolic link or not a regular file, or (for a name a scene
// gives) lies outside the output folder or exists while replacing files is not allowed. An
// existing file is replaced by a new one renamed over it, never written through: a hard link to a
// file elsewhere is left as it was. The host sets the policy; writers claim and open through it.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fluxion/export.h"

namespace fluxion {

/// Where scene-written files may go (scene-runner --output-dir, --overwrite) and what the run
/// reads.
struct OutputPolicy {
  /// Every scene-written file is created below this folder (it must exist).
  std::filesystem::path directory = ".";
  /// Replace an existing file; by default a scene-written file is created fresh or refused.
  bool overwrite = false;
  /// The inputs of the run, never written whatever the name an output is given: the scene, a
  /// reference being compared.
  std::vector<std::filesystem::path> protected_files;
};

/// Sets the process's policy and starts a new run: the claims of the previous one are forgotten.
/// Hosts do this before loading a scene. Thread-safe.
FLUXION_API void SetOutputPolicy(OutputPolicy policy);
/// The policy in force.
FLUXION_API OutputPolicy CurrentOutputPolicy();

/// Who chose an output's name, which decides where it may be and whether it may replace a file.
enum class OutputOrigin {
  /// A name a scene gives, or a file in a folder of numbered files (--vtk, --render-every):
  /// relative to the policy's folder and below it, an existing file replaced only if `overwrite`.
  kScene,
  /// A file the user named on the command line (scene-runner --output, --render, --animate, and
  /// the XDMF beside an HDF5 output): anywhere, an existing regular file replaced.
  kUser,
};

/// An output of the run, claimed: its path (its folder with every link resolved) and what it is.
struct OutputClaim {
  std::string name;  ///< as given, for messages
  std::filesystem::path path;
  std::string what;  ///< its writer, for messages: "the trajectory (--output)"
  OutputOrigin origin = OutputOrigin::kScene;
};

/// Claims `name` for writing as `what`, without creating anything. Nullopt, with `why` ("cannot
/// open 'NAME' for writing: what is wrong (what was expected)", NAME cut to 80 characters with
/// control characters escaped), when the policy refuses it: a control character in the name, an
/// absolute or ".." name from a scene, a folder that does not exist or (for a scene's name) leads
/// out of the output folder, a symbolic link, a file that is not regular, an input of the run, a
/// file claimed by another writer of the run, or an existing file that may not be replaced.
FLUXION_API std::optional<OutputClaim> ClaimOutputFile(const std::string& name, OutputOrigin origin,
                                                       const std::string& what, std::string* why);

/// Opens the file of `claim` for writing (O_NOFOLLOW, O_NONBLOCK, checked with fstat: a pipe
/// planted meanwhile never blocks): created fresh, or, when an existing file may be replaced, as
/// a new file renamed over it. Returns a descriptor (−1 with `why`); nothing is left behind when
/// it fails. The claim holds while the descriptor stays open on that file.
FLUXION_API int OpenClaimedOutputDescriptor(const OutputClaim& claim, std::string* why);

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using OutputFile = std::unique_ptr<std::FILE, FileCloser>;

/// Every file opened for writing through the policy since it was set (the run's), in the order
/// they were opened, by their resolved paths: what a host lists as the files a run wrote. A file
/// renamed or removed since (NAME.partial, renamed NAME at the end) is still listed.
FLUXION_API std::vector<std::filesystem::path> OpenedOutputFiles();

/// OpenClaimedOutputDescriptor as a stream.
FLUXION_API OutputFile OpenClaimedOutputFile(const OutputClaim& claim, std::string* why);

/// Claims and opens a name a scene gives (OutputOrigin::kScene), relative to the policy's
/// folder. Null with `why` when refused or when it cannot be opened.
FLUXION_API OutputFile OpenSceneOutputFile(const std::string& name, std::string* why);

}  // namespace fluxion
