// The linear elastic material of a finite-element force field (tetrahedra, hexahedra):
// SOFA's `youngModulus` and `poissonRatio`, one value or one per element. Shared by the element
// components so that each reads and checks them the same way.
#pragma once

#include <string>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// SOFA's `youngModulus` field (default 5000), one value or one per `element` ("tetrahedron").
inline FieldSpec YoungModulusField(const std::string& element) {
  return FieldSpec::RealList("youngModulus", "Young's modulus E [Pa]: one value, or one per " +
                                                 element +
                                                 " (the first is used where the list is "
                                                 "shorter)")
      .AtLeast(0)
      .DefaultText("5000");
}

/// SOFA's `poissonRatio` field (default 0.45), one value or one per `element`.
inline FieldSpec PoissonRatioField(const std::string& element) {
  return FieldSpec::RealList("poissonRatio",
                             "Poisson's ratio ν in [0, 0.5): one value, or one per " + element)
      .AtLeast(0)
      .DefaultText("0.45");
}

/// SOFA's getVecRealInElement: value i where the list has one, else the first.
inline double InElement(const std::vector<double>& values, std::size_t i) {
  return i < values.size() ? values[i] : values.front();
}

/// False after one error when `youngModulus` or `poissonRatio` is empty or a Poisson ratio is
/// not below 0.5 — values SOFA replaces with a warning, errors here. `element` names one element
/// in the message ("tetrahedron", "hexahedron").
inline bool CheckElasticMaterial(BuildContext& context, const std::string& element) {
  const Parameters& p = context.parameters();
  const std::vector<double>& young = p.reals("youngModulus");
  const std::vector<double>& poisson = p.reals("poissonRatio");
  if (young.empty() || poisson.empty()) {
    context.Error(context.type() + " '" + (young.empty() ? "youngModulus" : "poissonRatio") +
                  "' is empty (expected one value, or one per " + element + ")");
    return false;
  }
  for (const double nu : poisson)
    if (nu >= 0.5) {
      context.Error(context.type() + " 'poissonRatio' has " + std::to_string(nu) +
                    " (expected a value in [0, 0.5), as SOFA's Hooke law needs)");
      return false;
    }
  return true;
}

}  // namespace fluxion::internal
