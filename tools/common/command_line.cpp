#include "command_line.h"

#include <algorithm>
#include <cstdio>

#include "exit_status_common.h"
#include "fluxion/text.h"

namespace fluxion::tools {

CLI::Validator FiniteIn(double min, double max, const std::string& range_text) {
  return CLI::Validator(
      [=](const std::string& text) -> std::string {
        std::string why;
        const std::optional<double> value = ParseReal(text, &why);
        if (!value)
          return "'" + text + "' is " + why + " (expected a finite number " + range_text + ")";
        if (*value < min || *value > max)
          return "'" + text + "' is out of range (expected a number " + range_text + ")";
        return {};
      },
      "NUMBER " + range_text);
}

CLI::Validator WholeIn(long min, long max, const std::string& range_text) {
  return CLI::Validator(
      [=](const std::string& text) -> std::string {
        std::string why;
        const std::optional<long> value = ParseInteger(text, &why);
        if (!value)
          return "'" + text + "' is " + why + " (expected a whole number " + range_text + ")";
        if (*value < min || *value > max)
          return "'" + text + "' is out of range (expected a whole number " + range_text + ")";
        return {};
      },
      "INTEGER " + range_text);
}

CLI::Validator OneOf(const std::string& what, const std::vector<std::string>& words) {
  std::string listed;
  for (const std::string& word : words) listed += (listed.empty() ? "" : ", ") + word;
  return CLI::Validator(
      [=](const std::string& text) -> std::string {
        for (const std::string& word : words)
          if (text == word) return {};
        return "'" + text + "' is not " + what + " (expected one of " + listed + ")";
      },
      "WORD");
}

void PrintError(std::string_view message) {
  std::size_t start = 0;
  while (start < message.size()) {
    const std::size_t end = std::min(message.find('\n', start), message.size());
    const std::string_view line = message.substr(start, end - start);
    std::fprintf(stderr, "error: %.*s\n", static_cast<int>(line.size()), line.data());
    start = end + 1;
  }
}

std::string CommandLineProblem(const CLI::ParseError& error, std::string_view tool) {
  std::string message = error.what();
  const std::string see = " (see " + std::string(tool) + " --help)";
  // CLI11 words a few of its messages for programmers; say them for users.
  if (const auto at = message.find(": 1 required "); at != std::string::npos) {
    std::string expected = message.substr(at + 13, message.rfind(" missing") - at - 13);
    expected.erase(0, expected.find(':') + 1);  // "INT:INTEGER from 0 to 2^62": the type's name
    return message.substr(0, at) + ": a value is missing (expected " + expected + ")";
  }
  if (const auto at = message.find(" excludes "); at != std::string::npos)
    return message.substr(0, at) + " and" + message.substr(at + 9) +
           " were both given (expected one of them)";
  if (const auto at = message.find(" requires "); at != std::string::npos)
    return message.substr(0, at) + " needs" + message.substr(at + 9) + " (expected both)";
  if (const auto at = message.find(" is required"); at != std::string::npos)
    return message.substr(0, at) + " is missing" + see;
  // The validators' own messages already say what was expected.
  if (!message.empty() && message.back() == ')') return message;
  return message + see;
}

std::string ExtraArgumentProblem(const CLI::App& app, const std::vector<std::string>& extras,
                                 std::string_view tool, std::string_view expected_words) {
  const std::string help = std::string(tool) + " --help";
  for (const std::string& extra : extras) {
    if (extra.size() < 2 || extra[0] != '-') continue;
    const std::string name = extra.substr(0, extra.find('='));
    std::vector<std::string> options;
    for (const CLI::Option* option : app.get_options()) {
      for (const std::string& long_name : option->get_lnames()) options.push_back("--" + long_name);
      for (const std::string& short_name : option->get_snames())
        options.push_back("-" + short_name);
    }
    const std::string suggestion = SuggestClosest(name, options);
    return "unknown option '" + name + "' (" +
           (suggestion.empty() ? "expected one of the options of " + help
                               : "did you mean '" + suggestion + "'? see " + help) +
           ")";
  }
  return "unexpected argument '" + extras.front() + "' (expected " + std::string(expected_words) +
         "; options begin with --, see " + help + ")";
}

std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv, std::string_view tool,
                                    std::string_view expected_words) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    PrintError(CommandLineProblem(e, tool));
    return kExitInvalidInput;
  }
  if (!expected_words.empty())
    if (const std::vector<std::string> extras = app.remaining(); !extras.empty()) {
      PrintError(ExtraArgumentProblem(app, extras, tool, expected_words));
      return kExitInvalidInput;
    }
  return std::nullopt;
}

}  // namespace fluxion::tools
