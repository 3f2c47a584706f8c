// Reading an HDF5 trajectory back as the CSV of the same run (fluxion/trajectory_writer.h):
// what --compare compares with an HDF5 reference. The layout is the writer's
// (hdf5_trajectory_writer.cpp, docs/output-formats.md).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/text_parsing.h"
#include "fluxion/text.h"
#include "fluxion/trajectory_writer.h"
#include "output/contained_reader.h"
#include "output/hdf5_files.h"
#include "runtime/memory_budget.h"

namespace fluxion {

using internal::Handle;
using internal::ReadColumnNames;
using internal::ReadDoubles;

namespace {

// How long a child may take to read a reference: far more than any real trajectory needs (a
// 100 MB file takes a few seconds), so only a reader stuck on a forged file is stopped.
constexpr int kReaderTimeoutSeconds = 300;

// The reading itself, in the calling process (Hdf5TrajectoryToCsv runs it in a child).
std::optional<std::string> ReadTrajectoryAsCsv(const std::string& path, std::string& why,
                                               std::uint64_t memory_limit) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    why = "not an HDF5 file";
    return std::nullopt;
  }
  // The reference is untrusted: every dataset's declared shape (and chunk) is charged to the
  // memory budget before it is read.
  const internal::MemoryBudget memory = internal::CurrentMemoryBudget(memory_limit);
  internal::ReadBudget budget(memory.bytes, memory.source);
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  const std::vector<std::string> columns =
      file.valid() ? ReadColumnNames(file.get(), &budget) : std::vector<std::string>{};
  std::vector<double> steps, times;
  std::vector<hsize_t> dims;
  if (!file.valid() || columns.empty() || !ReadDoubles(file.get(), "step", steps, dims, &budget) ||
      !ReadDoubles(file.get(), "time", times, dims, &budget) || times.size() != steps.size()) {
    why = !budget.refusal().empty()
              ? budget.refusal()
              : "not a Fluxion trajectory (expected /columns, /step and /time)";
    return std::nullopt;
  }
  const std::size_t rows = steps.size();
  // Step numbers are whole and in range before they are converted (a forged file may hold any
  // double there: 9e307, NaN).
  for (const double step : steps)
    if (!(step >= 0 && step < 0x1p62 && step == std::floor(step))) {
      why = "dataset /step holds " + FormatReal(step) + " (expected whole step numbers >= 0)";
      return std::nullopt;
    }
  // Each column's source: a state dataset (and the offset in its row) or a scalar dataset, read
  // once. The columns come in the writer's order: per object p…, v…; solver outputs; energies.
  struct Source {
    std::vector<double> values;
    std::size_t row_size = 1;
  };
  std::vector<Source> sources;
  std::vector<std::pair<std::size_t, std::size_t>> column_source;  // (source, offset in row)
  std::string previous_dataset;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string& name = columns[c];
    const std::size_t slash = name.rfind('/');
    const std::string tail = slash == std::string::npos ? name : name.substr(slash + 1);
    const bool state =
        slash != std::string::npos && tail.size() > 3 && (tail[0] == 'p' || tail[0] == 'v') &&
        tail.find('.') != std::string::npos &&
        H5Lexists(file.get(), ("objects/" + name.substr(0, slash)).c_str(), H5P_DEFAULT) > 0;
    std::string dataset;
    if (state) {
      dataset = "objects/" + name.substr(0, slash) + (tail[0] == 'p' ? "/position" : "/velocity");
    } else if (tail == name && (name == "kinetic" || name == "potential" || name == "total")) {
      dataset = "energy/" + name;
    } else {
      dataset = "solver_outputs/" + name;
    }
    if (sources.empty() || dataset != previous_dataset) {
      Source source;
      if (!ReadDoubles(file.get(), dataset, source.values, dims, &budget) || dims[0] != rows) {
        why = !budget.refusal().empty()
                  ? budget.refusal()
                  : "dataset /" + Shown(dataset) + " is missing or has the wrong number of rows";
        return std::nullopt;
      }
      source.row_size = rows == 0 ? 0 : source.values.size() / rows;
      sources.push_back(std::move(source));
      previous_dataset = dataset;
      column_source.emplace_back(sources.size() - 1, 0);
    } else {
      column_source.emplace_back(sources.size() - 1, column_source.back().second + 1);
    }
  }
  std::string text = "step,time";
  for (const std::string& name : columns) text += "," + name;
  text += '\n';
  for (std::size_t r = 0; r < rows; ++r) {
    text += std::to_string(static_cast<long long>(steps[r]));
    text += ',';
    AppendReal(text, times[r]);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto [source, offset] = column_source[c];
      const Source& from = sources[source];
      if (offset >= from.row_size) {
        why = "column " + Shown(columns[c]) + " has no data";
        return std::nullopt;
      }
      text += ',';
      AppendReal(text, from.values[r * from.row_size + offset]);
    }
    text += '\n';
  }
  return text;
}

}  // namespace

// libhdf5 1.10.8 (Debian 12) crashes on some corrupt files (docs/fuzzing.md, "Known findings"),
// and a reference is untrusted: it is read in a child process, so such a file is one error
// line, not a crashed run. The text comes back through a pipe, within the memory budget.
std::optional<std::string> Hdf5TrajectoryToCsv(const std::string& path, std::string& why,
                                               std::uint64_t memory_limit) {
  const internal::MemoryBudget memory = internal::CurrentMemoryBudget(memory_limit);
  const double cap = std::min(memory.bytes, 0x1p62);
  return internal::ReadInChildProcess(
      [&](std::string& reason) { return ReadTrajectoryAsCsv(path, reason, memory_limit); },
      "libhdf5", static_cast<std::size_t>(cap), kReaderTimeoutSeconds, why);
}

}  // namespace fluxion
