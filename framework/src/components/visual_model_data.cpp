#include "components/visual_model_data.h"

#include <array>

#include "components/sofa_float.h"
#include "meshio/loader_transform.h"

namespace fluxion::internal {

ComponentSpec VisualModelDataComponent::Spec() {
  return ComponentSpec{
      .name = "OglModel",
      .kind = ComponentKind::kIgnored,
      .summary = "visual only: ignored, except as a source of geometry for links to it",
      .fields = {FieldSpec::Link("src",
                                 "a loader or topology whose position and elements the "
                                 "model draws (SOFA's src link)"),
                 FieldSpec::RealList("position", "points [m], 3 coordinates each"),
                 FieldSpec::IndexList("edges", "edges, 2 point indices each"),
                 FieldSpec::IndexList("triangles", "triangles, 3 point indices each"),
                 FieldSpec::IndexList("quads", "quads, 4 point indices each"),
                 FieldSpec::RealList("translation", "translation [m] (x y z)"),
                 FieldSpec::RealList("rotation", "Euler angles [degrees] (x y z)"),
                 FieldSpec::RealList("scale3d", "scale per axis (x y z)"),
                 FieldSpec::RealList("scale",
                                     "legacy: one scale for the three axes (SOFA reads one "
                                     "number; several give a warning and scale 1, as there)"),
                 FieldSpec::OptionalReal("sx", "legacy: scale along x"),
                 FieldSpec::OptionalReal("sy", "legacy: scale along y"),
                 FieldSpec::OptionalReal("sz", "legacy: scale along z"),
                 FieldSpec::OptionalReal("dx", "legacy: translation along x [m]"),
                 FieldSpec::OptionalReal("dy", "legacy: translation along y [m]"),
                 FieldSpec::OptionalReal("dz", "legacy: translation along z [m]"),
                 FieldSpec::OptionalReal("rx", "legacy: rotation about x [degrees]"),
                 FieldSpec::OptionalReal("ry", "legacy: rotation about y [degrees]"),
                 FieldSpec::OptionalReal("rz", "legacy: rotation about z [degrees]")},
      .aliases = {"VisualModel"}};
}

namespace {

// A vector field, or the legacy per-axis attributes that replace it (VisualModelImpl::parse reads
// them with getAttributeAsFloat: single precision, `missing` for the axes not given).
std::array<double, 3> Vector3(BuildContext& context, const char* field, const char* x,
                              const char* y, const char* z, double missing) {
  const Parameters& p = context.parameters();
  if (p.has(x) || p.has(y) || p.has(z)) {
    const auto axis = [&](const char* name) {
      return p.has(name) ? AsSofaFloat(p.real(name)) : missing;
    };
    return {axis(x), axis(y), axis(z)};
  }
  const std::vector<double>& given = p.reals(field);
  if (given.empty()) return {missing, missing, missing};
  if (given.size() != 3) {
    context.Error("OglModel '" + std::string(field) + "' needs 3 numbers (SOFA: x y z)");
    return {missing, missing, missing};
  }
  return {given[0], given[1], given[2]};
}

}  // namespace

void VisualModelDataComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  // SOFA's `scale` (VisualModelImpl::parse) is one number read with getAttributeAsFloat; text
  // that is not one number ("0.3 0.3 0.3" in examples/Component/Visual/
  // PostProcessManager_DepthOfField.scn) is reported and the default 1 is used: the same here,
  // with a warning, since the model only draws.
  std::array<double, 3> scale = {1.0, 1.0, 1.0};
  if (p.has("scale")) {
    const std::vector<double>& given = p.reals("scale");
    if (given.size() == 1) {
      scale.fill(AsSofaFloat(given[0]));
    } else {
      context.Warn("OglModel 'scale' has " + std::to_string(given.size()) +
                   " numbers: SOFA reads one and, failing, scales by 1, as here (write "
                   "scale3d=\"x y z\" for a scale per axis)");
    }
  } else {
    scale = Vector3(context, "scale3d", "sx", "sy", "sz", 1.0);
  }
  const std::array<double, 3> rotation = Vector3(context, "rotation", "rx", "ry", "rz", 0.0);
  const std::array<double, 3> translation = Vector3(context, "translation", "dx", "dy", "dz", 0.0);
  const std::vector<double>& position = p.reals("position");
  if (position.size() % 3 != 0) {
    context.Error("OglModel 'position' has " + std::to_string(position.size()) +
                  " numbers, not a multiple of 3 (x y z per point)");
    return;
  }
  // The transform moves the points; the element lists pass through unchanged (published flat,
  // as links read them).
  Topology mesh;
  mesh.points.resize(position.size() / 3);
  for (std::size_t i = 0; i < mesh.points.size(); ++i)
    mesh.points[i] = {position[3 * i], position[3 * i + 1], position[3 * i + 2]};
  ApplyLoaderTransform(mesh, scale, rotation, translation);
  std::vector<double> moved;
  moved.reserve(position.size());
  for (const auto& point : mesh.points) moved.insert(moved.end(), point.begin(), point.end());
  context.SetOutput("position", std::move(moved));
  for (const char* elements : {"edges", "triangles", "quads"})
    context.SetOutput(elements, p.indices(elements));
}

}  // namespace fluxion::internal
