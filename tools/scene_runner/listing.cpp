#include "listing.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fluxion/text.h"
#include "fluxion/version.h"

namespace fluxion::runner {

namespace {

// The field's type as listed: a link the builder resolves names what it must point to.
std::string TypeText(const FieldSpec& field) {
  std::string text(FieldTypeName(field.type));
  if (field.link_target) text += " to a " + std::string(ComponentKindName(*field.link_target));
  return text;
}

std::string Bounds(const FieldSpec& field) {
  std::string text;
  if (field.minimum) text += (field.minimum_exclusive ? "> " : ">= ") + FormatReal(*field.minimum);
  if (field.maximum) text += (text.empty() ? "" : ", ") + ("<= " + FormatReal(*field.maximum));
  if (!field.choices.empty()) {
    for (const std::string& choice : field.choices)
      text += (text.empty() ? "one of " : ", ") + choice;
  }
  return text;
}

std::string DefaultText(const FieldSpec& field) {
  if (!field.default_value.empty()) return field.default_value;
  if (field.type == FieldType::kRealList || field.type == FieldType::kIndexList) return "(empty)";
  return "(none)";
}

std::string Join(const std::vector<std::string>& words, const char* separator) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : separator) + word;
  return text;
}

// One component of the listing: name and aliases, kind and origin, then its summary.
std::string ComponentLine(const ComponentInfo& entry) {
  std::string text = entry.spec.name;
  if (!entry.spec.aliases.empty()) text += " (alias " + Join(entry.spec.aliases, ", ") + ")";
  text += "  [" + std::string(ComponentKindName(entry.spec.kind)) + "; " +
          (entry.plugin_name.empty() ? "built-in" : "plugin " + entry.plugin_name) + "]\n    " +
          entry.spec.summary + "\n";
  return text;
}

// `text` in lower case without spaces, '-' and '_': what a search compares, so that "Spring",
// "force field" and "forcefield" find what they name.
std::string Folded(std::string_view text) {
  std::string folded;
  for (const char c : text) {
    if (c == ' ' || c == '-' || c == '_') continue;
    folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return folded;
}

}  // namespace

std::string ListPluginsText(const Host& host) {
  std::ostringstream out;
  out << "Fluxion " << FLUXION_VERSION_STRING << ", plugin ABI " << FLUXION_ABI_VERSION << "\n";
  out << "search path:\n";
  if (host.plugin_directories().empty()) out << "  (no folder)\n";
  for (const auto& [directory, source] : host.plugin_directories())
    out << "  " << directory.string() << "  (" << source << ")\n";
  for (const std::string& problem : host.plugin_directory_problems())
    out << "  problem: " << problem << "\n";
  out << "plugins:\n";
  if (host.plugins().empty()) out << "  (none found)\n";
  for (const PluginInfo& record : host.plugins()) {
    out << "  " << (record.name.empty() ? "?" : record.name) << " " << record.version << "  ABI "
        << record.abi_version << "  " << (record.loaded ? "loaded" : "REFUSED") << "\n";
    out << "    file: " << record.path << "\n";
    if (record.loaded)
      out << "    components: " << Join(record.components, ", ") << "\n";
    else
      out << "    why: " << record.error << "\n";
  }
  return out.str();
}

std::string ListPluginsJson(const Host& host) {
  nlohmann::ordered_json document;
  document["fluxion_version"] = FLUXION_VERSION_STRING;
  document["abi_version"] = FLUXION_ABI_VERSION;
  document["search_path"] = nlohmann::ordered_json::array();
  for (const auto& [directory, source] : host.plugin_directories())
    document["search_path"].push_back({{"path", directory.string()}, {"source", source}});
  document["search_path_problems"] = host.plugin_directory_problems();
  document["plugins"] = nlohmann::ordered_json::array();
  for (const PluginInfo& record : host.plugins()) {
    nlohmann::ordered_json plugin;
    plugin["name"] = record.name;
    plugin["version"] = record.version;
    plugin["abi_version"] = record.abi_version;
    plugin["built_with_fluxion"] = record.framework_version;
    plugin["path"] = record.path;
    plugin["source"] = record.source;
    plugin["loaded"] = record.loaded;
    if (!record.loaded) plugin["error"] = record.error;
    plugin["components"] = record.components;
    document["plugins"].push_back(plugin);
  }
  return document.dump(2) + "\n";
}

std::vector<std::string> SolverNames(const Host& host) {
  std::vector<std::string> names;
  for (const ComponentInfo* entry : host.components())
    if (entry->spec.kind == ComponentKind::kOdeSolver) names.push_back(entry->spec.name);
  return names;
}

