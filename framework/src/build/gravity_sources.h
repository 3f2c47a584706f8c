// The scene's gravities as fields changeable between steps: the root's `gravity` attribute and
// each Gravity component's `gravity` (mechanics/gravity_weights.h has what follows them).
#pragma once

#include <array>
#include <memory>
#include <span>

#include "build/build_state.h"

namespace fluxion::internal {

/// A gravity written between steps: 3 finite numbers [m/s²]; ConfigError otherwise.
std::array<double, 3> GravityValue(std::span<const double> values);

/// The root's `gravity` attribute as a gravity source (no weights yet).
std::shared_ptr<GravitySource> RootGravitySource(const BuildState& state);

/// The root node's `gravity` as a runtime field named "<root path>"."gravity" (the node is the
/// component: SofaPython3's `root.gravity`), creating the root's source when no mass asked for it.
RuntimeField RootGravityField(BuildState& state);

}  // namespace fluxion::internal
