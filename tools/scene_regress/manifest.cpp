#include "manifest.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace fluxion::regress {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::set<std::string> kTopKeys = {"root", "defaults", "cases", "description"};
const std::set<std::string> kDefaultKeys = {"rtol", "atol", "every"};
const std::set<std::string> kCaseKeys = {"name", "scene",     "steps",      "end_time", "every",
                                         "dt",   "energy",    "solver",     "params",   "rtol",
                                         "atol", "reference", "description"};

// Errors name the manifest and, inside a case, the case.
struct Context {
  std::string file;
  std::string where;  // "" or "case 'name'"
  [[noreturn]] void Fail(const std::string& what) const {
    throw ManifestError(file + ": " + (where.empty() ? "" : where + ": ") + what);
  }
};

void CheckKeys(const json& object, const std::set<std::string>& allowed, const Context& context,
               const std::string& what) {
  for (const auto& [key, value] : object.items()) {
    if (allowed.contains(key)) continue;
    std::string list;
    for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
    context.Fail("unknown key '" + key + "' in " + what + " (expected one of: " + list + ")");
  }
}

double NonNegative(const json& value, const std::string& key, const Context& context) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
    context.Fail("'" + key + "' is " + value.dump() + " (expected a finite number >= 0)");
  return value.get<double>();
}

double Positive(const json& value, const std::string& key, const Context& context) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0)
    context.Fail("'" + key + "' is " + value.dump() + " (expected a finite number > 0)");
  return value.get<double>();
}

long PositiveInteger(const json& value, const std::string& key, const Context& context, long min) {
  if (!value.is_number_integer() || value.get<long long>() < min)
    context.Fail("'" + key + "' is " + value.dump() +
                 " (expected an integer >= " + std::to_string(min) + ")");
  return static_cast<long>(value.get<long long>());
}

std::string String(const json& value, const std::string& key, const Context& context) {
  if (!value.is_string() || value.get<std::string>().empty())
    context.Fail("'" + key + "' is " + value.dump() + " (expected a non-empty string)");
  return value.get<std::string>();
}

}  // namespace

std::vector<std::string> RegressionCase::RunnerArguments() const {
  std::vector<std::string> args = {scene.string()};
  if (steps) {
    args.insert(args.end(), {"--steps", std::to_string(*steps)});
  } else if (end_time) {
    args.insert(args.end(), {"--end-time", FormatExact(*end_time)});
  }
  args.insert(args.end(), {"--every", std::to_string(every)});
  if (dt) args.insert(args.end(), {"--dt", FormatExact(*dt)});
  if (energy) args.emplace_back("--energy");
  if (solver) {
    args.insert(args.end(), {"--solver", *solver});
    for (const auto& [key, value] : params) args.insert(args.end(), {"--param", key + "=" + value});
  }
  return args;
}

