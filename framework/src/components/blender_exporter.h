// SOFA's BlenderExporter: writes its node's MechanicalObject as Blender point caches (.bphys).
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/BlenderExporter.{h,inl,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// On SOFA's schedule (components/scene_exporter.h), writes "<filename>[NNNNN]_00.bphys" (the
/// export number on 5 digits when exportEveryNumberOfSteps > 0), little-endian: "BPHYSICS",
/// uint32 simulationType, uint32 number of points, uint32 data type 6, then for every point
/// from the last to the first its position and velocity as 3 + 3 float32 (SOFA's order).
/// simulationType 0 (soft body), 1 (particles) and 2 (cloth) are written alike, as in SOFA;
/// 3 (hair, with its extra root points and header file) is refused. `path`, `baseName` and
/// `step` are accepted and unused, as in SOFA.
class BlenderExporterComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
