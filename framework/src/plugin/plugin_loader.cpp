#include "plugin/plugin_loader.h"

#include <sys/stat.h>

#include <boost/dll/library_info.hpp>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include <algorithm>
#include <cstdlib>

#include "fluxion/errors.h"
#include "fluxion/log.h"
#include "fluxion/version.h"

namespace fluxion::internal {

namespace fs = std::filesystem;

namespace {

constexpr const char* kDescriptorSymbol = "fluxion_plugin_descriptor";

bool IsPluginFileName(const fs::path& path) {
  const std::string file = path.filename().string();
  return file.rfind("fluxion_", 0) == 0 && path.extension() == ".so";
}

std::string CopyString(const char* text) {
  return text == nullptr ? std::string() : std::string(text);
}

}  // namespace

fs::path PluginLoader::BundledPluginDirectory() {
  // The framework library lives in <libdir>; plugins in <libdir>/fluxion/plugins.
  std::error_code error;
  const fs::path library = boost::dll::this_line_location(error);
  if (error) return {};
  return library.parent_path() / "fluxion" / "plugins";
}

void PluginLoader::AddDefaultDirectories() {
  const fs::path bundled = BundledPluginDirectory();
  if (!bundled.empty()) {
    std::error_code error;
    if (fs::is_directory(bundled, error)) AddDirectory(bundled, "bundled");
  }
  if (const char* env = std::getenv("FLUXION_PLUGIN_PATH"); env != nullptr) {
    std::string list = env;
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t end = std::min(list.find(':', start), list.size());
      const std::string folder = list.substr(start, end - start);
      if (!folder.empty()) AddDirectory(folder, "FLUXION_PLUGIN_PATH");
      start = end + 1;
    }
  }
}

void PluginLoader::AddDirectory(const fs::path& directory, const std::string& source) {
  std::error_code error;
  if (!fs::is_directory(directory, error)) {
    const std::string problem = "plugin folder '" + directory.string() + "' (from " + source +
                                ") does not exist or is not a folder";
    // A folder the user names on the command line must exist; a stale entry in the environment
    // only deserves a warning (it would otherwise break every run in that shell).
    if (source == "--plugin-dir")
      directory_problems_.push_back(problem);
    else
      LogWarn(problem + ": skipped");
    return;
  }
  const fs::path canonical = fs::weakly_canonical(directory, error);
  for (const auto& [known, known_source] : directories_)
    if (known == canonical) return;  // the same folder twice: search it once
  directories_.emplace_back(canonical, source);
}

void PluginLoader::LoadAll() {
  for (const auto& [directory, source] : directories_) {
    std::vector<fs::path> files;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
      if (IsPluginFileName(entry.path()) && entry.is_regular_file(error))
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());  // deterministic load order
    for (const fs::path& file : files) LoadFile(file, source);
  }
}

