// libFuzzer target for what a Python scene hands back to scene-runner: the XML scene its python3
// process built, each element's line ending with <!--python FILE:LINE--> (python/fluxion/
// scene_graph.py). The text comes from a program, so scene-runner trusts none of it: it is loaded
// with the XML loader (tools/scene_runner/python_scene.cpp, PythonScene::Load) and every problem
// is moved to the Python line its element names, where that origin parses. docs/fuzzing.md says
// how to run it.
//
// What is a finding, besides a crash, a sanitizer report, a timeout or an out-of-memory: an
// exception from Load that is not a fluxion::Error; an error whose message breaks the one-line
// promise (scene_fuzz_checks.h) once moved to its Python origin; a PythonScene::Where that is not
// one line, for any line number.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <typeinfo>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "python_scene.h"
#include "scene_fuzz_checks.h"

const char* const fluxion::fuzz::kFuzzTargetName = "python_scene_fuzz";

namespace {

using namespace fluxion::fuzz;

// As scene_fuzz: a scene text of at most 1 MiB, a modest memory budget of its own.
constexpr std::size_t kMaxSceneBytes = std::size_t{1} << 20;
constexpr std::uint64_t kMemoryLimit = std::uint64_t{256} << 20;

void LoadPythonSceneText(const std::string& xml) {
  const fluxion::runner::PythonScene scene("fuzz.py", xml);
  // Where each line's problem would be reported (scene-runner's warnings use it too), including
  // lines the text does not have.
  std::size_t lines = 1;
  for (const char c : xml) lines += c == '\n' ? 1 : 0;
  for (const int line : {INT_MIN, -1, 0, static_cast<int>(lines) + 1, INT_MAX})
    DemandOneLine(scene.Where(line), "PythonScene::Where");
  for (std::size_t line = 1; line <= lines && line <= 64; ++line)
    DemandOneLine(scene.Where(static_cast<int>(line)), "PythonScene::Where");

  fluxion::LoadOptions options;
  options.max_scene_bytes = kMaxSceneBytes;
  options.memory_limit = kMemoryLimit;
  try {
    static_cast<void>(scene.Load(FuzzHost(), options));
  } catch (const fluxion::Error& error) {
    DemandOneLineMessages(error);  // bad input, reported at its Python lines
  } catch (const std::exception& error) {
    Finding("PythonScene::Load threw " + TypeName(typeid(error)) + " (expected a fluxion::Error)",
            error.what());
  } catch (...) {
    Finding("PythonScene::Load threw something that is not a std::exception", "");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  InitializeFuzzTarget();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return RunOneInput(data, size, LoadPythonSceneText);
}
