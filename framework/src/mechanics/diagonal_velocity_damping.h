// SOFA's DiagonalVelocityDampingForceField: f −= c_d·v_d per DOF, with B = −∂f/∂v = diag(c).
// Source: Sofa/Component/MechanicalLoad/src/sofa/component/mechanicalload/
//         DiagonalVelocityDampingForceField.inl (addForce, addDForce, addBToMatrix).
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

class DiagonalVelocityDamping final : public ForceField {
 public:
  /// `dofs[k]` is damped by `coefficients[k]`.
  DiagonalVelocityDamping(std::vector<Index> dofs, std::vector<double> coefficients);
  void AddForce(const State& state, Vector& f) const override;
  void DampingEntries(std::vector<MatrixEntry>& entries) const override;
  void AddDamping(const State& state, const Index* slots, double* values) const override;

 private:
  std::vector<Index> dofs_;
  std::vector<double> coefficients_;
};

}  // namespace fluxion::internal
