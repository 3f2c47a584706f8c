// Rayleigh damping, D = rM·M + rK·K: its two fields declared once for every solver that offers
// it, and the damped force for the solvers that integrate it together with the rest of f.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fluxion/mechanical_system.h"
#include "fluxion/parameters.h"
#include "fluxion/state.h"

namespace fluxion {

/// SOFA's `rayleighMass` (rM ≥ 0, 1/s) and `rayleighStiffness` (rK ≥ 0, s), both default 0, as
/// every SOFA ODE solver that damps declares them (e.g. EulerImplicitSolver). A solver lists
/// `Fields()` (or one of them) in its ComponentSpec and reads the values with `From`, so the
/// names, defaults, bounds and help are the same in every solver — which is also what lets
/// `scene-runner --solver` carry them from one solver to another.
struct RayleighCoefficients {
  double mass = 0.0;       ///< rM [1/s]
  double stiffness = 0.0;  ///< rK [s]

  /// `rayleighMass`; `help` may say how the solver treats it.
  static FieldSpec MassField(
      std::string help = "Rayleigh damping proportional to the mass, rM [1/s]") {
    return FieldSpec::Real("rayleighMass", 0.0, std::move(help)).AtLeast(0);
  }
  /// `rayleighStiffness`; `help` may say how the solver treats it.
  static FieldSpec StiffnessField(
      std::string help = "Rayleigh damping proportional to the stiffness, rK [s]") {
    return FieldSpec::Real("rayleighStiffness", 0.0, std::move(help)).AtLeast(0);
  }
  /// Both fields, rayleighStiffness first (SOFA's order).
  static std::vector<FieldSpec> Fields() { return {StiffnessField(), MassField()}; }

  /// The coefficients a solver was configured with; a field the solver does not declare is 0.
  static RayleighCoefficients From(const Parameters& parameters) {
    RayleighCoefficients c;
    if (parameters.has_value("rayleighMass")) c.mass = parameters.real("rayleighMass");
    if (parameters.has_value("rayleighStiffness"))
      c.stiffness = parameters.real("rayleighStiffness");
    return c;
  }
};

/// The force with Rayleigh damping
///
///   f_d(t, x, v) = f(t, x, v) − rM·M·v − rK·K(x)·v,
///
/// for solvers that treat the damping like any other force (the papers' explicit methods; SOFA's
/// implicit solvers put rM, rK in their system matrix instead). Declare its fields with `Fields()`,
/// construct it from the solver's Parameters, call `Initialize` in DoInitialize and `Compute` in
/// DoStep: it never allocates after Initialize. K is assembled only when rK > 0. A solver's
/// acceleration at a state is then one line:
///
///     ComputeAcceleration(system, damped_force_.Compute(system, at), a)
class RayleighDampedForce {
 public:
  static std::vector<FieldSpec> Fields() { return RayleighCoefficients::Fields(); }

  explicit RayleighDampedForce(const Parameters& parameters)
      : coefficients_(RayleighCoefficients::From(parameters)) {}

  void Initialize(const MechanicalSystem& system) {
    force_.setZero(system.num_dofs());
    product_.setZero(system.num_dofs());
    if (coefficients_.stiffness > 0) stiffness_ = system.CreateMatrix();
  }
  /// Follows a change of the system made in place (Solver::DoFollowSystemChange): the vectors
  /// shrink in place; K, whose pattern a removal of DOFs changes, is created again.
  void FollowSystemChange(const MechanicalSystem& system, const SystemChange& change) {
    FollowRemovedBlocks(change, force_);
    FollowRemovedBlocks(change, product_);
    if (coefficients_.stiffness > 0 && change.removes_dofs()) stiffness_ = system.CreateMatrix();
  }

  /// force = f_d at `at` (size num_dofs(); unprojected, like MechanicalSystem::ComputeForce).
  void Compute(const MechanicalSystem& system, const State& at, Vector& force) {
    system.ComputeForce(at, force);
    if (coefficients_.mass > 0) {
      product_.noalias() = system.mass() * at.v;
      force -= coefficients_.mass * product_;
    }
    if (coefficients_.stiffness > 0) {
      system.AssembleStiffness(at, stiffness_);
      product_.noalias() = stiffness_ * at.v;
      force -= coefficients_.stiffness * product_;
    }
  }

  /// f_d at `at`, in a buffer of this object's, valid until the next call.
  const Vector& Compute(const MechanicalSystem& system, const State& at) {
    Compute(system, at, force_);
    return force_;
  }

  const RayleighCoefficients& coefficients() const { return coefficients_; }

 private:
  RayleighCoefficients coefficients_;
  SparseMatrix stiffness_;
  Vector force_;
  Vector product_;
};

}  // namespace fluxion
