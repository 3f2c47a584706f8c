#include "fluxion/parameters.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

#include "core/parameter_parsing.h"
#include "core/renamed_attributes.h"
#include "core/text_parsing.h"
#include "fluxion/errors.h"

namespace fluxion {

std::string_view FieldTypeName(FieldType type) {
  switch (type) {
    case FieldType::kBool:
      return "bool";
    case FieldType::kInteger:
      return "integer";
    case FieldType::kReal:
      return "real";
    case FieldType::kText:
      return "text";
    case FieldType::kChoice:
      return "choice";
    case FieldType::kRealList:
      return "real list";
    case FieldType::kIndexList:
      return "index list";
    case FieldType::kLink:
      return "link";
  }
  return "?";
}

std::string_view ComponentKindName(ComponentKind kind) {
  switch (kind) {
    case ComponentKind::kNode:
      return "node";
    case ComponentKind::kState:
      return "state";
    case ComponentKind::kTopology:
      return "topology";
    case ComponentKind::kMass:
      return "mass";
    case ComponentKind::kForceField:
      return "force field";
    case ComponentKind::kConstraint:
      return "projective constraint";
    case ComponentKind::kOdeSolver:
      return "ODE solver";
    case ComponentKind::kLinearSolver:
      return "linear solver";
    case ComponentKind::kLoader:
      return "loader";
    case ComponentKind::kContext:
      return "context";
    case ComponentKind::kEngine:
      return "engine (loader, ROI)";
    case ComponentKind::kIgnored:
      return "ignored (visual or SOFA-only)";
    case ComponentKind::kTopologicalMapping:
      return "topological mapping";
    case ComponentKind::kObserver:
      return "observer (exporter, state recorder or player)";
    case ComponentKind::kNonlinearSolver:
      return "nonlinear solver (configures its ODE solver's Newton iterations)";
    case ComponentKind::kMapping:
      return "mechanical mapping";
    case ComponentKind::kCollisionModel:
      return "collision model (inert without a collision pipeline)";
    case ComponentKind::kCollisionPipeline:
      return "collision pipeline (detection and contact response)";
    case ComponentKind::kLinearSystem:
      return "linear system (configures its linear solver)";
  }
  return "?";
}

namespace {
FieldSpec Make(std::string name, FieldType type, std::string default_value, std::string help) {
  FieldSpec spec;
  spec.name = std::move(name);
  spec.type = type;
  spec.default_value = std::move(default_value);
  spec.help = std::move(help);
  return spec;
}
}  // namespace

FieldSpec FieldSpec::Bool(std::string name, bool default_value, std::string help) {
  return Make(std::move(name), FieldType::kBool, default_value ? "1" : "0", std::move(help));
}
FieldSpec FieldSpec::Integer(std::string name, long default_value, std::string help) {
  return Make(std::move(name), FieldType::kInteger, std::to_string(default_value), std::move(help));
}
FieldSpec FieldSpec::Real(std::string name, double default_value, std::string help) {
  return Make(std::move(name), FieldType::kReal, internal::FormatReal(default_value),
              std::move(help));
}
FieldSpec FieldSpec::OptionalReal(std::string name, std::string help) {
  return Make(std::move(name), FieldType::kReal, "", std::move(help));
}
FieldSpec FieldSpec::Text(std::string name, std::string default_value, std::string help) {
  return Make(std::move(name), FieldType::kText, std::move(default_value), std::move(help));
}
FieldSpec FieldSpec::Choice(std::string name, std::string default_value,
                            std::vector<std::string> choices, std::string help) {
  FieldSpec spec =
      Make(std::move(name), FieldType::kChoice, std::move(default_value), std::move(help));
  spec.choices = std::move(choices);
  return spec;
}
FieldSpec FieldSpec::RealList(std::string name, std::string help) {
  return Make(std::move(name), FieldType::kRealList, "", std::move(help));
}
FieldSpec FieldSpec::IndexList(std::string name, std::string help) {
  return Make(std::move(name), FieldType::kIndexList, "", std::move(help));
}
FieldSpec FieldSpec::Link(std::string name, std::string help) {
  return Make(std::move(name), FieldType::kLink, "", std::move(help));
}
FieldSpec FieldSpec::LinkTo(std::string name, ComponentKind target, std::string help) {
  FieldSpec spec = Link(std::move(name), std::move(help));
  spec.link_target = target;
  return spec;
}
FieldSpec& FieldSpec::AtLeast(double bound) {
  minimum = bound;
  minimum_exclusive = false;
  return *this;
}
FieldSpec& FieldSpec::GreaterThan(double bound) {
  minimum = bound;
  minimum_exclusive = true;
  return *this;
}
FieldSpec& FieldSpec::AtMost(double bound) {
  maximum = bound;
  return *this;
}
FieldSpec& FieldSpec::Alias(std::string alias) {
  aliases.push_back(std::move(alias));
  return *this;
}
FieldSpec& FieldSpec::DefaultText(std::string text) {
  default_value = std::move(text);
  return *this;
}

const FieldSpec* ComponentSpec::FindField(std::string_view field_name) const {
  for (const FieldSpec& field : fields) {
    if (field.name == field_name) return &field;
    if (std::find(field.aliases.begin(), field.aliases.end(), field_name) != field.aliases.end())
      return &field;
  }
  return nullptr;
}

// --- Parameters ---------------------------------------------------------------------------------

const Parameters::Entry& Parameters::Find(std::string_view name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end())
    throw UsageError("parameter '" + std::string(name) +
                     "' has no value (not declared, or no default)");
  return it->second;
}

