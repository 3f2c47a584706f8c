// Declarative component parameters (fluxion/parameters.h, core/parameter_parsing.h): typed
// parsing, defaults, aliases, bounds, choices, and the messages a scene author sees.
#include "fluxion/parameters.h"

#include <gtest/gtest.h>

#include "core/parameter_parsing.h"
#include "fluxion/errors.h"

namespace fluxion {
namespace {

using Attributes = std::vector<std::pair<std::string, std::string>>;

// A component declaring one field of each kind.
ComponentSpec TestSpec() {
  return ComponentSpec{
      .name = "TestComponent",
      .kind = ComponentKind::kForceField,
      .summary = "a component for the tests",
      .fields = {FieldSpec::Bool("enabled", true, "a flag"),
                 FieldSpec::Integer("iterations", 25, "a count").AtLeast(1),
                 FieldSpec::Real("tolerance", 1e-5, "a tolerance").AtLeast(0),
                 FieldSpec::Real("threshold", 0.1, "a positive number")
                     .GreaterThan(0)
                     .AtMost(10)
                     .Alias("smallDenominatorThreshold"),
                 FieldSpec::Real("third", 1.0 / 3.0, "a default that is not a short decimal"),
                 FieldSpec::OptionalReal("totalMass", "no default"),
                 FieldSpec::Text("label", "none", "free text"),
                 FieldSpec::Choice("template", "Vec3d", {"Vec1d", "Vec2d", "Vec3d"}, "a choice"),
                 FieldSpec::RealList("position", "a list of reals"),
                 FieldSpec::RealList("gravity", "a list with a default").DefaultText("0 -9.81 0"),
                 FieldSpec::IndexList("indices", "point indices").DefaultText("0"),
                 FieldSpec::Link("object1", "a link")},
      .aliases = {}};
}

// The message of the ConfigError thrown for `attributes`, and the field it names.
std::pair<std::string, std::string> Problem(const Attributes& attributes) {
  try {
    (void)ParseParameters(TestSpec(), attributes);
  } catch (const ConfigError& error) {
    return {error.field(), error.what()};
  }
  ADD_FAILURE() << "no ConfigError";
  return {};
}

TEST(Parameters, DefaultsApplyWhenNotGiven) {
  const Parameters p = ParseParameters(TestSpec(), {});
  EXPECT_TRUE(p.flag("enabled"));
  EXPECT_EQ(p.integer("iterations"), 25);
  EXPECT_EQ(p.real("tolerance"), 1e-5);
  EXPECT_EQ(p.real("threshold"), 0.1);
  EXPECT_EQ(p.text("label"), "none");
  EXPECT_EQ(p.text("template"), "Vec3d");
  EXPECT_TRUE(p.reals("position").empty());
  EXPECT_EQ(p.reals("gravity"), (std::vector<double>{0.0, -9.81, 0.0}));
  EXPECT_EQ(p.indices("indices"), (std::vector<Index>{0}));
  EXPECT_EQ(p.text("object1"), "");
  EXPECT_TRUE(p.given_names().empty());
}

TEST(Parameters, RealDefaultsRoundTripExactly) {
  // FieldSpec::Real stores its default as text: the shortest form must parse back to the same
  // double.
  const Parameters p = ParseParameters(TestSpec(), {});
  EXPECT_EQ(p.real("third"), 1.0 / 3.0);
}

TEST(Parameters, HasTellsGivenFromDefault) {
  const Parameters p = ParseParameters(TestSpec(), {{"tolerance", "1e-5"}, {"indices", "0"}});
  EXPECT_TRUE(p.has("tolerance"));  // given, even with the default's value
  EXPECT_TRUE(p.has("indices"));
  EXPECT_FALSE(p.has("iterations"));
  EXPECT_TRUE(p.has_value("iterations"));
  EXPECT_EQ(p.given_names(), (std::vector<std::string>{"indices", "tolerance"}));
  EXPECT_EQ(p.source_text("tolerance"), "1e-5");
}

TEST(Parameters, OptionalFieldHasNoValueUnlessGiven) {
  const Parameters absent = ParseParameters(TestSpec(), {});
  EXPECT_FALSE(absent.has("totalMass"));
  EXPECT_FALSE(absent.has_value("totalMass"));
  EXPECT_THROW((void)absent.real("totalMass"), UsageError);
  const Parameters given = ParseParameters(TestSpec(), {{"totalMass", "2.5"}});
  EXPECT_TRUE(given.has("totalMass"));
  EXPECT_EQ(given.real("totalMass"), 2.5);
}

TEST(Parameters, ReadingWithWrongTypeOrUndeclaredNameIsUsageError) {
  const Parameters p = ParseParameters(TestSpec(), {});
  EXPECT_THROW((void)p.integer("tolerance"), UsageError);
  EXPECT_THROW((void)p.flag("label"), UsageError);
  EXPECT_THROW((void)p.real("undeclared"), UsageError);
}

TEST(Parameters, ParsesEachTypeStrictly) {
  const Parameters p = ParseParameters(TestSpec(), {{"enabled", "false"},
                                                    {"iterations", "3"},
                                                    {"tolerance", "0"},
                                                    {"template", "Vec1d"},
                                                    {"position", "0 1.5, -2\n1e3"},
                                                    {"indices", "4 0 7"},
                                                    {"label", "a b  c"}});
  EXPECT_FALSE(p.flag("enabled"));
  EXPECT_EQ(p.integer("iterations"), 3);
  EXPECT_EQ(p.real("tolerance"), 0.0);
  EXPECT_EQ(p.text("template"), "Vec1d");
  EXPECT_EQ(p.reals("position"), (std::vector<double>{0.0, 1.5, -2.0, 1000.0}));
  EXPECT_EQ(p.indices("indices"), (std::vector<Index>{4, 0, 7}));
  EXPECT_EQ(p.text("label"), "a b  c");  // text is kept verbatim
}

TEST(Parameters, RejectsMalformedNumbers) {
  for (const char* bad : {"1.0x", "nan", "inf", "1e999", "", "1 2", "0x1"}) {
    const auto [field, message] = Problem({{"tolerance", bad}});
    EXPECT_EQ(field, "tolerance") << bad;
    EXPECT_NE(message.find("TestComponent 'tolerance'"), std::string::npos) << message;
  }
  EXPECT_NE(Problem({{"tolerance", "1e999"}}).second.find("out of the range"), std::string::npos);
  EXPECT_NE(Problem({{"tolerance", "nan"}}).second.find("not a finite number"), std::string::npos);
  EXPECT_NE(Problem({{"tolerance", ""}}).second.find("is empty"), std::string::npos);
  EXPECT_NE(Problem({{"position", "0 1 nan"}}).second.find("value 3 'nan'"), std::string::npos);
  EXPECT_EQ(Problem({{"iterations", "2.5"}}).first, "iterations");
}

// SOFA streams "10-3" into a double and keeps 10 without a word (Data<T>::read stops at the
// first character that does not continue the number): the refusal says so, and what to write.
TEST(Parameters, AMalformedRealSaysWhatSofaWouldHaveRead) {
  EXPECT_EQ(Problem({{"tolerance", "10-3"}}).second,
            "TestComponent 'tolerance': '10-3' is not a number (expected a finite number; SOFA "
            "reads it as 10, ignoring '-3' (for 10^-3 write 1e-3))");
  EXPECT_NE(Problem({{"tolerance", "10^-6"}}).second.find("(for 10^-6 write 1e-6)"),
            std::string::npos);
  EXPECT_NE(Problem({{"tolerance", "1.5x"}}).second.find("SOFA reads it as 1.5, ignoring 'x')"),
            std::string::npos);
  // Where a stream fails too (nothing numeric first, a dangling exponent), no SOFA reading.
  for (const char* bad : {"abc", "1e", "-", "x10"})
    EXPECT_EQ(Problem({{"tolerance", bad}}).second.find("SOFA reads"), std::string::npos) << bad;
}

TEST(Parameters, RejectsBadBooleans) {
  for (const char* bad : {"2", "yes", "", "1 0"}) {
    const auto [field, message] = Problem({{"enabled", bad}});
    EXPECT_EQ(field, "enabled") << bad;
    EXPECT_NE(message.find("expected 0, 1, true or false"), std::string::npos) << message;
  }
}

TEST(Parameters, IndexListsReadSofasRanges) {
  // SOFA's vector<unsigned int>::read: "A-B" every index from A to B (down when B < A), "A-B-S"
  // with step S (a step against the direction swaps A and B, 0 is ±1; going down, B ends the
  // list even off the step).
  const auto read = [](const char* text) {
    return ParseParameters(TestSpec(), {{"indices", text}}).indices("indices");
  };
  EXPECT_EQ(read("0-4"), (std::vector<Index>{0, 1, 2, 3, 4}));
  EXPECT_EQ(read("7 5-2 9"), (std::vector<Index>{7, 5, 4, 3, 2, 9}));
  EXPECT_EQ(read("0-10-3"), (std::vector<Index>{0, 3, 6, 9}));
  EXPECT_EQ(read("10-0-3"), (std::vector<Index>{0, 3, 6, 9}));
  EXPECT_EQ(read("10-1--4"), (std::vector<Index>{10, 6, 2, 1}));
  EXPECT_EQ(read("2-4-0"), (std::vector<Index>{2, 3, 4}));
  EXPECT_EQ(read("3-3"), (std::vector<Index>{3}));
  for (const char* bad : {"a-3", "3-b", "1-2-x", "0-99999999999", "0-5000000 0-5000000"}) {
    const auto [field, message] = Problem({{"indices", bad}});
    EXPECT_EQ(field, "indices") << bad;
    EXPECT_NE(message.find("SOFA's ranges A-B and A-B-STEP"), std::string::npos) << message;
  }
  EXPECT_NE(Problem({{"indices", "0-99999999999"}}).second.find("too many indices"),
            std::string::npos);
}

TEST(Parameters, IndexListsRejectNegativesAndFractions) {
  for (const char* bad : {"0 -1", "1.5", "2 x", "1e2"}) {
    const auto [field, message] = Problem({{"indices", bad}});
    EXPECT_EQ(field, "indices") << bad;
    EXPECT_NE(message.find("is not a valid index"), std::string::npos) << message;
  }
  EXPECT_TRUE(ParseParameters(TestSpec(), {{"indices", ""}}).indices("indices").empty());
}

TEST(Parameters, ChoiceAcceptsOnlyListedWords) {
  const auto [field, message] = Problem({{"template", "Vec6d"}});
  EXPECT_EQ(field, "template");
  EXPECT_NE(message.find("expected one of Vec1d, Vec2d, Vec3d"), std::string::npos) << message;
  EXPECT_EQ(Problem({{"template", "vec3d"}}).first, "template");  // case matters
  EXPECT_EQ(Problem({{"template", "Vec1d Vec2d"}}).first, "template");
}

TEST(Parameters, AtLeastIncludesItsBound) {
  EXPECT_EQ(ParseParameters(TestSpec(), {{"iterations", "1"}}).integer("iterations"), 1);
  const auto [field, message] = Problem({{"iterations", "0"}});
  EXPECT_EQ(field, "iterations");
  EXPECT_NE(message.find("out of range (expected >= 1)"), std::string::npos) << message;
  EXPECT_EQ(Problem({{"tolerance", "-1e-300"}}).first, "tolerance");
}

TEST(Parameters, GreaterThanExcludesItsBound) {
  EXPECT_EQ(ParseParameters(TestSpec(), {{"threshold", "1e-300"}}).real("threshold"), 1e-300);
  const auto [field, message] = Problem({{"threshold", "0"}});
  EXPECT_EQ(field, "threshold");
  EXPECT_NE(message.find("expected > 0 and <= 10"), std::string::npos) << message;
  EXPECT_EQ(Problem({{"threshold", "-0"}}).first, "threshold");
  EXPECT_EQ(ParseParameters(TestSpec(), {{"threshold", "10"}}).real("threshold"), 10.0);
  EXPECT_EQ(Problem({{"threshold", "10.000001"}}).first, "threshold");
}

TEST(Parameters, AliasSetsTheCanonicalField) {
  const Parameters p = ParseParameters(TestSpec(), {{"smallDenominatorThreshold", "0.5"}});
  EXPECT_TRUE(p.has("threshold"));
  EXPECT_EQ(p.real("threshold"), 0.5);
  EXPECT_FALSE(p.has("smallDenominatorThreshold"));
}

TEST(Parameters, FieldGivenTwiceUnderTwoNamesIsAnError) {
  const auto [field, message] =
      Problem({{"threshold", "0.5"}, {"smallDenominatorThreshold", "0.5"}});
  EXPECT_EQ(field, "smallDenominatorThreshold");
  EXPECT_NE(message.find("sets 'threshold' a second time"), std::string::npos) << message;
}

TEST(Parameters, UnknownAttributeSuggestsClosestName) {
  const auto [field, message] = Problem({{"tolerence", "1e-3"}});
  EXPECT_EQ(field, "tolerence");
  EXPECT_NE(message.find("unknown attribute 'tolerence' for TestComponent"), std::string::npos);
  EXPECT_NE(message.find("did you mean 'tolerance'?"), std::string::npos) << message;
  // Aliases are candidates too.
  EXPECT_NE(Problem({{"smallDenominatorTreshold", "1"}}).second.find("'smallDenominatorThreshold'"),
            std::string::npos);
}

TEST(Parameters, UnknownAttributeFarFromEveryNamePointsToTheListing) {
  const auto [field, message] = Problem({{"rayleighStiffness", "0.1"}});
  EXPECT_EQ(field, "rayleighStiffness");
  EXPECT_EQ(message.find("did you mean"), std::string::npos) << message;
  EXPECT_NE(message.find("--list-components TestComponent"), std::string::npos) << message;
}

TEST(Parameters, ParseAttributesCollectsEveryProblemWithItsLine) {
  std::vector<internal::ParameterProblem> problems;
  const Parameters p = internal::ParseAttributes(TestSpec(),
                                                 {{"tolerance", "x", 3},
                                                  {"iterations", "7", 4},
                                                  {"unknownThing", "1", 5},
                                                  {"indices", "-2", 6}},
                                                 problems);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].field, "tolerance");
  EXPECT_EQ(problems[0].line, 3);
  EXPECT_EQ(problems[1].field, "unknownThing");
  EXPECT_EQ(problems[1].line, 5);
  EXPECT_EQ(problems[2].field, "indices");
  EXPECT_EQ(problems[2].line, 6);
  EXPECT_EQ(p.integer("iterations"), 7);  // the good attributes are still parsed
}

TEST(FieldSpec, FindFieldResolvesNamesAndAliases) {
  const ComponentSpec spec = TestSpec();
  ASSERT_NE(spec.FindField("threshold"), nullptr);
  EXPECT_EQ(spec.FindField("smallDenominatorThreshold"), spec.FindField("threshold"));
  EXPECT_EQ(spec.FindField("Threshold"), nullptr);
  EXPECT_EQ(spec.FindField("nothing"), nullptr);
}

}  // namespace
}  // namespace fluxion
