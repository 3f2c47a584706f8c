"""SofaPython3-style scenes (createScene(root) with addChild/addObject) equal their XML twins bit
for bit, from Python and from scene-runner, and report errors at their Python lines."""
import textwrap

import numpy as np
import pytest

import fluxion
from conftest import python_row, read_csv, run_scene_runner, scene_path

STEPS = 200


def trajectory(sim, steps=STEPS):
    rows = [python_row(sim, energy=True)]
    for _ in range(steps):
        sim.step()
        rows.append(python_row(sim, energy=True))
    return rows


@pytest.mark.parametrize("twin", ["hanging_chain", "cloth_grid"])
def test_gallery_python_scene_equals_its_xml_twin_from_python(twin):
    assert trajectory(fluxion.load(scene_path(twin + ".py"))) == \
        trajectory(fluxion.load(scene_path(twin + ".scn")))


@pytest.mark.parametrize("twin", ["hanging_chain", "cloth_grid"])
def test_gallery_python_scene_equals_its_xml_twin_under_scene_runner(twin):
    options = ["--steps", str(STEPS), "--energy", "--output", "-", "--quiet"]
    _, from_python, _ = run_scene_runner(scene_path(twin + ".py"), *options)
    _, from_xml, _ = run_scene_runner(scene_path(twin + ".scn"), *options)
    assert read_csv(from_python) == read_csv(from_xml)
    # And the module steps the Python scene exactly as scene-runner does.
    assert trajectory(fluxion.load(scene_path(twin + ".py"))) == read_csv(from_xml)[1]


LINKED_XML = """<Node name="root" dt="0.005" gravity="0 0 -9.81">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-12"/>
  <Node name="sheet">
    <RegularGridTopology name="grid" n="5 5 1" min="0 0 0" max="1 1 0"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <DiagonalMass totalMass="0.5"/>
    <BoxROI name="box" box="-0.01 -0.01 -0.01 1.01 0.01 0.01"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
    <MeshSpringForceField linesStiffness="40" linesDamping="0.2"/>
  </Node>
</Node>"""

LINKED_PY = '''
import numpy as np

def createScene(root):
    root.dt = 0.005
    root.gravity = (0, 0, -9.81)
    root.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    root.addObject("CGLinearSolver", iterations=50, tolerance=1e-12, threshold=1e-12)
    sheet = root.addChild("sheet")
    sheet.addObject("RegularGridTopology", name="grid", n=np.array([5, 5, 1]),
                    min=np.zeros(3), max=[1.0, 1.0, 0.0])
    sheet.addObject("MechanicalObject", name="dofs", template="Vec3d")
    sheet.addObject("DiagonalMass", totalMass=0.5)
    box = sheet.addObject("BoxROI", name="box", box=[-0.01, -0.01, -0.01, 1.01, 0.01, 0.01])
    sheet.addObject("FixedProjectiveConstraint", indices="@box.indices")
    sheet.addObject("MeshSpringForceField", linesStiffness=40, linesDamping=0.2)
'''


def test_numpy_values_tuples_and_links_build_the_same_scene(tmp_scene):
    python = fluxion.load(tmp_scene("sheet.py", LINKED_PY))
    xml = fluxion.load_string(LINKED_XML)
    assert python.objects["root/sheet/dofs"].num_points == 25
    assert trajectory(python, 40) == trajectory(xml, 40)


def test_scene_graph_built_in_python_loads_with_load_scene():
    root = fluxion.Node("root")
    root.dt = 0.125
    root.gravity = [0, -8, 0]
    root.addObject("EulerExplicitSolver")
    ball = root.addChild("ball")
    ball.addObject("MechanicalObject", name="dofs", position=[1, 2, 3], velocity=[2, 0, -4])
    ball.addObject("UniformMass", totalMass=2)
    sim = fluxion.load_scene(root)
    sim.step()
    # v1 = v0 + h·g = (2, -1, -4), x1 = x0 + h·v1 (all exact in binary).
    assert sim.objects["root/ball/dofs"].positions.tolist() == [[1.25, 1.875, 2.5]]


BAD_COMPONENT = textwrap.dedent('''\
    def createScene(root):
        root.addObject("EulerExplicitSolver")
        root.addObject("MechanicalObject", position=[0, 0, 0])
        root.addObject("UniformMas", totalMass=1)
    ''')


def test_unknown_component_is_reported_at_the_add_object_line(tmp_scene):
    path = tmp_scene("bad.py", BAD_COMPONENT)
    with pytest.raises(fluxion.SceneError) as caught:
        fluxion.load(path)
    assert str(caught.value) == \
        f"{path}:4: unknown component 'UniformMas' (did you mean 'UniformMass'?)"
    status, _, err = run_scene_runner(path, "--output", "-", check=False)
    assert status == 2
    assert err.strip() == "error: " + str(caught.value)


BLOW_UP = textwrap.dedent('''\
    def createScene(root):
        root.dt = 1
        root.gravity = [0, 0, 0]
        root.addObject("EulerExplicitSolver", symplectic=False)
        root.addObject("MechanicalObject", name="dofs", template="Vec1d", position=[0, 1])
        root.addObject("UniformMass", vertexMass=1)
        root.addObject("FixedProjectiveConstraint", indices=[0])
        root.addObject("SpringForceField", spring=[0, 1, 1e12, 0, 0.5])
    ''')


