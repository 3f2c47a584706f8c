// SOFA's linear triangular membranes (constant-strain triangles, in-plane stiffness only):
// TriangleFEMForceField, TriangularFEMForceField and TriangularFEMForceFieldOptim.
// Source: Sofa/Component/SolidMechanics/FEM/Elastic/src/sofa/component/solidmechanics/fem/elastic/
//         TriangleFEMForceField.{h,inl} (computeMaterialStiffnesses, initSmall, initLarge,
//         accumulateForce{Small,Large}, applyStiffness{Small,Large},
//         computeElementStiffnessMatrix), TriangularFEMForceField.{h,inl} (initSmall, initLarge,
//         computeMaterialStiffness, accumulateForce{Small,Large}, applyStiffness{Small,Large},
//         buildStiffnessMatrix), TriangularFEMForceFieldOptim.{h,inl} (initTriangleInfo,
//         computeTriangleRotation, addForce, addDForce, buildStiffnessMatrix, computeMuGamma) and
//         TriangleFEMUtils.inl (computeRotationLarge, computeDisplacement{Small,Large},
//         computeStrainDisplacement {Global,Local}, computeStrain, computeStress,
//         computeForceLarge).
//
// Per triangle (a, b, c), everything is written in a 2-D frame with vertex a at the origin:
//   large: SOFA's computeRotationLarge of the triangle's positions: rows e_x = (b − a)/|·|,
//          e_z = e_x × (c − a)/|·|, e_y = e_z × e_x (Optim's computeTriangleRotation is the same
//          pair e_x, e_y); the frame's 2-D points are b' = (e_x·(b − a), 0), c' = (e_x·(c − a),
//          e_y·(c − a)) — the y of b' is 0 by construction and taken as exactly 0, as SOFA does;
//   small: no rotation: the world's x and y (z is ignored: the element lives in the world xy
//          plane, forces have no z component — SOFA's small methods, which warn in their header
//          that they were never validated).
// The rest points B, C (same construction on the rest positions; for Optim scaled by
// restScale) give the displacement d_b = B − b', d_c = C − c' (d_a = 0; SOFA's D = rest −
// current, so that F below is the restoring force).
// With the shape-function gradients g_a (2-D) of a triangle p_a, p_b, p_c = 0, b, c:
//   g_b = (c_y, −c_x)/Δ, g_c = (−b_y, b_x)/Δ, g_a = −(g_b + g_c),
// the strain (Voigt, engineering shear) and the force on each vertex in the frame are
//   ε = Σ_v (g_v,x·d_v,x, g_v,y·d_v,y, g_v,y·d_v,x + g_v,x·d_v,y),  σ = D·ε,
//   F_v = (g_v,x·σ_0 + g_v,y·σ_2, g_v,y·σ_1 + g_v,x·σ_2),   f_v += Eᵀ·F_v
// (E the 2×3 matrix of rows e_x, e_y; the identity's first two rows for small), with the
// plane-stress material (SOFA's for all three; TriangleFEMForceField's planeStrain=1: plane
// strain) times the weight w:
//   D = w·E/(1−ν²)·[1 ν 0; ν 1 0; 0 0 (1−ν)/2]          (plane stress)
//   D = w·E/((1+ν)(1−2ν))·[1−ν ν 0; ν 1−ν 0; 0 0 ½−ν]   (plane strain)
// Where the three components differ (which points the gradients come from, and w):
//   TriangleFEMForceField, TriangularFEMForceField: g from the *current* points b', c' (Δ =
//     b'_x·c'_y for large; for small Δ = |(b − a) × (c − a)|, the 3-D norm, of the current
//     positions: SOFA's computeStrainDisplacementGlobal), w = thickness·rest area (TriangleFEM;
//     thickness default 1) or the rest area (TriangularFEM, which has no thickness);
//   TriangularFEMForceFieldOptim: g from the *rest* points B, C (Δ = B_x·C_y), w = the rest
//     area B_x·C_y/2 (its ss_factor), large only (SOFA ignores its method attribute).
// Since the force uses the current g, SOFA's two first fields are not the linear element of
// the rest shape even with small: ε is the gradient of the displacement with respect to the
// *current* positions, which differs from the rest one's by O(|ε|²).
//
// Tangent (SOFA's addDForce, buildStiffnessMatrix): the rotated linear stiffness at the state
// it is taken at, without the derivatives of the frame E or of the gradients g:
//   K_uv = Eᵀ·G_uᵀ·D·G_v·E,  G_v = [g_v,x 0; 0 g_v,y; g_v,y g_v,x].
// It is the exact derivative at rest and at any rigid motion of the rest shape (there d = 0,
// the terms left out multiply d, and an infinitesimal rotation of the frame gives no strain);
// elsewhere it differs from −∂f/∂x by O(|ε|) relative.
//
// Deliberate differences from SOFA, each for a reason:
// - TriangleFEMForceField's small builds its gradients with computeStrainDisplacementLocal,
//   which assumes b − a along x (it reads only b_x, c_x, c_y): wrong for any other triangle.
//   Here it uses TriangularFEMForceField's small gradients (computeStrainDisplacementGlobal);
// - a triangle whose current shape is flat gives non-finite forces (the solver rejects the step)
//   where SOFA logs an error and stops computing the component's forces;
// - PotentialEnergy is Σ ½·εᵀ·D·ε (SOFA: "not implemented", 0).
// - The per-element von Mises stress (output `vonMisesPerElement`, cell data in --vtk) is
//   Fluxion's: SOFA's three components compute stresses for drawing only (TriangularFEM's
//   computePrincipalStress and per-vertex colours, Optim's stressMaxValue, whose von Mises
//   takes 3τ where the measure has 3τ²). See VonMises.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <Eigen/Dense>

