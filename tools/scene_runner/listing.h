// --list-plugins and --list-components: what the registry holds, for people and for tools.
#pragma once

#include <string>

#include "plugin/component_registry.h"
#include "plugin/plugin_loader.h"

namespace fluxion::runner {

/// A table of plugin files: name, version, ABI, status, components, path.
std::string ListPluginsText(const internal::PluginLoader& loader);
/// The same as one JSON document: {"fluxion_version", "abi_version", "search_path": [...],
/// "search_path_problems": [...], "plugins": [...]}; a refused plugin has "loaded": false and
/// "error".
std::string ListPluginsJson(const internal::PluginLoader& loader);

/// All components, one line each (name, kind, origin).
std::string ListComponentsText(const internal::ComponentRegistry& registry);
/// One component in full: summary, aliases, every field with type, default and help.
std::string DescribeComponentText(const internal::ComponentEntry& entry);
/// Every component in full, as the Markdown reference section of docs/scene-format.md.
std::string ComponentsMarkdown(const internal::ComponentRegistry& registry);

}  // namespace fluxion::runner
