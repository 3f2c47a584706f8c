// The host API: load a scene with the plugins of a search path, build it, step it. This is what
// scene-runner, fluxion-analyze, scene-regress and the benchmarks use, and what bindings wrap.
//
//   fluxion::Host host;                                   // built-ins + bundled plugins
//   fluxion::Simulation sim = host.LoadFile("scenes/sofa_spring_test.scn");
//   sim.Run(100);
//   auto x = sim.position(sim.FindObject("root/MassNode/massDof"));
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/plugin.h"
#include "fluxion/prepared_scene.h"
#include "fluxion/simulation.h"

namespace fluxion {

/// One registered component type: its declaration, where it comes from and how it is created.
struct ComponentInfo {
  ComponentSpec spec;
  std::string origin = "built-in";  ///< "built-in" or the plugin file that registered it
  std::string plugin_name;          ///< empty for built-in components
  SolverTraits traits;              ///< ODE solvers: as registered
  // Exactly one of these is set, by kind (none for kIgnored components):
  SolverFactory solver_factory = nullptr;
  ForceFieldFactory force_field_factory = nullptr;
  LinearSolverFactory linear_solver_factory = nullptr;
  ComponentBuilder builder = nullptr;
  std::shared_ptr<const void> library;  ///< keeps the plugin loaded while the entry exists
};

/// What is known about one plugin file, loaded or not.
struct PluginInfo {
  std::string path;
  std::string
      source;  ///< where its folder came from: "bundled", "FLUXION_PLUGIN_PATH", "--plugin-dir"
  bool loaded = false;
  std::string error;  ///< why it was refused, when !loaded
  std::string name;   ///< plugin name from its descriptor
  std::string version;
  std::string framework_version;  ///< Fluxion version it was built with
  unsigned abi_version = 0;
  std::vector<std::string> components;
};

/// Where plugins are searched for.
struct HostOptions {
  /// The bundled folder (<libdir>/fluxion/plugins beside the framework library) and the folders
  /// of the colon-separated FLUXION_PLUGIN_PATH, in that order.
  bool default_plugin_directories = true;
  /// Further folders, searched after those (a missing one is a recorded problem).
  std::vector<std::filesystem::path> plugin_directories;
  /// Log each refused plugin file as a warning (else only at debug level, for a caller that
  /// reports `plugins()` itself).
  bool log_plugin_refusals = true;
  /// Refuse plugin files and folders that every user may write (scene-runner --strict-plugins);
  /// by default they load with a warning.
  bool strict_plugin_permissions = false;
};

/// Options of one load.
struct LoadOptions {
  std::optional<double> dt;            ///< replaces the root node's dt
  std::optional<SolverChoice> solver;  ///< replaces every solver node's ODE solver
  /// Largest scene text read [bytes]: a scene file is untrusted input and is never read without
  /// bound. 64 MiB holds scenes far beyond what the other limits accept.
  std::size_t max_scene_bytes = std::size_t{64} << 20;
  /// Folders, besides the scene's, where files a scene names (meshes, included fragments) are
  /// looked up, in order (scene-runner --data-path). Nothing outside these folders, the scene's
  /// folder and the SOFA data folders below is ever read.
  std::vector<std::string> data_path = {};
  /// Also look in the share/ and examples/ folders of the SOFA source tree that the SOFA_ROOT
  /// environment variable names, as SOFA's DataRepository does (real folders of the tree only,
  /// not symbolic links). A SOFA tree around the scene is never guessed.
  bool sofa_data_path = true;
  /// Largest file a scene may make Fluxion read (a mesh, an included fragment) [bytes].
  std::size_t max_input_bytes = std::size_t{512} << 20;
  /// Largest memory the scene may take [bytes], 0 for no limit of the caller's own: the builder
  /// estimates a scene's memory (points, springs, the sparse pattern when a solver assembles
  /// matrices) and refuses, before allocating, a scene whose estimate exceeds this limit or what
  /// the machine has available (MemAvailable, the process's cgroup limit). scene-runner
  /// --memory-limit.
  std::uint64_t memory_limit = 0;
  /// Keep the model's initial data once the simulation is built. With false, for a caller that
  /// reads only the simulation's state (scene-runner writing CSV rows), the built model's
  /// objects drop their topologies, and the objects a solver moves their initial vectors
  /// (position, velocity, rest_position, external_force: the state holds what the run needs) —
  /// for the 256² cloth 16 MB of topology and vectors nothing reads again. Those fields are then
  /// empty (null topology, vectors of size 0). Ignored (kept) when the scene has observers
  /// (exporters and recorders read them).
  bool keep_initial_data = true;
  /// LoadString of a scene generated from a Python scene (fluxion/scene_graph.py's to_xml ends
  /// each element's line with <!--python FILE:LINE-->): every message — errors, warnings, the
  /// lines they refer to, a numerical failure's solver line — names the Python call that made
  /// the element instead of the generated XML's line. Off for scenes written as XML.
  bool python_origins = false;
};

/// A memory size as a user writes it: a positive number of bytes with an optional binary unit,
/// K, M, G or T (also KB/KiB…, any case: "2G", "512M", "1.5GiB"). No value when it is not one.
FLUXION_API std::optional<std::uint64_t> ParseMemorySize(std::string_view text);

/// The components available to scenes — the built-ins and those of every plugin on the search
/// path — and the loading of scenes with them. Loading plugins happens in the constructor; a
/// plugin file that cannot be loaded is recorded (see `plugins()`), never thrown.
class FLUXION_API Host {
 public:
  explicit Host(const HostOptions& options = {});
  Host(Host&&) noexcept;
  Host& operator=(Host&&) noexcept;
  ~Host();

