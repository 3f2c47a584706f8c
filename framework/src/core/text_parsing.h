// Strict, locale-independent parsing of scene text, and shortest round-trip number formatting
// (the public part is fluxion/text.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/text.h"
#include "fluxion/types.h"

namespace fluxion::internal {

/// Splits on whitespace (and commas, which some SOFA scenes use between vectors).
std::vector<std::string_view> SplitWords(std::string_view text);

/// "0"/"1"/"true"/"false", else nullopt.
std::optional<bool> ParseBool(std::string_view word);

/// Scene text as a message shows it: at most `max_length` characters (then "…"), control
/// characters escaped (\n, \t, \xNN), so that no scene content can start a new line or reach the
/// terminal raw.
std::string Shown(std::string_view text, std::size_t max_length = 80);

/// Control characters of `text` escaped as in Shown, nothing cut.
std::string EscapeControl(std::string_view text);

using ::fluxion::AppendReal;
using ::fluxion::FormatReal;
using ::fluxion::ParseInteger;
using ::fluxion::ParseReal;
using ::fluxion::SuggestClosest;

}  // namespace fluxion::internal
