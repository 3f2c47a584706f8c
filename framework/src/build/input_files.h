// The input policy: which files a scene may make Fluxion read (meshes, included fragments), and
// reading them with a bound. Outputs have their own policy (fluxion/output_files.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fluxion/component.h"
#include "fluxion/host.h"

namespace fluxion::internal {

/// The folders a scene may read from, in lookup order: the scene's folder, the user's data
/// folders, then the share/ and examples/ of the SOFA tree the SOFA_ROOT environment variable
/// names. Only the user names data folders: a SOFA tree around the scene is not guessed (a
/// downloaded folder holding `share -> /` would make every file readable), only named in the
/// "not found" message. Each is canonical (symbolic links resolved) so that containment is a
/// plain prefix test.
class InputFolders {
 public:
  InputFolders(const std::string& scene_file, const LoadOptions& options);

  /// Reads `name` (relative to each folder in turn, or absolute) if, once its links are
  /// resolved, it is a regular file inside one of the folders and at most `max_bytes` long.
  /// Otherwise returns nothing and sets `why` ("what is wrong (what was expected)").
  std::optional<BuildContext::InputFile> Read(const std::string& name, std::string& why) const;
  /// The same, looking first in the folder of `including_file` (SOFA's findFileFromFile: an
  /// included fragment's own includes are relative to it), if that folder is allowed.
  std::optional<BuildContext::InputFile> ReadFrom(const std::string& name,
                                                  const std::string& including_file,
                                                  std::string& why) const;

  /// Appends `folder` to the lookup (SOFA's AddDataRepository), relative to the scene's folder
  /// unless absolute. Once its links are resolved it must be an existing folder inside one the
  /// scene may already read: a scene never widens what it may read. False with `why` otherwise.
  bool AddFolder(const std::string& folder, std::string& why);

  const std::vector<std::filesystem::path>& folders() const { return folders_; }

 private:
  bool Contains(const std::filesystem::path& canonical) const;
  std::string FolderList() const;

  std::vector<std::filesystem::path> folders_;
  std::size_t max_bytes_;
  /// The SOFA tree (real share/ and examples/) around the scene when SOFA_ROOT is not set: a
  /// hint for the "not found" message, never a data folder.
  std::optional<std::filesystem::path> unnamed_sofa_tree_;
};

}  // namespace fluxion::internal
