// SOFA's TetrahedronFEMForceField: linear elastic tetrahedra, small or corotational.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         TetrahedronFEMForceField.{h,inl} (computeStrainDisplacement, computeMaterialStiffness,
//         init{Small,Large,Polar,SVD}, accumulateForce{Small,Large,Polar,SVD}, computeForce,
//         applyStiffness{Small,Corotational}, buildStiffnessMatrix, computeVonMisesStress),
//         BaseLinearElasticityFEMForceField.inl (youngModulus/poissonRatio per element) and
//         Sofa/framework/Helper/src/sofa/helper/decompose.inl (polarDecomposition,
//         polarDecomposition_stable, SVD_stable). Corotation: Nesme, Payan, Faure 2005.
//
// Per tetrahedron (v₀, v₁, v₂, v₃), rest positions X_a, current x_a. A rotation Q (world → the
// element's frame; SOFA's R_0_2) is extracted from x, and Q₀ from X (SOFA's R_0_1); in the frame
// the rest vertices are P_a = Q₀X_a and the current ones p_a = Qx_a:
//   small: Q = Q₀ = I;
//   large: the frame of the first edge and the face (v₀, v₁, v₂): e_x = (x₁ − x₀)/|·|,
//          e_z = e_x × (x₂ − x₀)/|·|, e_y = e_z × e_x, rows of Q; P_a, p_a taken relative to
//          vertex 0 (SOFA's computeRotationLarge, initLarge);
//   polar: Q the orthogonal polar factor of A = [x₁ − x₀; x₂ − x₀; x₃ − x₀] (edges as rows),
//          A = Q·S (SOFA's polarDecomposition: Shoemake–Higham iteration to 1e-8; here an SVD,
//          the same factor to round-off). For an inverted element it is a reflection, as SOFA's;
//   svd:   with G = A·A_rest⁻¹: if det G ≥ 1e-6, as polar; else (inverted or nearly flat)
//          Q = Q_s(G)·Q₀, Q_s(G) = U·Vᵀ from G's SVD with the column of the smallest singular
//          value negated when det U·det V < 0, so Q_s is a rotation (SOFA's
//          polarDecomposition_stable / SVD_stable, after Irving et al. 2004).
// Three rotations rotate the rest element as it is (Q₀ = I, P_a = X_a) by the transpose of a
// rotation R taken from rest to current:
//   gradient_polar: R the polar factor of the deformation gradient F = Σ_a x_a ⊗ g_a (g_a the
//          rest shape vectors; SOFA's FastTetrahedralCorotationalForceField method="polar",
//          FastTetrahedralCorotationalForceField.inl, addForce);
//   centroid_polar: R the polar factor of H = Σ_a (x_a − x̄)(X_a − X̄)ᵀ, x̄ and X̄ the centroids
//          (the best rotation of the rest vertices onto the current ones; SOFA's element FEM
//          rotationMethod="polar", impl/rotations/PolarDecomposition.h);
//   centroid_stable_polar: the same H made a rotation as svd's Q_s (SOFA's "stable_polar",
//          impl/rotations/StablePolarDecomposition.h: polarDecomposition_stable).
// For a tetrahedron H = F·Σ_a (X_a − X̄)(X_a − X̄)ᵀ: the two polar factors differ unless the rest
// element's second moment is isotropic (a regular tetrahedron), so they are kept apart.
// With the shape vectors g_a = ∇λ_a of the rest element in its frame, u_a = p_a − P_a and Hooke's
// law (λ = Eν/((1+ν)(1−2ν)), μ = E/(2(1+ν)), SOFA's material matrix):
//   ε = Σ_a sym(u_a ⊗ g_a),  σ = λ·tr ε·I + 2μ·ε,  f_a = −Qᵀ·(V·σ·g_a)
// (SOFA's F = J·K·Jᵀ·D with J the 12×6 strain–displacement matrix of cofactors = 6V·B and
// K = C/(36V): the same numbers, V·Bᵀ·C·B). The stiffness SOFA assembles and multiplies with
// (addDForce, buildStiffnessMatrix) is the rotated linear one, no geometric term:
//   K_ab = Qᵀ·V·(λ·g_a⊗g_b + μ·g_b⊗g_a + μ·(g_a·g_b)·I)·Q,
// Q being the rotation of the state the tangent is taken at. For large/polar/svd this is not
// the exact derivative of f (Q depends on x); for small it is.
//
// updateStiffnessMatrix (SOFA): the strain–displacement matrix is rebuilt from the current
// element in its frame, i.e. g_a from p_a and the weight V_cur²/V (K keeps 1/(36V)).
//
// Deliberate differences from SOFA, each for a reason:
// - the polar factor by an SVD rather than Shoemake's iteration stopped at 1e-8 (equal to
//   round-off: the iteration converges quadratically);
// - svd: the degenerate cases of SOFA's SVD_stable (a singular value below 1e-4 of the rest
//   scale) take the SVD's own orthonormal completion instead of SOFA's hand-built vectors;
// - large with updateStiffnessMatrix: SOFA rewrites only one of each group of equal entries of
//   J (the others keep their rest values); here every entry follows the current element;
// - the von Mises stress of computeVonMisesStress=1 is that of the corotated strain in the
//   element's own frame (SOFA differentiates the frame's displacements with world-frame shape
//   functions, which mixes frames unless Q₀ = I); =2 is SOFA's (full Green strain);
// - PotentialEnergy is Σ ½·V·ε:σ for every method (SOFA's only for small).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <Eigen/Dense>

