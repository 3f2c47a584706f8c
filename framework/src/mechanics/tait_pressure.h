// The pressure of a gas or liquid enclosed by a closed surface, from its volume by Tait's equation,
// as SOFA's TaitSurfacePressureForceField computes it.
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         TaitSurfacePressureForceField.{h,inl} (updateFromTopology, computeMeshVolumeAndArea,
//         computePressureAndStiffness, addForce, addDForce, addKToMatrixT, handleEvent).
#pragma once

#include <array>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// SOFA's TaitSurfacePressureForceField (Vec3). The surface is the topology's triangles and each
/// quad (a, b, c, d) as the triangles (a, b, c), (c, d, a). With x̄ the mean of all the object's
/// points,
///   V(x) = Σ_t (x_a − x̄)·((x_b − x̄) × (x_c − x̄)) / 6,
///   P(V) = p₀ − B·((V/V₀)^γ − 1)       (Tait; γ = 1: p₀ − B·(V/V₀ − 1); B, γ or V₀ = 0: p₀),
///   P'(V) = −B·γ·(V/V₀)^γ / V          (γ = 1: −B/V₀; V = 0, or B, γ or V₀ = 0: 0),
/// V₀ = V(rest positions) + the injected volume. Each vertex i gets f_i = P·∇_i V, with
/// ∇_i V = Σ_{t ∋ i} (x_b − x_a) × (x_c − x_a) / 6 — SOFA's sum over the triangles with i, taking
/// each triangle's full normal for each of its vertices (the exact gradient of V for a closed
/// surface). The tangent (K = −∂f/∂x, at the state linearised, as SOFA's addDForce at the step's
/// positions):
///   K·dx = −(P'·(∇V·dx)·∇V_i + (P/6)·Σ_{t ∋ i} ((dx_b − dx_a) × (x_c − x_a) + (x_b − x_a) × (dx_c
///   − dx_a)))
/// — a dense rank-one term that couples every vertex of the surface (the product costs O(n); an
/// assembled matrix holds n² blocks, as SOFA's addKToMatrix writes them) and the pressure's change
/// of the normals. No potential (SOFA reports 0).
///
/// The injected volume reaches its target at most `maxInjectionRate`·dt per step (SOFA's
/// AnimateBeginEvent handler: InjectStep, run at each step's start).
class TaitPressure final : public ForceField {
 public:
  struct Options {
    double p0 = 0.0, bulk = 0.0, gamma = 0.0;  ///< SOFA's p0, B, gamma
    double injected = 0.0;                     ///< the target injected volume [m³]
    double max_rate = 1000.0;                  ///< maxInjectionRate [m³/s]
  };
  /// `triangles` as the first system DOF of each vertex; `first_dof`, `num_points`: the object's
  /// (its mean point is the volume's origin); `rest`: its rest positions (the initial volume).
  TaitPressure(std::vector<std::array<Index, 3>> triangles, Index first_dof, Index num_points,
               const Vector& rest, const Options& options);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;

  /// V(x) as defined above (positions in system DOFs).
  double Volume(const Vector& x) const;
  /// P and P' at volume `volume`.
  std::array<double, 2> PressureAndStiffness(double volume) const;
  /// SOFA's handleEvent(AnimateBeginEvent) up to `events` events with time step `dt`: the
  /// injected volume moves towards its target by at most maxInjectionRate·dt each.
  void InjectUpTo(long events, double dt);
  /// The injected volume at the start (SOFA's currentInjectedVolume as the scene gives it).
  void SetInjectedStart(double volume) { current_injected_ = volume; }
  /// Sets the target injected volume (a controller's `injectedVolume`).
  void SetInjectedTarget(double volume) { options_.injected = volume; }
  double initial_volume() const { return initial_volume_; }
  double injected_volume() const { return current_injected_; }

 private:
  // ∇V at `x` into gradient_ (one Vec3 per point of the object, in the object's order).
  void Gradient(const Vector& x) const;

  std::vector<std::array<Index, 3>> triangles_;
  Index first_dof_ = 0, num_points_ = 0;
  Options options_;
  double initial_volume_ = 0.0;
  double current_injected_ = 0.0;         // SOFA's currentInjectedVolume
  long injections_ = 0;                   // AnimateBeginEvents handled
  mutable std::vector<double> gradient_;  // scratch: ∇V, sized once
};

}  // namespace fluxion::internal