#include "fluxion/force_field.h"
#include "mechanics/element_loops.h"
#include "mechanics/element_output.h"

namespace fluxion::internal {

enum class TriangleFemMethod { kSmall, kLarge };
/// Which points the strain–displacement gradients come from (see the file comment).
enum class TriangleFemGradients { kCurrent, kRest };

/// The linear membrane force field of the file comment, on a Vec3 object.
class TriangleFem final : public ForceField, public ElementOutputSource {
 public:
  /// One element's rest data, built once.
  struct Element {
    std::array<Index, 3> dof{};      ///< first system DOF of vertices a, b, c
    Eigen::Vector2d rest_b, rest_c;  ///< B, C: rest points in the rest frame (a at 0) [m]
    std::array<Eigen::Vector2d, 3> rest_gradient;  ///< g_a of the rest triangle [1/m] (Optim)
    Eigen::Matrix3d material;  ///< D = w·C: Hooke's matrix times w = thickness·rest area
    double weight = 1.0;       ///< w, so that the stress is σ = C·ε = D·ε/w
    /// σ_zz = this·(σ_xx + σ_yy): 0 in plane stress, ν in plane strain (ε_zz = 0).
    double out_of_plane = 0.0;
  };

  /// How a component's material turns into D: plane stress or strain, and w's thickness factor.
  struct Material {
    double young = 0.0, poisson = 0.0;  ///< E [Pa], ν
    double thickness = 1.0;             ///< w = thickness·area [m]
    bool plane_strain = false;
  };

  /// The element of triangle `dof` whose rest points in the rest frame are (0, 0), `rest_b`,
  /// `rest_c`, with the rest `area` as weight. False (and `element` untouched) when the rest
  /// triangle is flat (B_x·C_y − B_y·C_x = 0, or not finite).
  static bool MakeElement(const std::array<Index, 3>& dof, const Eigen::Vector2d& rest_b,
                          const Eigen::Vector2d& rest_c, double area, const Material& material,
                          Element& element);

  TriangleFem(TriangleFemMethod method, TriangleFemGradients gradients,
              std::vector<Element> elements);

  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  std::ptrdiff_t TangentSize() const override;
  void LinearizeStiffness(const State& state, double* tangent) const override;
  void AddTangentProduct(const double* tangent, double b, double k, const Vector& x,
                         Vector& y) const override;
  double PotentialEnergy(const State& state) const override;

  /// Element `e`'s 9×9 stiffness K at positions `x` as assembled (for tests).
  Eigen::Matrix<double, 9, 9> ElementStiffness(std::size_t e, const Vector& x) const;

  std::size_t num_elements() const { return elements_.size(); }
  const Element& element(std::size_t e) const { return elements_[e]; }

  // A triangle removal followed in place (build/topology_in_place.h), between steps only, as
  // SOFA's TriangleData follows its topology (TopologyData::remove: each removed slot takes the
  // last triangle's data, kept as it was computed: the rest frame, D and w are not recomputed).
  /// Removes the elements `sorted_descending` (distinct, descending), each slot taking the element
  /// then last. The thread partition is recomputed on its next use (with several threads).
  void RemoveElementsMovingLast(std::span<const Index> sorted_descending);
  /// Element e's vertices become the first DOFs `dof` (a point renumbered by a topological
  /// change: the last point moved into a removed one's slot).
  void SetElementDofs(std::size_t e, const std::array<Index, 3>& dof);
  /// Appends `added` after the elements (an addition of triangles followed in place,
  /// build/addition_in_place.h: SOFA's TriangleData creating the new triangles' rest data). The
  /// thread partition is recomputed on its next use.
  void AppendElements(std::span<const Element> added);

  /// The von Mises stress [Pa] of each element at `x`: the strain ε the force uses (in the
  /// element's frame, from the gradients of the file comment), σ = C·ε and, with the
  /// out-of-plane σ_zz of the material (0 in plane stress),
  ///   σ_vm = √(σ_xx² + σ_yy² + σ_zz² − σ_xxσ_yy − σ_yyσ_zz − σ_zzσ_xx + 3σ_xy²)
  /// (σ_xy = σ₂, the Voigt shear). `out` holds one value per element.
  void VonMises(const Vector& x, double* out) const;
  /// Publishes VonMises as the output `vonMisesPerElement` of the triangles of `topology` (the
  /// elements' source, in their order).
  void PublishVonMises(std::shared_ptr<const Topology> topology);

 private:
  std::size_t num_output_values() const override { return elements_.size(); }
  void ComputeOutput(const Vector& x, double* out) const override { VonMises(x, out); }
  /// What the force and the tangent need of one element at one state.
  struct Frame {
    Eigen::Matrix<double, 2, 3> axes;         ///< E: rows e_x, e_y (world → frame)
    Eigen::Vector2d b, c;                     ///< b', c': current points in the frame
    std::array<Eigen::Vector2d, 3> gradient;  ///< the g used by force and tangent
  };
  void ComputeFrame(const Element& e, const Vector& x, Frame& frame) const;
  /// ε of the frame displacements `d` (a, b, c) with gradients `g`.
  static Eigen::Vector3d Strain(const std::array<Eigen::Vector2d, 3>& g,
                                const std::array<Eigen::Vector2d, 3>& d);
  /// F_v = G_vᵀ·σ for v = a, b, c.
  static void NodalForces(const std::array<Eigen::Vector2d, 3>& g, const Eigen::Vector3d& sigma,
                          std::array<Eigen::Vector2d, 3>& out);

  TriangleFemMethod method_;
  TriangleFemGradients gradients_;
  std::vector<Element> elements_;
  mutable ElementPartition partition_;  // rebuilt when the thread count changes (never per step)
};

}  // namespace fluxion::internal
