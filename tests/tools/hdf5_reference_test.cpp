// Untrusted input, round 2 (issue 25), items 9 and 12 for an HDF5 --compare reference: a small
// file declaring huge datasets is refused from its declared shapes before anything is read, and
// its column names reach stderr escaped. The hostile files are written here with HDF5's C API:
// chunked datasets whose chunks are never written take no room on disk, whatever their shape,
// and read back as their fill value.
#include <gmock/gmock.h>

#include <hdf5.h>
#include <algorithm>

#include <string>
#include <vector>

#include "tools/runner_test_helpers.h"

namespace fluxion::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kFall = R"(<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject name="ball" position="0 0 0"/>
  <UniformMass vertexMass="1"/>
</Node>
)";

// An HDF5 "trajectory" at `path`: /columns holding `column`, and /step and /time declared with
// `rows` rows of doubles (chunked, never written: a few kilobytes on disk).
void WriteHostileReference(const std::string& path, hsize_t rows, const std::string& column) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  // /columns: one fixed-length string.
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, column.size());
  const hsize_t one = 1;
  const hid_t one_space = H5Screate_simple(1, &one, nullptr);
  const hid_t columns =
      H5Dcreate2(file, "columns", text, one_space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(columns, text, H5S_ALL, H5S_ALL, H5P_DEFAULT, column.data());
  H5Dclose(columns);
  H5Sclose(one_space);
  H5Tclose(text);
  // /step and /time: `rows` rows that are never written (a chunk is at most the rows: libhdf5
  // refuses to create a dataset with a larger one, and the file would hold /columns only).
  const hsize_t chunk = std::min<hsize_t>(1024, rows);
  const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(plist, 1, &chunk);
  H5Pset_deflate(plist, 9);
  const hid_t space = H5Screate_simple(1, &rows, nullptr);
  for (const char* name : {"step", "time"})
    H5Dclose(H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, plist, H5P_DEFAULT));
  H5Sclose(space);
  H5Pclose(plist);
  H5Fclose(file);
}

// --- 9. declared shapes are checked against the memory budget before they are read -------------

TEST(Hdf5Reference, HugeDeclaredShapeIsRefusedWithOneLine) {
  const ScratchFolder scratch;
  const std::string scene = scratch.Write("fall.scn", kFall);
  const std::string reference = scratch / "reference.h5";
  WriteHostileReference(reference, hsize_t{1'000'000'000'000}, "ball/p0.x");
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 2 --compare " + ShellQuote(reference) + " -o " +
                     ShellQuote(scratch / "t.csv"));
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(result.err, HasSubstr("reference.h5: cannot read the reference trajectory: "
                                    "dataset /step declares about 3.3e+07 MB of data, more than "
                                    "the memory budget leaves"));
  EXPECT_THAT(result.err, Not(HasSubstr("internal error")));
}

TEST(Hdf5Reference, FillValueDatasetsAreRefusedBeforeTheyAreRead) {
  const ScratchFolder scratch;
  const std::string scene = scratch.Write("fall.scn", kFall);
  const std::string reference = scratch / "reference.h5";
  // 100 million rows of fill value: 800 MB per dataset once read, 3.3 GB with their CSV text.
  WriteHostileReference(reference, hsize_t{100'000'000}, "ball/p0.x");
  double peak_mib = 0;
  const CommandResult result =
      RunSceneRunnerMeasured(ShellQuote(scene) + " --steps 2 --memory-limit 100M --compare " +
                                 ShellQuote(reference) + " -o " + ShellQuote(scratch / "t.csv"),
                             peak_mib);
  EXPECT_EQ(result.status, 2) << result.err;
  EXPECT_THAT(result.err, HasSubstr("dataset /step declares about 3.3e+03 MB of data, more than "
                                    "the memory budget leaves (expected at most"));
  // The runner, its libraries and HDF5 take about 40 MiB; reading would have taken gigabytes.
  EXPECT_LT(peak_mib, 150) << result.err;
}

// --- 12. a reference's column names reach stderr escaped and cut ---------------------------------

TEST(Hdf5Reference, ColumnNamesReachStderrEscapedAndCut) {
  const ScratchFolder scratch;
  const std::string scene = scratch.Write("fall.scn", kFall);
  const std::string reference = scratch / "reference.h5";
  // A carriage return and an escape sequence that would forge an error line on a terminal,
  // then 100 KB of name.
  const std::string forged = "x\r\x1b[2Kerror: forged\x07" + std::string(100'000, 'y');
  WriteHostileReference(reference, 2, forged);
  const CommandResult result =
      RunSceneRunner(ShellQuote(scene) + " --steps 2 --compare " + ShellQuote(reference) + " -o " +
                     ShellQuote(scratch / "t.csv"));
  EXPECT_EQ(result.status, 2) << result.err;
  // The file is a trajectory (/columns, /step, /time), so the name itself is what is judged.
  EXPECT_THAT(result.err, Not(HasSubstr("not a Fluxion trajectory")));
  // Refused (a 100 KB fixed-length name is not one the reader takes): one line, nothing raw.
  EXPECT_THAT(Lines(result.err), ::testing::SizeIs(1)) << result.err;
  EXPECT_THAT(result.err, Not(HasSubstr("\x1b")));
  EXPECT_THAT(result.err, Not(HasSubstr("\r")));
  EXPECT_LT(result.err.size(), 1000U) << result.err.substr(0, 1000);
}

// --- libhdf5's own crashes on corrupt files are contained ----------------------------------------

// The files hdf5_fuzz found crashing libhdf5 1.10.8 itself (a NULL read in H5F__accum_read, an
// overflow in H5VM_memcpyvv; docs/fuzzing.md, "Known findings"): the reference is read in a child
// process, so scene-runner reports the crash in one line and exits 2 instead of dying of SIGSEGV.
TEST(Hdf5Reference, CrashesInsideLibhdf5AreOneErrorLine) {
  const ScratchFolder scratch;
  const std::string scene = scratch.Write("fall.scn", kFall);
  for (const char* name : {"hdf5_segv_in_local_heap.h5", "hdf5_overflow_in_memcpyvv.h5",
                           "hdf5_leak_in_corrupt_layout.h5"}) {
    const std::string reference = std::string(FLUXION_TEST_FUZZ_CRASHES) + "/" + name;
    const CommandResult result =
        RunSceneRunner(ShellQuote(scene) + " --steps 2 --compare " + ShellQuote(reference) +
                       " -o " + ShellQuote(scratch / "t.csv") + " --overwrite");
    EXPECT_EQ(result.status, 2) << name << ": " << result.err;
    EXPECT_THAT(Lines(result.err), ::testing::SizeIs(1)) << name << ": " << result.err;
    EXPECT_THAT(result.err, HasSubstr("cannot read the reference trajectory")) << result.err;
  }
}

}  // namespace
}  // namespace fluxion::testing
