// SOFA's HexahedronFEMForceField: trilinear (8-node) linear elastic hexahedra, small or
// corotational.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         HexahedronFEMForceField.{h,inl} (computeElementStiffness, computeMaterialStiffness,
//         init{Small,Large,Polar}, accumulateForce{Small,Large,Polar}, computeRotationLarge,
//         computeRotationPolar, addDForce, buildStiffnessMatrix, getPotentialEnergy).
//         Corotation: Nesme, Marchal, Promayon, Chabanas, Payan, Faure 2005.
//
// Vertex order (SOFA's, and RegularGridTopology's): 0 (x,y,z), 1 (x+1,y,z), 2 (x+1,y+1,z),
// 3 (x,y+1,z), then 4–7 the same at z+1; vertex a sits at the reference corner
// ξ_a = (s_a0, s_a1, s_a2) ∈ {−1, 1}³ and N_a(ξ) = ⅛·Π_k (1 + s_ak·ξ_k). (SOFA's header still
// warns that its order differs from the topology's; its code takes the topology's hexahedra as
// they are, in this order.)
//
// Element frame. A rotation R (world → element frame) is taken from the current positions x,
// and R₀ from the rest ones X; with the mean edges of the three directions
//   h = ¼(x₁−x₀ + x₂−x₃ + x₅−x₄ + x₆−x₇), v = ¼(x₃−x₀ + x₂−x₁ + x₇−x₄ + x₆−x₅),
//   d = ¼(x₄−x₀ + x₅−x₁ + x₇−x₃ + x₆−x₂),
//   small: R = I;
//   large: rows e_x = h/|h|, e_z = e_x × v/|·|, e_y = e_z × e_x (computeRotationLarge);
//   polar: the orthogonal polar factor of A = [h; v; d] (rows): A = R·S (computeRotationPolar:
//          SOFA's Shoemake iteration; here an SVD, the same factor to round-off).
//   centroid_polar: R₀ = I and R the transpose of the polar factor of
//          H = Σ_a (x_a − x̄)(X_a − X̄)ᵀ (x̄, X̄ the centroids: the best rotation of the rest
//          vertices onto the current ones; SOFA's element FEM rotationMethod="polar",
//          impl/rotations/PolarDecomposition.h);
//   centroid_stable_polar: the same H made a rotation (the smallest singular direction negated
//          when H inverts; "stable_polar", impl/rotations/StablePolarDecomposition.h).
// The rest element in its frame P_a = R₀·X_a is kept (SOFA's _rotatedInitialElements).
//
// Stiffness. On the rest element in its frame, Kₑ = ∫ Bᵀ·C·B dV with B the 6×24
// strain–displacement matrix of ∇N_a = J⁻ᵀ·∂N_a/∂ξ, C Hooke's 6×6 matrix with SOFA's
// U = E(1−ν)/((1+ν)(1−2ν)), V = U·ν/(1−ν), W = U·(1−2ν)/(2(1−ν)) (= λ+2μ, λ, μ):
//   Kₑ,ab(m,l) = Σ_g det J_g·[V·q_a,m·q_b,l + W·q_a,l·q_b,m]  (m ≠ l),
//   Kₑ,ab(m,m) = Σ_g det J_g·[U·q_a,m·q_b,m + W·Σ_{n≠m} q_a,n·q_b,n],
// summed over the 2×2×2 Gauss points ξ = (±1/√3)³ (weights 1), q_a = ∇N_a there. SOFA does not
// assume a parallelepiped: when the element is one (to 0.1 % of its edges: x₂ = x₃ + (x₁ − x₀)
// and x₄…x₇ = x₀…x₃ + (x₄ − x₀)) J = ½[x₁−x₀, x₃−x₀, x₄−x₀] is constant and 2×2×2 Gauss is exact
// (the integrand is quadratic in each ξ_k); otherwise J is evaluated at each Gauss point, which
// integrates the rational integrand of a general hexahedron approximately (standard full
// integration). Only the upper triangle is summed and mirrored, so Kₑ is exactly symmetric.
// (SOFA also evaluates a closed form for axis-aligned boxes, integrateStiffness, and discards it:
// GENERIC_STIFFNESS_MATRIX is defined.)
//
// Force and tangent, with u_a = R·x_a − P_a (SOFA's D = −u, F = Kₑ·D):
//   f_a = −Rᵀ·(Kₑ·u)_a,   K_ab = Rᵀ·Kₑ,ab·R (addDForce, buildStiffnessMatrix)
// with R at the state the tangent is taken at: SOFA's rotated linear stiffness, without the
// derivative of R (exact for small only). PotentialEnergy = ½·Σ uᵀ·Kₑ·u (SOFA's, every method).
// updateStiffnessMatrix: Kₑ is recomputed at every evaluation from the current element in its
// frame, R·x_a (SOFA's accumulateForce* with d_updateStiffnessMatrix).
//
// Deliberate differences from SOFA, each for a reason:
// - Kₑ is computed from the vertices relative to vertex 0 (P_a − P₀) rather than from P_a, and
//   elements whose relative vertices agree to 1e-12 of their size (a regular grid: all of them)
//   share one 24×24 matrix (4.6 KB per element otherwise, 147 MB for a 20×20×80 beam); the
//   matrices differ from SOFA's in round-off only;
// - the polar factor by an SVD rather than Shoemake's iteration stopped at 1e-8;
// - an element that is flat or inverted at rest (det J ≤ 0 at a Gauss point) is a load error:
//   SOFA assembles a stiffness with negative energy and the scene explodes.
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