std::string ListSolversText(const Host& host) {
  std::vector<const ComponentInfo*> solvers;
  std::size_t width = std::string_view("solver").size();
  for (const ComponentInfo* entry : host.components()) {
    if (entry->spec.kind != ComponentKind::kOdeSolver) continue;
    solvers.push_back(entry);
    width = std::max(width, entry->spec.name.size());
  }
  const auto padded = [](std::string text, std::size_t size) {
    text.resize(std::max(size, text.size()), ' ');
    return text;
  };
  std::ostringstream out;
  out << padded("solver", width) << "  order  " << padded("kind", 20) << "  plugin\n";
  for (const ComponentInfo* entry : solvers) {
    const unsigned flags = entry->traits.flags;
    std::string kind = (flags & kImplicitMethod) ? "implicit" : "explicit";
    if (flags & kSymplecticMethod) kind += ", symplectic";
    if (flags & kStaticMethod) kind += ", static";
    out << padded(entry->spec.name, width) << "  " << padded(std::to_string(entry->traits.order), 5)
        << "  " << padded(kind, 20) << "  " << entry->origin << "\n";
  }
  if (solvers.empty()) out << "(no solver: no plugin on the search path provides one)\n";
  return out.str();
}

std::string ListComponentsText(const Host& host) {
  std::string text;
  for (const ComponentInfo* entry : host.components()) text += ComponentLine(*entry);
  return text;
}

std::string SearchComponentsText(const Host& host, std::string_view word) {
  const std::string wanted = Folded(word);
  if (wanted.empty()) return {};
  const auto contains = [&](std::string_view text) {
    return Folded(text).find(wanted) != std::string::npos;
  };
  std::string text;
  for (const ComponentInfo* entry : host.components()) {
    bool found = contains(entry->spec.name) || contains(ComponentKindName(entry->spec.kind));
    for (const std::string& alias : entry->spec.aliases) found = found || contains(alias);
    if (found) text += ComponentLine(*entry);
  }
  return text;
}

std::string DescribeComponentText(const ComponentInfo& entry) {
  std::ostringstream out;
  out << entry.spec.name << " — " << entry.spec.summary << "\n";
  out << "  kind: " << ComponentKindName(entry.spec.kind) << "\n";
  out << "  from: " << entry.origin << "\n";
  if (!entry.spec.aliases.empty()) out << "  aliases: " << Join(entry.spec.aliases, ", ") << "\n";
  if (entry.spec.kind == ComponentKind::kOdeSolver)
    out << "  order: " << entry.traits.order << "\n";
  if (entry.spec.fields.empty())
    out << (entry.spec.kind == ComponentKind::kIgnored
                ? "  fields: none (any attribute is ignored)\n"
                : "  fields: none\n");
  else
    out << "  fields:\n";
  for (const FieldSpec& field : entry.spec.fields) {
    out << "    " << field.name << " (" << TypeText(field) << ", default " << DefaultText(field);
    if (const std::string bounds = Bounds(field); !bounds.empty()) out << ", " << bounds;
    out << ")";
    if (!field.aliases.empty()) out << " alias " << Join(field.aliases, ", ");
    out << "\n        " << field.help << "\n";
  }
  return out.str();
}

std::string ComponentsMarkdown(const Host& host) {
  std::ostringstream out;
  for (const ComponentInfo* entry : host.components()) {
    out << "### " << entry->spec.name << "\n\n" << entry->spec.summary << ".\n\n";
    out << "Kind: " << ComponentKindName(entry->spec.kind) << ". From: "
        << (entry->plugin_name.empty() ? "built-in"
                                       : "plugin `fluxion_" + entry->plugin_name + ".so`")
        << ".";
    if (!entry->spec.aliases.empty())
      out << " Also accepted as: `" << Join(entry->spec.aliases, "`, `") << "`.";
    out << "\n\n";
    if (entry->spec.fields.empty()) {
      out << "No fields: its attributes are ignored.\n\n";
      continue;
    }
    out << "| field | type | default | valid | description |\n|---|---|---|---|---|\n";
    for (const FieldSpec& field : entry->spec.fields) {
      std::string name = "`" + field.name + "`";
      for (const std::string& alias : field.aliases) name += " (`" + alias + "`)";
      out << "| " << name << " | " << TypeText(field) << " | " << DefaultText(field) << " | "
          << Bounds(field) << " | " << field.help << " |\n";
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace fluxion::runner
