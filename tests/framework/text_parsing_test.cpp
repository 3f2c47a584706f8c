// Strict scene-text parsing (core/text_parsing.h): numbers, booleans, word splitting, the
// shortest round-trip number format and the "did you mean" suggestions.
#include "core/text_parsing.h"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

namespace fluxion::internal {
namespace {

TEST(ParseReal, AcceptsPlainAndScientificNotation) {
  EXPECT_EQ(ParseReal("0"), 0.0);
  EXPECT_EQ(ParseReal("-2.5"), -2.5);
  EXPECT_EQ(ParseReal("+3"), 3.0);  // SOFA's stream parsing accepts a leading '+'
  EXPECT_EQ(ParseReal("1e3"), 1000.0);
  EXPECT_EQ(ParseReal("1.5E-2"), 0.015);
  EXPECT_EQ(ParseReal(".5"), 0.5);
  // The nearest double, as the compiler rounds the same literal.
  EXPECT_EQ(ParseReal("0.1"), 0.1);
  EXPECT_EQ(ParseReal("-9.81"), -9.81);
  EXPECT_EQ(ParseReal("1.7976931348623157e308"), std::numeric_limits<double>::max());
}

TEST(ParseReal, RejectsTrailingGarbage) {
  std::string why;
  EXPECT_FALSE(ParseReal("1.0x", &why));
  EXPECT_EQ(why, "not a number");
  EXPECT_FALSE(ParseReal("1,0"));
  EXPECT_FALSE(ParseReal("1 "));
  EXPECT_FALSE(ParseReal(" 1"));
  EXPECT_FALSE(ParseReal("0x10"));  // no hexadecimal
  EXPECT_FALSE(ParseReal("1e"));
  EXPECT_FALSE(ParseReal("++1"));
  EXPECT_FALSE(ParseReal("-"));
  EXPECT_FALSE(ParseReal("abc"));
}

TEST(ParseReal, RejectsEmptyText) {
  std::string why;
  EXPECT_FALSE(ParseReal("", &why));
  EXPECT_EQ(why, "not a number");
  EXPECT_FALSE(ParseReal("+"));
}

TEST(ParseReal, RejectsNonFiniteValues) {
  for (const char* word : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "+inf"}) {
    std::string why;
    EXPECT_FALSE(ParseReal(word, &why)) << word;
    EXPECT_EQ(why, "not a finite number") << word;
  }
}

TEST(ParseReal, RejectsValuesOutOfRange) {
  std::string why;
  EXPECT_FALSE(ParseReal("1e999", &why));
  EXPECT_EQ(why, "out of the range of a double");
  EXPECT_FALSE(ParseReal("-1e999"));
  EXPECT_FALSE(ParseReal("1.8e308"));
}

TEST(ParseInteger, AcceptsWholeNumbersOnly) {
  EXPECT_EQ(ParseInteger("42"), 42);
  EXPECT_EQ(ParseInteger("-7"), -7);
  EXPECT_EQ(ParseInteger("+3"), 3);
  std::string why;
  EXPECT_FALSE(ParseInteger("1.0", &why));
  EXPECT_EQ(why, "not a whole number");
  EXPECT_FALSE(ParseInteger("1e3"));
  EXPECT_FALSE(ParseInteger(""));
  EXPECT_FALSE(ParseInteger("3x"));
  EXPECT_FALSE(ParseInteger("99999999999999999999999", &why));
  EXPECT_EQ(why, "out of range");
}

TEST(ParseBool, AcceptsZeroOneTrueFalse) {
  EXPECT_EQ(ParseBool("1"), true);
  EXPECT_EQ(ParseBool("0"), false);
  EXPECT_EQ(ParseBool("true"), true);
  EXPECT_EQ(ParseBool("false"), false);
  for (const char* word : {"", "2", "-1", "yes", "no", "on", "1.0", "truex"})
    EXPECT_FALSE(ParseBool(word)) << word;
}

TEST(SplitWords, SplitsOnWhitespaceAndCommas) {
  const auto words = SplitWords("  0 1\t2\n3,4 ,5,,  ");
  ASSERT_EQ(words.size(), 6u);
  for (std::size_t i = 0; i < words.size(); ++i) EXPECT_EQ(words[i], std::to_string(i));
  EXPECT_TRUE(SplitWords("").empty());
  EXPECT_TRUE(SplitWords(" \t\n, ").empty());
}

TEST(FormatReal, WritesShortestForm) {
  EXPECT_EQ(FormatReal(0.1), "0.1");
  EXPECT_EQ(FormatReal(-9.81), "-9.81");
  EXPECT_EQ(FormatReal(1.0), "1");
  EXPECT_EQ(FormatReal(0.0), "0");
  EXPECT_EQ(FormatReal(-0.0), "-0");
  EXPECT_EQ(FormatReal(1e-300), "1e-300");
  EXPECT_EQ(FormatReal(0.1 + 0.2), "0.30000000000000004");
}

TEST(FormatReal, OneThirdParsesBackExactly) {
  const double third = 1.0 / 3.0;
  const std::string text = FormatReal(third);
  EXPECT_EQ(ParseReal(text), third) << text;
  EXPECT_EQ(text.size(), std::string("0.3333333333333333").size());
}

TEST(AppendReal, AppendsToExistingText) {
  std::string text = "x=";
  AppendReal(text, 0.25);
  text += ',';
  AppendReal(text, -1e20);
  EXPECT_EQ(text, "x=0.25,-1e+20");
}

// Number of significant decimal digits in a to_chars/printf form ("1.25e-3" -> 3, "0.001" -> 1).
int SignificantDigits(const std::string& text) {
  std::string digits;
  for (char c : text.substr(0, text.find_first_of("eE")))
    if (c >= '0' && c <= '9') digits += c;
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  digits.erase(0, first);
  return static_cast<int>(digits.find_last_not_of('0') + 1);
}

// The fewest significant digits P with which printf's correctly rounded "%.{P-1}e" form parses
// back to `value` (an independent search, by another formatter).
std::string ShortestScientific(double value) {
  char text[64];
  for (int precision = 0; precision < 17; ++precision) {
    std::snprintf(text, sizeof(text), "%.*e", precision, value);
    double parsed = 0.0;
    std::from_chars(text, text + std::char_traits<char>::length(text), parsed);
    if (std::bit_cast<std::uint64_t>(parsed) == std::bit_cast<std::uint64_t>(value)) break;
  }
  return text;
}

// Every finite double round-trips through FormatReal (checked with std::from_chars, independently
// of ParseReal), and its text is the shortest: with a fraction or an exponent it has exactly as
// many significant digits as the shortest round-tripping scientific form; written as a whole
// number it is no longer than that form.
TEST(FormatReal, RandomDoublesRoundTripInShortestForm) {
  std::mt19937_64 generator(20240607);
  int checked = 0;
  while (checked < 20000) {
    const double value = std::bit_cast<double>(generator());
    if (!std::isfinite(value)) continue;
    ++checked;
    const std::string text = FormatReal(value);
    double parsed = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    ASSERT_EQ(error, std::errc()) << text;
    ASSERT_EQ(end, text.data() + text.size()) << text;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(parsed), std::bit_cast<std::uint64_t>(value)) << text;
    const std::string shortest = ShortestScientific(value);
    if (text.find_first_of(".e") != std::string::npos)
      ASSERT_EQ(SignificantDigits(text), SignificantDigits(shortest)) << text << " vs " << shortest;
    else
      ASSERT_LE(text.size(), shortest.size()) << text << " vs " << shortest;
  }
}