/// The element frame of the file comment: SOFA's HexahedronFEMForceField methods, then the
/// element FEM's polar and stable_polar rotations of the whole rest element.
enum class HexahedronFemMethod { kLarge, kPolar, kSmall, kCentroidPolar, kCentroidStablePolar };

/// The linear (small or corotational) hexahedral force field of the file comment, on a Vec3
/// object.
class HexahedronFem final : public ForceField, public ElementOutputSource {
 public:
  using Stiffness = Eigen::Matrix<double, 24, 24>;

  /// One element's rest data, built once.
  struct Element {
    std::array<Index, 8> dof{};           ///< first system DOF of each vertex
    std::array<Eigen::Vector3d, 8> rest;  ///< P_a = R₀·X_a: rest vertices in the rest frame [m]
    std::uint32_t stiffness = 0;          ///< index of Kₑ in the shared matrices
    double young = 0.0, poisson = 0.0;    ///< E [Pa], ν (updateStiffnessMatrix rebuilds Kₑ)
  };

  /// The rest data of `hexahedra` (vertex indices into `rest`, 3 numbers per point, point 0 at
  /// system DOF `first_dof`) with E = `young[h]`, ν = `poisson[h]` per element; identical
  /// elements share one matrix of `stiffnesses`. Returns the index of the first hexahedron that
  /// is flat or inverted at rest, or −1 when every one is usable.
  static long RestElements(HexahedronFemMethod method,
                           const std::vector<std::array<Index, 8>>& hexahedra, const Vector& rest,
                           Index first_dof, const std::vector<double>& young,
                           const std::vector<double>& poisson, std::vector<Element>& elements,
                           std::vector<Stiffness>& stiffnesses);

  /// SOFA's computeElementStiffness: Kₑ of the element with vertices `nodes` (in its frame),
  /// E and ν; false when det J ≤ 0 at a Gauss point (flat or inverted).
  static bool ElementStiffnessMatrix(const std::array<Eigen::Vector3d, 8>& nodes, double young,
                                     double poisson, Stiffness& K);

  HexahedronFem(HexahedronFemMethod method, bool update_stiffness_matrix,
                std::vector<Element> elements, std::vector<Stiffness> stiffnesses);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;
  double PotentialEnergy(const State& state) const override;

  /// The rotation R (world → element frame) of element `e` at positions `x` (for tests).
  Eigen::Matrix3d Rotation(std::size_t e, const Vector& x) const;
  /// Element `e`'s 24×24 stiffness Rᵀ·Kₑ·R at `x` as assembled (for tests).
  Stiffness ElementStiffness(std::size_t e, const Vector& x) const;

