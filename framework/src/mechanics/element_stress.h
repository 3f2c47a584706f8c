// Linear elastic stress of an element's strain and its von Mises measure, shared by the solid
// elements' per-element outputs.
#pragma once

#include <algorithm>
#include <cmath>

#include <Eigen/Core>

namespace fluxion::internal {

/// Hooke's law σ = λ·tr ε·I + 2μ·ε for ε = sym(H) (H a displacement gradient).
inline Eigen::Matrix3d HookeStress(const Eigen::Matrix3d& H, double lambda, double mu) {
  Eigen::Matrix3d sigma = mu * (H + H.transpose());
  sigma.diagonal().array() += lambda * H.trace();
  return sigma;
}

/// The von Mises stress √(σxx² + σyy² + σzz² − σxxσyy − σyyσzz − σzzσxx + 3(τxy² + τyz² + τzx²))
/// of a symmetric σ, 0 below 1e-10 as SOFA's TetrahedronFEMForceField::computeVonMisesStress.
inline double VonMisesStress(const Eigen::Matrix3d& s) {
  const double value = s(0, 0) * s(0, 0) + s(1, 1) * s(1, 1) + s(2, 2) * s(2, 2) -
                       s(0, 0) * s(1, 1) - s(1, 1) * s(2, 2) - s(2, 2) * s(0, 0) +
                       3.0 * (s(1, 2) * s(1, 2) + s(0, 2) * s(0, 2) + s(0, 1) * s(0, 1));
  const double vm = std::sqrt(std::max(value, 0.0));
  return vm < 1e-10 ? 0.0 : vm;
}

}  // namespace fluxion::internal
