"""Components written in Python (fluxion/python_components.py, python/src/python_force_field.cpp):
a SofaPython3 ForceFieldVec3d equal to RestShapeSpringsForceField gives that component's
trajectory with explicit and implicit solvers (its addForce, addDForce and addKToMatrix each
used where Fluxion's solvers ask for them); the three ways of running a script agree to the bit;
a missing or wrong tangent and an exception are reported as documented (docs/python.md,
"Writing a component in Python")."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import fluxion
import Sofa
import Sofa.Core
import Sofa.Simulation
from conftest import read_csv, run_scene_runner

# Three points on zero-length springs to their rest positions (k = 50 N/m, 0.2 kg each), thrown
# with initial velocities under gravity. FIELD chooses the C++ RestShapeSpringsForceField or
# the Python RestShape below (SofaPython3's example-forcefield.py, completed); SOLVER is the
# lines adding the solvers to the root. main() prints the positions after argv[1] steps as JSON
# (repr of every double: exact).
SCRIPT = '''
import json
import sys

import numpy as np
import Sofa
import Sofa.Core
import Sofa.Simulation

K = 50.0


class RestShape(Sofa.Core.ForceFieldVec3d):
    """f = -k (x - x0); df = kFactor (-k) dx; K = kFactor (-k) I (SOFA's signs)."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.ForceFieldVec3d.__init__(self, *args, **kwargs)
        self.addData("ks", type="float", value=K, help="stiffness [N/m]", group="Spring")

    def init(self):
        self.rest = self.getContext().dofs.rest_position.array().copy()

    def addForce(self, mparams, f, x, v):
        with f.writeableArray() as wa:
            wa -= (x.value - self.rest) * self.ks.value

    def addDForce(self, mparams, df, dx):
        with df.writeableArray() as wa:
            wa += dx.value * (-self.ks.value * mparams["kFactor"])

    def addKToMatrix(self, mparams, nNodes, nDofs):
        i = np.arange(nNodes * nDofs, dtype=float)
        return np.stack([i, i, np.full(i.size, -self.ks.value * mparams["kFactor"])], axis=1)
{extra}

def createScene(root):
    root.dt = 0.01
    root.gravity = [0, -9.81, 0]
    root.addObject("DefaultAnimationLoop")
{solver}
    ball = root.addChild("ball")
    ball.addObject("MechanicalObject", name="dofs", position=[[0, 0, 0], [1, 0, 0], [0, 1, 0.5]],
                   velocity=[[1, 0, 0], [0, 2, 0], [0, 0, -1]])
    ball.addObject("UniformMass", vertexMass=0.2)
{field}
    return root


def main():
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for _ in range(int(sys.argv[1])):
        Sofa.Simulation.animate(root, root.dt.value)
    print(json.dumps(root.ball.dofs.position.value.tolist()))


if __name__ == "__main__":
    main()
'''

CPP_FIELD = '    ball.addObject("RestShapeSpringsForceField", name="ff", stiffness=K)'
PYTHON_FIELD = '    ball.addObject({cls}(name="ff"))'

SOLVERS = {
    "EulerExplicit": '    root.addObject("EulerExplicitSolver", symplectic=True)',
    "RungeKutta4": '    root.addObject("RungeKutta4Solver")',
    "EulerImplicitCG": '    root.addObject("EulerImplicitSolver")\n'
                       '    root.addObject("CGLinearSolver", iterations=100, tolerance=1e-20, '
                       'threshold=1e-20)',
    "EulerImplicitLDL": '    root.addObject("EulerImplicitSolver")\n'
                        '    root.addObject("SparseLDLSolver")',
}


def script(tmp_scene, solver, field="python", cls="RestShape", extra="", name="ff.py"):
    text = SCRIPT.format(solver=SOLVERS[solver], extra=extra,
                         field=CPP_FIELD if field == "cpp" else PYTHON_FIELD.format(cls=cls))
    return tmp_scene(name, text)


def trajectory(path, steps, object_id="root/ball/dofs"):
    """Positions of the object's points after each of `steps` steps, loaded with fluxion.load."""
    sim = fluxion.load(path)
    rows = []
    for _ in range(steps):
        sim.step()
        rows.append(sim.objects[object_id].positions.copy())
    return np.array(rows)


def run_python(*args):
    done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


# --- The force field against RestShapeSpringsForceField ---------------------------------------

@pytest.mark.parametrize("solver", ["EulerExplicit", "RungeKutta4"])
def test_explicit_solvers_give_rest_shape_springs_trajectory_bit_for_bit(tmp_scene, solver):
    # addForce computes f - (x - x0)·k per DOF, the C++ field's own operations: same bits.
    python = trajectory(script(tmp_scene, solver), 200)
    cpp = trajectory(script(tmp_scene, solver, field="cpp", name="cpp.py"), 200)
    assert np.array_equal(python, cpp)
    assert np.ptp(python[:, 0, 0]) > 0.1  # it oscillates


@pytest.mark.parametrize("solver", ["EulerImplicitCG", "EulerImplicitLDL"])
def test_implicit_solvers_give_rest_shape_springs_trajectory(tmp_scene, solver):
    # EulerImplicit with CG multiplies with addDForce (matrix-free), with SparseLDLSolver it
    # factorises the K assembled from addKToMatrix. Both tangents are the C++ field's exactly
    # (k·s·dx, the same product); the forces too: same bits.
    python = trajectory(script(tmp_scene, solver), 200)
    cpp = trajectory(script(tmp_scene, solver, field="cpp", name="cpp.py"), 200)
    assert np.array_equal(python, cpp)
    # Implicit Euler damps: the amplitude of point 0 decays (a wrong K would not give the C++
    # trajectory above; this says the scene tests something).
    assert abs(python[-1, 0, 0]) < abs(python[:20, 0, 0]).max()


def test_results_are_the_same_for_any_thread_count(tmp_scene):
    path = script(tmp_scene, "EulerImplicitCG")
    before = fluxion.thread_count()
    try:
        fluxion.set_thread_count(1)
        one = trajectory(path, 50)
        fluxion.set_thread_count(2)
        two = trajectory(path, 50)
    finally:
        fluxion.set_thread_count(before)
    assert np.array_equal(one, two)


def test_python3_scene_runner_and_fluxion_load_agree_bit_for_bit(tmp_scene):
    path = script(tmp_scene, "EulerImplicitCG")
    status, out, err = run_python(path, 60)
    assert status == 0, err
    by_main = json.loads(out)
    assert trajectory(path, 60)[-1].tolist() == by_main
    # scene-runner hands a scene with a component written in Python to `python3 -m fluxion run`.
    _, csv, _ = run_scene_runner(path, "--steps", "60", "--output", "-")
    header, rows = read_csv(csv)
    last = dict(zip(header, rows[-1]))
    assert [[last[f"root/ball/dofs/p{k}.{a}"] for a in "xyz"] for k in range(3)] == by_main
    status, by_run, err = run_python("-m", "fluxion", "run", path, "--steps", "60")
    assert status == 0, err
    assert by_run == csv


def test_sofa_simulation_runs_it_and_add_data_reads_and_writes(tmp_scene):
    path = script(tmp_scene, "EulerExplicit")
    scope = {"__name__": "ff_test"}
    exec(compile(open(path).read(), path, "exec"), scope)
    root = Sofa.Core.Node("root")
    scope["createScene"](root)
    ff = root.ball.ff
    assert ff.ks.value == 50.0 and ff.getName() == "ff" and ff.getClassName() == "RestShape"
    assert ff.getPathName() == "/ball/ff" and ff.findData("ks").value == 50.0
    Sofa.Simulation.init(root)
    assert np.array_equal(ff.rest, [[0, 0, 0], [1, 0, 0], [0, 1, 0.5]])  # init() read it
    # Writing the data between steps changes the force from the next step on: with k = 0 only
    # gravity acts, so one symplectic Euler step is v += h·g, x += h·v.
    ff.ks = 0.0
    assert ff.ks.value == 0.0
    x0 = root.ball.dofs.position.value.copy()
    v0 = root.ball.dofs.velocity.value.copy()
    Sofa.Simulation.animate(root, 0.01)
    v1 = v0 + 0.01 * np.array([0, -9.81, 0])
    assert np.array_equal(root.ball.dofs.velocity.value, v1)
    assert np.array_equal(root.ball.dofs.position.value, x0 + 0.01 * v1)
    with pytest.raises(AttributeError, match="has no data 'kd'"):
        ff.findData("kd")


# --- Missing or wrong tangents -------------------------------------------------------------------

NO_TANGENT = '''

class NoTangent(RestShape):
    addDForce = None
    addKToMatrix = None
'''

ZERO_TANGENT = '''

class ZeroTangent(RestShape):
    def addDForce(self, mparams, df, dx):
        pass  # wrong: its K is not 0
'''


def test_a_missing_tangent_stops_an_implicit_solver_in_one_line(tmp_scene):
    path = script(tmp_scene, "EulerImplicitCG", cls="NoTangent", extra=NO_TANGENT)
    # Explicit solvers never ask for it.
    ok = script(tmp_scene, "EulerExplicit", cls="NoTangent", extra=NO_TANGENT, name="ok.py")
    assert np.array_equal(trajectory(ok, 20),
                          trajectory(script(tmp_scene, "EulerExplicit", name="rs.py"), 20))
    sim = fluxion.load(path)
    with pytest.raises(fluxion.errors.ComponentError) as caught:
        sim.step()
    # Located at the addObject line of the component: no Python line raised.
    add_line = open(path).read().split("\n").index('    ball.addObject(NoTangent(name="ff"))') + 1
    assert str(caught.value) == (
        f"{path}:{add_line}: NotImplementedError: NoTangent defines neither "
        "addDForce(mparams, df, dx) nor addKToMatrix(mparams, nNodes, nDofs): the implicit solver needs ∂f/∂x (define "
        "one, as SOFA needs them too, or use an explicit solver) (in NoTangent.addDForce of "
        "'/ball/ff', step 1, t=0.0)")
    assert sim.step_count == 0  # the state is the last good one
    # A direct solver needs addKToMatrix.
    ldl = script(tmp_scene, "EulerImplicitLDL", cls="NoTangent", extra=NO_TANGENT, name="ldl.py")
    with pytest.raises(fluxion.errors.ComponentError, match=r"NoTangent defines no addKToMatrix"
                       r"\(mparams, nNodes, nDofs\): the solver assembles K"):
        fluxion.load(ldl).step()


def test_add_k_to_matrix_entries_outside_the_pattern_stop_the_run_in_one_line(tmp_scene):
    # K's pattern is fixed from the call made when the scene is built: a dense (n, n, 1) answer
    # contributes its nonzero entries; a later nonzero elsewhere is refused at that step.
    extra = """

class Growing(RestShape):
    def addKToMatrix(self, mparams, nNodes, nDofs):
        k = np.zeros((nNodes * nDofs, nNodes * nDofs, 1))
        k[:, :, 0] = np.eye(nNodes * nDofs) * (-self.ks.value * mparams["kFactor"])
        if mparams["time"] > 0.015:
            k[0, 1, 0] = 1e-3
        return k
"""
    sim = fluxion.load(script(tmp_scene, "EulerImplicitLDL", cls="Growing", extra=extra))
    sim.step(2)  # the diagonal alone: as the C++ field
    assert np.array_equal(sim.objects["root/ball/dofs"].positions, trajectory(
        script(tmp_scene, "EulerImplicitLDL", field="cpp", name="cpp.py"), 2)[-1])
    with pytest.raises(fluxion.errors.ComponentError, match=r"ValueError: Growing.addKToMatrix "
                       r"returned a nonzero entry \(0, 1\) it did not return when the scene was "
                       r"built .* \(in Growing.addKToMatrix of '/ball/ff', step 3, t=0.02\)$"):
        sim.step()


def test_an_addDForce_that_adds_nothing_makes_the_field_explicit(tmp_scene):
    # Documented, not detected: with df += 0, EulerImplicit's (M - h²K)Δv = h·f(x_n) + h²K·v_n
    # becomes M·Δv = h·f(x_n): symplectic Euler for this field, i.e. EulerExplicitSolver's
    # trajectory with the C++ field, to CG's round-off (M = 0.2·I: one CG iteration, α = 1/0.2
    # computed as (r·r)/(r·Mr), a relative error of a few ulp per step).
    wrong = trajectory(script(tmp_scene, "EulerImplicitCG", cls="ZeroTangent",
                              extra=ZERO_TANGENT), 100)
    explicit = trajectory(script(tmp_scene, "EulerExplicit", field="cpp", name="cpp.py"), 100)
    implicit = trajectory(script(tmp_scene, "EulerImplicitCG", field="cpp", name="imp.py"), 100)
    assert np.allclose(wrong, explicit, rtol=0, atol=1e-12)
    assert np.abs(wrong - implicit).max() > 1e-3  # not the implicit trajectory


# --- Errors ----------------------------------------------------------------------------------

BOOM = '''

class Boom(RestShape):
    def addForce(self, mparams, f, x, v):
        RestShape.addForce(self, mparams, f, x, v)
        if mparams["time"] > 0.045:
            raise ZeroDivisionError("stiffness blew up")
'''


def test_an_exception_in_add_force_stops_the_run_in_one_line_keeping_the_rows(tmp_scene):
    path = script(tmp_scene, "EulerExplicit", cls="Boom", extra=BOOM)
    raise_line = SCRIPT.format(solver=SOLVERS["EulerExplicit"], extra=BOOM, field="").split(
        "\n").index('            raise ZeroDivisionError("stiffness blew up")') + 1
    expected = (f"{path}:{raise_line}: ZeroDivisionError: stiffness blew up (in Boom.addForce "
                "of '/ball/ff', step 6, t=0.05)")
    # fluxion.load: a ComponentError (a SceneError, exit status 2), the exception as its cause.
    sim = fluxion.load(path)
    with pytest.raises(fluxion.errors.ComponentError) as caught:
        sim.step(10)
    assert str(caught.value) == expected
    assert isinstance(caught.value.__cause__, ZeroDivisionError)
    assert (caught.value.step, caught.value.time, sim.step_count) == (6, 0.05, 5)
    # python3 -m fluxion run (and scene-runner, which hands over to it): one line, status 2,
    # the rows written so far kept in FILE.partial.
    output = os.path.join(os.path.dirname(path), "out.csv")
    status, out, err = run_python("-m", "fluxion", "run", path, "--steps", "10", "-o", output)
    assert status == 2
    assert err == f"error: {expected}\nerror: the rows written so far are in {output}.partial\n"
    _, rows = read_csv(open(output + ".partial").read())
    assert [row[0] for row in rows] == [0, 1, 2, 3, 4, 5]
    status, _, by_runner = run_scene_runner(path, "--steps", "10", "--output", "-", check=False)
    assert status == 2 and by_runner.startswith(f"error: {expected}\n")
    # python3 script.py: one line (Sofa's excepthook), no traceback.
    status, _, err = run_python(path, 10)
    assert status == 1 and err == f"error: {expected}\n"


def test_an_exception_in_init_is_reported_at_the_add_object_line(tmp_scene):
    extra = '''

class BadInit(RestShape):
    def init(self):
        self.rest = self.getContext().dofs.nowhere.value
'''
    path = script(tmp_scene, "EulerExplicit", cls="BadInit", extra=extra)
    with pytest.raises(fluxion.SceneError) as caught:
        fluxion.load(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:") and "BadInit.init() raised AttributeError" in text
    assert "\n" not in text


def test_refusals_name_sofas_class():
    for name in ("ForceFieldRigid3d", "Prefab"):
        with pytest.raises(Sofa.Unsupported, match=rf"^Sofa.Core.{name}: "):
            getattr(Sofa.Core, name)(name="x")
    with pytest.raises(Sofa.Unsupported, match=r"^Sofa.Core.Mapping_Vec3d_Vec1d: not provided"):
        Sofa.Core.Mapping_Vec3d_Vec1d


# --- DataEngine ------------------------------------------------------------------------------

class PlusOne(Sofa.Core.DataEngine):
    """SofaPython3's own test engine (bindings/Sofa/tests/Core/DataEngine.py): d_out = d_in + 1."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.DataEngine.__init__(self, *args, **kwargs)
        self.addData(name="d_in", value=kwargs.get("d_in"), type="int", help="input")
        self.addData(name="d_out", value=kwargs.get("d_out"), default=self.d_in.value,
                     type="int", help="output")
        self.counter = 0

    def init(self):
        self.addInput(self.d_in)
        self.addOutput(self.d_out)

    def update(self):
        self.d_out = self.d_in.value + 1
        self.counter += 1


class Holder(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.addData(name="v", value=kwargs.get("v"), type="int")


def test_a_data_engine_updates_when_its_input_changes_and_only_then():
    # SofaPython3's test_DataEngine, as it runs there: links through data, lazy updates.
    root = Sofa.Core.Node("root")
    root.addObject(Holder(name="inputController", v=40))
    root.addObject(PlusOne(name="engine", d_in=root.inputController.v))
    root.addObject(Holder(name="outputController", v=root.engine.d_out))
    for component in root.objects:
        component.init()
    assert root.outputController.v.value == 41 and root.engine.counter == 1
    assert root.outputController.v.value == 41 and root.engine.counter == 1  # input unchanged
    root.inputController.v = 41
    assert root.engine.counter == 1  # not read yet
    assert root.outputController.v.value == 42 and root.engine.counter == 2
    assert root.engine.getClassName() == "PlusOne"


def test_a_data_engine_feeds_a_python_force_field_during_a_run(tmp_scene):
    # The engine's output (the stiffness, from an input a controller changes between steps)
    # is read by the force field's addForce: the run equals a run whose field has that
    # stiffness from the start (here the input is set before the first step).
    extra = '''

class Twice(Sofa.Core.DataEngine):
    def __init__(self, *args, **kwargs):
        Sofa.Core.DataEngine.__init__(self, *args, **kwargs)
        self.addData("half", value=kwargs.get("half"))
        self.addData("whole", value=0.0)

    def init(self):
        self.addInput(self.half)
        self.addOutput(self.whole)

    def update(self):
        self.whole = 2 * self.half.value


class Linked(RestShape):
    def __init__(self, *args, **kwargs):
        RestShape.__init__(self, *args, **kwargs)
        self.ks = kwargs["engine"].whole   # a data linked to the engine's output
'''
    text = SCRIPT.format(solver=SOLVERS["EulerExplicit"], extra=extra, field='''
    engine = ball.addObject(Twice(name="twice", half=10.0))
    ball.addObject(Linked(name="ff", engine=engine))''')
    path = tmp_scene("engine.py", text)
    root = Sofa.Core.Node("root")
    scope = {"__name__": "engine_test"}
    exec(compile(text, path, "exec"), scope)
    scope["createScene"](root)
    Sofa.Simulation.init(root)
    assert root.ball.ff.ks.value == 20.0
    root.ball.twice.half = 25.0  # the field now pulls with 50 N/m, as RestShapeSprings K = 50
    for _ in range(100):
        Sofa.Simulation.animate(root, 0.01)
    assert np.array_equal(root.ball.dofs.position.value,
                          trajectory(script(tmp_scene, "EulerExplicit", field="cpp",
                                            name="cpp.py"), 100)[-1])


# --- Mapping ---------------------------------------------------------------------------------

# Three points with mass, mapped onto three massless points that carry two stiff springs; the
# mapping is the C++ IdentityMapping or a Python identity (SofaPython3's example-mapping.py,
# with applyJ written).
MAPPED = '''
import Sofa
import Sofa.Core


class PyIdentity(Sofa.Core.Mapping_Vec3d_Vec3d):
    def apply(self, mparams, out_coord, in_coord):
        with out_coord.writeableArray() as wa:
            wa[:] = in_coord.value

    def applyJ(self, mparams, out_deriv, in_deriv):
        with out_deriv.writeableArray() as wa:
            wa[:] = in_deriv.value

    def applyJT(self, mparams, in_deriv, out_deriv):
        raise AssertionError("Fluxion maps forces back through applyJ's entries")


def createScene(root):
    root.dt = 0.01
    root.gravity = [0, -9.81, 0]
{solver}
    body = root.addChild("body")
    body.addObject("MechanicalObject", name="dofs", position=[[0, 0, 0], [1, 0, 0], [1, 1, 0]],
                   velocity=[[0, 0, 1], [0, 0, 0], [0, 1, 0]])
    body.addObject("UniformMass", vertexMass=0.5)
    body.addObject("FixedProjectiveConstraint", indices=[0])
    mapped = body.addChild("mapped")
    points = mapped.addObject("MechanicalObject", name="points",
                              position=[[0, 0, 0], [1, 0, 0], [1, 1, 0]])
    {mapping}
    mapped.addObject("StiffSpringForceField", spring=[[0, 1, 80, 0.5, 0.9], [1, 2, 60, 0.2, 1.2]])
    return root
'''


def mapped_trajectory(tmp_scene, solver, python, steps=150):
    mapping = ('mapped.addObject(PyIdentity(name="map", input=body.dofs, output=points))'
               if python else
               'mapped.addObject("IdentityMapping", input="@../dofs", output="@points")')
    path = tmp_scene("py.py" if python else "cpp.py",
                     MAPPED.format(solver=SOLVERS[solver], mapping=mapping))
    return trajectory(path, steps, "root/body/dofs")


@pytest.mark.parametrize("solver", ["EulerExplicit", "RungeKutta4", "EulerImplicitCG",
                                    "EulerImplicitLDL"])
def test_a_python_identity_mapping_gives_identity_mappings_trajectory(tmp_scene, solver):
    # J = I read from applyJ, the same entries as IdentityMapping's: forces Jᵀf and stiffness
    # JᵀKJ are the same numbers, the trajectory the same bits.
    python = mapped_trajectory(tmp_scene, solver, True)
    cpp = mapped_trajectory(tmp_scene, solver, False)
    assert np.array_equal(python, cpp)
    assert np.ptp(python[:, 2, 1]) > 0.05  # the springs and gravity move it
