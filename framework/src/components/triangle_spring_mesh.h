// The mesh Delingette's triangular spring fields are built on — SOFA's
// TriangularQuadraticSpringsForceField and TriangularBiquadraticSpringsForceField both take the
// edges of a triangle topology (derived from its triangles when it lists none, as SOFA's
// containers do) and, for each triangle, the edge opposite each of its vertices — read and
// checked once here for both.
// Source: Sofa/Component/SolidMechanics/Spring/src/sofa/component/solidmechanics/spring/
//         TriangularQuadraticSpringsForceField.inl (init: the edge and triangle info).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "fluxion/component.h"

namespace fluxion::internal {

struct TriangleSpringMesh {
  const ObjectModel* object = nullptr;  ///< a Vec3 object
  /// Per edge: its two points and its squared rest length (from the rest positions).
  std::vector<std::array<Index, 2>> edges;
  std::vector<double> rest_square_length;
  /// Per triangle: its points, and the edge opposite point j (the edge of points j + 1, j + 2).
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<std::size_t, 3>> opposite_edge;
};

/// The mesh of the component being built (its `topology` link, else the node's), or nullopt
/// after reporting why not: `poissonRatio` ±1, no Vec3 object with triangles, indices beyond the
/// object's points, a triangle whose side the topology's edges lack.
std::optional<TriangleSpringMesh> BuildTriangleSpringMesh(BuildContext& context);

}  // namespace fluxion::internal
