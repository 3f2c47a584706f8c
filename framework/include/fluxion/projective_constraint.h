// Projective constraints that set positions and velocities: what a component such as SOFA's
// LinearMovementProjectiveConstraint or PlaneProjectiveConstraint does to the state itself, beside
// the projection of increments (BuildContext::FixPoint, FixDof, ProjectPoint).
#pragma once

#include <span>

#include "fluxion/export.h"

namespace fluxion {

/// SOFA's projectPosition and projectVelocity for the points of one mechanical object.
///
/// The framework calls both, position first, on the whole state of the solver's system at SOFA's
/// places (DefaultAnimationLoop and Simulation::init): once when the simulation starts, at the
/// start time, and after every accepted step of the ODE solver, with the time the step *started*
/// at — SOFA's components read their node's time, which the animation loop advances only after
/// it has projected the state. Solvers do not call them (SOFA's RungeKutta2/4 also project their
/// stage states; Fluxion does not: the stage positions of driven points then move by h·v instead
/// of staying put, which only changes forces on their neighbours within the step).
///
/// `positions` and `velocities` are the object's own values (num_points × dimension, point-major).
/// A constraint keeps no per-step state: its methods are const and may be called any number of
/// times with the same time.
class FLUXION_API ProjectiveConstraint {
 public:
  virtual ~ProjectiveConstraint();

  /// Sets (or projects) the positions of the points the constraint drives at `time` [s].
  virtual void ProjectPosition(double time, std::span<double> positions) const = 0;
  /// Sets (or projects) their velocities at `time` [s].
  virtual void ProjectVelocity(double time, std::span<double> velocities) const = 0;
  /// True while the held points given with the constraint (BuildContext::AddProjectiveConstraint)
  /// are projected out of every increment, force and system matrix as fixed points are; `time` is
  /// the time the step starts at. Default: always.
  virtual bool HoldsPoints(double time) const;
};

}  // namespace fluxion
