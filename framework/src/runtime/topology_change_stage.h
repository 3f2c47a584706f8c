// Topological changes while a simulation runs (SOFA's TopologicalChangeProcessor): the runtime
// calls the stage at the start of every step; the builder implements it
// (build/topology_rebuild.h), since a change rebuilds the changed node through the build passes.
#pragma once

namespace fluxion {
class Simulation;
}

namespace fluxion::internal {

class TopologyChangeStage {
 public:
  virtual ~TopologyChangeStage() = default;
  /// SOFA's AnimateBeginEvent: applies the changes due at the simulation's SOFA time, before
  /// the step's collision phase and solvers. Throws SceneError when a change cannot be applied.
  virtual void BeforeStep(Simulation& simulation) = 0;
};

}  // namespace fluxion::internal