def test_numerical_failure_names_the_solver_python_line(tmp_scene):
    path = tmp_scene("blow_up.py", BLOW_UP)
    sim = fluxion.load(path)
    with pytest.raises(fluxion.NumericalError) as caught:
        sim.step(100)
    assert str(caught.value).startswith(f"{path}:4: numerical failure at step ")
    assert caught.value.line == 4
    status, _, err = run_scene_runner(path, "--steps", "100", "--output", "-",
                                      "--no-stability-check", check=False)
    assert status == 4
    assert err.strip() == "error: " + str(caught.value)


TWO_MASSES = textwrap.dedent('''\
    def createScene(root):
        root.addObject("EulerExplicitSolver")
        n = root.addChild("n")
        n.addObject("MechanicalObject", position=[[0, 0, 0]])

        n.addObject("UniformMass", vertexMass=1)
        n.addObject("PointSetTopologyContainer", position=[[0, 0, 0]])
        n.addObject("PointSetTopologyContainer", name="t2", position=[[0, 0, 0]])
        n.addObject("DiagonalMass", vertexMass=1)
    ''')


def test_warnings_and_cross_references_name_python_lines(tmp_scene, capfd):
    # Issue #28: "the first is <UniformMass> at line N" named the generated XML's line, and so
    # did every warning of a Python scene.
    path = tmp_scene("two_masses.py", TWO_MASSES)
    error = (f"{path}:9: a second mass <DiagonalMass> in node 'root/n' (expected at most one "
             "per node; the first is <UniformMass> at line 6)")
    warning = (f"warning: {path}:8: a second topology <PointSetTopologyContainer> in node "
               "'root/n' replaces <PointSetTopologyContainer> of line 7")
    with pytest.raises(fluxion.SceneError) as caught:
        fluxion.load(path)
    assert str(caught.value) == error
    assert warning in capfd.readouterr().err
    status, _, err = run_scene_runner(path, "--output", "-", check=False)
    assert status == 2
    assert warning in err and "error: " + error in err


def test_values_are_written_in_shortest_round_trip_form():
    from fluxion.scene_graph import xml_text
    assert xml_text(0.1) == "0.1" and float(xml_text(1 / 3)) == 1 / 3
    assert xml_text(np.array([[1.5, 2], [3, 4]])) == "1.5 2.0 3.0 4.0"
    assert xml_text([True, 0, "@box.indices"]) == "true 0 @box.indices"
    box = fluxion.Node("root").addChild("sheet").addObject("BoxROI", name="box")
    assert xml_text(box) == "@/sheet/box" and xml_text(box.indices) == "@/sheet/box.indices"
    with pytest.raises(ValueError):
        xml_text(float("nan"))


# A scene as written for SOFA: SofaPython3's imports at the top, RequiredPlugin with SOFA module
# names, links through `.linkpath` of an object and of one of its fields.
SOFA_STYLE = '''
import Sofa
import Sofa.Core
import SofaRuntime

SofaRuntime.importPlugin("Sofa.Component")


def createScene(rootNode: Sofa.Core.Node):
    rootNode.addObject("RequiredPlugin", name="Sofa.Component.ODESolver.Backward")
    rootNode.dt = 0.005
    rootNode.gravity = [0, 0, -9.81]
    rootNode.addObject("DefaultAnimationLoop")
    rootNode.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    rootNode.addObject("CGLinearSolver", iterations=50, tolerance=1e-12, threshold=1e-12)
    sheet = rootNode.addChild("sheet")
    grid = sheet.addObject("RegularGridTopology", name="grid", n=[5, 5, 1], min=[0, 0, 0],
                           max=[1, 1, 0])
    sheet.addObject("MechanicalObject", name="dofs", template="Vec3d")
    sheet.addObject("DiagonalMass", totalMass=0.5)
    box = sheet.addObject("BoxROI", name="box", box=[-0.01, -0.01, -0.01, 1.01, 0.01, 0.01])
    sheet.addObject("FixedProjectiveConstraint", indices=box.indices.linkpath)
    sheet.addObject("MeshSpringForceField", linesStiffness=40, linesDamping=0.2)
    assert grid.linkpath == "@/sheet/grid" and box.indices.linkpath == "@/sheet/box.indices"
    assert list(grid.n.value) == [5, 5, 1]  # a NumPy array, as SofaPython3 gives it
    return rootNode
'''


def test_a_scene_written_for_sofapython3_runs_unmodified(tmp_scene):
    path = tmp_scene("sofa_style.py", SOFA_STYLE)
    assert trajectory(fluxion.load(path), 40) == trajectory(fluxion.load_string(LINKED_XML), 40)
    # `import Sofa` found Fluxion's Sofa package (python/Sofa/), installed beside fluxion.
    import sys
    assert sys.modules["Sofa"].__fluxion__ and sys.modules["SofaRuntime"].importPlugin
    _, out, _ = run_scene_runner(path, "--steps", "40", "--energy", "--output", "-")
    assert read_csv(out)[1] == trajectory(fluxion.load_string(LINKED_XML), 40)
