// SOFA's TetrahedronHyperelasticityFEMForceField: hyperelastic linear tetrahedra, total
// Lagrangian.
// Source: Sofa/Component/SolidMechanics/FEM/HyperElastic/src/sofa/component/solidmechanics/fem/
//         hyperelastic/TetrahedronHyperelasticityFEMForceField.{h,inl} (init,
//         createTetrahedronRestInformation, addForce, updateTangentMatrix, addDForce,
//         buildStiffnessMatrix) and material/*.h (see hyperelastic_material.h).
//
// Per tetrahedron (v₀, v₁, v₂, v₃) with rest positions X_a (the object's rest_position, as SOFA's
// restPosition):
//   6V = ((X₂ − X₀) × (X₃ − X₀))·(X₁ − X₀)   (signed, SOFA's `volume`)
//   g_a = ∇λ_a, the gradient of the a-th barycentric coordinate: SOFA's shape vectors
//         ±(X_{a+2} − X_{a+1}) × (X_{a+3} − X_{a+1}) / 6V (indices mod 4, − for even a);
//   F = Σ_{a=1..3} (x_a − x₀) ⊗ g_a,  C = FᵀF,  J = det F,
//   W = Σ_tet |V|·ψ(C),  f_a = −∂W/∂x_a = −|V|·F·S·g_a,  S = 2·∂ψ/∂C,
//   K_ab = ∂²W/∂x_a∂x_b = |V|·[(g_a·S·g_b)·I + F·(∂S/∂C : dC_b)·g_a],
// where column i of the second term uses dC_b = g_b⊗f_i + f_i⊗g_b, f_i = Fᵀe_i: SOFA's
// updateTangentMatrix (its M and N per edge), here as 4×4 blocks per tetrahedron.
//
// A tetrahedron given in either orientation is the same element (the signed 6V cancels in F,
// the weight is |V|), as in SOFA. Deliberate differences, each for a reason:
// - g₀ is taken as −(g₁ + g₂ + g₃) (equal to SOFA's in exact arithmetic) so that the forces sum
//   to zero to the last bit;
// - a tetrahedron of zero rest volume (or one whose vertices are not distinct) is refused at
//   load, where SOFA divides by zero and its forces become NaN;
// - K is assembled per tetrahedron (16 blocks) instead of on the topology's edges: the same
//   matrix, without needing the edges;
// - the potential energy Σ|V|·ψ is reported (SOFA's getPotentialEnergy returns 0 with a
//   warning).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "components/hyperelastic_material.h"
#include "fluxion/component.h"
#include "fluxion/force_field.h"

namespace fluxion::internal {

/// The force field of hyperelastic linear tetrahedra (see the file comment), on a Vec3 object.
class TetrahedronHyperelasticity final : public ForceField {
 public:
  /// One element: the first system DOF of each vertex and its rest data.
  struct Element {
    std::array<Index, 4> dof;                     ///< first system DOF of each vertex
    std::array<Eigen::Vector3d, 4> shape_vector;  ///< g_a = ∇λ_a [1/m]
    double rest_volume = 0.0;                     ///< |V| [m³]
  };

  /// Builds the elements from vertex indices and rest positions (point by point, 3 per point;
  /// `first_dof` the system DOF of point 0). Returns the index of the first tetrahedron whose
  /// rest volume is zero, or −1 when all are usable (then `elements` is filled).
  static long RestElements(const std::vector<std::array<Index, 4>>& tetrahedra,
                           const Vector& rest_positions, Index first_dof,
                           std::vector<Element>& elements);

  TetrahedronHyperelasticity(std::vector<Element> elements,
                             std::unique_ptr<HyperelasticMaterial> material);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

  const HyperelasticMaterial& material() const { return *material_; }

 private:
  Eigen::Matrix3d DeformationGradient(const Element& element, const Vector& x) const;

  std::vector<Element> elements_;
  std::unique_ptr<HyperelasticMaterial> material_;
};

/// The scene component: reads materialName, ParameterSet and the topology's tetrahedra, and adds
/// a TetrahedronHyperelasticity to the node's object.
class TetrahedronHyperelasticityFEMForceFieldComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
