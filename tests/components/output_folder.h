// A fresh output folder for scene-written files (fluxion/output_files.h), removed afterwards.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "fluxion/output_files.h"
#include "support/test_support.h"

namespace fluxion::testing {

class OutputFolderTest : public QuietTest {
 protected:
  void SetUp() override {
    QuietTest::SetUp();
    std::string pattern =
        (std::filesystem::temp_directory_path() / "fluxion-output-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
    SetOutputPolicy({.directory = folder_, .overwrite = false, .protected_files = {}});
  }
  void TearDown() override {
    SetOutputPolicy({});
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
    QuietTest::TearDown();
  }
  /// The whole content of `name` in the output folder ("" and a test failure if missing).
  std::string Read(const std::string& name) const {
    std::ifstream in(folder_ / name, std::ios::binary);
    EXPECT_TRUE(in.good()) << name << " was not written";
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  bool Exists(const std::string& name) const { return std::filesystem::exists(folder_ / name); }
  /// Names of the files in the output folder, sorted.
  std::vector<std::string> Files() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::filesystem::path folder_;
};

}  // namespace fluxion::testing
