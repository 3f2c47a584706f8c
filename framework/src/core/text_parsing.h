// Strict, locale-independent parsing of scene text, and shortest round-trip number formatting.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/export.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// Splits on whitespace (and commas, which some SOFA scenes use between vectors).
FLUXION_API std::vector<std::string_view> SplitWords(std::string_view text);

/// Parses one finite double, or returns nullopt and sets `why` ("not a number", "not finite",
/// "out of range").
FLUXION_API std::optional<double> ParseReal(std::string_view word, std::string* why = nullptr);
FLUXION_API std::optional<long> ParseInteger(std::string_view word, std::string* why = nullptr);
FLUXION_API std::optional<bool> ParseBool(std::string_view word);

/// The shortest decimal text that parses back to exactly `value` ("0.1", "1e-300", "-0").
FLUXION_API std::string FormatReal(double value);
/// Appends FormatReal(value) to `out` without a temporary string.
FLUXION_API void AppendReal(std::string& out, double value);

/// The candidate closest to `word` by edit distance (case-insensitive), if close enough to be a
/// plausible misspelling; empty otherwise.
FLUXION_API std::string SuggestClosest(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace fluxion::internal
