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

}  // namespace fluxion::internal
