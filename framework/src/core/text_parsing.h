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

using ::fluxion::AppendReal;
using ::fluxion::EscapeControl;
using ::fluxion::FormatReal;
using ::fluxion::ParseInteger;
using ::fluxion::ParseReal;
using ::fluxion::Shown;
using ::fluxion::SuggestClosest;

}  // namespace fluxion::internal
