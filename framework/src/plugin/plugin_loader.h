// Finds and loads solver plugins (fluxion_*.so) from the plugin search path with Boost.DLL.
// The only file that includes Boost.DLL.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "fluxion/host.h"
#include "registry/component_registry.h"

namespace fluxion::internal {

using PluginRecord = PluginInfo;

/// The search path, in order: the bundled plugin folder (<libdir>/fluxion/plugins beside the
/// framework library, in the build tree and in an install), then each folder of the colon-separated
/// FLUXION_PLUGIN_PATH, then each --plugin-dir. Only files named fluxion_*.so directly in those
/// folders are plugins.
class PluginLoader {
 public:
  explicit PluginLoader(ComponentRegistry& registry) : registry_(registry) {}

  /// The bundled folder next to the framework library.
  static std::filesystem::path BundledPluginDirectory();

  /// Adds the bundled folder and FLUXION_PLUGIN_PATH's folders.
  void AddDefaultDirectories();
  /// Adds one folder (a missing folder is recorded as a problem when it was asked for explicitly).
  void AddDirectory(const std::filesystem::path& directory, const std::string& source);

  /// Loads every plugin file found on the search path, in search-path order and, within a folder,
  /// by file name. A file that cannot be loaded is recorded (see `records`) and the others still
  /// load: this includes a plugin registering a component name that is already taken (by an
  /// earlier plugin or a built-in), whose record names the file that registered it first.
  void LoadAll();

  /// Whether each refused file is logged as a warning (default) or only at debug level, for a
  /// caller that reports `records()` itself.
  void LogRefusals(bool enabled) { log_refusals_ = enabled; }
  /// Refuse (instead of only warning about) plugin files and folders writable by every user.
  void StrictPermissions(bool enabled) { strict_permissions_ = enabled; }

  /// The plugin called `name` ("euler_explicit" or "fluxion_euler_explicit"), if loaded.
  const PluginRecord* FindLoaded(std::string_view name) const;

  const std::vector<PluginRecord>& records() const { return records_; }
  const std::vector<std::pair<std::filesystem::path, std::string>>& directories() const {
    return directories_;
  }
  /// Problems with the search path itself (an explicitly given folder that does not exist).
  const std::vector<std::string>& directory_problems() const { return directory_problems_; }
  /// True if any plugin file was refused or any explicit folder is missing.
  bool has_failures() const;

 private:
  void LoadFile(const std::filesystem::path& path, const std::string& source);

  ComponentRegistry& registry_;
  std::vector<std::pair<std::filesystem::path, std::string>> directories_;
  std::vector<std::string> directory_problems_;
  std::vector<PluginRecord> records_;
  bool log_refusals_ = true;
  bool strict_permissions_ = false;
};

}  // namespace fluxion::internal