#include "fluxion/force_field.h"
#include "mechanics/element_loops.h"
#include "mechanics/element_output.h"

namespace fluxion::internal {

/// The element frame of the file comment: SOFA's TetrahedronFEMForceField methods, then the
/// rotations of the whole rest element (FastTetrahedral's polar, the element FEM's polar and
/// stable_polar).
enum class TetrahedronFemMethod {
  kSmall,
  kLarge,
  kPolar,
  kSvd,
  kGradientPolar,
  kCentroidPolar,
  kCentroidStablePolar
};

/// The linear (small or corotational) tetrahedral force field of the file comment, on a Vec3
/// object.
class TetrahedronFem final : public ForceField, public ElementOutputSource {
 public:
  /// One element's rest data, built once.
  struct Element {
    std::array<Index, 4> dof{};                   ///< first system DOF of each vertex
    std::array<Eigen::Vector3d, 4> rest;          ///< P_a: rest vertices in the rest frame [m]
    std::array<Eigen::Vector3d, 4> shape_vector;  ///< g_a = ∇λ_a in the rest frame [1/m]
    Eigen::Matrix3d rest_rotation;                ///< Q₀ (world → rest frame)
    Eigen::Matrix3d inverse_rest_edges;           ///< A_rest⁻¹ (svd only)
    double volume = 0.0;                          ///< |V| [m³]
    double lambda = 0.0, mu = 0.0;                ///< Lamé parameters [Pa]
  };

  /// The rest data of `tetrahedra` (vertex indices into `rest`, 3 numbers per point, point 0
  /// at system DOF `first_dof`), with Young's modulus `young[t]` and Poisson's ratio
  /// `poisson[t]` per element. Returns the index of the first tetrahedron of zero rest volume,
  /// or −1 when every one is usable (then `elements` is filled).
  static long RestElements(TetrahedronFemMethod method,
                           const std::vector<std::array<Index, 4>>& tetrahedra, const Vector& rest,
                           Index first_dof, const std::vector<double>& young,
                           const std::vector<double>& poisson, std::vector<Element>& elements);

  /// `von_mises`: which stress measure an output of element stresses shows (0 none, 1 the
  /// corotational strain's, 2 the Green strain's; see VonMises).
  TetrahedronFem(TetrahedronFemMethod method, bool update_stiffness_matrix,
                 std::vector<Element> elements, int von_mises = 0);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;
  double PotentialEnergy(const State& state) const override;

  /// The rotation Q (world → element frame) of element `e` at positions `x` (for tests).
  Eigen::Matrix3d Rotation(std::size_t e, const Vector& x) const;
  /// Element `e`'s 12×12 stiffness K_ab at `x` as assembled (for tests).
  Eigen::Matrix<double, 12, 12> ElementStiffness(std::size_t e, const Vector& x) const;
  /// The von Mises stress [Pa] of each element at `x`: `green` = SOFA's computeVonMisesStress=2
  /// (Green strain of the world displacement), else of the corotated linear strain (=1).
  /// `out` must hold one value per element.
  void VonMises(const Vector& x, bool green, double* out) const;

