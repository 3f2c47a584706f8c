"""SofaPython3's matrix access over Fluxion: ``assembleKMatrix()`` on a force field,
``assembleMMatrix()`` on a mass (SofaPython3's Binding_ForceField.cpp and Binding_Mass.cpp), and
``A()``/``b()``/``x()`` on a MatrixLinearSystem (its SofaLinearSystem module,
Binding_LinearSystem.cpp), as SciPy sparse matrices and NumPy arrays.

What SofaPython3 gives, Fluxion gives: the component's matrix over its MechanicalObject's DOFs at
the current state, unprojected (fixed DOFs included); ``assembleKMatrix`` with SOFA's sign, ∂f/∂x
(SOFA's addKToMatrix with kFactor 1), which is −K for Fluxion's K = −∂f/∂x; ``A()`` the matrix the
node's linear solver last factorised, projected as SOFA projects it, with ``b()`` and ``x()`` the
right-hand side and solution of its last solve. Fluxion keeps that system only in a node that holds
a MatrixLinearSystem, as SOFA stores it only there.
"""
# The linear system's methods, by SofaPython3's names: (index in the recorded tuple, what it is).
_LINEAR_SYSTEM = {"A": 0, "get_system_matrix": 0, "b": 1, "get_rhs_vector": 1,
                  "x": 2, "get_solution_vector": 2}
LINEAR_SYSTEM_TYPES = ("MatrixLinearSystem", "TypedMatrixLinearSystem")


def _live(component, method):
    live = component._live()
    if live is None:
        raise _usage_error(f"{component.getPathName()}.{method}(): the scene is not "
                                "initialised (call Sofa.Simulation.init(root) first)")
    return live


def _usage_error(message):
    try:
        from .errors import UsageError
    except ImportError:  # scene_graph run as a script (scene-runner): nothing is live there
        return RuntimeError(message)
    return UsageError(message)


def _path(component):
    return component.getContext().getRoot()._name() + component.getPathName()


def _csr(matrix):
    from scipy import sparse  # SofaPython3's matrices are SciPy's too
    return sparse.csr_matrix(matrix)


class MatrixAccess:
    """The methods SofaPython3 gives force fields and masses (mixed into Sofa.Core objects)."""

    def assembleKMatrix(self):
        """∂f/∂x of this force field at the current state (SOFA's sign: −K), a SciPy CSR matrix
        over its MechanicalObject's DOFs, fixed DOFs not projected."""
        live = _live(self, "assembleKMatrix")
        return -_csr(live.simulation.component_matrix(_path(self), "stiffness"))

    def assembleMMatrix(self):
        """The mass matrix of this mass, a SciPy CSR matrix over its MechanicalObject's DOFs."""
        live = _live(self, "assembleMMatrix")
        return _csr(live.simulation.component_matrix(_path(self), "mass"))


def linear_system_method(component, name):
    """The bound method `name` (A, b, x, get_system_matrix, …) of a MatrixLinearSystem, or None
    for another name."""
    if name not in _LINEAR_SYSTEM:
        return None

    def method():
        live = _live(component, name)
        node = component.getContext()
        node_path = node.getRoot()._name() + node._path()
        record = live.simulation.last_linear_system(node_path)
        part = record[_LINEAR_SYSTEM[name]]
        return _csr(part) if _LINEAR_SYSTEM[name] == 0 else part

    method.__name__ = name
    return method