  /// Loads and builds the scene file at `path` (a regular file, or "-" for standard input).
  /// Throws SceneError (every problem of the scene,
  /// FILE:LINE each) or PluginError (a component or RequiredPlugin no loaded plugin provides).
  Simulation LoadFile(const std::string& path, const LoadOptions& options = {}) const;
  /// Same, from XML text; `file_name` names it in messages.
  Simulation LoadString(const std::string& xml, const std::string& file_name = "scene.scn",
                        const LoadOptions& options = {}) const;

  /// Reads, parses and validates the scene file at `path` once, for many builds with changed
  /// data (fluxion/prepared_scene.h: build once, run many). Throws as LoadFile, for the scene
  /// as written (it is built once to check it). `options` hold for every instance.
  PreparedScene Prepare(const std::string& path, const LoadOptions& options = {}) const;
  /// Same, from XML text; `file_name` names it in messages.
  PreparedScene PrepareString(const std::string& xml, const std::string& file_name = "scene.scn",
                              const LoadOptions& options = {}) const;

  /// Registers the components of `register_components` (as a plugin's descriptor does) from the
  /// host's own process: for a program or language binding that provides components of its own,
  /// e.g. the Python module's components written in Python (docs/python.md). `origin` names them
  /// in listings ("built-in" for Fluxion's own, a plugin's file, here e.g. "python"). Scenes
  /// loaded afterwards can use them. Throws PluginError when a name is already registered.
  void RegisterComponents(const std::string& origin,
                          void (*register_components)(PluginRegistrar& registrar));

  /// Every registered component, sorted by name.
  std::vector<const ComponentInfo*> components() const;
  /// The component registered under `name` (or an alias), or null.
  const ComponentInfo* FindComponent(std::string_view name) const;
  /// Every registered name and alias.
  std::vector<std::string> component_names() const;
  /// Creates an ODE solver from its XML attributes. Throws SceneError for an unknown solver or
  /// a bad parameter (the file name is "--solver"), PluginError when a plugin fails.
  SolverHandle CreateSolver(const SolverChoice& choice) const;

  /// Every plugin file found, loaded or refused, in search order.
  const std::vector<PluginInfo>& plugins() const;
  /// The plugin called `name` ("euler_explicit" or "fluxion_euler_explicit"), if loaded.
  const PluginInfo* FindPlugin(std::string_view name) const;
  /// The search path: (folder, where it came from).
  const std::vector<std::pair<std::filesystem::path, std::string>>& plugin_directories() const;
  /// Problems with the search path itself (an explicitly given folder that does not exist).
  const std::vector<std::string>& plugin_directory_problems() const;
  /// True if any plugin file was refused or any explicit folder is missing.
  bool has_plugin_failures() const;

  /// The bundled plugin folder next to the framework library.
  static std::filesystem::path BundledPluginDirectory();
  /// The bundled plugin that provides a well-known component, e.g. "EulerImplicitSolver" ->
  /// "euler_implicit"; empty if Fluxion ships no such component.
  static std::string BundledPluginFor(std::string_view component);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fluxion
