// Number text as Fluxion reads and writes it: strict, locale-independent parsing and shortest
// round-trip formatting, shared by the scene reader, the CSV writer and the tools.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fluxion/export.h"

namespace fluxion {

/// Parses one finite double, or returns nullopt and sets `why` ("not a number", "not finite",
/// "out of range").
FLUXION_API std::optional<double> ParseReal(std::string_view word, std::string* why = nullptr);
/// Parses one whole number, or returns nullopt and sets `why`.
FLUXION_API std::optional<long> ParseInteger(std::string_view word, std::string* why = nullptr);

/// The shortest decimal text that parses back to exactly `value` ("0.1", "1e-300", "-0").
FLUXION_API std::string FormatReal(double value);
/// Appends FormatReal(value) to `out` without a temporary string.
FLUXION_API void AppendReal(std::string& out, double value);

/// Untrusted text (a scene's value, a file's bytes) as a message shows it: at most `max_length`
/// bytes (then "…", cut on a UTF-8 boundary), control characters escaped (\n, \t, \xNN), so
/// that no file content can start a new line, forge an `error:` line or reach the terminal raw.
FLUXION_API std::string Shown(std::string_view text, std::size_t max_length = 80);

/// Control characters of `text` escaped as in Shown, nothing cut.
FLUXION_API std::string EscapeControl(std::string_view text);

/// `text` as XML character data or attribute value: & < > " ' escaped, and the control characters
/// XML 1.0 forbids (below 0x20 but tab, newline, return) left out. The VTK and XDMF writers,
/// scene-regress's JUnit report and fluxion-analyze's scene text use it.
FLUXION_API std::string EscapeXml(std::string_view text);

/// The candidate `word` plausibly misspells, case-insensitive ("RungeKutta4" → "RungeKutta4Solver";
/// never "DampedSymplecticEulerSolver" → "SymplecticEulerSolver"), or empty if none is close.
FLUXION_API std::string SuggestClosest(std::string_view word,
                                       const std::vector<std::string>& candidates);

}  // namespace fluxion
