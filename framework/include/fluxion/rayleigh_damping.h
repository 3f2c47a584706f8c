// Rayleigh damping applied as a force, for solvers that integrate it together with the rest of f.
#pragma once

#include <vector>

#include "fluxion/mechanical_system.h"
#include "fluxion/parameters.h"
#include "fluxion/state.h"

namespace fluxion {

/// The force with Rayleigh damping
///
///   f_d(t, x, v) = f(t, x, v) − rM·M·v − rK·K(x)·v,
///
/// for solvers that treat the damping like any other force (the papers' explicit methods; SOFA's
/// implicit solvers put rM, rK in their system matrix instead). Declare its fields with `Fields()`,
/// construct it from the solver's Parameters, call `Initialize` in DoInitialize and `Compute` in
/// DoStep: it never allocates after Initialize. K is assembled only when rK > 0.
class RayleighDampedForce {
 public:
  /// `rayleighMass` (rM ≥ 0, 1/s) and `rayleighStiffness` (rK ≥ 0, s), both default 0.
  static std::vector<FieldSpec> Fields() {
    return {
        FieldSpec::Real("rayleighMass", 0.0, "Rayleigh damping proportional to the mass, rM [1/s]")
            .AtLeast(0),
        FieldSpec::Real("rayleighStiffness", 0.0,
                        "Rayleigh damping proportional to the stiffness, rK [s]")
            .AtLeast(0)};
  }

  explicit RayleighDampedForce(const Parameters& parameters)
      : rayleigh_mass_(parameters.real("rayleighMass")),
        rayleigh_stiffness_(parameters.real("rayleighStiffness")) {}

  void Initialize(const MechanicalSystem& system) {
    product_.setZero(system.num_dofs());
    if (rayleigh_stiffness_ > 0) stiffness_ = system.CreateMatrix();
  }

  /// force = f_d at `at` (size num_dofs(); unprojected, like MechanicalSystem::ComputeForce).
  void Compute(const MechanicalSystem& system, const State& at, Vector& force) {
    system.ComputeForce(at, force);
    if (rayleigh_mass_ > 0) {
      product_.noalias() = system.mass() * at.v;
      force -= rayleigh_mass_ * product_;
    }
    if (rayleigh_stiffness_ > 0) {
      system.AssembleStiffness(at, stiffness_);
      product_.noalias() = stiffness_ * at.v;
      force -= rayleigh_stiffness_ * product_;
    }
  }

 private:
  double rayleigh_mass_;
  double rayleigh_stiffness_;
  SparseMatrix stiffness_;
  Vector product_;
};

}  // namespace fluxion
