// SOFA's MergeMeshes.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/MergeMeshes.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Concatenates `nbMeshes` meshes (position1, edges1, triangles1, quads1, tetrahedra1,
/// hexahedra1, position2, …) into one: the points one mesh after the other, and each mesh's
/// elements renumbered by the number of points of the meshes before it. Outputs as SOFA names
/// them: position, edges, triangles, quads, tetrahedra, hexahedra, npoints (src="@merge" gives
/// the merged mesh). Deviations: at most 8 meshes (SOFA: any number); an element using a point
/// beyond its own mesh is an error (SOFA renumbers it into the next mesh); polygons not read.
class MergeMeshesComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
