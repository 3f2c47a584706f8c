"""SofaPython3's matrix access (fluxion/sofa_matrices.py over Simulation::ComponentMatrix and
LastLinearSystem): assembleKMatrix, assembleMMatrix and a MatrixLinearSystem's A(), b(), x(),
checked against closed forms — a spring's stiffness k·nnᵀ + k(1 − L0/l)(I − nnᵀ), a rest-shape
spring's k·I, a uniform mass, and backward Euler's system (M + h²K) dv = h·f of SOFA's
EulerImplicitSolver (rayleigh factors 0, v₀ = 0), projected as SOFA projects fixed DOFs."""
import numpy as np
import pytest
from scipy import sparse

import fluxion
import Sofa
import Sofa.Core
import Sofa.Simulation
from Sofa import SofaLinearSystem  # noqa: F401  (SofaPython3's scripts import it)

H, MASS, K_SPRING, K_ANCHOR, GRAVITY = 0.01, 2.0, 100.0, 7.0, -10.0
# Three points on the x axis; springs 0–1 and 1–2 of rest length 1 stretched to 1.5; point 0
# fixed, point 2 held by a rest-shape spring at its start.
POSITIONS = np.array([[0.0, 0, 0], [1.5, 0, 0], [3.0, 0, 0]])


def chain(root, linear_solver="SparseLDLSolver", record=True, **solver_fields):
    root.dt = H
    root.gravity = [0, GRAVITY, 0]
    root.addObject("DefaultAnimationLoop")
    node = root.addChild("s")
    node.addObject("EulerImplicitSolver", rayleighStiffness=0, rayleighMass=0)
    node.addObject(linear_solver, **solver_fields)
    system = node.addObject("MatrixLinearSystem", name="system") if record else None
    node.addObject("MechanicalObject", name="dofs", position=POSITIONS.tolist())
    node.addObject("UniformMass", name="mass", vertexMass=MASS)
    node.addObject("FixedProjectiveConstraint", indices=[0])
    node.addObject("SpringForceField", name="springs",
                   spring=[[0, 1, K_SPRING, 0, 1.0], [1, 2, K_SPRING, 0, 1.0]])
    node.addObject("RestShapeSpringsForceField", name="anchor", points=[2], stiffness=K_ANCHOR)
    return system


def spring_stiffness(x):
    """Fluxion's K = −∂f/∂x of the two springs at positions x (3×3 array), by the closed form."""
    K = np.zeros((9, 9))
    for a, b in ((0, 1), (1, 2)):
        d = x[b] - x[a]
        length = np.linalg.norm(d)
        n = d / length
        block = K_SPRING * np.outer(n, n) + K_SPRING * (1 - 1.0 / length) * (np.eye(3) -
                                                                              np.outer(n, n))
        for i, j, sign in ((a, a, 1), (b, b, 1), (a, b, -1), (b, a, -1)):
            K[3 * i:3 * i + 3, 3 * j:3 * j + 3] += sign * block
    return K


def anchor_stiffness():
    K = np.zeros((9, 9))
    K[6:9, 6:9] = K_ANCHOR * np.eye(3)
    return K


def initialised(**kwargs):
    root = Sofa.Core.Node("root")
    system = chain(root, **kwargs)
    Sofa.Simulation.init(root)
    return root, system


