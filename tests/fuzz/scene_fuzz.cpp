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
#include <cxxabi.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <typeinfo>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/output_files.h"
#include "fluxion/simulation.h"

namespace {

// Keeps each input short: a scene text is at most 1 MiB, a loaded scene runs at most 20 steps.
// (Scenes near the memory budget, half a million points, still take longer than -timeout=10 in
// this build: docs/fuzzing.md, "Known findings".)
constexpr std::size_t kMaxSceneBytes = std::size_t{1} << 20;
constexpr std::uint64_t kMemoryLimit = std::uint64_t{256} << 20;
constexpr int kMaxSteps = 20;

// Reports a broken promise and aborts (libFuzzer saves the input as crash-<sha1>). `text` is shown
// with its control bytes as \xNN, on one line.
[[noreturn]] void Finding(const std::string& what, const std::string& text) {
  std::string shown;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || c == '\\') {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(byte));
      shown += escaped;
    } else {
      shown += c;
    }
  }
  std::fprintf(stderr, "scene_fuzz: FINDING: %s\nscene_fuzz: the message, %zu bytes: [%s]\n",
               what.c_str(), text.size(), shown.c_str());
  std::abort();
}

// The readable name of an exception's type ("fluxion::NumericalError").
std::string TypeName(const std::type_info& type) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), &std::free);
  return status == 0 && name != nullptr ? name.get() : type.name();
}

bool IsControl(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

// One line of text for a human: not empty, no control byte (a '\n' included).
void DemandOneLine(const std::string& text, const std::string& what) {
  if (text.empty()) Finding(what + " is empty", text);
  for (const char c : text)
    if (IsControl(c)) Finding(what + " holds a control byte (expected one line)", text);
}

// The lines of a message that holds one problem per line: each one line as above.
void DemandOneLinePerProblem(const std::string& text, const std::string& what) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find('\n', start);
    DemandOneLine(text.substr(start, end == std::string::npos ? end : end - start),
                  "a line of " + what);
    if (end == std::string::npos) return;
    start = end + 1;
  }
}

// Every message of an error thrown for bad input is one line per problem.
void DemandOneLineMessages(const fluxion::Error& error) {
  const std::string what = error.what();
  const std::string type = TypeName(typeid(error));
  if (const auto* scene_error = dynamic_cast<const fluxion::SceneError*>(&error)) {
    // Each diagnostic is one line, and what() is them joined by '\n'.
    const auto& diagnostics = scene_error->diagnostics();
    if (diagnostics.empty()) Finding("a SceneError without diagnostics", what);
    std::string joined;
    for (const fluxion::SceneDiagnostic& diagnostic : diagnostics) {
      const std::string line = diagnostic.Format();
      DemandOneLine(line, "SceneDiagnostic::Format()");
      if (!joined.empty()) joined += '\n';
      joined += line;
    }
    if (joined != what) Finding("a SceneError's what() is not its diagnostics, one per line", what);
  } else if (dynamic_cast<const fluxion::PluginError*>(&error) != nullptr) {
    // The build's plugin problems, then its scene problems, one per line.
    DemandOneLinePerProblem(what, "the message of a " + type);
  } else {
    DemandOneLine(what, "the message of a " + type);
  }
}

// Files a scene asks to write (VariationalSymplecticSolver saveEnergyInFile) go to a private
// folder, emptied after every input: never the current folder, and never a growing pile.
class OutputFolder {
 public:
  OutputFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "scene_fuzz.XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) Finding("cannot create an output folder", pattern);
    path_ = pattern;
    fluxion::SetOutputPolicy({.directory = path_, .overwrite = false, .protected_files = {}});
  }
  ~OutputFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  void Empty() const {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator(path_, ignored))
      std::filesystem::remove_all(entry.path(), ignored);
  }

 private:
  std::filesystem::path path_;
};

// The bundled plugins of this build (next to its libfluxion.so), nothing from
// FLUXION_PLUGIN_PATH: every run of a given binary sees the same components.
const fluxion::Host& FuzzHost() {
  static const fluxion::Host* host = [] {
    fluxion::HostOptions options;
    options.default_plugin_directories = false;
    options.plugin_directories = {fluxion::Host::BundledPluginDirectory()};
    const auto* created = new fluxion::Host(options);
    if (created->has_plugin_failures() || created->plugins().empty())
      Finding("the bundled plugins did not all load",
              fluxion::Host::BundledPluginDirectory().string());
    return created;
  }();
  return *host;
}

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
  // Warnings are expected for many inputs and would flood the output; FLUXION_FUZZ_LOG_LEVEL
  // (trace|debug|info|warn|error) brings them back when reproducing an input.
  fluxion::LogLevel level = fluxion::LogLevel::kError;
  if (const char* env = std::getenv("FLUXION_FUZZ_LOG_LEVEL"); env != nullptr)
    fluxion::ParseLogLevel(env, level);
  fluxion::SetLogLevel(level);
  FuzzHost();  // load the plugins once, before the first input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const OutputFolder output_folder;
  RunScene(std::string(reinterpret_cast<const char*>(data), size));
  output_folder.Empty();
  return 0;
}
