#include "components/blender_exporter.h"

#include <cstdio>

#include "components/scene_exporter.h"
#include "fluxion/errors.h"

namespace fluxion::internal {

namespace {

class BlenderExporter final : public ScheduledExporter {
 public:
  BlenderExporter(const Parameters& p, std::string filename, std::string object_id)
      : ScheduledExporter(p),
        filename_(std::move(filename)),
        object_id_(std::move(object_id)),
        type_(static_cast<std::uint32_t>(p.integer("simulationType"))) {}

 private:
  // Little-endian, as every machine Fluxion builds on (x86-64, arm64) stores numbers.
  void Write(const ObservedState& state) override {
    const int index = state.model().FindObject(object_id_);
    FLUXION_DEMAND(index >= 0);
    const ObjectModel& object = state.model().objects[static_cast<std::size_t>(index)];
    const Eigen::Map<const Vector> x = state.position(index);
    const Eigen::Map<const Vector> v = state.velocity(index);
    std::string out = "BPHYSICS";
    const auto count = static_cast<std::uint32_t>(object.num_points);
    const std::uint32_t data_type = 6;
    AppendRawBytes(out, &type_, 4);
    AppendRawBytes(out, &count, 4);
    AppendRawBytes(out, &data_type, 4);
    // SOFA writes the points from the last to the first; missing axes of 1-D/2-D objects are 0.
    for (Index i = object.num_points - 1; i >= 0; --i) {
      float values[6] = {0, 0, 0, 0, 0, 0};
      for (int a = 0; a < object.dimension; ++a) {
        values[a] = static_cast<float>(x[i * object.dimension + a]);
        values[3 + a] = static_cast<float>(v[i * object.dimension + a]);
      }
      AppendRawBytes(out, values, sizeof values);
    }
    std::string name = filename_;
    if (every() > 0) {
      char number[32];
      std::snprintf(number, sizeof number, "%05ld", step_counter() / every());
      name += number;
    }
    files_.Write(name + "_00.bphys", out);
  }

  std::string filename_;
  std::string object_id_;
  std::uint32_t type_;
  SceneFileWriter files_;
};

}  // namespace

ComponentSpec BlenderExporterComponent::Spec() {
  std::vector<FieldSpec> fields = ExporterScheduleFields(
      "file name without \"_00.bphys\", relative to the output folder (default: the "
      "component's name)");
  fields.push_back(FieldSpec::Integer("simulationType", 0,
                                      "0 soft body, 1 particles, 2 cloth (3, hair, refused)")
                       .AtLeast(0)
                       .AtMost(3));
  fields.push_back(FieldSpec::Text("path", "", "accepted and unused, as in SOFA"));
  fields.push_back(FieldSpec::Text("baseName", "", "accepted and unused, as in SOFA"));
  fields.push_back(FieldSpec::Integer("step", 2, "accepted and unused, as in SOFA"));
  fields.push_back(FieldSpec::Integer("nbPtsByHair", 20, "points per hair strand (hair only)"));
  return ComponentSpec{
      .name = "BlenderExporter",
      .kind = ComponentKind::kObserver,
      .summary = "Writes its node's MechanicalObject as Blender point caches (.bphys)",
      .fields = std::move(fields),
      .aliases = {}};
}

void BlenderExporterComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  if (p.integer("simulationType") == 3) {
    context.Error("BlenderExporter simulationType 3 (hair) is not supported (expected 0, 1 or 2)");
    return;
  }
  const ObjectModel* object = context.NodeObject();
  if (object == nullptr) return;
  const std::string filename = p.text("filename").empty() ? context.name() : p.text("filename");
  context.AddObserver(std::make_unique<BlenderExporter>(p, filename, object->id));
}

}  // namespace fluxion::internal
