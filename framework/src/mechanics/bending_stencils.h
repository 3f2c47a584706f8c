// Linear bending forces on four-point stencils, as SOFA's FastTriangularBendingSprings
// computes them.
#pragma once

#include <array>
#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

/// One hinge: the two triangles (A, C, D) and (B, D, C) around the edge CD.
struct BendingStencil {
  std::array<Index, 4> first;   ///< first system DOF of A, B, C, D
  std::array<double, 4> alpha;  ///< weight of each vertex in the bending vector
  double lambda = 0.0;          ///< stiffness of the bending vector [N/m]
};

/// SOFA's FastTriangularBendingSprings (Volino & Magnenat-Thalmann's linear bending): for each
/// stencil the bending vector R = Σ_k α_k·x_k (zero when the hinge is flat, by the choice of α;
/// a curved rest shape is not remembered, as in SOFA) gives
///   f_k = −λ·α_k·R,   E = ½·λ·‖R‖²,   K = −∂f/∂x: K_jk = λ·α_j·α_k·I (constant).
class BendingStencils final : public ForceField {
 public:
  BendingStencils(int dimension, std::vector<BendingStencil> stencils);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

 private:
  int dimension_;
  std::vector<BendingStencil> stencils_;
};

}  // namespace fluxion::internal
