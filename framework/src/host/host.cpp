#include "fluxion/host.h"

#include <map>

#include "build/input_files.h"
#include "build/scene_builder.h"
#include "components/builtin_components.h"
#include "core/parameter_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"
#include "host/prepared_scene_data.h"
#include "plugin/plugin_loader.h"
#include "registry/component_registry.h"
#include "scene/python_origins.h"
#include "scene/xml_reader.h"

namespace fluxion {

struct Host::Impl {
  // Shared with every Simulation loaded (ReplaceSolver creates solvers from it); the entries keep
  // their plugin libraries loaded.
  std::shared_ptr<internal::ComponentRegistry> registry =
      std::make_shared<internal::ComponentRegistry>();
  // Shared with every PreparedScene (its builds check RequiredPlugin against it).
  std::shared_ptr<internal::PluginLoader> loader;
};

Host::Host(const HostOptions& options) : impl_(std::make_unique<Impl>()) {
  internal::CollectingRegistrar builtins("built-in", "", nullptr);
  internal::RegisterBuiltinComponents(builtins);
  for (ComponentInfo& entry : builtins.entries) impl_->registry->Add(std::move(entry));

  impl_->loader = std::make_shared<internal::PluginLoader>(*impl_->registry);
  impl_->loader->LogRefusals(options.log_plugin_refusals);
  impl_->loader->StrictPermissions(options.strict_plugin_permissions);
  if (options.default_plugin_directories) impl_->loader->AddDefaultDirectories();
  for (const std::filesystem::path& directory : options.plugin_directories)
    impl_->loader->AddDirectory(directory, "--plugin-dir");
  impl_->loader->LoadAll();
}

Host::Host(Host&&) noexcept = default;
Host& Host::operator=(Host&&) noexcept = default;
Host::~Host() = default;

namespace {

// <include> files are read under the same input policy as meshes (build/input_files.h).
internal::IncludeReader IncludesFor(const std::string& scene_file, const LoadOptions& options) {
  auto folders = std::make_shared<internal::InputFolders>(scene_file, options);
  return [folders](const std::string& href, const std::string& including_file,
                   std::string& why) -> std::optional<internal::IncludedText> {
    std::optional<BuildContext::InputFile> file = folders->ReadFrom(href, including_file, why);
    if (!file) return std::nullopt;
    return internal::IncludedText{std::move(file->path), std::move(file->bytes)};
  };
}

// A scene's XML text as read, under LoadString's limits.
internal::SceneDescription ReadText(const std::string& xml, const std::string& file_name,
                                    const LoadOptions& options) {
  if (xml.size() > options.max_scene_bytes)
    throw SceneError({{file_name, 0,
                       "the scene is larger than " + std::to_string(options.max_scene_bytes) +
                           " bytes (expected a smaller scene, or a larger "
                           "LoadOptions::max_scene_bytes)"}});
  internal::SceneDescription scene =
      internal::ReadSceneText(xml, file_name, IncludesFor(file_name, options));
  if (options.python_origins) scene.python_origins = internal::PythonOrigins(xml);
  return scene;
}

// The scene as read, kept with what its builds need. It is built once here, so that its
// problems are reported by Prepare, not by its first instance.
std::shared_ptr<const internal::PreparedSceneData> Prepared(
    internal::SceneDescription scene, const LoadOptions& options,
    std::shared_ptr<const internal::ComponentRegistry> registry,
    std::shared_ptr<const internal::PluginLoader> plugins) {
  auto prepared = std::make_shared<internal::PreparedSceneData>();
  prepared->scene = std::move(scene);
  prepared->options = options;
  prepared->registry = std::move(registry);
  prepared->plugins = std::move(plugins);
  internal::BuildSimulation(prepared->scene, prepared->registry, prepared->plugins.get(), options);
  return prepared;
}

}  // namespace

Simulation Host::LoadFile(const std::string& path, const LoadOptions& options) const {
  return internal::BuildSimulation(
      internal::ReadSceneFile(path, options.max_scene_bytes, IncludesFor(path, options)),
      impl_->registry, impl_->loader.get(), options);
}

Simulation Host::LoadString(const std::string& xml, const std::string& file_name,
                            const LoadOptions& options) const {
  return internal::BuildSimulation(ReadText(xml, file_name, options), impl_->registry,
                                   impl_->loader.get(), options);
}

PreparedScene Host::Prepare(const std::string& path, const LoadOptions& options) const {
  return PreparedScene(
      Prepared(internal::ReadSceneFile(path, options.max_scene_bytes, IncludesFor(path, options)),
               options, impl_->registry, impl_->loader));
}

PreparedScene Host::PrepareString(const std::string& xml, const std::string& file_name,
                                  const LoadOptions& options) const {
  return PreparedScene(
      Prepared(ReadText(xml, file_name, options), options, impl_->registry, impl_->loader));
}

void Host::RegisterComponents(const std::string& origin,
                              void (*register_components)(PluginRegistrar& registrar)) {
  // Collected first, added after: a registration that throws adds nothing.
  internal::CollectingRegistrar registrar(origin, "", nullptr);
  register_components(registrar);
  for (ComponentInfo& entry : registrar.entries) impl_->registry->Add(std::move(entry));
}

std::vector<const ComponentInfo*> Host::components() const { return impl_->registry->Entries(); }

const ComponentInfo* Host::FindComponent(std::string_view name) const {
  return impl_->registry->Find(name);
}

std::vector<std::string> Host::component_names() const { return impl_->registry->Names(); }

SolverHandle Host::CreateSolver(const SolverChoice& choice) const {
  const ComponentInfo* entry = impl_->registry->Find(choice.name);
  const auto fail = [](const std::string& message) {
    throw SceneError({SceneDiagnostic{"--solver", 0, message}});
  };
  if (entry == nullptr || entry->spec.kind != ComponentKind::kOdeSolver) {
    const std::string suggestion = SuggestClosest(choice.name, impl_->registry->Names());
    fail(choice.name + ": no ODE solver of that name" +
         (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)"));
  }
  std::vector<internal::AttributeText> attributes;
  for (const auto& [name, value] : choice.parameters) attributes.push_back({name, value, 0});
  std::vector<internal::ParameterProblem> problems;
  const Parameters parameters = internal::ParseAttributes(entry->spec, attributes, problems);
  if (!problems.empty()) fail("--param: " + problems.front().message);
  try {
    return internal::ComponentRegistry::CreateSolver(*entry, parameters);
  } catch (const ConfigError& error) {
    fail(entry->spec.name + (error.field().empty() ? "" : " '" + error.field() + "'") + ": " +
         error.what());
  }
  return nullptr;
}

const std::vector<PluginInfo>& Host::plugins() const { return impl_->loader->records(); }

const PluginInfo* Host::FindPlugin(std::string_view name) const {
  return impl_->loader->FindLoaded(name);
}

const std::vector<std::pair<std::filesystem::path, std::string>>& Host::plugin_directories() const {
  return impl_->loader->directories();
}

const std::vector<std::string>& Host::plugin_directory_problems() const {
  return impl_->loader->directory_problems();
}

bool Host::has_plugin_failures() const { return impl_->loader->has_failures(); }

std::filesystem::path Host::BundledPluginDirectory() {
  return internal::PluginLoader::BundledPluginDirectory();
}

std::string Host::BundledPluginFor(std::string_view component) {
  static const std::map<std::string, std::string, std::less<>> kBundled = {
      {"EulerExplicitSolver", "euler_explicit"},
      {"EulerImplicitSolver", "euler_implicit"},
      {"NewmarkImplicitSolver", "newmark_implicit"},
      {"VariationalSymplecticSolver", "variational_symplectic"},
      {"RungeKutta2Solver", "runge_kutta2"},
      {"RungeKutta4Solver", "runge_kutta4"},
      {"CentralDifferenceSolver", "central_difference"},
      {"BDFOdeSolver", "bdf"},
      {"StaticSolver", "static_solver"},
      {"NBodyGravityForceField", "nbody_gravity"},
  };
  const auto it = kBundled.find(component);
  return it == kBundled.end() ? std::string() : it->second;
}

}  // namespace fluxion
