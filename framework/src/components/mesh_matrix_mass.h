// SOFA's MeshMatrixMass: the mass matrix of a mesh's linear elements, consistent or lumped.
// Source: Sofa/Component/Mass/src/sofa/component/mass/MeshMatrixMass.{h,inl}
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

/// Each element of the topology's highest kind (hexahedra, else tetrahedra, quads, triangles)
/// with measure μ adds ρμ/k_v to the diagonal of each of its vertices and ρμ/k_e to the
/// off-diagonal pair of each of its edges (mechanics/lumped_mass.h: MassMatrixParts), from
/// `massDensity`, `totalMass` (default 1) or `vertexMass` + `edgeMass`, in SOFA's precedence
/// (MeshMatrixMass::massInitialization: totalMass, then massDensity, then vertexMass).
///
///  - `lumping="0"` (SOFA's default): M holds the diagonal and the edge entries (per axis), so the
///    system's mass is not diagonal and explicit solvers invert it with the scene's linear solver,
///    as SOFA's do. Gravity acts through the lumped mass (SOFA's addForce).
///  - `lumping="1"`: each point's mass is its vertex mass × the lumping coefficient (2 for
///    surfaces, 2.5 for volumes), the row sum of the consistent matrix.
///
/// SOFA's quirks kept: a `vertexMass` given with `lumping="1"` is also multiplied by the lumping
/// coefficient (SOFA stores vertex masses, not lumped ones); `vertexMass` without `edgeMass` and
/// without lumping, or `edgeMass` of the wrong size, falls back to `totalMass` with a warning.
/// Beware, as in SOFA: a hexahedron's consistent matrix has only its 12 edges off the diagonal,
/// ρV/40·(2I + A) for a lone cube with A the cube graph's adjacency, which is indefinite (A has
/// the eigenvalue −3); the Cholesky-type SparseLDLSolver then refuses the mass (SOFA's LDLᵀ
/// carries on with a negative pivot). Prefer lumping="1" on hexahedra.
/// Deviation: an edge-only topology is refused (SOFA computes zero masses for it); a per-element
/// `massDensity` list is not supported.
class MeshMatrixMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
