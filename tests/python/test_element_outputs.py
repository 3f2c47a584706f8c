"""Per-element outputs of components (Simulation::ElementOutputs) from Python: fluxion's
``sim.element_outputs()`` and SofaPython3's ``fem.vonMisesPerElement.value``, against the
closed-form von Mises stress of a unit cube of six tetrahedra stretched by F = diag(1.01, 0.99,
1.02) from rest (TetrahedronFEMForceField, E = 1e6 Pa, nu = 0.3, large, computeVonMisesStress=1:
the corotational strain is F - I, sigma = lambda tr(e) I + 2 mu e)."""
import math

import numpy as np

import fluxion
import Sofa
import Sofa.Core
import Sofa.Simulation

YOUNG, POISSON = 1e6, 0.3
STRETCH = np.array([1.01, 0.99, 1.02])
REST = np.array([[i & 1, (i >> 1) & 1, (i >> 2) & 1] for i in range(8)], dtype=float)
TETRAHEDRA = [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]]


def expected_von_mises():
    mu = YOUNG / (2 * (1 + POISSON))
    e = STRETCH - 1
    return 2 * mu * math.sqrt(0.5 * ((e[0] - e[1]) ** 2 + (e[1] - e[2]) ** 2 + (e[2] - e[0]) ** 2))


def cube(root, von_mises=1):
    root.dt = 0.01
    root.gravity = [0, 0, 0]
    root.addObject("DefaultAnimationLoop")
    root.addObject("EulerImplicitSolver")
    root.addObject("CGLinearSolver", iterations=50, tolerance=1e-12, threshold=1e-20)
    root.addObject("MeshTopology", name="mesh", position=REST.tolist(), tetrahedra=TETRAHEDRA)
    root.addObject("MechanicalObject", name="dofs", position=(REST * STRETCH).tolist(),
                   rest_position=REST.tolist())
    root.addObject("UniformMass", totalMass=1)
    return root.addObject("TetrahedronFEMForceField", name="fem", youngModulus=YOUNG,
                          poissonRatio=POISSON, method="large", computeVonMisesStress=von_mises)


def test_sofa_data_reads_the_current_stress():
    root = Sofa.Core.Node("root")
    fem = cube(root)
    Sofa.Simulation.init(root)
    values = np.asarray(fem.vonMisesPerElement.value)
    assert values.shape == (6,)
    np.testing.assert_allclose(values, expected_von_mises(), rtol=1e-12)
    # Back at rest: no stress (the value follows the state).
    root.dofs.position.value = REST.tolist()
    np.testing.assert_allclose(np.asarray(fem.vonMisesPerElement.value), 0.0, atol=1e-8)


def test_fluxion_lists_each_output():
    root = Sofa.Core.Node("root")
    cube(root)
    simulation = fluxion.load_scene(root)
    outputs = simulation.element_outputs()
    assert [(o["component"], o["name"], o["unit"], o["object"], o["type"]) for o in outputs] == [
        ("root/fem", "vonMisesPerElement", "Pa", "root/dofs", "tetrahedron")]
    np.testing.assert_allclose(outputs[0]["values"], expected_von_mises(), rtol=1e-12)


def test_no_output_without_compute_von_mises_stress():
    root = Sofa.Core.Node("root")
    fem = cube(root, von_mises=0)
    Sofa.Simulation.init(root)
    # SOFA computes nothing then; the data is what the scene gave (none): an AttributeError.
    try:
        fem.vonMisesPerElement.value
    except AttributeError as error:
        assert "vonMisesPerElement" in str(error)
    else:
        raise AssertionError("expected no vonMisesPerElement without computeVonMisesStress")
