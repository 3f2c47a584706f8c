// SOFA's MeshOBJLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshOBJLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads a Wavefront OBJ mesh (meshio/obj_reader.cpp says what is kept and where Fluxion differs)
/// and publishes it as its data for src="@loader" links, after SOFA's transformation
/// (components/mesh_loader.h).
class MeshOBJLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
