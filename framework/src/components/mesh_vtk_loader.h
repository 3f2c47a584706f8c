// SOFA's MeshVTKLoader.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshVTKLoader.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Reads a legacy ASCII VTK mesh or a VTK XML one (meshio/vtk_reader.cpp and vtk_xml_reader.cpp
/// say what is kept and where Fluxion differs) and publishes it as its data for src="@loader"
/// links, after SOFA's transformation (components/mesh_loader.h).
class MeshVTKLoaderComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
