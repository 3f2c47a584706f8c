// Pressure on the faces of a surface mesh, as SOFA's SurfacePressureForceField computes it, and on
// the edges of a planar mesh along their normals, as SOFA's EdgePressureForceField (p_intensity).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// SOFA's SurfacePressureForceField (Vec3 only). With P the pressure [Pa]:
///
/// - a triangle (a, b, c), n = (b − a)×(c − a) (twice its area along its normal), gives each of
///   its vertices (P/6)·n — P·area·n̂ in all — scaled by |n̂·d| when a `mainDirection` d ≠ 0 is
///   given;
/// - a quad (a, b, c, d), split as SOFA does into n₁ = (b − a)×(c − a) and n₂ = (c − a)×(d − a),
///   gives a and c (P/6)·(n₁ + n₂), b (P/6)·n₁ and d (P/6)·n₂ (mainDirection does not apply);
/// - elements are taken from explicit index lists, or else every element of the topology whose
///   vertices all lie in the box [min, max] at the current positions (no box when both are 0);
/// - in volume-conservation mode P is scaled by V₀/V(x), V the signed volume Σ a·(b×c)/6 over
///   the listed triangles and the quads' two triangles (a, b, c), (a, c, d), V₀ the initial
///   volume or SOFA's `defaultVolume` (0: no scaling).
///
/// Tangent (K = −∂f/∂x), SOFA's by default: for each triangle, with ∂n/∂a = [c − b]×,
/// ∂n/∂b = [a − c]×, ∂n/∂c = [b − a]×, K_{v,s} = −(P/6)·∂n/∂s for each vertex v and source s —
/// the exact Jacobian of the plain triangle force, with SOFA's omissions: the mainDirection
/// factor, P's dependence on the volume, and the quads (none at all). With `exact_stiffness` (a
/// Fluxion option) the mainDirection factor and the quads are differentiated too (the volume
/// factor, which couples every vertex, is refused with it by the component). No potential energy
/// (SOFA reports 0).
///
/// Pulse mode (SOFA's `pulseMode`, computePulseModePressure): P is not the `pressure` given but a
/// ramp SOFA advances by `pressureSpeed`·dt at each force evaluation, from 0 up to the pressure
/// (or, for a negative pressure, down to it), then back to `pressureLowerBound`, and so on, each
/// bound reached exactly (clamped) before turning. Here it advances once per step, at the step's
/// start (AdvancePulse, mechanics/step_start.h), by the same sums: SOFA's bits for the solvers that
/// evaluate the force once per step (EulerImplicitSolver, EulerExplicitSolver). SOFA's ramp runs
/// as many times faster as a solver evaluates forces per step (4 with RK4); Fluxion's does not.
class SurfacePressure final : public ForceField {
 public:
  struct Options {
    double pressure = 0.0;
    std::array<double, 3> main_direction = {0, 0, 0};
    bool box = false;            ///< select elements in [box_min, box_max]
    bool box_triangles = false;  ///< the box applies to the triangles (no index list)
    bool box_quads = false;      ///< the box applies to the quads (no index list)
    std::array<double, 3> box_min = {0, 0, 0}, box_max = {0, 0, 0};
    double rest_volume = 0.0;  ///< V₀; 0: P is not scaled by the volume
    bool tangent = true;       ///< SOFA's useTangentStiffness
    bool exact_stiffness = false;
    bool pulse = false;        ///< SOFA's pulseMode
    double pulse_lower = 0.0;  ///< its pressureLowerBound [Pa]
    double pulse_speed = 0.0;  ///< its pressureSpeed [Pa/s] (> 0)
  };
  /// Elements as the first system DOF of each vertex.
  SurfacePressure(std::vector<std::array<Index, 3>> triangles,
                  std::vector<std::array<Index, 4>> quads, const Options& options);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

  /// The signed volume Σ a·(b×c)/6 enclosed by the elements at `x`.
  double Volume(const Vector& x) const;
  /// Pulse mode: brings the ramp to its value after `evaluations` of SOFA's force evaluations,
  /// each advancing it by speed·dt (from its current count: nothing when already there).
  void AdvancePulse(long evaluations, double dt);
  /// The pulse's current pressure [Pa].
  double pulse_pressure() const { return pulse_value_; }

 private:
  double Pressure(const State& state) const;
  bool InBox(const Vector& x, Index first) const;
  template <std::size_t N>
  bool Selected(const Vector& x, const std::array<Index, N>& element, bool boxed) const;

  std::vector<std::array<Index, 3>> triangles_;
  std::vector<std::array<Index, 4>> quads_;
  Options options_;
  long pulse_count_ = 0;      // evaluations the ramp has made
  double pulse_value_ = 0.0;  // SOFA's m_pulseModePressure
  bool pulse_rising_ = true;  // SOFA's state INCREASE (else DECREASE)
};

/// SOFA's EdgePressureForceField in its `p_intensity` form (Vec3 only): a pressure along each
/// pressed edge's in-plane normal. Edge (a, b) with scale s = intensity·L (L a rest length) gives
/// each of a and b the force s·n/2, where, with t = (x_b − x_a)/|x_b − x_a| at the current
/// positions:
/// - with a binormal B (the plane's normal, unit): n = (B × t)/|B × t|;
/// - without: n = ẑ × t (not normalised: SOFA's), turned to point towards the edge's third
///   vertex c (its one triangle's): n ← −n when n·(x_c − x_a) < 0.
/// A zero t or B × t gives no force (SOFA's normalize leaves a zero vector as it is).
/// The force follows the edges but its Jacobian is left out (no stiffness, as SOFA: its addDForce
/// is empty), and it has no potential (SOFA reports 0).
class EdgeNormalPressure final : public ForceField {
 public:
  struct Edge {
    Index a = 0, b = 0;  ///< first system DOF of each end
    Index side = -1;     ///< first system DOF of the third vertex (no binormal), else −1
    double scale = 0.0;  ///< intensity·L [N]
  };
  /// `binormal`: unit, or null for the ẑ form with each edge's `side` vertex.
  EdgeNormalPressure(std::vector<Edge> edges, std::optional<std::array<double, 3>> binormal);
  void AddForce(const State& state, Vector& f) const override;
  const std::vector<Edge>& edges() const { return edges_; }

 private:
  std::vector<Edge> edges_;
  std::optional<std::array<double, 3>> binormal_;
};

/// SOFA's TrianglePressureForceField with useConstantForce=0: a Cauchy stress σ (symmetric)
/// applied on each listed triangle (a, b, c) at the current positions, each vertex receiving
/// σ·((b − a)×(c − a))/6 — σ·n̂·area in all. The force follows the triangles but, as SOFA's
/// (its addDForce is empty), it has no stiffness; no potential (SOFA reports 0).
class TriangleCauchyTraction final : public ForceField {
 public:
  /// `stress`: σ row-major; triangles as the first system DOF of each vertex.
  TriangleCauchyTraction(std::vector<std::array<Index, 3>> triangles,
                         const std::array<double, 9>& stress);
  void AddForce(const State& state, Vector& f) const override;
  /// The triangles, as the first system DOF of each vertex.
  const std::vector<std::array<Index, 3>>& triangles() const { return triangles_; }

 private:
  std::vector<std::array<Index, 3>> triangles_;
  std::array<double, 9> stress_;
};

}  // namespace fluxion::internal
