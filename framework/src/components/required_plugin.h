// SOFA's RequiredPlugin.
// Source: Sofa/framework/Simulation/Core/src/sofa/simulation/RequiredPlugin.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Requires plugins by name. A Fluxion plugin name is resolved on the plugin search path only (a
/// path is refused: a scene never loads code from elsewhere). SOFA's module names (Sofa.*) are
/// accepted: the components they would provide are checked one by one when the scene uses them.
class RequiredPluginComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
