// Values a component changes at the start of each step, as SOFA's components do in their
// AnimateBeginEvent handlers (SurfacePressureForceField's pulse, TaitSurfacePressureForceField's
// injected volume). A force field keeps no state while a step evaluates it (fluxion/force_field.h);
// what changes from one step to the next is set here, between steps, like a field set through
// Simulation::SetComponentField.
#pragma once

#include <functional>

namespace fluxion::internal {

/// Called before step `step` (0 for the first step of the run) is taken with time step `dt`, after
/// the step's topological changes. A hook brings its component to the state it has in SOFA after
/// the AnimateBeginEvents of steps 0 … `step`; a component built again mid-run (a topology rebuild)
/// starts from its initial state and catches up at its first call.
using StepStart = std::function<void(long step, double dt)>;

/// What ComponentBuildContext offers the framework's components besides BuildContext (they reach
/// it with dynamic_cast, as MassBuildHooks).
class StepStartHooks {
 public:
  virtual void AddStepStart(StepStart hook) = 0;

 protected:
  ~StepStartHooks() = default;
};

}  // namespace fluxion::internal
