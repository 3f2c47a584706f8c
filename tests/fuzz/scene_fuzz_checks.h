// What the scene-path fuzz targets share (scene_fuzz, python_scene_fuzz; docs/fuzzing.md): how a
// finding is reported, the one-line promise every error message keeps, the private output folder
// and the host with this build's bundled plugins. Each target defines kFuzzTargetName, which
// prefixes its findings ("scene_fuzz: FINDING: …").
#pragma once

#include <cxxabi.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <typeinfo>

#include "fluxion/errors.h"
#include "fluxion/host.h"
#include "fluxion/log.h"
#include "fluxion/output_files.h"

namespace fluxion::fuzz {

/// The target's name, defined by each target ("scene_fuzz").
extern const char* const kFuzzTargetName;

// Reports a broken promise and aborts (libFuzzer saves the input as crash-<sha1>). `text` is shown
// with its control bytes as \xNN, on one line.
[[noreturn]] inline void Finding(const std::string& what, const std::string& text) {
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
  std::fprintf(stderr, "%s: FINDING: %s\n%s: the message, %zu bytes: [%s]\n", kFuzzTargetName,
               what.c_str(), kFuzzTargetName, text.size(), shown.c_str());
  std::abort();
}

// The readable name of an exception's type ("fluxion::NumericalError").
inline std::string TypeName(const std::type_info& type) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), &std::free);
  return status == 0 && name != nullptr ? name.get() : type.name();
}

inline bool IsControl(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

// One line of text for a human: not empty, no control byte (a '\n' included).
inline void DemandOneLine(const std::string& text, const std::string& what) {
  if (text.empty()) Finding(what + " is empty", text);
  for (const char c : text)
    if (IsControl(c)) Finding(what + " holds a control byte (expected one line)", text);
}

// The lines of a message that holds one problem per line: each one line as above.
inline void DemandOneLinePerProblem(const std::string& text, const std::string& what) {
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
inline void DemandOneLineMessages(const fluxion::Error& error) {
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
    std::string pattern =
        (std::filesystem::temp_directory_path() / (std::string(kFuzzTargetName) + ".XXXXXX"))
            .string();
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
inline const fluxion::Host& FuzzHost() {
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

// Log lines silenced and the plugins loaded once, before the first input. Warnings are expected
// for many inputs and would flood the output; FLUXION_FUZZ_LOG_LEVEL (trace|debug|info|warn|
// error) brings them back when reproducing an input.
inline void InitializeFuzzTarget() {
  fluxion::LogLevel level = fluxion::LogLevel::kError;
  if (const char* env = std::getenv("FLUXION_FUZZ_LOG_LEVEL"); env != nullptr)
    fluxion::ParseLogLevel(env, level);
  fluxion::SetLogLevel(level);
  FuzzHost();
}

/// One input of a scene-path target: `run(text)`, then the output folder emptied.
template <class Run>
int RunOneInput(const std::uint8_t* data, std::size_t size, Run run) {
  static const OutputFolder output_folder;
  run(std::string(reinterpret_cast<const char*>(data), size));
  output_folder.Empty();
  return 0;
}

}  // namespace fluxion::fuzz
