#include "build/gravity_sources.h"

#include <cmath>
#include <string>
#include <vector>

#include "fluxion/errors.h"

namespace fluxion::internal {

std::array<double, 3> GravityValue(std::span<const double> values) {
  if (values.size() != 3)
    throw ConfigError("gravity", "has " + std::to_string(values.size()) +
                                     " numbers (expected 3, a vector in world coordinates)");
  for (const double value : values)
    if (!std::isfinite(value)) throw ConfigError("gravity", "expected finite numbers");
  return {values[0], values[1], values[2]};
}

std::shared_ptr<GravitySource> RootGravitySource(const BuildState& state) {
  auto source = std::make_shared<GravitySource>();
  const std::vector<double>& g = state.root->parameters.reals("gravity");
  if (g.size() == 3) source->gravity = {g[0], g[1], g[2]};
  return source;
}

RuntimeField RootGravityField(BuildState& state) {
  if (!state.root_gravity) state.root_gravity = RootGravitySource(state);
  std::shared_ptr<GravitySource> source = state.root_gravity;
  return RuntimeField{
      state.root->path, "gravity",
      [source](std::span<const double> values) { source->Set(GravityValue(values)); }, nullptr};
}

}  // namespace fluxion::internal