bool Parameters::has(std::string_view name) const {
  const auto it = entries_.find(name);
  return it != entries_.end() && it->second.given;
}
bool Parameters::has_value(std::string_view name) const { return entries_.count(name) != 0; }

namespace {
template <class T>
const T& Get(const FieldValue& value, std::string_view name) {
  if (const T* typed = std::get_if<T>(&value)) return *typed;
  throw UsageError("parameter '" + std::string(name) + "' is read with the wrong type");
}
}  // namespace

bool Parameters::flag(std::string_view name) const { return Get<bool>(Find(name).value, name); }
long Parameters::integer(std::string_view name) const { return Get<long>(Find(name).value, name); }
double Parameters::real(std::string_view name) const { return Get<double>(Find(name).value, name); }
const std::string& Parameters::text(std::string_view name) const {
  return Get<std::string>(Find(name).value, name);
}
const std::vector<double>& Parameters::reals(std::string_view name) const {
  return Get<std::vector<double>>(Find(name).value, name);
}
const std::vector<Index>& Parameters::indices(std::string_view name) const {
  return Get<std::vector<Index>>(Find(name).value, name);
}
const std::string& Parameters::source_text(std::string_view name) const {
  return Find(name).source_text;
}
void Parameters::Set(std::string name, FieldValue value, std::string source_text, bool given) {
  entries_[std::move(name)] = Entry{std::move(value), std::move(source_text), given};
}
std::vector<std::string> Parameters::given_names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : entries_)
    if (entry.given) names.push_back(name);
  return names;
}

// --- Parsing ------------------------------------------------------------------------------------

