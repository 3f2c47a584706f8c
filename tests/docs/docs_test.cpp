// The docs and the registry cannot drift: docs/scene-format.md's component reference must be
// exactly what `scene-runner --list-components --markdown` prints, and the README must name every
// built-in component and document every scene-runner exit status.
#include <fstream>
#include <sstream>

#include "fluxion/host.h"
#include "support/test_support.h"

namespace fluxion {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream stream(path);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

TEST(SceneFormatDoc, ReferenceSectionIsTheRegistryOutput) {
  const std::string doc = ReadFile(std::string(FLUXION_TEST_SOURCE_DIR) + "/docs/scene-format.md");
  const std::string begin = "<!-- BEGIN GENERATED: scene-runner --list-components --markdown -->\n";
  const std::string end = "<!-- END GENERATED -->";
  const auto start = doc.find(begin);
  ASSERT_NE(start, std::string::npos);
  const auto stop = doc.find(end, start);
  ASSERT_NE(stop, std::string::npos);
  const std::string documented = doc.substr(start + begin.size(), stop - start - begin.size());

  // Only the bundled plugins: the environment's extra plugin folders do not belong in the docs.
  const auto result =
      fluxion::testing::RunCommand("env -u FLUXION_PLUGIN_PATH " + fluxion::testing::SceneRunner() +
                                   " --list-components --markdown");
  ASSERT_EQ(result.status, 0) << result.err;
  std::string generated = result.out;
  while (!generated.empty() && generated.back() == '\n') generated.pop_back();
  EXPECT_EQ(documented, generated + "\n")
      << "docs/scene-format.md is stale: run ./tools/fluxion docs";
}

TEST(Readme, NamesEveryBuiltinComponentAndExitStatus) {
  const std::string readme = ReadFile(std::string(FLUXION_TEST_SOURCE_DIR) + "/README.md");
  // A host with no plugin folder holds the built-in components only.
  HostOptions no_plugins;
  no_plugins.default_plugin_directories = false;
  const Host builtins(no_plugins);
  for (const ComponentInfo* entry : builtins.components()) {
    if (entry->spec.kind == ComponentKind::kIgnored) continue;
    EXPECT_NE(readme.find("`" + entry->spec.name + "`"), std::string::npos) << entry->spec.name;
  }
  for (const char* status : {"| 0 |", "| 2 |", "| 3 |", "| 4 |"})
    EXPECT_NE(readme.find(status), std::string::npos);
}

}  // namespace
}  // namespace fluxion
