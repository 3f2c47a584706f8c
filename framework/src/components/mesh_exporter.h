// SOFA's MeshExporter: writes its node's mesh while the scene runs, in one of several formats.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/MeshExporter.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Writes the node's points (`position`, else the node's MechanicalObject's current positions)
/// and the node topology's cells chosen by edges/triangles/quads/tetras/hexas (all by default),
/// on SOFA's schedule (components/scene_exporter.h). `format` "vtk" writes SOFA's legacy ASCII
/// layout ("SOFA Exported Mesh file"). File name as SOFA: `filename` with %n (steps counted),
/// %p (points), %E (cells written), %e (elements of the highest dimension), %% replaced, then,
/// when exportEveryNumberOfSteps > 0, the export number on 5 digits (steps counted / N:
/// "outFile00001"), then ".vtk".
/// Deliberate differences: only "vtk" is written; "ALL", "vtkxml", "netgen", "tetgen", "gmsh"
/// and "obj" are refused at load time; numbers in shortest round-trip form (SOFA: 9 digits).
class MeshExporterComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
