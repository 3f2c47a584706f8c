// fluxion.Simulation's matrix access: a component's stiffness or mass matrix and a node's last
// linear system as SciPy sparse matrices (what SofaPython3's assembleKMatrix, assembleMMatrix and
// MatrixLinearSystem.A() give; Sofa.Core wraps them with SOFA's names and sign).
#pragma once

#include <pybind11/pybind11.h>

#include "fluxion/simulation.h"

namespace fluxion::python {

/// Adds component_matrix and last_linear_system to fluxion._fluxion.Simulation.
void AddMatrixAccess(pybind11::class_<Simulation>& simulation);

}  // namespace fluxion::python