namespace internal {
namespace {

// What SOFA makes of a real that is not a number: its Data<T>::read (Data.h) streams the text
// into the value and fails only when nothing numeric leads it, so "10-3" silently becomes 10 (a
// tolerance a million times too large, where 1e-3 was meant). Fluxion refuses such text and says
// what SOFA would have used: "; SOFA reads it as 10, ignoring '-3'" and, for 10-N or 10^-N,
// "(for 10⁻N write 1e-N)". Empty when no number leads the text, or when a stream would fail too
// (a leading number followed by an exponent mark without digits, "1e").
std::string SofaReading(std::string_view word) {
  double value = 0.0;
  const char* first = word.data() + (!word.empty() && word.front() == '+' ? 1 : 0);
  const auto [end, error] = std::from_chars(first, word.data() + word.size(), value);
  if (error != std::errc() || end == first || end == word.data() + word.size() || *end == 'e' ||
      *end == 'E' || !std::isfinite(value))
    return {};
  const std::string_view rest(end, static_cast<std::size_t>(word.data() + word.size() - end));
  std::string text = "; SOFA reads it as " + FormatReal(value) + ", ignoring '" + Shown(rest) + "'";
  std::string_view exponent = rest;
  if (exponent.starts_with("^")) exponent.remove_prefix(1);
  if (value == 10.0 && exponent.size() > 1 && exponent.front() == '-' &&
      std::all_of(exponent.begin() + 1, exponent.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    text += " (for 10^" + std::string(exponent) + " write 1e" + std::string(exponent) + ")";
  return text;
}

std::string BoundsText(const FieldSpec& field) {
  std::string text;
  if (field.minimum) text += (field.minimum_exclusive ? "> " : ">= ") + FormatReal(*field.minimum);
  if (field.maximum) {
    if (!text.empty()) text += " and ";
    text += "<= " + FormatReal(*field.maximum);
  }
  return text;
}

bool WithinBounds(const FieldSpec& field, double value) {
  if (field.minimum) {
    if (field.minimum_exclusive ? !(value > *field.minimum) : !(value >= *field.minimum))
      return false;
  }
  return !(field.maximum && value > *field.maximum);
}

}  // namespace

namespace {

// The most indices one "A-B" range may expand to: a scene cannot make the parser allocate
// without bound (a mesh's index lists are far shorter).
constexpr long kMaxRangeIndices = 10'000'000;

// Appends the indices one word of an index list names: a whole number, or SOFA's range "A-B"
// (every index from A to B, down when B < A) or "A-B-S" (step S; a step against the direction
// swaps A and B; 0 is SOFA's ±1; going down, B itself ends the list even off the step), as
// SOFA's vector<unsigned int>::read (Sofa/framework/Type/src/sofa/type/vector_Integral.cpp)
// reads them. Returns "" or what is wrong.
std::string AppendIndices(std::string_view word, std::vector<Index>& out) {
  const auto whole = [](std::string_view text) -> std::optional<long> {
    const auto parsed = ParseInteger(text);
    if (!parsed || *parsed < 0) return std::nullopt;
    return parsed;
  };
  const std::size_t hyphen = word.find('-', 1);
  if (hyphen == std::string_view::npos) {
    const auto index = whole(word);
    if (!index) return "is not a valid index";
    out.push_back(static_cast<Index>(*index));
    return {};
  }
  const std::size_t hyphen2 = word.find('-', hyphen + 2);
  auto first = whole(word.substr(0, hyphen));
  auto last =
      whole(word.substr(hyphen + 1, hyphen2 == std::string_view::npos ? std::string_view::npos
                                                                      : hyphen2 - hyphen - 1));
  if (!first || !last) return "is not a valid index range";
  long step = *first <= *last ? 1 : -1;
  if (hyphen2 != std::string_view::npos) {
    const auto given = ParseInteger(word.substr(hyphen2 + 1));
    if (!given || *given == std::numeric_limits<long>::min()) return "is not a valid index range";
    if (*given != 0) step = *given;
    if ((*last - *first) * step < 0) std::swap(first, last);
  }
  // Both ends are ≥ 0: their difference cannot overflow, nor the count of at most 10⁷ + 1.
  const long count = std::min(std::abs(*last - *first) / std::abs(step), kMaxRangeIndices) + 1;
  if (count > kMaxRangeIndices ||
      out.size() + static_cast<std::size_t>(count) > static_cast<std::size_t>(kMaxRangeIndices))
    return "is a range of too many indices (expected at most " + std::to_string(kMaxRangeIndices) +
           " in one list)";
  if (step < 0) {
    for (long t = *first; t > *last; t += step) out.push_back(static_cast<Index>(t));
    out.push_back(static_cast<Index>(*last));
  } else {
    for (long t = *first; t <= *last; t += step) out.push_back(static_cast<Index>(t));
  }
  return {};
}

}  // namespace

std::string ParseFieldValue(const FieldSpec& field, const std::string& text, FieldValue& value) {
  const std::vector<std::string_view> words = SplitWords(text);
  std::string why;
  const auto single_word = [&]() -> std::optional<std::string_view> {
    if (words.size() == 1) return words.front();
    why = words.empty() ? "is empty" : "has " + std::to_string(words.size()) + " values";
    return std::nullopt;
  };
  switch (field.type) {
    case FieldType::kBool: {
      const auto word = single_word();
      if (!word) return "'" + Shown(text) + "' " + why + " (expected 0, 1, true or false)";
      const auto parsed = ParseBool(*word);
      if (!parsed) return "'" + Shown(text) + "' is not a boolean (expected 0, 1, true or false)";
      value = *parsed;
      return {};
    }
    case FieldType::kInteger: {
      const auto word = single_word();
      if (!word) return "'" + Shown(text) + "' " + why + " (expected one whole number)";
      const auto parsed = ParseInteger(*word, &why);
      if (!parsed) return "'" + Shown(text) + "' is " + why + " (expected a whole number)";
      if (!WithinBounds(field, static_cast<double>(*parsed)))
        return "value " + text + " is out of range (expected " + BoundsText(field) + ")";
      value = *parsed;
      return {};
    }
    case FieldType::kReal: {
      const auto word = single_word();
      if (!word) return "'" + Shown(text) + "' " + why + " (expected one number)";
      const auto parsed = ParseReal(*word, &why);
      if (!parsed)
        return "'" + Shown(*word) + "' is " + why + " (expected a finite number" +
               SofaReading(*word) + ")";
      if (!WithinBounds(field, *parsed))
        return "value " + std::string(*word) + " is out of range (expected " + BoundsText(field) +
               ")";
      value = *parsed;
      return {};
    }
    case FieldType::kText:
    case FieldType::kLink:
      value = text;
      return {};
    case FieldType::kChoice: {
      const auto word = single_word();
      const std::string word_text = word ? std::string(*word) : text;
      if (!word ||
          std::find(field.choices.begin(), field.choices.end(), word_text) == field.choices.end()) {
        std::string options;
        for (const std::string& choice : field.choices)
          options += (options.empty() ? "" : ", ") + choice;
        return "'" + Shown(text) + "' is not one of the choices (expected one of " + options + ")";
      }
      value = word_text;
      return {};
    }
    case FieldType::kRealList: {
      std::vector<double> list;
      list.reserve(words.size());
      for (std::size_t i = 0; i < words.size(); ++i) {
        const auto parsed = ParseReal(words[i], &why);
        if (!parsed)
          return "value " + std::to_string(i + 1) + " '" + Shown(words[i]) + "' is " + why +
                 " (expected finite numbers)";
        if (!WithinBounds(field, *parsed))
          return "value " + std::to_string(i + 1) + " (" + std::string(words[i]) +
                 ") is out of range (expected " + BoundsText(field) + ")";
        list.push_back(*parsed);
      }
      value = std::move(list);
      return {};
    }
    case FieldType::kIndexList: {
      std::vector<Index> list;
      list.reserve(words.size());
      for (std::size_t i = 0; i < words.size(); ++i)
        if (const std::string wrong = AppendIndices(words[i], list); !wrong.empty())
          return "value " + std::to_string(i + 1) + " '" + Shown(words[i]) + "' " + wrong +
                 " (expected whole numbers >= 0, or SOFA's ranges A-B and A-B-STEP)";
      value = std::move(list);
      return {};
    }
  }
  return "unsupported field type";
}

Parameters ParseAttributes(const ComponentSpec& spec, const std::vector<AttributeText>& attributes,
                           std::vector<ParameterProblem>& problems) {
  Parameters parameters;
  std::vector<std::string> seen;  // canonical names already given (aliases may collide)
  std::vector<std::string> known;
  for (const FieldSpec& field : spec.fields) {
    known.push_back(field.name);
    known.insert(known.end(), field.aliases.begin(), field.aliases.end());
  }
  for (const AttributeText& attribute : attributes) {
    const FieldSpec* field = spec.FindField(attribute.name);
    if (field == nullptr) {
      std::string message = "unknown attribute '" + Shown(attribute.name) + "' for " + spec.name;
      const std::string suggestion = SuggestClosest(attribute.name, known);
      if (const std::string renamed = RenamedAttributeHint(spec.name, attribute.name);
          !renamed.empty())
        message += " (" + renamed + ")";
      else if (!suggestion.empty())
        message += " (did you mean '" + suggestion + "'?)";
      else
        message += " (see: scene-runner --list-components " + spec.name + ")";
      problems.push_back({attribute.name, message, attribute.line});
      continue;
    }
    if (std::find(seen.begin(), seen.end(), field->name) != seen.end()) {
      problems.push_back({attribute.name,
                          "attribute '" + attribute.name + "' sets '" + field->name +
                              "' a second time (expected it once, under one of its names)",
                          attribute.line});
      continue;
    }
    seen.push_back(field->name);
    FieldValue value;
    const std::string error = ParseFieldValue(*field, attribute.value, value);
    if (!error.empty()) {
      problems.push_back(
          {attribute.name, spec.name + " '" + attribute.name + "': " + error, attribute.line});
      continue;
    }
    parameters.Set(field->name, std::move(value), attribute.value, true);
  }
  // Defaults for everything not given.
  for (const FieldSpec& field : spec.fields) {
    if (parameters.has_value(field.name)) continue;
    if (field.default_value.empty() && field.type != FieldType::kRealList &&
        field.type != FieldType::kIndexList && field.type != FieldType::kText &&
        field.type != FieldType::kLink)
      continue;  // no default: absent unless given
    FieldValue value;
    const std::string error = ParseFieldValue(field, field.default_value, value);
    FLUXION_DEMAND(error.empty());  // a declaration's default must parse
    parameters.Set(field.name, std::move(value), field.default_value, false);
  }
  return parameters;
}

}  // namespace internal

Parameters ParseParameters(const ComponentSpec& spec,
                           const std::vector<std::pair<std::string, std::string>>& attributes) {
  std::vector<internal::AttributeText> texts;
  for (const auto& [name, value] : attributes) texts.push_back({name, value, 0});
  std::vector<internal::ParameterProblem> problems;
  Parameters parameters = internal::ParseAttributes(spec, texts, problems);
  if (!problems.empty()) throw ConfigError(problems.front().field, problems.front().message);
  return parameters;
}

}  // namespace fluxion
