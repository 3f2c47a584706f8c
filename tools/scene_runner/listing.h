// --list-plugins and --list-components: what the host holds, for people and for tools.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fluxion/host.h"

namespace fluxion::runner {

/// A table of plugin files: name, version, ABI, status, components, path.
std::string ListPluginsText(const Host& host);
/// The same as one JSON document: {"fluxion_version", "abi_version", "search_path": [...],
/// "search_path_problems": [...], "plugins": [...]}; a refused plugin has "loaded": false and
/// "error".
std::string ListPluginsJson(const Host& host);

/// The ODE solvers, one line each: name, declared order, explicit or implicit (and symplectic),
/// the plugin file that provides it.
std::string ListSolversText(const Host& host);
/// The names of the ODE solvers, sorted.
std::vector<std::string> SolverNames(const Host& host);

/// All components, one line each (name, kind, origin).
std::string ListComponentsText(const Host& host);
/// The components whose name or an alias contains `word`, or whose kind does ("spring",
/// "Spring", "force field", "forcefield", "solver", "mass"), compared without case, spaces, '-'
/// and '_'; listed as ListComponentsText lists them. Empty when none matches.
std::string SearchComponentsText(const Host& host, std::string_view word);
/// One component in full: summary, aliases, every field with type, default and help.
std::string DescribeComponentText(const ComponentInfo& entry);
/// Every component in full, as the Markdown reference section of docs/scene-format.md.
std::string ComponentsMarkdown(const Host& host);

}  // namespace fluxion::runner