def test_component_matrices_are_sofas_at_the_current_state():
    root, _ = initialised()
    springs = root.s.springs.assembleKMatrix()
    assert isinstance(springs, sparse.csr_matrix) and springs.shape == (9, 9)
    # SOFA's sign: ∂f/∂x = −K; unprojected: the fixed point 0's rows are there.
    np.testing.assert_allclose(springs.toarray(), -spring_stiffness(POSITIONS), rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(root.s.anchor.assembleKMatrix().toarray(), -anchor_stiffness(),
                               rtol=0, atol=0)
    np.testing.assert_array_equal(root.s.mass.assembleMMatrix().toarray(), MASS * np.eye(9))
    # After a step, at the new positions.
    Sofa.Simulation.animate(root, H)
    x = np.array(root.s.dofs.position.value)
    assert not np.array_equal(x, POSITIONS)
    np.testing.assert_allclose(root.s.springs.assembleKMatrix().toarray(), -spring_stiffness(x),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("linear_solver, fields", [
    ("SparseLDLSolver", {}),
    # Matrix-free: A is materialised from the operator, column by column.
    ("CGLinearSolver", {"iterations": 200, "tolerance": 1e-30, "threshold": 1e-30}),
])
def test_linear_system_is_backward_eulers(linear_solver, fields):
    root, system = initialised(linear_solver=linear_solver, **fields)
    assert system.A().shape == (0, 0) and system.b().size == 0  # nothing solved yet
    Sofa.Simulation.animate(root, H)
    # A = M + h²K at the start (v₀ = 0, no Rayleigh damping); fixed DOFs: identity rows/columns.
    K = spring_stiffness(POSITIONS) + anchor_stiffness()
    expected = MASS * np.eye(9) + H * H * K
    expected[0:3, :] = 0
    expected[:, 0:3] = 0
    expected[0:3, 0:3] = np.eye(3)
    A = system.A()
    assert isinstance(A, sparse.csr_matrix)
    np.testing.assert_allclose(A.toarray(), expected, rtol=1e-13, atol=1e-13)
    assert (system.get_system_matrix() != A).nnz == 0
    # b = h·f₀: the weight of the free points and the springs' pull (the anchor is at rest).
    f = np.zeros(9)
    f[[4, 7]] = MASS * GRAVITY
    f[3] = 0.0  # spring 0–1 pulls point 1 back by k·0.5, spring 1–2 forward by as much
    f[6] = -K_SPRING * 0.5
    np.testing.assert_allclose(system.b(), H * f, rtol=1e-14, atol=1e-15)
    np.testing.assert_array_equal(system.get_rhs_vector(), system.b())
    # x = dv solves the system, and is the velocity after the step (v₀ = 0).
    dv = np.linalg.solve(expected, H * f)
    np.testing.assert_allclose(system.x(), dv, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(np.array(root.s.dofs.velocity.value).ravel(), system.x(),
                               rtol=0, atol=0)
    np.testing.assert_array_equal(system.get_solution_vector(), system.x())


def test_recording_changes_nothing():
    runs = []
    for record in (True, False):
        root = Sofa.Core.Node("root")
        chain(root, record=record)
        Sofa.Simulation.init(root)
        for _ in range(20):
            Sofa.Simulation.animate(root, H)
        runs.append(np.array(root.s.dofs.position.value))
    np.testing.assert_array_equal(runs[0], runs[1])


def test_refusals_are_one_line():
    root = Sofa.Core.Node("root")
    system = chain(root)
    with pytest.raises(fluxion.UsageError, match="not initialised"):
        root.s.springs.assembleKMatrix()
    with pytest.raises(fluxion.UsageError, match="not initialised"):
        system.A()
    # A mapped object's force field: its matrix lives in the parent's only.
    mapped = root.s.addChild("mapped")
    mapped.addObject("MechanicalObject", name="copy", position=POSITIONS.tolist())
    mapped.addObject("IdentityMapping")
    mapped.addObject("RestShapeSpringsForceField", name="held", points=[1], stiffness=3.0)
    Sofa.Simulation.init(root)
    with pytest.raises(fluxion.UsageError, match="no mass matrix"):
        root.s.springs.assembleMMatrix()
    with pytest.raises(fluxion.UsageError, match="no stiffness matrix"):
        root.s.dofs.assembleKMatrix()
    with pytest.raises(fluxion.UsageError, match="mapped from 'root/s/dofs'"):
        mapped.held.assembleKMatrix()


def test_a_node_without_a_linear_system_records_none():
    root = Sofa.Core.Node("root")
    chain(root, record=False)
    elsewhere = root.addChild("elsewhere")
    lonely = elsewhere.addObject("MatrixLinearSystem")
    Sofa.Simulation.init(root)
    Sofa.Simulation.animate(root, H)
    with pytest.raises(fluxion.UsageError, match="no solver node of that path"):
        lonely.A()