TEST(SuggestClosest, SuggestsPlausibleMisspellings) {
  const std::vector<std::string> names = {"linesStiffness", "quadsStiffness", "tolerance",
                                          "iterations"};
  EXPECT_EQ(SuggestClosest("linesStifness", names), "linesStiffness");
  EXPECT_EQ(SuggestClosest("tolerence", names), "tolerance");
  EXPECT_EQ(SuggestClosest("Iterations", names), "iterations");  // case-insensitive
  EXPECT_EQ(SuggestClosest("gravity", names), "");
  EXPECT_EQ(SuggestClosest("x", {}), "");
}

TEST(SuggestClosest, AnEndingLeftOutIsAPlausibleMisspelling) {
  const std::vector<std::string> solvers = {"RungeKutta2Solver", "RungeKutta4Solver",
                                            "SymplecticEulerSolver", "EulerImplicitSolver"};
  EXPECT_EQ(SuggestClosest("RungeKutta4", solvers), "RungeKutta4Solver");  // 6 edits of 17
  EXPECT_EQ(SuggestClosest("rungekutta2", solvers), "RungeKutta2Solver");
  EXPECT_EQ(SuggestClosest("Runge", solvers), "");  // less than half of the name
  EXPECT_EQ(SuggestClosest("--stpes", {"--steps", "--step-size"}), "--steps");
}

TEST(SuggestClosest, ANameWithAFurtherWordIsAnotherName) {
  const std::vector<std::string> names = {"SymplecticEulerSolver", "UniformMass"};
  // 6 edits of 27 would pass as a misspelling; but the whole name is there, plus "Damped".
  EXPECT_EQ(SuggestClosest("DampedSymplecticEulerSolver", names), "");
  EXPECT_EQ(SuggestClosest("UniformMassX", names), "UniformMass");  // one slip of the keyboard
  EXPECT_EQ(SuggestClosest("MyUniformMass", names), "UniformMass");
}

TEST(EscapeXml, EscapesMarkupAndDropsForbiddenControlCharacters) {
  EXPECT_EQ(EscapeXml(R"(a<b>&"c'd)"), "a&lt;b&gt;&amp;&quot;c&apos;d");
  // XML 1.0 allows tab, newline and return among the control characters, nothing else.
  EXPECT_EQ(EscapeXml(std::string("x\ty\nz\r") + '\x1b' + '\x01' + "w"), "x\ty\nz\rw");
  EXPECT_EQ(EscapeXml("root/cloth/dofs"), "root/cloth/dofs");
}

}  // namespace
}  // namespace fluxion::internal
