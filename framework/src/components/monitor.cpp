#include "components/monitor.h"

#include <array>
#include <cstdio>

#include "components/point_selection.h"
#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/output_files.h"

namespace fluxion::internal {

namespace {

// The three quantities a Monitor can export, in SOFA's order.
enum Quantity { kPositions, kVelocities, kForces, kQuantities };
constexpr std::array<const char*, kQuantities> kExportFields = {"ExportPositions",
                                                                "ExportVelocities", "ExportForces"};
constexpr std::array<const char*, kQuantities> kSuffixes = {"_x.txt", "_v.txt", "_f.txt"};
constexpr std::array<const char*, kQuantities> kWhat = {"positions", "velocities", "forces"};

// `value` as std::ostream writes a double by default, as SOFA's Monitor does: 6 significant
// digits, %g's form ("0.3", "-12.4182", "1e-07").
void AppendSofaReal(std::string& out, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  out += text;
}

class Monitor final : public Observer {
 public:
  Monitor(std::string object_id, std::vector<Index> indices,
          std::array<OutputFile, kQuantities> files, std::array<std::string, kQuantities> names)
      : object_id_(std::move(object_id)),
        indices_(std::move(indices)),
        files_(std::move(files)),
        names_(std::move(names)) {}

  void AfterStep(const ObservedState& state) override {
    const int index = state.model().FindObject(object_id_);
    FLUXION_DEMAND(index >= 0);
    const int dimension = state.model().objects[static_cast<std::size_t>(index)].dimension;
    for (int q = 0; q < kQuantities; ++q) {
      std::FILE* file = files_[static_cast<std::size_t>(q)].get();
      if (file == nullptr) continue;
      const Vector values = q == kPositions    ? Vector(state.position(index))
                            : q == kVelocities ? Vector(state.velocity(index))
                                               : state.force(index);
      line_.clear();
      AppendSofaReal(line_, state.time());
      line_ += '\t';
      for (const Index point : indices_) {
        for (int a = 0; a < dimension; ++a) {
          if (a > 0) line_ += ' ';
          AppendSofaReal(line_, values[point * dimension + a]);
        }
        line_ += '\t';
      }
      line_ += '\n';
      if (std::fwrite(line_.data(), 1, line_.size(), file) != line_.size() ||
          std::fflush(file) != 0)
        throw Error("writing '" + Shown(names_[static_cast<std::size_t>(q)]) +
                    "' failed (expected a writable output folder)");
    }
  }

 private:
  std::string object_id_;
  std::vector<Index> indices_;
  std::array<OutputFile, kQuantities> files_;
  std::array<std::string, kQuantities> names_;
  std::string line_;  // scratch, reused
};

}  // namespace

ComponentSpec MonitorComponent::Spec() {
  return ComponentSpec{
      .name = "Monitor",
      .kind = ComponentKind::kObserver,
      .summary = "Writes chosen points' positions, velocities or forces as gnuplot files",
      .fields =
          {FieldSpec::IndexList("indices", "points of the node's MechanicalObject to monitor"),
           FieldSpec::Bool("ExportPositions", false, "write positions to <fileName>_x.txt"),
           FieldSpec::Bool("ExportVelocities", false, "write velocities to <fileName>_v.txt"),
           FieldSpec::Bool("ExportForces", false,
                           "write the total force f(t, x, v) to <fileName>_f.txt"),
           FieldSpec::Text("fileName", "",
                           "base of the file names, relative to the output folder (default: the "
                           "component's name)"),
           FieldSpec::Bool("showPositions", false, "drawing only: accepted and ignored"),
           FieldSpec::Text("PositionsColor", "", "drawing only: accepted and ignored"),
           FieldSpec::Bool("showVelocities", false, "drawing only: accepted and ignored"),
           FieldSpec::Text("VelocitiesColor", "", "drawing only: accepted and ignored"),
           FieldSpec::Bool("showForces", false, "drawing only: accepted and ignored"),
           FieldSpec::Text("ForcesColor", "", "drawing only: accepted and ignored"),
           FieldSpec::Real("showMinThreshold", 0.01, "drawing only: accepted and ignored"),
           FieldSpec::Bool("showTrajectories", false, "drawing only: accepted and ignored"),
           FieldSpec::Real("TrajectoriesPrecision", 0.1, "drawing only: accepted and ignored"),
           FieldSpec::Text("TrajectoriesColor", "", "drawing only: accepted and ignored"),
           FieldSpec::Real("sizeFactor", 1.0, "drawing only: accepted and ignored")},
      .aliases = {}};
}

void MonitorComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  std::vector<Index> indices;
  for (const Index index : p.indices("indices"))
    if (CheckIndex(context, index, *object, "index")) indices.push_back(index);
  if (indices.size() != p.indices("indices").size()) return;

  // SOFA creates the files and writes their two comment lines at init: here, when the scene is
  // loaded, so that a refused name is reported at once, at the component's line.
  const std::string base = p.text("fileName").empty() ? context.name() : p.text("fileName");
  std::array<OutputFile, kQuantities> files;
  std::array<std::string, kQuantities> names;
  for (int q = 0; q < kQuantities; ++q) {
    const auto k = static_cast<std::size_t>(q);
    if (!p.flag(kExportFields[k])) continue;
    names[k] = base + kSuffixes[k];
    std::string why;
    files[k] = OpenSceneOutputFile(names[k], &why);
    if (!files[k]) {
      context.Error("Monitor " + why);
      return;
    }
    std::string header = "# Gnuplot File : " + std::string(kWhat[k]) + " of " +
                         std::to_string(indices.size()) +
                         " particle(s) Monitored\n# 1st Column : time, others : particle(s) "
                         "number ";
    for (const Index index : indices) header += std::to_string(index) + " ";
    header += '\n';
    if (std::fwrite(header.data(), 1, header.size(), files[k].get()) != header.size() ||
        std::fflush(files[k].get()) != 0) {
      context.Error("Monitor: writing '" + Shown(names[k]) +
                    "' failed (expected a writable output folder)");
      return;
    }
  }
  context.AddObserver(std::make_unique<Monitor>(object->id, std::move(indices), std::move(files),
                                                std::move(names)));
}

}  // namespace fluxion::internal