  std::size_t num_elements() const { return elements_.size(); }
  const Element& element(std::size_t e) const { return elements_[e]; }
  std::size_t num_stiffnesses() const { return stiffnesses_.size(); }
  HexahedronFemMethod method() const { return method_; }
  bool updates_stiffness_matrix() const { return update_stiffness_matrix_; }

  // A removal of hexahedra followed in place (build/quad_hexahedron_in_place.h), between steps
  // only, as SOFA's HexahedronData follows its topology (TopologyData::remove: each removed slot
  // takes the last hexahedron's data as computed; HexahedronFEMForceField keeps its rotations,
  // rest elements and stiffnesses per hexahedron that way, HexahedronFEMForceField.inl).
  /// Removes the elements `sorted_descending` (distinct, descending), each slot taking the
  /// element then last (its Kₑ index with it). The thread partition is recomputed on its next
  /// use.
  void RemoveElementsMovingLast(std::span<const Index> sorted_descending);
  /// Element e's vertices become the first DOFs `dof` (a point renumbered: the last point moved
  /// into a removed one's slot). The caller calls ForgetPartition once after its renamings.
  void SetElementDofs(std::size_t e, const std::array<Index, 8>& dof) { elements_[e].dof = dof; }
  /// The thread partition is recomputed on its next use (the elements' vertices changed).
  void ForgetPartition() { partition_.Reset(); }
  /// True when the elements sharing each Kₑ have the same shape in their frame to the bit
  /// (P_a − P₀ equal): a build from any subset of them, in any order, then computes the same
  /// matrices whichever element comes first (a regular grid on exact coordinates). Otherwise
  /// the shared matrix is that of the class's first element, which a removal can change.
  bool SharedStiffnessesExact() const;

  /// The von Mises stress [Pa] of each element at `x`, from the strain at its centre in its
  /// frame (u_a = R·x_a − P_a, ∇N_a(0) = J⁻ᵀ·ξ_a/8 with J = Σ P_a ⊗ ξ_a/8 the rest element's
  /// Jacobian at the centre; σ by Hooke's law with the element's E and ν). SOFA's
  /// HexahedronFEMForceField has no such output: Fluxion's, so that --vtk colours hexahedra as
  /// it does TetrahedronFEMForceField's tetrahedra. `out` holds one value per element.
  void VonMises(const Vector& x, double* out) const;
  /// Publishes VonMises as the output `vonMisesPerElement` of the hexahedra of `topology` (the
  /// elements' source, in their order).
  void PublishVonMises(std::shared_ptr<const Topology> topology);
  /// Publishes no output any more (every element removed in place: the rebuild has no field).
  void WithdrawVonMises() { WithdrawOutput(); }

 private:
  std::size_t num_output_values() const override { return elements_.size(); }
  void ComputeOutput(const Vector& x, double* out) const override { VonMises(x, out); }
  /// R of element `e` at `x`, and the current vertices in the frame, `local`_a = R·x_a.
  Eigen::Matrix3d FrameRotation(const Element& e, const Vector& x,
                                std::array<Eigen::Vector3d, 8>& local) const;
  /// The Kₑ the force uses at local positions `local` (the shared one, or rebuilt into
  /// `scratch` with updateStiffnessMatrix).
  const Stiffness& CurrentStiffness(const Element& e, const std::array<Eigen::Vector3d, 8>& local,
                                    Stiffness& scratch) const;
  std::size_t TangentStride() const;

  HexahedronFemMethod method_;
  bool update_stiffness_matrix_;
  std::vector<Element> elements_;
  std::vector<Stiffness> stiffnesses_;
  ElementPartition partition_;  // the elements split by vertex ranges for the threads
};

/// SOFA's mean edges of a hexahedron's three directions (h, v, d of the file comment), each
/// summed left to right as SOFA writes them.
std::array<Eigen::Vector3d, 3> HexahedronMeanEdges(const std::array<Eigen::Vector3d, 8>& x);

}  // namespace fluxion::internal
