// Penalty contact with a fixed shape, as SOFA's PlaneForceField and SphereForceField compute it:
// a point inside the shape (or anywhere, when bilateral) is pushed out by k·(its depth) along the
// shape's normal, and damped by c·(its depth)·v.
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// SOFA's PlaneForceField: with d = x·n − D (n as given, not normalised, as SOFA),
///   f = −k·d·n + c·d·v   for d < 0 (or every d when bilateral),
/// its magnitude clamped to maxForce when maxForce > 0. K = −∂f/∂x = k·n·nᵀ on those points
/// (SOFA's addDForce: the damping term's dependence on x is left out, as SOFA does); no B.
/// Potential energy ½·k·d² over those points (SOFA reports 0).
class PlanePenalty final : public ForceField {
 public:
  /// `points`: first DOF of each point the field acts on; `normal` has `dimension` entries.
  PlanePenalty(std::vector<Index> points, int dimension, std::vector<double> normal, double d,
               double stiffness, double damping, double max_force, bool bilateral);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

 private:
  double Depth(const State& state, Index first) const;
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> normal_;
  double d_, stiffness_, damping_, max_force_;
  bool bilateral_;
};

/// SOFA's SphereForceField: with p = x − center, ‖p‖ < r (or any, when bilateral), d = ‖p‖ − r,
///   f = −k·d·p/‖p‖ + c·d·v,
///   K = −∂f/∂x = k·((r/‖p‖)·n·nᵀ + (1 − r/‖p‖)·I), n = p/‖p‖ — the exact Jacobian of the elastic
/// part, which is SOFA's. Potential energy ½·k·d² (SOFA reports 0).
class SpherePenalty final : public ForceField {
 public:
  SpherePenalty(std::vector<Index> points, int dimension, std::vector<double> center, double radius,
                double stiffness, double damping, bool bilateral);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

 private:
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> center_;
  double radius_, stiffness_, damping_;
  bool bilateral_;
};

/// SOFA's EllipsoidForceField: with p = x − center, g = (p_a/r_a²)_a (the gradient of ½·Σ
/// p_a²/r_a²), ν = √(Σ p_a²/r_a²) and v = ν − 1 (the normalised depth, negative inside), a point
/// acts when (ν² − 1)·k < 0 — inside for k > 0, outside for k < 0 (a container) — and then
///   f = −|k|·v·g/‖g‖ − c·|v|·ẋ.
/// |k| is a force [N] per unit of normalised depth: for a ball of radius R the push is |k|·d/R.
/// SOFA's tangent (its addDForce/buildStiffnessMatrix, the default), K = −∂f/∂x:
///   K_ij = |k|·[g_i·g_j·(1/(ν·‖g‖) + (v/‖g‖²)/r_j²) + δ_ij·v/(‖g‖·r_i²)],
/// which differs from the exact Jacobian of the elastic part, whose middle term is
/// −(v/‖g‖³)/r_j² (SOFA differentiates 1/‖g‖ with the wrong sign and power); `exact_stiffness`
/// (a Fluxion option) gives the exact one. Either is non-symmetric unless the radii are equal.
/// The damping's dependence on x is left out of K, as in SOFA; no B. The field is not
/// conservative (unless the radii are equal): its potential energy is 0, as SOFA reports. A point
/// at the center (g = 0), where SOFA divides by zero, gets no force.
class EllipsoidPenalty final : public ForceField {
 public:
  EllipsoidPenalty(std::vector<Index> points, int dimension, std::vector<double> center,
                   std::vector<double> radii, double stiffness, double damping,
                   bool exact_stiffness);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

 private:
  /// g and ν for one point; false when the point exerts nothing (outside its active side, or g =
  /// 0).
  bool Contact(const State& state, Index first, double* g, double& nu, double& gnorm) const;
  std::vector<Index> points_;
  int dimension_;
  std::vector<double> center_, inv_r2_;
  double stiffness_, damping_;
  bool exact_stiffness_;
};

}  // namespace fluxion::internal
