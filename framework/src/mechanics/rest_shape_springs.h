// SOFA's RestShapeSpringsForceField for Vec types: each chosen point is pulled back to its rest
// position by a zero-length spring,
//   f_i −= k_i·(x_i − x0_i)   on the active axes,   K = k_i on those DOFs' diagonal,
// potential energy ½·k_i·‖x_i − x0_i‖² over the active axes.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         RestShapeSpringsForceField.inl (addForce, addKToMatrix, getPotentialEnergy).
#pragma once

#include <vector>

#include "fluxion/force_field.h"

namespace fluxion::internal {

class RestShapeSprings final : public ForceField {
 public:
  /// `dofs`: the system DOFs pulled (active axes only), `rest`: their rest coordinates,
  /// `stiffness`: the stiffness of each.
  RestShapeSprings(std::vector<Index> dofs, std::vector<double> rest,
                   std::vector<double> stiffness);
  void AddForce(const State& state, Vector& f) const override;
  void StiffnessEntries(std::vector<MatrixEntry>& entries) const override;
  void AddStiffness(const State& state, const Index* slots, double* values) const override;
  double PotentialEnergy(const State& state) const override;

 private:
  std::vector<Index> dofs_;
  std::vector<double> rest_;
  std::vector<double> stiffness_;
};

}  // namespace fluxion::internal
