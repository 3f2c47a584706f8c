// libFuzzer target for what a Python scene hands back to scene-runner: the XML scene its python3
// process built, each element's line ending with <!--python FILE:LINE--> (python/fluxion/
// scene_graph.py). The text comes from a program, so scene-runner trusts none of it: it is loaded
// with the XML loader (tools/scene_runner/python_scene.cpp, PythonScene::Load, with
// LoadOptions::python_origins) and every message names the Python line its element's origin
// names, where that origin parses (framework/src/scene/python_origins.cpp). docs/fuzzing.md says
// how to run it.
//
// What is a finding, besides a crash, a sanitizer report, a timeout or an out-of-memory: an
// exception from Load that is not a fluxion::Error; an error whose message breaks the one-line
// promise (scene_fuzz_checks.h) once located at its Python origin.
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
