// SOFA's FEMMass: the consistent mass matrix of a mesh of tetrahedra or hexahedra from the
// nodal density of a NodalMassDensity, with gravity acting through it (f = M·g).
// Source: Sofa/Component/Mass/src/sofa/component/mass/FEMMass.{h,inl} (init,
//         validateNodalMassDensity, calculateElementMassMatrix, initializeGlobalMassMatrix,
//         addForce, buildMassMatrix, addMDx). The element matrices and their quadrature are in
//         mechanics/element_mass.h (SOFA's one-point rule on tetrahedra included).
//
// The element matrices M_ab·I are summed into the system's mass: M_aa on each point's diagonal
// (BuildContext::SetPointMass) and M_ab on each pair's off-diagonal blocks
// (BuildContext::AddMassCoupling); the system's mass is then not diagonal, as SOFA's isDiagonal()
// = false. The weight is SOFA's addForce, M·g with a uniform g: each point gets its row sum of M
// times g.
//
// The density comes from the NodalMassDensity the `nodalMassDensity` link names ("@name": a
// NodalMassDensity of that name in the node or above), else from the first one of the node or its
// nearest ancestor (SOFA's context lookup). Where SOFA differs: it goes on with an invalid
// component (no mass at all) when there is none; here that is a load error. SOFA's accFromF (an
// explicit solver with this mass) only logs an error; Fluxion's explicit solvers invert the
// mass with the scene's linear solver, as for MeshMatrixMass.
#pragma once

#include "fluxion/component.h"

namespace fluxion::internal {

class FEMMassComponent {
 public:
  static ComponentSpec Spec();
  static void Build(BuildContext& context);
};

}  // namespace fluxion::internal
