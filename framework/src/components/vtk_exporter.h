// SOFA's VTKExporter: writes its node's mesh (points and chosen cells, with point data) as VTK
// files while the scene runs.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/VTKExporter.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Writes the node's points (`position`, else the node's MechanicalObject's current positions)
/// and the node topology's edges/triangles/quads/tetras/hexas, on SOFA's schedule
/// (components/scene_exporter.h), as SOFA names and lays the files out:
///   - XMLformat = 1 (default): "<filename><n>.vtu" (".vtu" replaced, not doubled, when
///     `filename` ends in it), an UnstructuredGrid VTKFile with PointData, Points and Cells;
///   - XMLformat = 0: legacy ASCII "<base>_<n><ext>", ext ".vtk" or ".vtu" from `filename`
///     (".vtu" when it has neither, as SOFA);
///   n counts the files written (0, 1, …); overwrite = 1 drops it and rewrites one file.
/// `pointsDataFields` lists "[NAME=]OBJECT.DATA" (OBJECT the node's MechanicalObject, DATA
/// position, velocity or force): SOFA's VECTORS / DataArray sections.
/// Deliberate differences: numbers are written in shortest round-trip form (SOFA: 6 significant
/// digits); `cellsDataFields` is refused (Fluxion components have no per-cell data to export).
class VtkExporterComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
