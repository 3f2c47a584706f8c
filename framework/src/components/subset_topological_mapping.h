// SOFA's SubsetTopologicalMapping.
// Source: Sofa/Component/Topology/Mapping/src/sofa/component/topology/mapping/
//         SubsetTopologicalMapping.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Declares that the `output` topology is a part of the `input` one, as SOFA's mapping does at
/// init: it changes neither topology (the output is filled by the scene, e.g. with a BoxROI's
/// trianglesInROI) and publishes the correspondences SOFA computes, for links: without
/// `samePoints`, pointD2S (each output point's input point, found by equal position, else by
/// index when the point counts are equal) and pointS2D; with handleEdges, handleTriangles,
/// handleQuads, handleTetrahedra, handleHexahedra, edgeD2S / edgeS2D … hexahedronD2S /
/// hexahedronS2D (each output element's input element with the same points in any order).
/// Entries without a counterpart are SOFA's InvalidID, 4294967295.
///
/// Deviations: an output point or element missing from the input is an error (SOFA logs one
/// and goes on with InvalidID); a topological change in the input is not followed (refused by
/// the scene check, as any mapping that does not follow them; SOFA removes the mapped
/// elements from the output).
class SubsetTopologicalMappingComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