  std::size_t num_elements() const { return elements_.size(); }
  const Element& element(std::size_t e) const { return elements_[e]; }
  TetrahedronFemMethod method() const { return method_; }

  // A tetrahedron removal followed in place (build/tetrahedron_in_place.h), between steps only,
  // as SOFA's TetrahedronData follows its topology (TopologyData::remove: each removed slot
  // takes the last tetrahedron's data as it was computed; TetrahedralCorotationalFEMForceField
  // and TetrahedronFEMForceField keep their rest data per tetrahedron that way).
  /// Removes the elements `sorted_descending` (distinct, descending), each slot taking the
  /// element then last. The thread partition is recomputed on its next use.
  void RemoveElementsMovingLast(std::span<const Index> sorted_descending);
  /// Element e's vertices become the first DOFs `dof` (a point renumbered by a topological
  /// change: the last point moved into a removed one's slot). The caller calls ForgetPartition
  /// once after its renamings (forgetting the partition costs two small allocations: once per
  /// change, not once per renamed element).
  void SetElementDofs(std::size_t e, const std::array<Index, 4>& dof) { elements_[e].dof = dof; }
  /// The thread partition is recomputed on its next use (the elements' vertices changed).
  void ForgetPartition() { partition_.Reset(); }
  /// Appends `added` after the elements (an addition of tetrahedra followed in place,
  /// build/addition_in_place.h: SOFA's TetrahedronData creating the new tetrahedra's rest data).
  /// The thread partition is recomputed on its next use.
  void AppendElements(std::span<const Element> added) {
    elements_.insert(elements_.end(), added.begin(), added.end());
    partition_.Reset();
  }
  int von_mises() const { return von_mises_; }

  /// With computeVonMisesStress 1 or 2: publishes VonMises as the output `vonMisesPerElement`
  /// of the tetrahedra of `topology` (the elements' source, in their order).
  void PublishVonMises(std::shared_ptr<const Topology> topology);

 private:
  std::size_t num_output_values() const override { return elements_.size(); }
  void ComputeOutput(const Vector& x, double* out) const override {
    VonMises(x, von_mises_ == 2, out);
  }
  /// What the force and the tangent need of one element at one state: Q, the shape vectors
  /// the stiffness uses and its weight (V, or V_cur²/V with updateStiffnessMatrix).
  struct Frame {
    Eigen::Matrix3d rotation;
    std::array<Eigen::Vector3d, 4> shape_vector;
    double weight = 0.0;
    std::array<Eigen::Vector3d, 4> local;  ///< p_a = Q·x_a (relative to p₀ for large)
  };
  void ComputeFrame(const Element& e, const Vector& x, Frame& frame) const;
  /// y_a += scale·Qᵀ·(w·σ(Σ sym(d_b ⊗ g_b))·g_a) for local displacements d (the element's
  /// action on d in its frame).
  static void LocalForces(const Element& e, const std::array<Eigen::Vector3d, 4>& g, double w,
                          const std::array<Eigen::Vector3d, 4>& d,
                          std::array<Eigen::Vector3d, 4>& out);

  TetrahedronFemMethod method_;
  bool update_stiffness_matrix_;
  std::vector<Element> elements_;
  int von_mises_;
  ElementPartition partition_;  // the elements split by vertex ranges for the threads
};

/// The orthogonal polar factor Q of `A` = Q·S (a reflection when det A < 0).
Eigen::Matrix3d PolarFactor(const Eigen::Matrix3d& A);
/// SOFA's polarDecomposition_stable: U·Vᵀ from A's SVD, made a rotation by negating the
/// smallest singular direction when A inverts.
Eigen::Matrix3d StablePolarRotation(const Eigen::Matrix3d& A);
/// SOFA's computeRotationLarge: rows e_x, e_y, e_z of the frame of the edges x₁ − x₀, x₂ − x₀.
Eigen::Matrix3d EdgeFrame(const Eigen::Vector3d& x0, const Eigen::Vector3d& x1,
                          const Eigen::Vector3d& x2);

}  // namespace fluxion::internal
