// Loads that depend on time only: SOFA's key-framed LinearForceField and Fluxion's
// SinusoidalForceField (Fazarinc's driving force). Neither depends on x or v, so K = 0 and B = 0.
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// SOFA's LinearForceField (Sofa.Component.MechanicalLoad): one force vector F(t), linearly
/// interpolated between key forces F_k at strictly increasing key times T_k, added to every listed
/// point. With s the scalar multiplier `force` (SOFA's LinearForceField::addForce):
///
///   t < T_0 (or no keys)        F(t) = 0
///   T_k ≤ t < T_{k+1}           F(t) = s·[(F_{k+1} − F_k)·(1/(T_{k+1} − T_k))·(t − T_k) + F_k]
///   t ≥ T_last                  F(t) = F_last      (held for ever, NOT multiplied by s)
///
/// The last line is SOFA's behaviour, kept for compatibility: SOFA's branch for cT ≥ times.back()
/// assigns the last key force without the multiplier, so with s ≠ 1 the force jumps at T_last
/// (the scene builder warns). The interpolation is evaluated in SOFA's operation order.
///
/// Potential energy V = −Σ_points F(t)·x_p: that of a constant force equal to the applied one, so
/// f = −∂V/∂x at every fixed t. F depends on t, so the total energy is not conserved (the load's
/// work is not tracked). Deviation from SOFA: its getPotentialEnergy reads x[i] for the i-th list
/// position instead of the listed point, uses the interval of the last addForce, and returns 0 for
/// t > T_last although the force is still applied; Fluxion uses the force it applies.
///
/// Deviation from SOFA (time): SOFA reads the context time, which stays t_n during every stage of
/// a step (sofa-semantics §9: "during solve, getTime() is still t_n"), so its RK2/RK4 stages all
/// see F(t_n) and the methods drop to first order on a time-dependent load. Fluxion evaluates F at
/// `state.time`, the time at which the solver evaluates the force (t_n + c_i·h for stage i, t_{n+1}
/// for implicit methods' end points), so each method keeps its order. Results equal SOFA's for
/// solvers that evaluate forces at t_n only (EulerExplicit, CentralDifference, the first force of
/// every step).
class KeyFramedForce final : public ForceField {
 public:
  /// `dimension` axes per point; `point_dofs[p]` is the system DOF of listed point p, axis 0
  /// (duplicates add up, as in SOFA); `times` strictly increasing; `forces` times.size() ×
  /// dimension numbers; `scale` SOFA's `force` multiplier. Preconditions checked by the builder.
  KeyFramedForce(int dimension, std::vector<Index> point_dofs, std::vector<double> times,
                 std::vector<double> forces, double scale);

  void AddForce(const State& state, Vector& f) const override;
  double PotentialEnergy(const State& state) const override;

  /// F(t) for one point, into `out[0..dimension)`; false (and out untouched) if no force applies.
  bool LoadAt(double time, double* out) const;
  /// The listed points' first system DOFs, and their axes (the points the load acts on).
  const std::vector<Index>& point_dofs() const { return point_dofs_; }
  int dimension() const { return dimension_; }

 private:
  int dimension_;
  std::vector<Index> point_dofs_;
  std::vector<double> times_;
  std::vector<double> forces_;
  double scale_;
};

/// Fazarinc's driving force F(t) = A·cos ωt (seed 003, §2.1.1, eqs. 6–10), generalised to chosen
/// points with a phase:
///
///   F_p(t) = A_p·cos(ω·t + φ)      for each listed point p (duplicates add up)
///
/// evaluated at `state.time`. Fluxion's own component (SOFA has none). Potential energy
/// V = −Σ_p F_p(t)·x_p, as for a constant force at that instant (f = −∂V/∂x at fixed t); the load
/// depends on time, so the total energy is not conserved (the work done by the load is not
/// tracked).
class SinusoidalForce final : public ForceField {
 public:
  /// `point_dofs[p]` is the system DOF of listed point p, axis 0; `amplitudes` holds
  /// point_dofs.size() × dimension numbers [N]; ω in rad/s, φ in rad.
  SinusoidalForce(int dimension, std::vector<Index> point_dofs, std::vector<double> amplitudes,
                  double omega, double phase);

  void AddForce(const State& state, Vector& f) const override;
  double PotentialEnergy(const State& state) const override;
  /// The listed points' first system DOFs, and their axes (the points the load acts on).
  const std::vector<Index>& point_dofs() const { return point_dofs_; }
  int dimension() const { return dimension_; }

 private:
  int dimension_;
  std::vector<Index> point_dofs_;
  std::vector<double> amplitudes_;
  double omega_;
  double phase_;
};

}  // namespace fluxion::internal
