// What SOFA's exporters share (BaseSimulationExporter): when they write, where their points and
// cells come from, and how a file is written under the output policy.
// Source: Sofa/framework/Simulation/Core/src/sofa/simulation/BaseSimulationExporter.{h,cpp}
//
// Schedule, as SOFA's: `exportAtBegin` writes once the scene is initialised (before any step);
// with `exportEveryNumberOfSteps` N > 0, a counter of steps is incremented after every step and
// a file written whenever it is a multiple of N; `exportAtEnd` writes when the run finishes
// (Simulation::Finish, SOFA's cleanup); `enable` = 0 writes nothing.
//
// Files go through fluxion/output_files.h: relative to the output folder (scene-runner
// --output-dir), never outside it, never over an existing file unless --overwrite. Deliberate
// difference: SOFA creates missing folders of `filename` (and writes into a folder named by
// `filename`, under the component's name); Fluxion creates none, and refuses a name whose folder
// does not exist in the output folder.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "fluxion/component.h"
#include "fluxion/output_files.h"
#include "meshio/vtk_cells.h"

namespace fluxion::internal {

/// filename, exportEveryNumberOfSteps, exportAtBegin, exportAtEnd, enable.
std::vector<FieldSpec> ExporterScheduleFields(const std::string& filename_help);

/// Calls Write at the moments SOFA's BaseSimulationExporter writes.
class ScheduledExporter : public Observer {
 public:
  explicit ScheduledExporter(const Parameters& parameters);
  void Begin(const ObservedState& state) override;
  void AfterStep(const ObservedState& state) override;
  void End(const ObservedState& state) override;

 protected:
  virtual void Write(const ObservedState& state) = 0;
  long every() const { return every_; }
  /// Steps counted so far (SOFA's m_stepCounter: counted only when `every` > 0).
  long step_counter() const { return step_counter_; }

 private:
  long every_;
  bool at_begin_, at_end_, enabled_;
  long step_counter_ = 0;
};

/// Where an exporter's points come from: an object's current positions, or fixed points (a
/// loader's, a topology's). Points of 1-D and 2-D objects get zero coordinates up to 3.
class PointSource {
 public:
  PointSource() = default;
  static PointSource Object(std::string id) { return PointSource(std::move(id), {}); }
  static PointSource Fixed(std::vector<double> xyz) { return PointSource({}, std::move(xyz)); }
  std::vector<std::array<double, 3>> Points(const ObservedState& state) const;

 private:
  PointSource(std::string id, std::vector<double> xyz)
      : object_id_(std::move(id)), xyz_(std::move(xyz)) {}
  std::string object_id_;  ///< empty: the fixed points
  std::vector<double> xyz_;
};

/// The points an exporter writes, as SOFA chooses them: its `position` field when given (a
/// link to the node's MechanicalObject's position follows that object as it moves), else the
/// node's MechanicalObject, else the topology's points. False after reporting.
bool ChoosePoints(BuildContext& context, const Topology* topology, PointSource& source);

/// Writes whole files under the output policy. The last file stays open, so that an exporter
/// writing the same name again (SOFA's overwrite = 1) replaces its own file of this run without
/// needing --overwrite.
class SceneFileWriter {
 public:
  /// Writes `content` to `name`, flushed; throws ConfigError saying why not.
  void Write(const std::string& name, const std::string& content);

 private:
  std::string last_name_;
  OutputFile last_;
};

/// Appends `size` bytes at `data` (binary formats: numbers as this machine stores them, which
/// is little-endian on every machine Fluxion builds on).
inline void AppendRawBytes(std::string& out, const void* data, std::size_t size) {
  out.append(static_cast<const char*>(data), size);
}

/// "x y z" in shortest round-trip form.
void AppendPoint(std::string& out, const std::array<double, 3>& point);

}  // namespace fluxion::internal
