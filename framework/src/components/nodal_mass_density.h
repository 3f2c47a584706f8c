// SOFA's NodalMassDensity: a mass density per node, which FEMMass reads from its context.
// Source: Sofa/Component/Mass/src/sofa/component/mass/NodalMassDensity.h and
//         Sofa/framework/Core/src/sofa/core/BaseNodalProperty.h (`property`, getNodeProperty).
//
// `property` holds one density per node [kg/m³]; a node past the end of the list takes its last
// value (SOFA's getNodeProperty), and an empty list means 1 (SOFA's default). The component does
// nothing by itself: it publishes `property` (BuildContext::SetOutput), which FEMMass finds in
// its node or an ancestor (BuildContext::ContextOutput), as SOFA's FEMMass finds the first
// NodalMassDensity of its context. Deviation: a negative density is a load error (SOFA takes it).
#pragma once

#include <cstddef>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

/// The density of node `i` from a NodalMassDensity's `property` list (SOFA's getNodeProperty).
inline double NodalProperty(const std::vector<double>& property, std::size_t i) {
  if (i < property.size()) return property[i];
  return property.empty() ? 1.0 : property.back();
}

class NodalMassDensityComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
