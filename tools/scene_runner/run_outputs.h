// The files one run of scene-runner writes, claimed from the output policy (fluxion/output_files.h)
// before the scene is loaded: the policy then knows every input and every file the user named,
// and refuses any file the scene names that is one of them (WriteState over NAME.partial, a
// Monitor over the picture).
#pragma once

#include <optional>
#include <string>

#include "fluxion/output_files.h"
#include "run.h"

namespace fluxion::runner {

/// The claims of the files the command line names (none when not asked for). The trajectory's
/// are absent when it is written directly (a device or a pipe: -o /dev/null).
struct RunOutputClaims {
  std::optional<OutputClaim> trajectory;  ///< --output NAME, renamed from NAME.partial at the end
  std::optional<OutputClaim> partial;     ///< NAME.partial, written during the run
  std::optional<OutputClaim> xdmf;        ///< NAME.xdmf beside an HDF5 NAME
  std::optional<OutputClaim> topologies;  ///< --topologies FILE
  std::optional<OutputClaim> render;      ///< --render PNG
  std::optional<OutputClaim> animate;     ///< --animate GIF
};

/// Sets the run's output policy (--output-dir, --overwrite; the scene and the --compare reference
/// as its inputs) and claims the command line's files. False with `why` (one line) when one is
/// refused.
bool ClaimRunOutputs(const RunOptions& options, RunOutputClaims& claims, std::string& why);

/// The lines of a run's summary that name the files it wrote: each file opened through the output
/// policy (OpenedOutputFiles) that still exists — NAME.partial under the name it was renamed to
/// — grouped by folder in the order first written. A folder of more than four (--vtk,
/// --render-every) is one line: its count, its first and its last file. "" when there are none.
std::string WrittenFilesText(const RunOutputClaims& claims);

/// True for an output written directly rather than through NAME.partial: an existing device or
/// pipe (-o /dev/null, a FIFO the user made to read the rows from).
bool IsDirectOutput(const std::string& path);

/// An output written as HDF5 rather than CSV, by its name.
bool IsHdf5Output(const std::string& path);

}  // namespace fluxion::runner
