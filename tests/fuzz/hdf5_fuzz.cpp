// libFuzzer target for the HDF5 trajectory reader (output/hdf5_trajectory_reader.cpp): the bytes
// are a --compare reference, written to a private temporary file and read back as CSV by
// Hdf5TrajectoryToCsv under a memory budget of 256 MiB. Hdf5TrajectoryToCsv reads in a child
// process (libhdf5 1.10 crashes on some corrupt files: docs/fuzzing.md), so what this target
// checks is the calling side: a crash or sanitizer report in this process, an exception (the
// reader reports every problem in `why`), a `why` that is empty or not one line (a control byte:
// names from the file must be shown escaped, a child's death included), a hang (-timeout), or an
// input that takes more than -rss_limit_mb. The reader's own code runs in the child, where
// libFuzzer sees no coverage: the hostile-file tests (tests/tools/hdf5_reference_test.cpp) and
// the in-process runs recorded in docs/fuzzing.md cover it.
#include <sanitizer/lsan_interface.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "fluxion/trajectory_writer.h"

namespace {

constexpr std::uint64_t kMemoryLimit = std::uint64_t{256} << 20;

// A file of this process's own, in a folder created once: inputs are written over it.
const std::string& InputPath() {
  static const std::string path = [] {
    std::string folder = (std::filesystem::temp_directory_path() / "hdf5_fuzz.XXXXXX").string();
    if (::mkdtemp(folder.data()) == nullptr) std::abort();
    return folder + "/reference.h5";
  }();
  return path;
}

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "hdf5_fuzz: FINDING: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream file(InputPath(), std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    std::string why;
    // HDF5 1.10 itself leaks a message when H5Dopen2 meets a corrupt layout (docs/fuzzing.md,
    // "Known findings"): leak checking is off for the call, the other checks stay on.
    __lsan_disable();
    const std::optional<std::string> csv =
        fluxion::Hdf5TrajectoryToCsv(InputPath(), why, kMemoryLimit);
    __lsan_enable();
    if (!csv) {
      if (why.empty()) Finding("refused without a reason");
      for (const char c : why)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          Finding("not a one-line reason: [" + why + "]");
    }
  } catch (const std::exception& error) {
    Finding(std::string("unexpected exception: ") + error.what());
  }
  return 0;
}
