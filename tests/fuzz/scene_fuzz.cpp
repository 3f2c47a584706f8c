// libFuzzer target for the scene path: the bytes are a scene text, loaded with
// Host::LoadString (XML reader, registry, every build pass, the components and solvers of the
// bundled plugins) and, when it loads, stepped a few times. docs/fuzzing.md says how to run it.
//
// What is a finding (the process aborts, libFuzzer saves the input):
//   - a crash, or an ASan / UBSan report, anywhere in libfluxion.so or a plugin;
//   - an exception that is not a fluxion::Error from LoadString, or anything but a NumericalError
//     from a step (simulation.h: "Step() throws NumericalError");
//   - an error message that is not one line per problem (README: "Every error is one line on
//     stderr"): a SceneDiagnostic::Format() or a NumericalError's (or any other error's) what()
//     that is empty or holds a control byte (< 0x20 or DEL, '\n' included); a SceneError's and a
//     PluginError's what() hold one problem per line (scene-runner prints each line as its own
//     "error:" line), so there each line between the '\n's is checked the same way;
//   - an input that runs longer than -timeout or allocates more than -rss_limit_mb.
// A fluxion::Error from LoadString is the expected outcome for bad input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <typeinfo>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/simulation.h"
#include "scene_fuzz_checks.h"

const char* const fluxion::fuzz::kFuzzTargetName = "scene_fuzz";

namespace {

using namespace fluxion::fuzz;

// Keeps each input short: a scene text is at most 1 MiB, a loaded scene runs at most 20 steps.
// (Scenes near the memory budget, half a million points, still take longer than -timeout=10 in
// this build: docs/fuzzing.md, "Known findings".)
constexpr std::size_t kMaxSceneBytes = std::size_t{1} << 20;
constexpr std::uint64_t kMemoryLimit = std::uint64_t{256} << 20;
constexpr int kMaxSteps = 20;

// Loads one scene text and steps it; returns normally for every expected outcome.
void RunScene(const std::string& text) {
  fluxion::LoadOptions options;
  options.max_scene_bytes = kMaxSceneBytes;
  // Scenes are limited by their estimated memory only (no fixed caps): a fuzz input must not
  // take the machine's memory, so it gets a modest budget of its own.
  options.memory_limit = kMemoryLimit;
  std::optional<fluxion::Simulation> simulation;
  try {
    simulation.emplace(FuzzHost().LoadString(text, "fuzz.scn", options));
  } catch (const fluxion::Error& error) {
    DemandOneLineMessages(error);  // bad input, reported as it should be
    return;
  } catch (const std::exception& error) {
    Finding("LoadString threw " + TypeName(typeid(error)) + " (expected a fluxion::Error)",
            error.what());
  } catch (...) {
    Finding("LoadString threw something that is not a std::exception", "");
  }

  for (int step = 0; step < kMaxSteps; ++step) {
    try {
      simulation->Step();
    } catch (const fluxion::NumericalError& error) {
      DemandOneLineMessages(error);  // the state stopped being finite or a solve failed
      return;
    } catch (const std::exception& error) {
      Finding("Step threw " + TypeName(typeid(error)) + " (expected NumericalError)", error.what());
    } catch (...) {
      Finding("Step threw something that is not a std::exception", "");
    }
  }
  // What scene-runner --energy reads after each step.
  static_cast<void>(simulation->KineticEnergy() + simulation->PotentialEnergy());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  InitializeFuzzTarget();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return RunOneInput(data, size, RunScene);
}
