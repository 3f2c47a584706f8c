// SOFA's MeshSTLLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshSTLLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads an STL surface, ASCII or binary (meshio/stl_reader.cpp says how points are merged and
/// where Fluxion differs), and publishes it as its data for src="@loader" links, after SOFA's
/// transformation (components/mesh_loader.h).
class MeshSTLLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
