#include "components/sphere_loader.h"

#include "components/point_selection.h"
#include "fluxion/errors.h"
#include "meshio/loader_transform.h"
#include "meshio/mesh_readers.h"

namespace fluxion::internal {

ComponentSpec SphereLoaderComponent::Spec() {
  return ComponentSpec{
      .name = "SphereLoader",
      .kind = ComponentKind::kEngine,
      .summary = "Reads the spheres of a SOFA .sph file: centres (position) and radii (listRadius)",
      .fields = {FieldSpec::Text("filename", "",
                                 "the .sph file: found next to the scene, then in the data folders "
                                 "(README, 'Files and safety')"),
                 FieldSpec::RealList("translation", "translation of the centres [m]")
                     .DefaultText("0 0 0"),
                 FieldSpec::RealList("rotation",
                                     "rotation of the centres, Euler angles X Y Z [degrees]")
                     .DefaultText("0 0 0"),
                 FieldSpec::RealList("scale", "scale of the centres along x, y, z (not the radii)")
                     .DefaultText("1 1 1")
                     .Alias("scale3d")},
      .aliases = {}};
}

void SphereLoaderComponent::Build(BuildContext& context) {
  const Parameters& p = context.parameters();
  bool ok = true;
  std::array<std::array<double, 3>, 3> transform{};  // scale, rotation, translation
  const char* names[] = {"scale", "rotation", "translation"};
  for (int f = 0; f < 3; ++f) {
    const std::vector<double>& value = p.reals(names[f]);
    if (value.size() != 3) {
      context.Error(std::string("SphereLoader '") + names[f] + "' needs 3 numbers (x y z)");
      ok = false;
      continue;
    }
    for (int c = 0; c < 3; ++c) transform[f][c] = value[c];
  }
  if (!ok) return;
  if (p.text("filename").empty()) {
    context.Error("SphereLoader needs 'filename' (expected the .sph file to read)");
    return;
  }
  const std::optional<BuildContext::InputFile> file = context.ReadInputFile(p.text("filename"));
  if (!file) return;
  SphereList spheres;
  try {
    spheres = ReadSphereFile(file->bytes, file->path);
  } catch (const ConfigError& error) {
    context.Error(std::string("SphereLoader cannot read the spheres: ") + error.what());
    return;
  }
  const Index count = static_cast<Index>(spheres.centres.size());
  if (count + context.topology_points() > context.max_scene_points()) {
    context.Error("SphereLoader makes " + std::to_string(count) + " points (expected " +
                  PointLimitText(context, context.max_scene_points()) + ")");
    return;
  }
  if (spheres.unknown_statements > 0)
    context.Warn("SphereLoader skipped " + std::to_string(spheres.unknown_statements) +
                 " line(s) of unknown keywords in " + file->path + " (as SOFA does)");
  Topology centres;
  centres.points = std::move(spheres.centres);
  ApplyLoaderTransform(centres, transform[0], transform[1], transform[2]);
  std::vector<double> position;
  position.reserve(centres.points.size() * 3);
  for (const auto& x : centres.points) position.insert(position.end(), x.begin(), x.end());
  context.SetOutput("position", std::move(position));
  context.SetOutput("listRadius", std::move(spheres.radii));
}

}  // namespace fluxion::internal
