#include "run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "output/csv_trajectory_writer.h"
#include "scene/scene_builder.h"
#include "scene/xml_reader.h"
#include "trajectory_compare.h"

namespace fluxion::runner {

namespace {

void PrintError(const std::string& message) {
  // Each line of a multi-problem message is its own "error:" line.
  std::size_t start = 0;
  while (start < message.size()) {
    const std::size_t end = std::min(message.find('\n', start), message.size());
    std::fprintf(stderr, "error: %s\n", message.substr(start, end - start).c_str());
    start = end + 1;
  }
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// Number of steps to reach end_time from `start` with step dt: the first n with start + n·dt ≥ T
// (with a relative slack of 1e-9 steps, so that T = 1, dt = 0.1 gives 10 steps, not 11); nullopt
// when that many steps cannot be counted.
std::optional<long> StepsUntil(double start, double end_time, double dt) {
  const double steps = std::ceil((end_time - start) / dt - 1e-9);
  if (!(steps < 0x1p62)) return std::nullopt;  // also NaN
  return steps <= 0 ? 0L : static_cast<long>(steps);
}

// The buffer of an open_memstream stream, freed when it goes out of scope.
struct MemoryBuffer {
  char* data = nullptr;
  std::size_t size = 0;
  MemoryBuffer() = default;
  MemoryBuffer(const MemoryBuffer&) = delete;
  MemoryBuffer& operator=(const MemoryBuffer&) = delete;
  ~MemoryBuffer() { std::free(data); }
};

std::string ReadWholeFile(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

}  // namespace

int RunScene(const RunOptions& options, const internal::ComponentRegistry& registry,
             const internal::PluginLoader& plugins) {
  std::optional<internal::Simulation> simulation;
  try {
    const internal::SceneDescription scene = internal::ReadSceneFile(options.scene);
    internal::BuildOptions build;
    build.dt = options.dt;
    if (!options.solver.empty())
      build.solver_override = internal::SolverOverride{options.solver, options.solver_params};
    simulation.emplace(internal::BuildSimulation(scene, registry, &plugins, build));
  } catch (const SceneError& error) {
    for (const SceneDiagnostic& diagnostic : error.diagnostics()) PrintError(diagnostic.Format());
    return kExitInvalidInput;
  } catch (const PluginError& error) {
    PrintError(error.what());
    return kExitPluginProblem;
  } catch (const ConfigError& error) {
    PrintError(options.scene + ": " + error.what());
    return kExitInvalidInput;
  } catch (const std::bad_alloc&) {
    PrintError(options.scene +
               ": the scene is too large to allocate (expected fewer points, springs "
               "or elements)");
    return kExitInvalidInput;
  }

  long steps = kDefaultSteps;
  if (options.steps) {
    steps = *options.steps;
  } else if (options.end_time) {
    const std::optional<long> until =
        StepsUntil(simulation->time(), *options.end_time, simulation->dt());
    if (!until) {
      PrintError("--end-time " + internal::FormatReal(*options.end_time) +
                 " with dt = " + internal::FormatReal(simulation->dt()) +
                 " needs too many steps (expected at most 2^62)");
      return kExitInvalidInput;
    }
    steps = *until;
  }

  // The output file is opened only once the scene is valid: a bad scene leaves no file behind.
  // With --compare and no --output, the trajectory goes to memory and only the report is printed.
  MemoryBuffer memory;  // declared before `file`: freed after the stream writing into it is closed
  std::unique_ptr<std::FILE, FileCloser> file;
  std::FILE* stream = stdout;
  if (options.output.empty() && !options.compare.empty()) {
    file.reset(open_memstream(&memory.data, &memory.size));
    if (!file) {
      PrintError("cannot allocate the in-memory trajectory for --compare");
      return kExitInvalidInput;
    }
    stream = file.get();
  } else if (!options.output.empty()) {
    file.reset(std::fopen(options.output.c_str(), "wb"));
    if (!file) {
      PrintError(
          options.output +
          ": cannot open the output file for writing (check the folder exists and is writable)");
      return kExitInvalidInput;
    }
    stream = file.get();
  }
  internal::CsvTrajectoryWriter writer(stream, options.energy, options.solver_outputs);
  writer.WriteHeader(*simulation);
  writer.WriteRow(*simulation);

  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  auto last_report = started;
  for (long step = 1; step <= steps; ++step) {
    try {
      simulation->Step();
    } catch (const NumericalError& error) {
      PrintError(options.scene + ": numerical failure at " + error.what());
      return kExitNumericalFailure;  // the rows written so far are complete and flushed
    }
    if (step % options.every == 0 || step == steps) writer.WriteRow(*simulation);
    if (!writer.ok()) {
      PrintError((options.output.empty() ? std::string("stdout") : options.output) +
                 ": write failed");
      return kExitInvalidInput;
    }
    if (options.progress && (step & 63) == 0) {
      const auto now = Clock::now();
      if (now - last_report > std::chrono::seconds(2)) {
        std::fprintf(stderr, "progress: step %ld of %ld (t = %s)\n", step, steps,
                     internal::FormatReal(simulation->time()).c_str());
        last_report = now;
      }
    }
  }
  if (options.compare.empty()) return kExitSuccess;

  // --compare: the whole trajectory against the reference, column by column and step by step.
  std::string candidate;
  if (options.output.empty()) {
    file.reset();  // closing the memory stream finalises memory.data and memory.size
    candidate.assign(memory.data, memory.size);
  } else {
    file.reset();
    candidate = ReadWholeFile(options.output);
  }
  return CompareWithReference(options, candidate);
}

int CompareWithReference(const RunOptions& options, const std::string& candidate) {
  std::ifstream stream(options.compare, std::ios::binary);
  if (!stream) {
    PrintError(options.compare + ": cannot read the reference trajectory (expected a CSV file)");
    return kExitInvalidInput;
  }
  std::ostringstream reference;
  reference << stream.rdbuf();
  namespace rg = fluxion::regress;
  try {
    const rg::ComparisonReport report = rg::CompareTrajectories(
        reference.str(), candidate, rg::Tolerances{.rtol = options.rtol, .atol = options.atol},
        options.compare, options.scene);
    std::fputs(rg::FormatReport(report).c_str(), stdout);
    return report.match ? kExitSuccess : kExitMismatch;
  } catch (const rg::TrajectoryFormatError& error) {
    PrintError(error.what());
    return kExitInvalidInput;
  }
}

}  // namespace fluxion::runner
