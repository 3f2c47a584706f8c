// scene-runner --list-components WORD (issue 27, item 14): a component's name describes it; any
// other word lists the components whose name, alias or kind contains it, ignoring case, spaces,
// '-' and '_'. The expected lists are computed here from the test host's registry, independently
// of the listing code: a component is expected exactly when the test's own folded comparison
// finds the word in it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.h"
#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The component names listed (the lines that do not start with spaces: the first word).
std::set<std::string> ListedNames(const std::string& out) {
  std::set<std::string> names;
  for (const std::string& line : Lines(out))
    if (!line.empty() && line[0] != ' ') names.insert(line.substr(0, line.find(' ')));
  return names;
}

TEST(ComponentSearch, ASubstringOfTheNameListsEveryComponentThatHoldsIt) {
  const CommandResult result = RunSceneRunner("--list-components Spring");
  ASSERT_EQ(result.status, 0) << result.err;
  // Every component whose name or an alias holds "spring" in any case, and nothing else.
  std::set<std::string> expected;
  for (const ComponentInfo* entry : TestHost().components()) {
    bool holds = Lower(entry->spec.name).find("spring") != std::string::npos;
    for (const std::string& alias : entry->spec.aliases)
      holds = holds || Lower(alias).find("spring") != std::string::npos;
    if (holds) expected.insert(entry->spec.name);
  }
  EXPECT_GE(expected.size(), 5u);  // SpringForceField, MeshSpringForceField, …
  EXPECT_EQ(ListedNames(result.out), expected);
  EXPECT_TRUE(expected.contains("SpringForceField"));  // also StiffSpringForceField
  EXPECT_EQ(result.err, "");
  // Lower case finds the same.
  const CommandResult lower = RunSceneRunner("--list-components spring");
  EXPECT_EQ(lower.out, result.out);
}

TEST(ComponentSearch, AKindListsEveryComponentOfThatKind) {
  for (const auto& [word, kind] :
       {std::pair<std::string, ComponentKind>{"'linear solver'", ComponentKind::kLinearSolver},
        {"LinearSolver", ComponentKind::kLinearSolver},
        {"'projective constraint'", ComponentKind::kConstraint}}) {
    SCOPED_TRACE(word);
    const CommandResult result = RunSceneRunner("--list-components " + word);
    ASSERT_EQ(result.status, 0) << result.err;
    const std::set<std::string> listed = ListedNames(result.out);
    std::size_t of_kind = 0;
    for (const ComponentInfo* entry : TestHost().components()) {
      if (entry->spec.kind != kind) continue;
      ++of_kind;
      EXPECT_TRUE(listed.contains(entry->spec.name)) << entry->spec.name;
    }
    EXPECT_GE(of_kind, 2u);
  }
  // "mass": every component of the kind mass.
  const std::set<std::string> masses = ListedNames(RunSceneRunner("--list-components mass").out);
  for (const ComponentInfo* entry : TestHost().components()) {
    if (entry->spec.kind == ComponentKind::kMass) {
      EXPECT_TRUE(masses.contains(entry->spec.name)) << entry->spec.name;
    }
  }
  EXPECT_TRUE(masses.contains("UniformMass"));
}

TEST(ComponentSearch, ANameStillDescribesItsComponent) {
  const CommandResult result = RunSceneRunner("--list-components UniformMass");
  ASSERT_EQ(result.status, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("UniformMass — "));
  EXPECT_THAT(result.out, HasSubstr("vertexMass"));
}

TEST(ComponentSearch, AWordNothingHoldsIsOneErrorLine) {
  const CommandResult result = RunSceneRunner("--list-components Teapotz");
  EXPECT_EQ(result.status, 2);
  EXPECT_EQ(result.out, "");
  const std::vector<std::string> lines = Lines(result.err);
  ASSERT_EQ(lines.size(), 1u) << result.err;
  EXPECT_THAT(lines[0], HasSubstr("error: --list-components Teapotz: no component's name or kind "
                                  "contains it"));
}

}  // namespace
}  // namespace fluxion::testing
