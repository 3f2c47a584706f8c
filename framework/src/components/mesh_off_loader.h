// SOFA's MeshOffLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshOffLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads an OFF surface (meshio/off_reader.cpp says what is kept and where Fluxion differs) and
/// publishes it as its data for src="@loader" links, after SOFA's transformation
/// (components/mesh_loader.h).
class MeshOffLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
