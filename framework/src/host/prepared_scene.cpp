#include "host/prepared_scene_data.h"

#include "build/scene_builder.h"
#include "host/scene_overrides.h"

namespace fluxion {

PreparedScene::PreparedScene(std::shared_ptr<const internal::PreparedSceneData> data)
    : data_(std::move(data)) {}
PreparedScene::PreparedScene(const PreparedScene&) = default;
PreparedScene& PreparedScene::operator=(const PreparedScene&) = default;
PreparedScene::PreparedScene(PreparedScene&&) noexcept = default;
PreparedScene& PreparedScene::operator=(PreparedScene&&) noexcept = default;
PreparedScene::~PreparedScene() = default;

Simulation PreparedScene::Instantiate(const std::vector<DataOverride>& overrides,
                                      const std::optional<SolverChoice>& solver) const {
  LoadOptions options = data_->options;
  if (solver) options.solver = solver;
  if (overrides.empty())
    return internal::BuildSimulation(data_->scene, data_->registry, data_->plugins.get(), options);
  // The overrides go into a copy of the scene as read (the prepared one is shared and
  // immutable): the build then sees exactly the XML with those values written in.
  internal::SceneDescription scene = data_->scene;
  internal::ApplyOverrides(scene, overrides, *data_->registry);
  // A dt written into the scene is the scene's dt, as in the XML: LoadOptions::dt would
  // replace it.
  for (const DataOverride& change : overrides)
    if (change.path == "dt") options.dt.reset();
  return internal::BuildSimulation(scene, data_->registry, data_->plugins.get(), options);
}

const std::string& PreparedScene::file() const { return data_->scene.file; }

}  // namespace fluxion