Manifest LoadManifest(const fs::path& path) {
  Context context{path.string(), ""};
  std::ifstream in(path, std::ios::binary);
  if (!in) context.Fail("cannot read the manifest (check the path)");
  std::stringstream buffer;
  buffer << in.rdbuf();

  json document;
  try {
    document = json::parse(buffer.str());
  } catch (const json::parse_error& error) {
    context.Fail(std::string("not valid JSON: ") + error.what());
  }
  if (!document.is_object())
    context.Fail("the top level is not an object (expected {\"cases\": [...]})");
  CheckKeys(document, kTopKeys, context, "the manifest");

  Manifest manifest;
  manifest.path = fs::absolute(path).lexically_normal();
  const fs::path folder = manifest.path.parent_path();
  manifest.root = folder;
  if (document.contains("root"))
    manifest.root = (folder / String(document["root"], "root", context)).lexically_normal();

  // Defaults for every case.
  Tolerances default_tolerances;
  long default_every = 1;
  if (document.contains("defaults")) {
    const json& defaults = document["defaults"];
    if (!defaults.is_object()) context.Fail("'defaults' is not an object");
    CheckKeys(defaults, kDefaultKeys, context, "'defaults'");
    if (defaults.contains("rtol"))
      default_tolerances.rtol = NonNegative(defaults["rtol"], "rtol", context);
    if (defaults.contains("atol"))
      default_tolerances.atol = NonNegative(defaults["atol"], "atol", context);
    if (defaults.contains("every"))
      default_every = PositiveInteger(defaults["every"], "every", context, 1);
  }

  if (!document.contains("cases") || !document["cases"].is_array())
    context.Fail("no 'cases' array (expected \"cases\": [{\"name\": ..., \"scene\": ...}, ...])");
  const std::regex name_pattern("[A-Za-z0-9_.-]+");
  std::set<std::string> names;
  std::size_t index = 0;
  for (const json& entry : document["cases"]) {
    ++index;
    Context here{context.file, "case " + std::to_string(index)};
    if (!entry.is_object()) here.Fail("not an object");
    if (!entry.contains("name")) here.Fail("no 'name'");
    RegressionCase c;
    c.name = String(entry["name"], "name", here);
    if (!std::regex_match(c.name, name_pattern))
      here.Fail("name '" + c.name + "' (expected letters, digits, '_', '.' or '-' only)");
    here.where = "case '" + c.name + "'";
    if (!names.insert(c.name).second)
      here.Fail("the name is used twice (expected unique case names)");
    CheckKeys(entry, kCaseKeys, here, "a case");

    if (!entry.contains("scene")) here.Fail("no 'scene'");
    c.scene_as_written = String(entry["scene"], "scene", here);
    c.scene = (manifest.root / c.scene_as_written).lexically_normal();

    const bool has_steps = entry.contains("steps"), has_end = entry.contains("end_time");
    if (has_steps == has_end) here.Fail("give exactly one of 'steps' and 'end_time'");
    if (has_steps) c.steps = PositiveInteger(entry["steps"], "steps", here, 0);
    if (has_end) c.end_time = NonNegative(entry["end_time"], "end_time", here);
    c.every =
        entry.contains("every") ? PositiveInteger(entry["every"], "every", here, 1) : default_every;
    if (entry.contains("dt")) c.dt = Positive(entry["dt"], "dt", here);
    if (entry.contains("energy")) {
      if (!entry["energy"].is_boolean())
        here.Fail("'energy' is " + entry["energy"].dump() + " (expected true or false)");
      c.energy = entry["energy"].get<bool>();
    }

    if (entry.contains("solver")) c.solver = String(entry["solver"], "solver", here);
    if (entry.contains("params")) {
      if (!c.solver) here.Fail("'params' without 'solver' (parameters are passed with --solver)");
      const json& params = entry["params"];
      if (!params.is_object())
        here.Fail("'params' is not an object (expected {\"key\": value, ...})");
      for (const auto& [key, value] : params.items()) {
        if (value.is_string()) {
          c.params.emplace_back(key, value.get<std::string>());
        } else if (value.is_number_integer()) {
          c.params.emplace_back(key, value.dump());
        } else if (value.is_number()) {
          c.params.emplace_back(key, FormatExact(value.get<double>()));
        } else {
          here.Fail("parameter '" + key + "' is " + value.dump() +
                    " (expected a string or a number)");
        }
      }
    }

    c.tolerances = default_tolerances;
    if (entry.contains("rtol")) c.tolerances.rtol = NonNegative(entry["rtol"], "rtol", here);
    if (entry.contains("atol")) c.tolerances.atol = NonNegative(entry["atol"], "atol", here);
    c.reference_as_written = entry.contains("reference")
                                 ? String(entry["reference"], "reference", here)
                                 : "references/" + c.name + ".csv";
    c.reference = (folder / c.reference_as_written).lexically_normal();
    if (entry.contains("description")) {
      if (!entry["description"].is_string()) here.Fail("'description' is not a string");
      c.description = entry["description"].get<std::string>();
    }
    manifest.cases.push_back(std::move(c));
  }
  // Two cases writing one reference would overwrite each other on --update.
  std::set<fs::path> references;
  for (const RegressionCase& c : manifest.cases)
    if (!references.insert(c.reference).second)
      Context{context.file, "case '" + c.name + "'"}.Fail("reference " + c.reference_as_written +
                                                          " is used by another case");
  return manifest;
}

}  // namespace fluxion::regress
