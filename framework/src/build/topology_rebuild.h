// Applying SOFA's TopologicalChangeProcessor while a simulation runs: at the start of each step
// (SOFA's AnimateBeginEvent), the removals due are applied to the node's topology with SOFA's
// renumbering (mechanics/topology_removal.h), and the scene is built again through the same
// passes on the reduced topology; the running simulation continues on that build with its
// state carried point by point (SimulationAccess::AdoptRebuilt). docs/architecture.md,
// "Topological changes", says what follows a change and how.
// Source: Sofa/Component/Topology/Utility/src/sofa/component/topology/utility/
//         TopologicalChangeProcessor.cpp (handleEvent, readNext, processTopologicalChanges).
#pragma once

#include <memory>
#include <vector>

#include "build/topological_changes.h"
#include "fluxion/host.h"
#include "registry/component_registry.h"
#include "runtime/topology_change_stage.h"
#include "scene/scene_description.h"

namespace fluxion::internal {

/// The stage of a simulation built from `scene` whose nodes `changing` have processors. It keeps
/// its own copy of the scene (whose constrained index lists it rewrites as they are renumbered)
/// and builds it again without plugin lookups or observers.
std::unique_ptr<TopologyChangeStage> CreateTopologyRebuildStage(
    const SceneDescription& scene, std::shared_ptr<const ComponentRegistry> registry,
    const LoadOptions& options, std::vector<ChangingNode> changing);

}  // namespace fluxion::internal
