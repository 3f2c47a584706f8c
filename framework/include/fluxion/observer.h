// Observers: components that watch a running simulation (SOFA's exporters, WriteState) or play a
// recorded state into it (SOFA's ReadState). A component registers one from its build function
// (BuildContext::AddObserver); the Simulation notifies every observer of the scene, in document
// order, at three moments:
//
//   Begin      once, when the simulation is created, at the start time (SOFA's
//              SimulationInitDoneEvent: exportAtBegin);
//   AfterStep  after every step, once constraints are applied and time has advanced (the state
//              SOFA's next AnimateBeginEvent sees);
//   End        once, from Simulation::Finish() (SOFA's cleanup: exportAtEnd).
//
// Before the Begin and AfterStep notifications, every observer's Drive is called (document
// order): an observer that plays a recording sets positions and velocities there, so that every
// observer, and whatever the host records next, sees the state the recording gives.
//
// Failures: an observer throws fluxion::Error (e.g. ConfigError) with a message of the form
// "what is wrong (what was expected)"; the Simulation rethrows it as a SceneError located at the
// observer's line in the scene. Files an observer writes are opened through
// fluxion/output_files.h and are closed when the observer is destroyed: output already written
// stays on disk however the run ends.
#pragma once

#include <span>

#include "fluxion/export.h"
#include "fluxion/model.h"
#include "fluxion/types.h"

namespace fluxion {

/// A read-only view of the simulation at one notification. Valid during the call only.
class FLUXION_API ObservedState {
 public:
  virtual ~ObservedState();
  /// Steps done so far: 0 at Begin.
  virtual long step() const = 0;
  /// Current time [s].
  virtual double time() const = 0;
  virtual const Model& model() const = 0;
  /// Current positions / velocities of object `index` (Model::objects), point by point.
  virtual Eigen::Map<const Vector> position(int index) const = 0;
  virtual Eigen::Map<const Vector> velocity(int index) const = 0;
  /// The total force f(t, x, v) on object `index` at the current state, unprojected (as
  /// MechanicalSystem::ComputeForce); zero for a static object. Computed on request.
  virtual Vector force(int index) const = 0;
};

/// What Drive may change: the current state of any object, static ones included.
class FLUXION_API StateSetter {
 public:
  virtual ~StateSetter();
  virtual double time() const = 0;
  virtual const Model& model() const = 0;
  /// Sets the positions / velocities of object `index` (num_points × dimension values). The
  /// solvers restart from the new state (their history is discarded) and the scene's
  /// constraints that set positions and velocities are applied again. Throws UsageError for a
  /// wrong size.
  virtual void SetPosition(int index, std::span<const double> values) = 0;
  virtual void SetVelocity(int index, std::span<const double> values) = 0;
};

/// Watches a simulation (see the top of this file). Every method has an empty default.
class FLUXION_API Observer {
 public:
  virtual ~Observer();
  /// Sets the state before the notifications of the same moment (playback). `step` as in
  /// ObservedState::step.
  virtual void Drive(long step, StateSetter& state);
  virtual void Begin(const ObservedState& state);
  virtual void AfterStep(const ObservedState& state);
  virtual void End(const ObservedState& state);
};

}  // namespace fluxion
