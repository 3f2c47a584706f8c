// SOFA's STLExporter: writes a triangle surface as STL files while the scene runs.
// Source: Sofa/Component/IO/Mesh/src/sofa/component/io/mesh/STLExporter.{h,cpp}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Writes the triangles `triangle` (else the node topology's), or when there are none the
/// quads `quad` (else the topology's) cut into (a, b, c) and (a, c, d) as SOFA cuts them, over
/// the points `position` (else the node's MechanicalObject's current positions, else the
/// topology's), on SOFA's schedule (components/scene_exporter.h), to "<filename>.stl", with
/// the export number on 5 digits before ".stl" when exportEveryNumberOfSteps > 0. Facet normals
/// are 0 0 0, as SOFA writes them.
///   binaryformat = 1 (default): binary STL, an 80-byte header ("Exported from Sofa", zero
///     padded), the facet count (uint32), per facet 12 float32 (normal, 3 vertices) and a zero
///     uint16, little-endian;
///   binaryformat = 0: ASCII, "solid Exported from Sofa" … "endsolid Exported from Sofa".
/// Deliberate differences: SOFA writes ASCII when binaryformat = 1 and binary when it is 0, and
/// its binary files lack the 80-byte header (no STL reader accepts them); Fluxion writes what
/// the field says, in the standard layout. ASCII numbers in shortest round-trip form (SOFA:
/// fixed, 6 decimals); points of the MechanicalObject follow it as it moves.
class StlExporterComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
