#include "components/scene_exporter.h"

#include <unistd.h>

#include <algorithm>

#include "core/text_parsing.h"
#include "fluxion/errors.h"
#include "fluxion/text.h"

namespace fluxion::internal {

std::vector<FieldSpec> ExporterScheduleFields(const std::string& filename_help) {
  return {FieldSpec::Text("filename", "", filename_help),
          FieldSpec::Integer("exportEveryNumberOfSteps", 0,
                             "write every N steps (0: never during the run)")
              .AtLeast(0),
          FieldSpec::Bool("exportAtBegin", false, "write once before the first step"),
          FieldSpec::Bool("exportAtEnd", false, "write once when the run finishes"),
          FieldSpec::Bool("enable", true, "write at all")};
}

ScheduledExporter::ScheduledExporter(const Parameters& parameters)
    : every_(parameters.integer("exportEveryNumberOfSteps")),
      at_begin_(parameters.flag("exportAtBegin")),
      at_end_(parameters.flag("exportAtEnd")),
      enabled_(parameters.flag("enable")) {}

void ScheduledExporter::Begin(const ObservedState& state) {
  if (enabled_ && at_begin_) Write(state);
}

void ScheduledExporter::AfterStep(const ObservedState& state) {
  // SOFA counts steps only when it exports periodically.
  if (!enabled_ || every_ == 0) return;
  ++step_counter_;
  if (step_counter_ % every_ == 0) Write(state);
}

void ScheduledExporter::End(const ObservedState& state) {
  if (enabled_ && at_end_) Write(state);
}

std::vector<std::array<double, 3>> PointSource::Points(const ObservedState& state) const {
  std::vector<std::array<double, 3>> points;
  if (object_id_.empty()) {
    for (std::size_t k = 0; k + 2 < xyz_.size(); k += 3)
      points.push_back({xyz_[k], xyz_[k + 1], xyz_[k + 2]});
    return points;
  }
  const int index = state.model().FindObject(object_id_);
  FLUXION_DEMAND(index >= 0);
  const ObjectModel& object = state.model().objects[static_cast<std::size_t>(index)];
  const Eigen::Map<const Vector> x = state.position(index);
  points.resize(static_cast<std::size_t>(object.num_points), {0.0, 0.0, 0.0});
  for (Index i = 0; i < object.num_points; ++i)
    for (int a = 0; a < object.dimension; ++a)
      points[static_cast<std::size_t>(i)][static_cast<std::size_t>(a)] =
          x[i * object.dimension + a];
  return points;
}

bool ChoosePoints(BuildContext& context, const Topology* topology, PointSource& source) {
  const Parameters& p = context.parameters();
  if (p.has("position")) {
    const std::vector<double>& given = p.reals("position");
    if (given.size() % 3 != 0) {
      context.Error(context.type() + " 'position' has " + std::to_string(given.size()) +
                    " numbers (expected 3 per point)");
      return false;
    }
    // A link to the node's object's position ("@MechaObj.position") follows the object: its
    // value here is the object's initial position.
    const ObjectModel* object = context.NodeObject();
    if (object != nullptr && object->dimension == 3 &&
        static_cast<Index>(given.size()) == object->num_dofs() &&
        std::equal(given.begin(), given.end(), object->position.data())) {
      source = PointSource::Object(object->id);
      return true;
    }
    source = PointSource::Fixed(given);
    return true;
  }
  if (const ObjectModel* object = context.NodeObject(); object != nullptr) {
    source = PointSource::Object(object->id);
    return true;
  }
  if (topology == nullptr) return false;
  std::vector<double> xyz;
  for (const auto& point : topology->points) xyz.insert(xyz.end(), point.begin(), point.end());
  source = PointSource::Fixed(std::move(xyz));
  return true;
}

void SceneFileWriter::Write(const std::string& name, const std::string& content) {
  std::FILE* file = nullptr;
  if (last_ && name == last_name_) {
    // The file this exporter wrote last: replaced in place.
    file = last_.get();
    std::rewind(file);
    if (::ftruncate(::fileno(file), 0) != 0)
      throw Error("cannot rewrite '" + Shown(name) + "' (expected a writable file)");
  } else {
    last_.reset();
    std::string why;
    last_ = OpenSceneOutputFile(name, &why);
    if (!last_) throw Error(why);
    last_name_ = name;
    file = last_.get();
  }
  if (std::fwrite(content.data(), 1, content.size(), file) != content.size() ||
      std::fflush(file) != 0)
    throw Error("writing '" + Shown(name) + "' failed (expected a writable output folder)");
}

void AppendPoint(std::string& out, const std::array<double, 3>& point) {
  AppendReal(out, point[0]);
  out += ' ';
  AppendReal(out, point[1]);
  out += ' ';
  AppendReal(out, point[2]);
}

}  // namespace fluxion::internal
