// Trajectory writers: how a run's states leave the process. The host (scene-runner, a binding,
// a user's program) chooses the writer; the writer reads the model and the current state.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "fluxion/export.h"
#include "fluxion/output_files.h"
#include "fluxion/simulation.h"

namespace fluxion {

/// Writes a trajectory: `Begin` once (the model is known: columns, topology), `Record` for every
/// recorded state (step 0 included), `End` once when the run stops, normally or not.
/// Writers never throw for I/O trouble: `ok()` turns false and stays so.
class FLUXION_API TrajectoryWriter {
 public:
  virtual ~TrajectoryWriter();
  virtual void Begin(const Simulation& simulation) = 0;
  virtual void Record(const Simulation& simulation) = 0;
  virtual void End(const Simulation& simulation);
  /// False once a write failed (disk full, closed pipe).
  virtual bool ok() const = 0;
  /// Once ok() is false: what failed, "what is wrong (what was expected)"; may be empty.
  virtual std::string error() const;
};

/// Options of the CSV trajectory.
struct CsvTrajectoryOptions {
  bool energy = false;          ///< add kinetic,potential,total columns
  bool solver_outputs = false;  ///< add each solver's outputs as <node path>/<solver>/<output>
};

/// The trajectory CSV format:
///   step,time,<id>/p0.x,<id>/p0.y,...,<id>/v0.x,...   (per object: positions, then velocities)
/// with optional trailing columns: solver outputs, then kinetic,potential,total. Numbers are
/// printed in the shortest form that parses back to the same double. Each row is written and
/// flushed as a whole, so a run that stops early leaves only complete rows. `stream` is not owned.
FLUXION_API std::unique_ptr<TrajectoryWriter> MakeCsvTrajectoryWriter(
    std::FILE* stream, const CsvTrajectoryOptions& options = {});

/// Options of the HDF5 trajectory.
struct Hdf5TrajectoryOptions {
  bool energy = false;          ///< add /energy/kinetic, potential, total
  bool solver_outputs = false;  ///< add /solver_outputs/<node path>/<solver>/<output>
};

/// True when this library was built with HDF5 (FLUXION_HDF5).
FLUXION_API bool HasHdf5TrajectoryWriter();

/// The HDF5 trajectory: the same numbers as the CSV, bit for bit, in chunked, compressed
/// datasets — /step and /time [n], per object /objects/<id>/position and velocity [n, points,
/// dimension] with its topology stored once, /columns (the CSV's column names after step,time),
/// optional /solver_outputs/… and /energy/… (docs/output-formats.md), compressed by HDF5's own
/// shuffle and deflate filters (no plugin needed to read it). Creates (truncates) `path` in Begin.
/// Record copies the state and returns: a writer thread compresses and writes it while the run
/// steps, and flushes it to the file before the next (at most 3 states wait in memory; Record
/// waits for room). End waits for every recorded state to be written, then closes the file; the
/// same run writes the same bytes. A write failure shows in ok() at a later Record or at End.
/// Throws UsageError when built without HDF5 (see HasHdf5TrajectoryWriter).
FLUXION_API std::unique_ptr<TrajectoryWriter> MakeHdf5TrajectoryWriter(
    const std::string& path, const Hdf5TrajectoryOptions& options = {});

/// Reads an HDF5 trajectory back as the CSV text the CSV writer would have written for the same
/// run (same header, same rows, numbers in shortest round-trip form): what --compare and
/// scene-regress compare. Nullopt with `why` (one phrase) for a file that is not one, or whose
/// datasets declare more than the memory budget allows (the smallest of `memory_limit` [bytes],
/// 0 for none, and the machine's, as LoadOptions::memory_limit): the file is untrusted, so each
/// dataset's shape and chunk size are checked before it is read.
FLUXION_API std::optional<std::string> Hdf5TrajectoryToCsv(const std::string& path,
                                                           std::string& why,
                                                           std::uint64_t memory_limit = 0);

/// Writes an XDMF 3 file describing the HDF5 trajectory at `h5_path`, so that ParaView and VisIt
/// open it: per object (2-D and 3-D ones) a temporal collection with one grid per recorded state,
/// its points, its highest-dimensional cells (hexahedra, tetrahedra, quads, triangles or edges;
/// vertices without a topology) and its velocity as point data. The XDMF names the HDF5 file
/// `h5_name` (relative to the XDMF's folder). The file is claimed and opened through the output
/// policy as one the user named (fluxion/output_files.h). False with `why` when it cannot.
FLUXION_API bool WriteXdmfForHdf5Trajectory(const std::string& h5_path, const std::string& h5_name,
                                            const std::string& xdmf_path, std::string& why);
/// The same, into the file of a claim already made (a host claims every output before the run).
FLUXION_API bool WriteXdmfForHdf5Trajectory(const std::string& h5_path, const std::string& h5_name,
                                            const OutputClaim& xdmf, std::string& why);
/// Options of the ParaView trajectory.
struct VtkTrajectoryOptions {
  /// Folder of the files, relative to the output folder of the policy in force
  /// (fluxion/output_files.h: files only below it, never over an existing file unless the policy
  /// allows it). It must exist.
  std::string folder = ".";
  /// Base of the file names: `<folder>/<name>.pvd`, `<folder>/<name>_<object>_<step>.vtu`.
  std::string name = "trajectory";
  bool compress = true;  ///< zlib-compressed binary arrays (VTK's "binary"); false: ascii text
};

/// The ParaView trajectory: a `.pvd` collection (a time series ParaView opens in one click) of
/// `.vtu` files, one per mechanical object and recorded state. Each object is a part of the
/// collection named by its id (`root/cloth/dofs`); its file holds the points (1-D and 2-D
/// objects padded with zero coordinates), the cells of its topology (edges as lines, triangles,
/// quads, tetrahedra, hexahedra; one vertex per point when it has no topology), the point data
/// `velocity`, `force` (the total force f(t, x, v), unprojected) and `mass` (the diagonal of the
/// lumped mass, the row sum of a consistent one; 0 for a static object), and, when it has edges,
/// the cell data `elongation` (l − l0 of each edge, l0 from the rest positions, as mesh springs
/// take their rest lengths; 0 for the other cells). Each per-element output of a component
/// (Simulation::ElementOutputs: a FEM force field's `vonMisesPerElement`) is cell data of its
/// name on its object's cells of its type (0 on the others) when the component's topology is the
/// object's, else a part of its own named by the component: the object's points and the
/// component topology's elements of that type. Each record's data sets are added to the
/// `.pvd` before its closing tags, written again after them, so that a run that stops early leaves
/// a valid collection of the states written so far. Files are created through
/// OpenSceneOutputFile; a refusal makes ok() false, and error() says why.
FLUXION_API std::unique_ptr<TrajectoryWriter> MakeVtkTrajectoryWriter(
    const VtkTrajectoryOptions& options);

}  // namespace fluxion
