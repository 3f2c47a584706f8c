// SOFA's GenerateGrid.
// Source: Sofa/Component/Engine/Generate/src/sofa/component/engine/generate/GenerateGrid.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// A box [min, max] cut into resolution = L W H cells (L along x, W along y, H along z), as SOFA
/// numbers it: point i + (L + 1)·(j + (W + 1)·k) at min + (i·Δx, j·Δy, k·Δz), Δ = (max − min) /
/// resolution, k outermost. H ≥ 1: hexahedra (cells by i, then j, then k innermost; vertices
/// 0–3 the k face counter-clockwise from (i, j), 4–7 the k + 1 face) and 6 tetrahedra per
/// hexahedron in SOFA's split. H = 0: a flat grid of quads (cells by i, then j innermost) and 2
/// triangles per quad, (q0 q1 q3) and (q3 q1 q2). Published as output_position (alias
/// position), hexahedra, tetrahedra, quads and triangles for links; the lists the other case
/// makes are empty.
/// Differences from SOFA: a resolution of 0 along x or y is an error (SOFA logs one and uses 1);
/// the output is computed once when the scene is built (its inputs do not change).
class GenerateGridComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
