// SOFA reads some legacy attributes (dx, dy, dz, xmin, …) with strtof: components replicate the
// float rounding so that values such as 0.1 land on the same double as in SOFA.
#pragma once

namespace fluxion::internal {

inline double AsSofaFloat(double value) { return static_cast<double>(static_cast<float>(value)); }

}  // namespace fluxion::internal
