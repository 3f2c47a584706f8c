#include "run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>

#include "fluxion/errors.h"
#include "fluxion/output_files.h"
#include "fluxion/text.h"
#include "fluxion/trajectory_writer.h"
#include "output_file.h"
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

// The inputs of the run are read and checked before anything is written: the --compare reference
// is read whole (a missing one fails before the simulation runs), and the output may not be the
// scene or the reference under any name. Returns an exit status, kExitSuccess when all is well.
int CheckInputs(const RunOptions& options, std::string& reference) {
  if (!options.compare.empty()) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(options.compare, error)) {
      PrintError(options.compare + ": cannot read the reference trajectory (expected a CSV file)");
      return kExitInvalidInput;
    }
    std::ifstream stream(options.compare, std::ios::binary);
    if (!stream) {
      PrintError(options.compare + ": cannot read the reference trajectory (expected a CSV file)");
      return kExitInvalidInput;
    }
    std::ostringstream text;
    text << stream.rdbuf();
    reference = text.str();
  }
  if (options.output.empty()) return kExitSuccess;
  for (const auto& [input, what] : {std::pair{options.scene, "the scene"},
                                    std::pair{options.compare, "the --compare reference"}}) {
    if (!input.empty() && (input == options.output || SameFile(input, options.output))) {
      PrintError(options.output + ": is " + what +
                 " of this run (expected another output file: the output never replaces an "
                 "input)");
      return kExitInvalidInput;
    }
  }
  std::error_code error;
  if (std::filesystem::is_directory(options.output, error)) {
    PrintError(options.output + ": is a directory (expected an output file name)");
    return kExitInvalidInput;
  }
  return kExitSuccess;
}

// The writer of this run's trajectory into `stream` (only the CSV format exists so far).
std::unique_ptr<TrajectoryWriter> MakeWriter(const RunOptions& options, std::FILE* stream) {
  return MakeCsvTrajectoryWriter(
      stream, {.energy = options.energy, .solver_outputs = options.solver_outputs});
}

}  // namespace

int RunScene(const RunOptions& options, const Host& host) {
  std::string reference;
  if (const int status = CheckInputs(options, reference); status != kExitSuccess) return status;
  // Files the scene itself writes (a solver's energy file) go below --output-dir only, never over
  // an input of the run.
  OutputPolicy policy;
  policy.directory = options.output_dir;
  policy.overwrite = options.overwrite;
  policy.protected_files = {options.scene};
  if (!options.compare.empty()) policy.protected_files.emplace_back(options.compare);
  if (!options.output.empty()) policy.protected_files.emplace_back(options.output);
  SetOutputPolicy(policy);

  std::optional<Simulation> simulation;
  try {
    simulation.emplace(host.LoadFile(
        options.scene,
        {.dt = options.dt, .solver = options.solver, .data_path = options.data_path}));
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
      PrintError("--end-time " + FormatReal(*options.end_time) + " with dt = " +
                 FormatReal(simulation->dt()) + " needs too many steps (expected at most 2^62)");
      return kExitInvalidInput;
    }
    steps = *until;
  }

  // The output file is opened only once the scene is valid: a bad scene leaves no file behind.
  // With --compare and no --output, the trajectory goes to memory and only the report is printed.
  MemoryBuffer memory;  // declared before `file`: freed after the stream writing into it is closed
  std::unique_ptr<std::FILE, FileCloser> file;
  TrajectoryFile output;
  std::FILE* stream = stdout;
  if (options.output.empty() && !options.compare.empty()) {
    file.reset(open_memstream(&memory.data, &memory.size));
    if (!file) {
      PrintError("cannot allocate the in-memory trajectory for --compare");
      return kExitInvalidInput;
    }
    stream = file.get();
  } else if (!options.output.empty()) {
    std::string why;
    if (!output.Open(options.output, why)) {
      PrintError(why);
      return kExitInvalidInput;
    }
    stream = output.stream();
  }
  const std::unique_ptr<TrajectoryWriter> writer = MakeWriter(options, stream);
  writer->Begin(*simulation);
  writer->Record(*simulation);

  // Step and record; a failure stops the run, and the writer is ended however the run stops.
  using Clock = std::chrono::steady_clock;
  auto last_report = Clock::now();
  int status = kExitSuccess;
  for (long step = 1; step <= steps; ++step) {
    try {
      simulation->Step();
    } catch (const NumericalError& error) {
      // One line: the failure, and where the rows before it are (NAME.partial, never NAME).
      const std::string where =
          options.scene + (error.line() > 0 ? ":" + std::to_string(error.line()) : std::string());
      PrintError(where + ": numerical failure at " + error.what() +
                 (options.output.empty()
                      ? std::string()
                      : "; the rows written so far are in " + output.partial_path()));
      status = kExitNumericalFailure;  // the rows written so far are complete and flushed
      break;
    }
    if (step % options.every == 0 || step == steps) writer->Record(*simulation);
    if (!writer->ok()) {
      PrintError((options.output.empty() ? std::string("stdout") : options.output) +
                 ": write failed");
      status = kExitInvalidInput;
      break;
    }
    if (options.progress && (step & 63) == 0) {
      const auto now = Clock::now();
      if (now - last_report > std::chrono::seconds(2)) {
        std::fprintf(stderr, "progress: step %ld of %ld (t = %s)\n", step, steps,
                     FormatReal(simulation->time()).c_str());
        last_report = now;
      }
    }
  }
  writer->End(*simulation);
  if (!options.output.empty()) {
    // A finished run's file takes its name; a failed one stays NAME.partial with its rows.
    std::string why;
    if (status != kExitSuccess) {
      output.Keep();
    } else if (!output.Commit(why)) {
      PrintError(why);
      return kExitInvalidInput;
    }
  }
  if (status != kExitSuccess || options.compare.empty()) return status;

  // --compare: the whole trajectory against the reference, column by column and step by step.
  std::string candidate;
  if (options.output.empty()) {
    file.reset();  // closing the memory stream finalises memory.data and memory.size
    candidate.assign(memory.data, memory.size);
  } else {
    candidate = ReadWholeFile(options.output);
  }
  return CompareWithReference(options, reference, candidate);
}

int CompareWithReference(const RunOptions& options, const std::string& reference,
                         const std::string& candidate) {
  namespace rg = fluxion::regress;
  try {
    const rg::ComparisonReport report = rg::CompareTrajectories(
        reference, candidate, rg::Tolerances{.rtol = options.rtol, .atol = options.atol},
        options.compare, options.scene);
    std::fputs(rg::FormatReport(report).c_str(), stdout);
    return report.match ? kExitSuccess : kExitMismatch;
  } catch (const rg::TrajectoryFormatError& error) {
    PrintError(error.what());
    return kExitInvalidInput;
  }
}

}  // namespace fluxion::runner
