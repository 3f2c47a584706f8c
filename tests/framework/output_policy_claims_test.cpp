// The output policy's claims (fluxion/output_files.h): one writer per file while it is open, the
// name given back once the writer closes it, and nothing created by a refusal.
#include <gmock/gmock.h>

#include "components/output_folder.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

class OutputPolicyClaims : public OutputFolderTest {};

TEST_F(OutputPolicyClaims, OneWriterPerFileWhileItIsOpen) {
  SetOutputPolicy({.directory = folder_, .overwrite = true, .protected_files = {}});
  std::string why;
  OutputFile first = OpenSceneOutputFile("state.txt", &why);
  ASSERT_TRUE(first) << why;
  EXPECT_FALSE(OpenSceneOutputFile("./state.txt", &why));
  EXPECT_THAT(why, HasSubstr("one writer per file"));
  // Closed, the file's claim lapses: a later writer (a second run in one process) may replace it.
  first.reset();
  EXPECT_TRUE(OpenSceneOutputFile("state.txt", &why)) << why;
}

TEST_F(OutputPolicyClaims, ClaimBeforeOpeningHoldsForTheRunAndCreatesNothing) {
  std::string why;
  const std::optional<OutputClaim> trajectory =
      ClaimOutputFile((folder_ / "t.csv").string(), OutputOrigin::kUser, "the trajectory", &why);
  ASSERT_TRUE(trajectory) << why;
  EXPECT_FALSE(OpenSceneOutputFile("t.csv", &why));
  EXPECT_THAT(why, HasSubstr("already written by the trajectory"));
  EXPECT_THAT(Files(), IsEmpty());
  // A new run (a new policy) forgets the claims of the last one.
  SetOutputPolicy({.directory = folder_, .overwrite = false, .protected_files = {}});
  EXPECT_TRUE(OpenSceneOutputFile("t.csv", &why)) << why;
}

TEST_F(OutputPolicyClaims, ReplacedFileIsANewFileNotTheOldInode) {
  SetOutputPolicy({.directory = folder_, .overwrite = true, .protected_files = {}});
  std::ofstream(folder_ / "old.txt") << "precious\n";
  std::filesystem::create_hard_link(folder_ / "old.txt", folder_ / "link.txt");
  std::string why;
  OutputFile file = OpenSceneOutputFile("link.txt", &why);
  ASSERT_TRUE(file) << why;
  std::fputs("new\n", file.get());
  file.reset();
  EXPECT_EQ(Read("old.txt"), "precious\n");
  EXPECT_EQ(Read("link.txt"), "new\n");
  // No temporary file is left beside it.
  EXPECT_THAT(Files(), ::testing::ElementsAre("link.txt", "old.txt"));
}

}  // namespace
}  // namespace fluxion::testing