void PluginLoader::LoadFile(const fs::path& path, const std::string& source) {
  PluginRecord record;
  record.path = path.string();
  record.source = source;
  const auto refuse = [&](const std::string& why) {
    record.error = why;
    records_.push_back(record);
    if (log_refusals_)
      LogWarn("plugin " + record.path + " was not loaded: " + why);
    else
      LogDebug("plugin " + record.path + " was not loaded: " + why);
  };

  // Anything writable by every user can be replaced by anyone: say so, and refuse when asked to.
  for (const fs::path& checked : {path.parent_path(), path}) {
    struct stat info {};
    if (::stat(checked.c_str(), &info) != 0 || (info.st_mode & S_IWOTH) == 0) continue;
    const std::string what = checked == path ? "plugin file " : "plugin folder ";
    const std::string problem =
        what + checked.string() +
        " is writable by every user (anyone could replace the code it loads)";
    if (strict_permissions_) {
      refuse(problem + "; make it writable by its owner only, or run without --strict-plugins");
      return;
    }
    LogWarn(problem + ": make it writable by its owner only (chmod o-w)");
  }

  // The file's symbol table is read without loading it: a library that is not a Fluxion plugin
  // is refused before any of its code (its static constructors) can run.
  try {
    boost::dll::library_info info(path, /*throw_if_not_native=*/true);
    const std::vector<std::string> symbols = info.symbols();
    if (std::find(symbols.begin(), symbols.end(), kDescriptorSymbol) == symbols.end()) {
      refuse(std::string("it is not a Fluxion plugin (no '") + kDescriptorSymbol +
             "' symbol; build it with fluxion_add_plugin and FLUXION_PLUGIN)");
      return;
    }
  } catch (const std::exception& exception) {
    refuse(std::string("it is not a loadable shared library (not an ELF shared object: ") +
           exception.what() + ")");
    return;
  }

  auto library = std::make_shared<boost::dll::shared_library>();
  std::error_code error;
  library->load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, error);
  if (error || !library->is_loaded()) {
    refuse("it is not a loadable shared library (" + error.message() + ")");
    return;
  }
  if (!library->has(kDescriptorSymbol)) {
    refuse(std::string("it is not a Fluxion plugin (no '") + kDescriptorSymbol +
           "' symbol; build it with fluxion_add_plugin and FLUXION_PLUGIN)");
    return;
  }
  const auto& descriptor = library->get<const FluxionPluginDescriptor>(kDescriptorSymbol);
  if (descriptor.magic != FLUXION_PLUGIN_MAGIC) {
    refuse("its plugin descriptor is corrupt (bad magic number)");
    return;
  }
  record.abi_version = descriptor.abi_version;
  record.name = CopyString(descriptor.name);
  record.version = CopyString(descriptor.version);
  record.framework_version = CopyString(descriptor.framework_version);
  if (descriptor.abi_version != FLUXION_ABI_VERSION) {
    refuse("it was built for plugin ABI version " + std::to_string(descriptor.abi_version) +
           " (Fluxion " + record.framework_version + ") but this Fluxion " +
           FLUXION_VERSION_STRING + " has ABI version " + std::to_string(FLUXION_ABI_VERSION) +
           "; rebuild plugin '" + record.name + "' against this Fluxion");
    return;
  }
  for (const PluginRecord& other : records_) {
    if (other.loaded && other.name == record.name) {
      refuse("plugin '" + record.name + "' is already loaded from " + other.path +
             " (expected each plugin once on the search path; remove one of the two files)");
      return;
    }
  }
  if (descriptor.register_components == nullptr) {
    refuse("its descriptor has no registration function");
    return;
  }

  // Registration runs plugin code: collect first, then add all or nothing.
  CollectingRegistrar registrar(record.path, record.name,
                                std::shared_ptr<const void>(library, library.get()));
  try {
    descriptor.register_components(registrar);
  } catch (const std::exception& exception) {
    refuse(std::string("its registration failed: ") + exception.what());
    return;
  } catch (...) {
    refuse("its registration failed: it threw an exception that is not a std::exception");
    return;
  }
  // A name (or alias) already taken, by another plugin, a built-in or this plugin itself, refuses
  // the whole plugin: the first registration stays in force and the other plugins still load.
  std::vector<std::string> names;
  for (const ComponentEntry& entry : registrar.entries) {
    std::vector<std::string> entry_names = entry.spec.aliases;
    entry_names.insert(entry_names.begin(), entry.spec.name);
    for (const std::string& name : entry_names) {
      if (const ComponentEntry* existing = registry_.Find(name)) {
        refuse("it registers component '" + name + "', which " +
               (existing->origin == "built-in" ? std::string("is a built-in component")
                                               : "is already registered by " + existing->origin) +
               " (expected each component name once; remove one of the two from the search path)");
        return;
      }
      if (std::find(names.begin(), names.end(), name) != names.end()) {
        refuse("it registers component '" + name + "' twice (expected each component name once)");
        return;
      }
      names.push_back(name);
    }
  }
  for (ComponentEntry& entry : registrar.entries) {
    record.components.push_back(entry.spec.name);
    registry_.Add(std::move(entry));  // cannot throw: every name was checked above
  }
  record.loaded = true;
  records_.push_back(record);
  LogDebug("loaded plugin " + record.name + " " + record.version + " from " + record.path);
}

const PluginRecord* PluginLoader::FindLoaded(std::string_view name) const {
  for (const PluginRecord& record : records_) {
    if (!record.loaded) continue;
    if (record.name == name || "fluxion_" + record.name == name ||
        fs::path(record.path).stem().string() == name)
      return &record;
  }
  return nullptr;
}

bool PluginLoader::has_failures() const {
  if (!directory_problems_.empty()) return true;
  return std::any_of(records_.begin(), records_.end(),
                     [](const PluginRecord& r) { return !r.loaded; });
}

}  // namespace fluxion::internal
