// SOFA's StringMeshCreator.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/StringMeshCreator.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A string of `resolution` points from (0, 0, 0) to (1, 0, 0), point i at x = i/(n − 1), with
/// the edges (i − 1, i); then MeshLoader's transformation (components/mesh_loader.h). Published
/// as data for src="@creator" links, as a loader's.
class StringMeshCreatorComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
