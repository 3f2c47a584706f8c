// ParseMemorySize (fluxion/host.h): the sizes scene-runner --memory-limit and Python's
// memory_limit accept, in bytes, binary multiples.
#include <gtest/gtest.h>

#include "fluxion/host.h"

namespace fluxion {
namespace {

TEST(ParseMemorySize, BytesAndBinaryMultiples) {
  EXPECT_EQ(ParseMemorySize("4096"), 4096u);
  EXPECT_EQ(ParseMemorySize("512B"), 512u);
  EXPECT_EQ(ParseMemorySize("4K"), 4096u);
  EXPECT_EQ(ParseMemorySize("4M"), 4u * 1024 * 1024);
  EXPECT_EQ(ParseMemorySize("2G"), 2ull * 1024 * 1024 * 1024);
  EXPECT_EQ(ParseMemorySize("1T"), 1ull << 40);
  EXPECT_EQ(ParseMemorySize(" 1.5GiB "), 3ull << 29);  // 1.5 · 2³⁰
  EXPECT_EQ(ParseMemorySize("2gb"), 2ull << 30);
}

TEST(ParseMemorySize, RefusesWhatIsNotASize) {
  for (const char* text : {"", "G", "-1G", "0", "0.1", "12Q", "2 G B", "nan", "inf", "1e30T"})
    EXPECT_FALSE(ParseMemorySize(text).has_value()) << text;
}

}  // namespace
}  // namespace fluxion
