// SOFA's MeshTrianLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshTrianLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads a SOFA .trian or .trian2 triangulation (meshio/trian_reader.cpp says how and where
/// Fluxion differs) and publishes it as its data for src="@loader" links, after SOFA's
/// transformation (components/mesh_loader.h); for .trian also neighborTable (3 per triangle, −1
/// on the border), edgesOnBorder (2 per edge) and trianglesOnBorderList. Deviation: trian2's
/// normals are read and not published (no Fluxion component uses a loader's normals).
class MeshTrianLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
