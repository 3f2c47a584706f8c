// Command lines of the Fluxion tools, parsed with CLI11 and reported in the voice of the scene
// errors: one line `error: --option: what is wrong (what was expected)`, exit status 2. The tools
// shared nothing here before, and only scene-runner reworded CLI11's messages (fluxion-analyze and
// fluxion-view printed "1 required INT:INT in [0 - 65535] missing" as CLI11 wrote it).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fluxion::tools {

/// A finite number within [min, max], or a one-line reason naming `range_text` (CLI11's own
/// range checks let NaN through and print the largest double in full).
CLI::Validator FiniteIn(double min, double max, const std::string& range_text);

/// A whole number within [min, max], refused (not clamped) beyond what a long holds.
CLI::Validator WholeIn(long min, long max, const std::string& range_text);

/// One of a few words; `what` names them in the reason ("'x' is not a log level (expected …)").
CLI::Validator OneOf(const std::string& what, const std::vector<std::string>& words);

/// Prints `message` on stderr, each of its lines as its own "error: " line.
void PrintError(std::string_view message);

/// CLI11's parse error as one line: "--steps: a value is missing (expected INTEGER)"; messages
/// that do not say what was expected end with "(see TOOL --help)".
std::string CommandLineProblem(const CLI::ParseError& error, std::string_view tool);

/// The arguments CLI11 did not take (an app with allow_extras()), as one line: a mistyped option
/// with the option closest to it, or an unexpected word.
std::string ExtraArgumentProblem(const CLI::App& app, const std::vector<std::string>& extras,
                                 std::string_view tool, std::string_view expected_words);

/// Parses the command line. Returns the exit status to return now (after --help or --version:
/// 0; after a mistake, reported: 2), or nothing when the tool goes on. With `expected_words`
/// given, `app` must allow extras, and any left over is reported as ExtraArgumentProblem.
std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv, std::string_view tool,
                                    std::string_view expected_words = {});

}  // namespace fluxion::tools
