// The nonlinear mappings of SOFA's distance family, from the points of a parent object to one
// scalar per edge (a Vec1 child).
//
// DistanceMapping (Sofa/Component/Mapping/NonLinear/src/sofa/component/mapping/nonlinear/
// DistanceMapping.inl: init, apply, doUpdateK, matrixFreeApplyDJT):
//   g = x_b − x_a, d = ‖g‖, out = d − L (L the rest length), u = g/d (for d ≤ ε, SOFA's arbitrary
//   u = (1, …, 1)/√n and 1/d taken as 0); J: −uᵀ on a, +uᵀ on b;
//   geometric stiffness (SOFA's K = ∂f/∂x): b = f_c/d·(I − uuᵀ) on blocks (a,a), (b,b) and −b on
//   (a,b), (b,a).
// SquareDistanceMapping (SquareDistanceMapping.inl): out = ‖g‖² (no rest length), J: −2gᵀ on a,
//   +2gᵀ on b; geometric stiffness 2·f_c·I on (a,a), (b,b) and −2·f_c·I across.
// DistanceFromTargetMapping (DistanceFromTargetMapping.inl): for point p_i and target t_i,
//   g = x_p − t, out = ‖g‖ − L (L = 0 unless given), u = g/‖g‖ (for ‖g‖ ≤ 1e-10, u = (1, 0, 0)
//   and 1/‖g‖ taken as 0); J: uᵀ on p; geometric stiffness f_c/‖g‖·(I − uuᵀ) on (p, p).
// Geometric stiffness modes (NonLinearMappingData): None, Exact, Stabilized (only edges whose
// child force f_c < 0, in extension, so that the term stays positive semi-definite). Fluxion's
// stiffness is K = −∂f/∂x: the blocks above enter with the opposite sign.
#pragma once

#include <array>
#include <vector>

#include "fluxion/mapping.h"

namespace fluxion::internal {

enum class GeometricStiffness { kNone, kExact, kStabilized };

class DistanceMappingFunction final : public Mapping {
 public:
  /// `dimension`: the parent's template; `rest_lengths` one per edge.
  DistanceMappingFunction(int dimension, std::vector<std::array<Index, 2>> edges,
                          std::vector<double> rest_lengths, GeometricStiffness mode);
  Index num_outputs() const override { return static_cast<Index>(edges_.size()); }
  void JacobianEntries(std::vector<MatrixEntry>& entries) const override;
  void Apply(const double* parent, double* child, double* jacobian) const override;
  void GeometricStiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddGeometricStiffness(const double* parent, const double* child_force, const Index* slots,
                             double* values) const override;

 private:
  int n_;
  std::vector<std::array<Index, 2>> edges_;
  std::vector<double> rest_;
  GeometricStiffness mode_;
};

class SquareDistanceMappingFunction final : public Mapping {
 public:
  SquareDistanceMappingFunction(int dimension, std::vector<std::array<Index, 2>> edges,
                                GeometricStiffness mode);
  Index num_outputs() const override { return static_cast<Index>(edges_.size()); }
  void JacobianEntries(std::vector<MatrixEntry>& entries) const override;
  void Apply(const double* parent, double* child, double* jacobian) const override;
  void GeometricStiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddGeometricStiffness(const double* parent, const double* child_force, const Index* slots,
                             double* values) const override;

 private:
  int n_;
  std::vector<std::array<Index, 2>> edges_;
  GeometricStiffness mode_;
};

class DistanceFromTargetMappingFunction final : public Mapping {
 public:
  /// `targets`: one point per index (dimension coordinates each); `rest_lengths` one per index.
  DistanceFromTargetMappingFunction(int dimension, std::vector<Index> indices,
                                    std::vector<double> targets, std::vector<double> rest_lengths,
                                    GeometricStiffness mode);
  Index num_outputs() const override { return static_cast<Index>(indices_.size()); }
  void JacobianEntries(std::vector<MatrixEntry>& entries) const override;
  void Apply(const double* parent, double* child, double* jacobian) const override;
  void GeometricStiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddGeometricStiffness(const double* parent, const double* child_force, const Index* slots,
                             double* values) const override;

 private:
  // g/‖g‖ (or SOFA's arbitrary axis) and 1/‖g‖ (or 0) for index i; returns ‖g‖.
  double Direction(const double* parent, std::size_t i, std::array<double, 3>& u,
                   double& inverse) const;

  int n_;
  std::vector<Index> indices_;
  std::vector<double> targets_;
  std::vector<double> rest_;
  GeometricStiffness mode_;
};

}  // namespace fluxion::internal
