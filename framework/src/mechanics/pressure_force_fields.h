// Pressure on the faces of a surface mesh, as SOFA's SurfacePressureForceField computes it.
#pragma once

#include <array>
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
  };
  /// Elements as the first system DOF of each vertex.
  SurfacePressure(std::vector<std::array<Index, 3>> triangles,
                  std::vector<std::array<Index, 4>> quads, const Options& options);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;

  /// The signed volume Σ a·(b×c)/6 enclosed by the elements at `x`.
  double Volume(const Vector& x) const;

 private:
  double Pressure(const State& state) const;
  bool InBox(const Vector& x, Index first) const;
  template <std::size_t N>
  bool Selected(const Vector& x, const std::array<Index, N>& element, bool boxed) const;

  std::vector<std::array<Index, 3>> triangles_;
  std::vector<std::array<Index, 4>> quads_;
  Options options_;
};

}  // namespace fluxion::internal
