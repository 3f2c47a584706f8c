// SOFA's MeshGmshLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshGmshLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads a Gmsh MSH (formats 1, 2 and 4, ASCII) mesh (meshio/gmsh_reader.cpp says what is kept and
/// where Fluxion differs) and publishes it as its data for src="@loader" links, after SOFA's
/// transformation (components/mesh_loader.h).
class MeshGmshLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
