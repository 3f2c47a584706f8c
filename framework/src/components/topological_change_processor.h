// SOFA's TopologicalChangeProcessor: removes elements of its node's topology while the scene runs,
// at times read from a file or from its data lists.
// Source: Sofa/Component/Topology/Utility/src/sofa/component/topology/utility/
//         TopologicalChangeProcessor.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Its fields only: the builder reads it (build/topological_changes.h) and the runtime applies
/// its changes at the start of the steps they are due (build/topology_rebuild.h). Its build
/// does nothing: it is built, with the observers, only so that its links are resolved.
class TopologicalChangeProcessorComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
