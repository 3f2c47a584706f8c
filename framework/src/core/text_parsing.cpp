#include "core/text_parsing.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>

namespace fluxion::internal {

std::vector<std::string_view> SplitWords(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  const auto is_separator = [](char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0 || c == ',';
  };
  while (i < text.size()) {
    while (i < text.size() && is_separator(text[i])) ++i;
    std::size_t start = i;
    while (i < text.size() && !is_separator(text[i])) ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

}  // namespace fluxion::internal

namespace fluxion {

std::optional<double> ParseReal(std::string_view word, std::string* why) {
  // from_chars is locale-independent and rejects leading '+' and spaces; accept a leading '+'
  // as SOFA's stream parsing does.
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error == std::errc::result_out_of_range) {
    if (why) *why = "out of the range of a double";
    return std::nullopt;
  }
  if (error != std::errc() || end != word.data() + word.size() || word.empty()) {
    if (why) *why = "not a number";
    return std::nullopt;
  }
  if (!std::isfinite(value)) {
    if (why) *why = "not a finite number";
    return std::nullopt;
  }
  return value;
}

std::optional<long> ParseInteger(std::string_view word, std::string* why) {
  if (!word.empty() && word.front() == '+') word.remove_prefix(1);
  long value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error == std::errc::result_out_of_range) {
    if (why) *why = "out of range";
    return std::nullopt;
  }
  if (error != std::errc() || end != word.data() + word.size() || word.empty()) {
    if (why) *why = "not a whole number";
    return std::nullopt;
  }
  return value;
}

std::string EscapeControl(std::string_view text) {
  std::string shown;
  shown.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      shown += "\\n";
    } else if (c == '\t') {
      shown += "\\t";
    } else if (c == '\r') {
      shown += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      constexpr char kHex[] = "0123456789abcdef";
      shown += "\\x";
      shown += kHex[byte >> 4];
      shown += kHex[byte & 15];
    } else {
      shown += c;
    }
  }
  return shown;
}

std::string Shown(std::string_view text, std::size_t max_length) {
  if (text.size() <= max_length) return EscapeControl(text);
  // Cut on a UTF-8 character boundary (never inside a multi-byte sequence).
  std::size_t cut = max_length;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return EscapeControl(text.substr(0, cut)) + "…";
}

}  // namespace fluxion

namespace fluxion::internal {

std::optional<bool> ParseBool(std::string_view word) {
  std::string lower(word);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "1" || lower == "true") return true;
  if (lower == "0" || lower == "false") return false;
  return std::nullopt;
}
}  // namespace fluxion::internal

namespace fluxion {

void AppendReal(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

std::string FormatReal(double value) {
  std::string text;
  AppendReal(text, value);
  return text;
}

namespace {
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      current[j] =
          std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

bool StartsWithIgnoringCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         });
}

bool ContainsIgnoringCase(std::string_view text, std::string_view part) {
  for (std::size_t at = 0; at + part.size() <= text.size(); ++at)
    if (StartsWithIgnoringCase(text.substr(at), part)) return true;
  return false;
}

}  // namespace

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') break;
        out += c;
    }
  }
  return out;
}

std::string SuggestClosest(std::string_view word, const std::vector<std::string>& candidates) {
  // No name that long is a misspelling of a real one; and the edit distance is quadratic.
  constexpr std::size_t kLongestPlausible = 64;
  if (word.empty() || word.size() > kLongestPlausible) return {};
  // A name left without its ending ("RungeKutta4" for "RungeKutta4Solver", "stiff" for
  // "stiffness"), when the word is at least half of it: the shortest such name.
  std::string shortened;
  for (const std::string& candidate : candidates)
    if (StartsWithIgnoringCase(candidate, word) && 2 * word.size() >= candidate.size() &&
        (shortened.empty() || candidate.size() < shortened.size()))
      shortened = candidate;
  if (!shortened.empty()) return shortened;

  std::string best;
  std::size_t best_distance = std::string::npos;
  for (const std::string& candidate : candidates) {
    const std::size_t distance = EditDistance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  // Plausible misspelling: at most a third of the longer word differs (and at least 1 edit
  // allowed). A word holding the whole name and a further word of its own
  // ("DampedSymplecticEulerSolver" for "SymplecticEulerSolver") names something else.
  const std::size_t longest = std::max(word.size(), best.size());
  if (best.empty() || best_distance > std::max<std::size_t>(2, longest / 3)) return {};
  if (word.size() >= best.size() + 3 && ContainsIgnoringCase(word, best)) return {};
  return best;
}

}  // namespace fluxion
