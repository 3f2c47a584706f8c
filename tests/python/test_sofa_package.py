"""Fluxion's `Sofa` package (python/Sofa/, fluxion/sofa_simulation.py): SofaPython3 scripts with a
main() run with `python3 script.py` and give fluxion.load's and scene-runner's trajectories bit
for bit; controllers run at SOFA's points of the step and change the running simulation; data
read the live values and writes reach the scene or fail in one line."""
import json
import math
import os
import stat
import subprocess
import sys

import numpy as np
import pytest

import fluxion
import Sofa
import Sofa.Core
import Sofa.Simulation
import SofaRuntime
from fluxion import scene_graph
from conftest import read_csv, run_scene_runner

# A chain of 6 beads on springs with dashpots, held at bead 0 and falling under gravity, with a
# ConstantForceField `load` on the last bead; the ODE solver is a parameter. Its `main()` is a
# SofaPython3 script's: init, animate in its own loop, then it prints the last bead's positions
# as JSON (repr of every double: exact) on stdout.
CHAIN = '''
import json
import sys

import Sofa
import Sofa.Core
import Sofa.Simulation
import SofaRuntime

SOLVER = {solver!r}


def createScene(root):
    SofaRuntime.importPlugin("Sofa.Component.ODESolver.Forward")
    root.dt = 0.002
    root.gravity = [0, -9.81, 0]
    root.addObject("DefaultAnimationLoop")
    root.addObject(SOLVER)
    chain = root.addChild("chain")
    chain.addObject("MechanicalObject", name="beads", template="Vec3d",
                    position=[[k / 10, 0, 0] for k in range(6)])
    chain.addObject("UniformMass", vertexMass=0.1)
    chain.addObject("FixedProjectiveConstraint", indices=[0])
    chain.addObject("SpringForceField", spring=[[k, k + 1, 500, 0.5, 0.1] for k in range(5)])
    chain.addObject("ConstantForceField", name="load", indices=[5], forces=[0, 0, 0])
{controller}
    return root


def main():
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for _ in range(int(sys.argv[1])):
        Sofa.Simulation.animate(root, root.dt.value)
    print(json.dumps(root.chain.beads.position.value.tolist()))


if __name__ == "__main__":
    main()
'''


def chain_script(tmp_scene, solver="EulerExplicitSolver", controller="", name="chain.py"):
    return tmp_scene(name, CHAIN.format(solver=solver, controller=controller))


def run_script(*args):
    """(status, stdout, stderr) of `python3 ARGS` with this test's PYTHONPATH."""
    done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def sofa_root(path):
    """The graph of a script's createScene, built with Sofa.Core.Node as its main() does."""
    scope = {"__name__": "chain_test"}
    exec(compile(open(path).read(), path, "exec"), scope)
    root = Sofa.Core.Node("root")
    scope["createScene"](root)
    return root


# --- Item 1: `python3 script.py` ------------------------------------------------------------

def test_main_run_with_python3_equals_fluxion_load_bit_for_bit(tmp_scene):
    path = chain_script(tmp_scene)
    status, out, err = run_script(path, 250)
    assert status == 0, err
    sim = fluxion.load(path)
    sim.step(250)
    assert json.loads(out) == sim.objects["root/chain/beads"].positions.tolist()
    assert sim.objects["root/chain/beads"].positions[5, 1] < -0.05  # it did fall


def test_position_value_after_animate_equals_scene_runners_csv_row(tmp_scene):
    path = chain_script(tmp_scene)
    root = sofa_root(path)
    Sofa.Simulation.init(root)
    for _ in range(120):
        Sofa.Simulation.animate(root, root.dt.value)
    _, out, _ = run_scene_runner(path, "--steps", "120", "--output", "-")
    header, rows = read_csv(out)
    positions = root.chain.beads.position.value
    row = dict(zip(header, rows[-1]))
    assert row["step"] == 120 and root.time.value == row["time"]
    for point in range(6):
        for axis, name in enumerate("xyz"):
            assert positions[point, axis] == row[f"root/chain/beads/p{point}.{name}"]
    # Velocities are the solver's too.
    assert root.chain.beads.velocity.value[5, 1] == row["root/chain/beads/v5.y"]


def test_dt_other_than_the_scenes_is_refused_in_one_line(tmp_scene):
    root = sofa_root(chain_script(tmp_scene))
    Sofa.Simulation.init(root)
    with pytest.raises(fluxion.UsageError, match=r"^animate: dt=0.01 differs from the scene's "
                       r"dt=0.002 \(Fluxion steps with the dt set before init"):
        Sofa.Simulation.animate(root, 0.01)
    Sofa.Simulation.animate(root, 0.0)  # 0: the scene's dt, as SOFA's DefaultAnimationLoop
    assert root.time.value == 0.002


def test_reset_starts_again_and_unload_empties_the_graph(tmp_scene):
    root = sofa_root(chain_script(tmp_scene))
    Sofa.Simulation.init(root)
    start = root.chain.beads.position.value.copy()
    Sofa.Simulation.animateNSteps(root, 10)
    assert not np.array_equal(root.chain.beads.position.value, start)
    Sofa.Simulation.reset(root)
    assert root.time.value == 0.0
    assert np.array_equal(root.chain.beads.position.value, start)
    Sofa.Simulation.unload(root)
    assert root.children == [] and root.objects == []


def test_refusals_are_one_line(tmp_scene):
    with pytest.raises(fluxion.UsageError, match=r"load\('x.scn'\): not supported by Fluxion"):
        Sofa.Simulation.load("x.scn")
    with pytest.raises(Sofa.Unsupported, match=r"^Sofa.Timer.AdvancedTimer: not provided by "):
        SofaRuntime.Timer.AdvancedTimer.setEnabled("x", True)
    with pytest.raises(Sofa.Unsupported, match="it has no rigid-body DOFs"):
        Sofa.Core.ForceFieldRigid3d()
    assert SofaRuntime.importPlugin("Sofa.Component") is None
    root = Sofa.Core.Node("root")
    with pytest.raises(fluxion.UsageError, match="was not initialised"):
        Sofa.Simulation.animate(root)


def test_messages_go_to_stderr_never_stdout(tmp_scene):
    path = tmp_scene("messages.py", "import Sofa.Helper\n"
                     "Sofa.Helper.msg_info('hello')\n"
                     "Sofa.Helper.msg_warning('emitter', 'careful')\n"
                     "Sofa.Helper.msg_error('broken')\n")
    status, out, err = run_script(path)
    assert status == 0 and out == ""
    assert err.splitlines() == ["[INFO] hello", "[WARNING] [emitter] careful", "[ERROR] broken"]


def test_a_fluxion_error_ends_a_script_in_one_line(tmp_scene):
    path = tmp_scene("bad.py", "import Sofa\nimport Sofa.Simulation\n"
                     "root = Sofa.Core.Node('root')\n"
                     "root.addObject('NoSuchComponent')\n"
                     "Sofa.Simulation.init(root)\n")
    status, out, err = run_script(path)
    assert status == 1 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert lines[0].startswith(f"error: {path}:4: unknown component 'NoSuchComponent'")


# --- Item 2: controllers --------------------------------------------------------------------

# Sets the load on the last bead to F(t) = (A cos ωt, 0, 0) at every AnimateBeginEvent, t the
# time at the step's start; records the events it sees.
FORCING_CONTROLLER = '''
    class Forcing(Sofa.Core.Controller):
        def __init__(self, *args, **kwargs):
            Sofa.Core.Controller.__init__(self, *args, **kwargs)
            self.load = kwargs["load"]
            self.events = []

        def onSimulationInitDoneEvent(self, event):
            self.events.append(event["type"])

        def onAnimateBeginEvent(self, event):
            t = self.getContext().getRoot().time.value
            self.events.append(("begin", t, event["dt"]))
            self.load.forces = [2.0 * math.cos(40.0 * t), 0, 0]

        def onAnimateEndEvent(self, event):
            self.events.append(("end", self.getContext().getRoot().time.value))

        def onKeypressedEvent(self, event):
            raise AssertionError("no GUI: never sent")

    import math
    root.addObject(Forcing(name="forcing", load=chain.load))
'''


def test_controller_events_come_where_sofas_animation_loop_sends_them(tmp_scene):
    root = sofa_root(chain_script(tmp_scene, controller=FORCING_CONTROLLER))
    Sofa.Simulation.init(root)
    Sofa.Simulation.animateNSteps(root, 2)
    assert root.forcing.events == ["SimulationInitDoneEvent", ("begin", 0.0, 0.002),
                                   ("end", 0.002), ("begin", 0.002, 0.002), ("end", 0.004)]
    assert root.forcing.getPathName() == "/forcing" and root.forcing.name.value == "forcing"


def test_controller_force_equals_the_time_dependent_load_of_a_hand_recursion(tmp_scene):
    # One bead of m = 0.1 kg, free, no gravity, semi-implicit Euler (EulerExplicitSolver):
    #   v ← v + h·F(t_n)/m,  x ← x + h·v,  F(t) = 2 cos(40 t) along x.
    # The controller sets F before each step; the recursion computes it independently.
    root = Sofa.Core.Node("root")
    root.dt, root.gravity = 0.001, [0, 0, 0]
    root.addObject("EulerExplicitSolver")
    bead = root.addChild("bead")
    bead.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])
    bead.addObject("UniformMass", vertexMass=0.1)
    load = bead.addObject("ConstantForceField", name="load", forces=[0, 0, 0])

    class Forcing(Sofa.Core.Controller):
        def onAnimateBeginEvent(self, event):
            load.forces = [2.0 * math.cos(40.0 * root.time.value), 0, 0]

    root.addObject(Forcing(name="forcing"))
    Sofa.Simulation.init(root)
    h, m, x, v = 0.001, 0.1, 0.0, 0.0
    # Round-off only: the solver may form a = f·(1/m) where the recursion divides, and
    # root.time = t0 + n·h is the decimal n/1000 where the recursion multiplies; each differs by
    # an ulp or so, |a| ≤ 20, |v| ≤ 0.5, |x| ≤ 0.03, summed over 400 steps.
    x_round_off, v_round_off = 1e-14, 1e-12
    for n in range(400):
        Sofa.Simulation.animate(root, h)
        v += h * (2.0 * math.cos(40.0 * (n * h)) / m)
        x += h * v
        assert root.bead.dofs.position.value[0, 0] == pytest.approx(x, rel=0, abs=x_round_off)
        assert root.bead.dofs.velocity.value[0, 0] == pytest.approx(v, rel=0, abs=v_round_off)
    # Not the constant load's trajectory (x = F t²/2m = 1.6 m at t = 0.4 s): the oscillating
    # load's x(t) = (F/mω²)(1 − cos ωt) stays within [0, 0.025] (0.0245 at t = 0.4 s).
    assert 0.02 < x < 0.03
    assert root.bead.load.forces.value[0] == pytest.approx(2.0 * math.cos(40.0 * 0.399),
                                                          rel=0, abs=1e-12)


def test_controller_force_equals_sinusoidal_force_field(tmp_scene):
    # The same load as Fluxion's SinusoidalForceField A·cos(ωt + φ): equal to round-off (the
    # field reads SOFA's accumulated time t += h, the controller root.time = n·h).
    def scene(controlled):
        root = Sofa.Core.Node("root")
        root.dt, root.gravity = 0.001, [0, 0, 0]
        root.addObject("EulerExplicitSolver")
        bead = root.addChild("bead")
        bead.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])
        bead.addObject("UniformMass", vertexMass=0.1)
        if controlled:
            load = bead.addObject("ConstantForceField", name="load", forces=[0, 0, 0])

            class Forcing(Sofa.Core.Controller):
                def onAnimateBeginEvent(self, event):
                    load.forces = [2.0 * math.cos(40.0 * root.time.value), 0, 0]
            root.addObject(Forcing())
        else:
            bead.addObject("SinusoidalForceField", amplitude=[2, 0, 0], omega=40)
        Sofa.Simulation.init(root)
        Sofa.Simulation.animateNSteps(root, 400)
        return root.bead.dofs.position.value[0, 0]

    assert scene(True) == pytest.approx(scene(False), rel=1e-12, abs=0)


def test_fluxion_load_refuses_controllers_naming_python3(tmp_scene):
    path = chain_script(tmp_scene, controller=FORCING_CONTROLLER)
    with pytest.raises(fluxion.SceneError, match=r"the scene has Python controllers \(Forcing\), "
                       r"which run only with Sofa.Simulation .*python3 chain.py"):
        fluxion.load(path)
    status, out, err = run_script("-m", "fluxion", path)  # prints the XML: it would lack them
    assert status == 2 and out == "" and "python3 -m fluxion run chain.py" in err


def test_scene_runner_runs_controllers_as_python3_does_bit_for_bit(tmp_scene):
    # scene-runner hands the run to `python3 -m fluxion run` (same CSV writer): its rows equal
    # those of that command to the byte, and its positions those of the script's own loop.
    path = chain_script(tmp_scene, controller=FORCING_CONTROLLER)
    _, by_runner, _ = run_scene_runner(path, "--steps", "60", "--every", "7", "--energy",
                                       "--output", "-")
    status, by_python, err = run_script("-m", "fluxion", "run", path, "--steps", "60",
                                        "--every", "7", "--energy")
    assert status == 0, err
    assert by_runner == by_python
    header, rows = read_csv(by_runner)
    assert [row[0] for row in rows] == [0, 7, 14, 21, 28, 35, 42, 49, 56, 60]
    status, own_loop, err = run_script(path, 60)
    assert status == 0, err
    last = dict(zip(header, rows[-1]))
    positions = json.loads(own_loop)
    assert [[last[f"root/chain/beads/p{k}.{a}"] for a in "xyz"] for k in range(6)] == positions
    # The controller acted: without it the last bead's x differs.
    _, plain, _ = run_scene_runner(chain_script(tmp_scene, name="plain.py"), "--steps", "60",
                                   "--output", "-")
    plain_header, plain_rows = read_csv(plain)
    plain_last = dict(zip(plain_header, plain_rows[-1]))
    assert plain_last["root/chain/beads/p5.x"] != last["root/chain/beads/p5.x"]
    # --end-time as scene-runner counts it; an option the Python run lacks is refused.
    _, by_time, _ = run_scene_runner(path, "--end-time", "0.01", "--output", "-")
    assert [row[0] for row in read_csv(by_time)[1]][-1] == 5
    status, _, err = run_scene_runner(path, "--vtk", "frames", check=False)
    assert status == 2 and "does not take --vtk" in err and "Traceback" not in err


# --- Item 3: data -----------------------------------------------------------------------------

def test_field_assignment_after_add_object_reaches_the_scene(tmp_scene):
    # Was silently dropped (a Python attribute): the load never acted.
    root = Sofa.Core.Node("root")
    root.addObject("EulerExplicitSolver")
    bead = root.addChild("bead")
    bead.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])
    bead.addObject("UniformMass", vertexMass=2)
    load = bead.addObject("ConstantForceField", name="load", forces=[0, 0, 0])
    load.forces = [1, 0, 0]
    bead.dofs.velocity.value = [[0, 3, 0]]
    assert 'forces="1 0 0"' in scene_graph.to_xml(root)
    sim = fluxion.load_scene(root)
    sim.step()
    # gravity 0 -9.81 0 by default, m = 2: v = (0.01·1/2, 3 − 0.0981, 0).
    assert sim.objects["root/bead/dofs"].velocities[0, 0] == 0.01 * (1 / 2)
    assert sim.objects["root/bead/dofs"].velocities[0, 1] == pytest.approx(3 - 0.0981, abs=1e-15)


def test_a_python_attribute_on_a_node_stays_a_python_attribute():
    root = Sofa.Core.Node("root")
    root.loader = root.addObject("MeshOBJLoader", name="mesh", filename="x.obj")
    root.note = "anything"
    assert root.loader is root.mesh and root.note == "anything"
    assert "loader" not in scene_graph.to_xml(root) and "note" not in scene_graph.to_xml(root)


def test_graph_api(tmp_scene):
    root = sofa_root(chain_script(tmp_scene))
    assert root.getPathName() == "/" and root.chain.getPathName() == "/chain"
    assert root.chain.beads.getPathName() == "/chain/beads"
    assert root.chain.beads.getContext() is root.chain and root.chain.getRoot() is root
    assert [n.getName() for n in root.children] == ["chain"]
    assert [o.getClassName() for o in root.chain.objects][:2] == ["MechanicalObject",
                                                                  "UniformMass"]
    assert root.chain.beads.findData("position").getLinkPath() == "@/chain/beads.position"
    with root.chain as chain:
        extra = chain.addChild("extra")
    assert extra.getPathName() == "/chain/extra" and root.chain.extra is extra
    root.chain.removeChild("extra")
    assert root.chain.children == [] and extra.getPathName() == "/"  # a root of its own
    with pytest.raises(ValueError, match=r"addChild: node 'chain' already is in a graph"):
        Sofa.Core.Node("other").addChild(root.chain)
    lone = Sofa.Core.Node("lone")
    assert root.addChild(lone) is lone and lone.getPathName() == "/lone"
    root.removeChild(lone)


def test_data_after_init_read_the_running_simulation(tmp_scene):
    root = sofa_root(chain_script(tmp_scene))
    Sofa.Simulation.init(root)
    assert root.dt.value == 0.002 and root.gravity.value == [0, -9.81, 0]
    assert root.chain.gravity.value == [0, -9.81, 0]
    beads = root.chain.beads
    assert beads.position.array().shape == (6, 3) and not beads.position.array().flags.writeable
    assert beads.rest_position.value[5, 0] == 0.5
    Sofa.Simulation.animate(root)
    sim = root.__dict__["_live_scene"].simulation
    assert np.array_equal(beads.force.value, sim.objects["root/chain/beads"].forces())
    # One line for what cannot change; the graph is fixed after init.
    with pytest.raises(fluxion.UsageError, match=r"^root\.dt cannot be changed while the simulation "
                       r"runs \(the step clock t0 \+ n·dt and the multistep solvers' history"):
        root.dt = 0.01
    with pytest.raises(fluxion.UsageError, match=r"^root/chain\.gravity cannot be changed while "
                       r"the simulation runs \(Fluxion builds a node's data into the scene"):
        root.chain.gravity = [0, 0, 0]
    with pytest.raises(fluxion.UsageError, match=r"^root/chain/beads.rest_position cannot be "
                       r"changed while the simulation runs \(fields that can: position, "):
        beads.rest_position = np.zeros((6, 3))
    with pytest.raises(fluxion.UsageError, match=r"^root/chain/SpringForceField.spring cannot "
                       r"be changed while the simulation runs \(fields that can: stiffness, "
                       r"damping\)"):
        root.chain.SpringForceField.spring.value = []
    with pytest.raises(fluxion.UsageError, match=r"load.forces: has 2 numbers \(expected 3"):
        root.chain.load.forces = [1, 2]
    with pytest.raises(RuntimeError, match="the scene cannot change after Sofa.Simulation.init"):
        root.addChild("late")


def test_gravity_value_is_the_one_built():
    # A Gravity component in the root overrides the root's gravity data, as in SOFA.
    root = Sofa.Core.Node("root")
    root.addObject("Gravity", gravity=[0, 0, -3])
    root.addObject("EulerExplicitSolver")
    root.addChild("bead").addObject("MechanicalObject", name="dofs", position=[0, 0, 0])
    root.bead.addObject("UniformMass", vertexMass=1)
    assert root.gravity.value == [0, -9.81, 0]  # before init: the node's data, SOFA's default
    Sofa.Simulation.init(root)
    assert root.gravity.value == [0, 0, -3] and root.bead.gravity.value == [0, 0, -3]
    Sofa.Simulation.animate(root)
    assert root.bead.dofs.velocity.value[0, 2] == 0.01 * -3.0


@pytest.mark.parametrize("solver", ["EulerExplicitSolver", "EulerImplicitSolver"])
def test_gravity_and_mass_written_after_init_are_the_values_of_the_graph(tmp_scene, solver):
    # Written after init, before the first step: the run of a graph built with those values, bit
    # for bit (the weight, M and the implicit solver's matrix all follow).
    linear = '    root.addObject("SparseLDLSolver")' if solver == "EulerImplicitSolver" else ""
    path = chain_script(tmp_scene, solver=solver, controller=linear)
    changed, built = sofa_root(path), sofa_root(path)
    Sofa.Simulation.init(changed)
    changed.gravity = [1.5, -3, 0.5]
    changed.chain.UniformMass.vertexMass = 0.25
    built.gravity = [1.5, -3, 0.5]
    built.chain.UniformMass.vertexMass = 0.25
    Sofa.Simulation.init(built)
    assert changed.gravity.value == [1.5, -3, 0.5]
    Sofa.Simulation.animateNSteps(changed, 50)
    Sofa.Simulation.animateNSteps(built, 50)
    beads = changed.chain.beads.position.array()
    assert np.array_equal(beads, built.chain.beads.position.array())
    assert beads[5, 0] > 0.1 + 1e-3  # the new gravity's x component did act
    # reset keeps what was written (SOFA's reset restores states, not data).
    Sofa.Simulation.reset(changed)
    Sofa.Simulation.animateNSteps(changed, 50)
    assert np.array_equal(changed.chain.beads.position.array(), beads)
    with pytest.raises(fluxion.UsageError, match=r"^root/chain/UniformMass\.vertexMass: is -1 "
                       r"\(expected a finite mass >= 0 \[kg\]\)"):
        changed.chain.UniformMass.vertexMass = -1


@pytest.mark.parametrize("solver", ["EulerExplicitSolver", "AdamsBashforth2Solver"])
@pytest.mark.parametrize("with_block", [True, False])
def test_writeable_array_between_steps_equals_assignment(tmp_scene, solver, with_block):
    # AdamsBashforth2 keeps the previous step's derivative: a write that did not restart it
    # would continue from a state it never computed, and differ.
    path = chain_script(tmp_scene, solver=solver)
    root = sofa_root(path)
    Sofa.Simulation.init(root)
    Sofa.Simulation.animateNSteps(root, 30)
    if with_block:
        with root.chain.beads.position.writeableArray() as positions:
            positions[5] += [0.0, 0.02, 0.0]
    else:
        root.chain.beads.position.writeableArray()[5] += [0.0, 0.02, 0.0]
    Sofa.Simulation.animateNSteps(root, 30)

    sim = fluxion.load(path)
    sim.step(30)
    beads = sim.objects["root/chain/beads"]
    moved = beads.positions.copy()
    moved[5] += [0.0, 0.02, 0.0]
    beads.positions = moved
    sim.step(30)
    assert np.array_equal(root.chain.beads.position.value, beads.positions)


def test_position_value_assignment_equals_fluxion_assignment(tmp_scene):
    path = chain_script(tmp_scene)
    root = sofa_root(path)
    Sofa.Simulation.init(root)
    Sofa.Simulation.animateNSteps(root, 10)
    root.chain.beads.velocity.value = np.zeros((6, 3))
    root.chain.beads.position = root.chain.beads.rest_position.value
    Sofa.Simulation.animateNSteps(root, 10)
    sim = fluxion.load(path)
    sim.step(10)
    beads = sim.objects["root/chain/beads"]
    beads.velocities = np.zeros((6, 3))
    beads.positions = beads.rest_positions
    sim.step(10)
    assert np.array_equal(root.chain.beads.position.value, beads.positions)


def test_scenes_importing_sofa_still_load_with_fluxion_load(tmp_scene):
    # The gallery's SofaPython3 scenes: the same trajectory through Sofa.Simulation.
    path = os.path.join(os.environ.get("FLUXION_SOURCE_DIR", "."), "scenes", "hanging_chain.py")
    if not os.path.exists(path):
        pytest.skip("the gallery is not next to the tests")
    root = sofa_root(path)
    Sofa.Simulation.init(root)
    Sofa.Simulation.animateNSteps(root, 100)
    sim = fluxion.load(path)
    sim.step(100)
    assert np.array_equal(root.chain.beads.position.value,
                          sim.objects["root/chain/beads"].positions)


def test_linkpath_target_and_array_values_before_init():
    # SofaPython3's example-mapping.py: `obj.linkpath.target()` is the object, and a position
    # given to addObject reads back as a NumPy array, so that two can be subtracted before init.
    root = Sofa.Core.Node("root")
    a = root.addObject("MechanicalObject", name="a", position=[[0.0, 0, 0], [1.0, 0, 0]])
    b = root.addObject("MechanicalObject", name="b", position=[[0.0, 0.5, 0], [1.0, 0.5, 0]])
    link = b.linkpath
    assert link == "@/b" and link.target() is b
    assert a.position.linkpath.target().getName() == "position"
    delta = link.target().position.value.copy() - a.position.value.copy()
    np.testing.assert_array_equal(delta, [[0, 0.5, 0], [0, 0.5, 0]])
    assert b.name.value == "b"  # strings stay strings
    assert scene_graph.xml_text(link) == "@/b" and type(scene_graph.xml_text(link)) is str


def test_run_writes_a_fifo_directly_never_replacing_it(tmp_scene, tmp_path):
    # `python3 -m fluxion run --output /dev/null` used to rename FILE.partial onto the device
    # (as root, /dev/null became a regular file). A FIFO stands in for the device here.
    import threading
    path = chain_script(tmp_scene, controller=FORCING_CONTROLLER)
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(open(fifo).read()), daemon=True)
    reader.start()
    status, _, err = run_script("-m", "fluxion", "run", path, "--steps", "5", "--output", fifo)
    reader.join(timeout=60)
    assert status == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and not os.path.exists(f"{fifo}.partial")
    header, rows = read_csv(received[0])
    assert [row[0] for row in rows] == [0, 1, 2, 3, 4, 5]


SECOND_PARENT = '''
def createScene(root):
    root.addChild("Modelling")
    root.addChild("Simulation")
    root.Simulation.addChild(root.Modelling)
'''


def test_a_second_parent_is_one_line_everywhere(tmp_scene):
    # SofaPython3's example-mapping.py adds an existing node to a second parent (SOFA's graph is a
    # DAG): refused at the call, in one line and no traceback, however the script runs.
    path = tmp_scene("dag.py", SECOND_PARENT)
    expected = (f"error: {path}:5: addChild: node 'Modelling' already is in a graph (expected a "
                "new node, or a name)")
    status, _, err = run_scene_runner(path, "--steps", "1", "--output", "-", check=False)
    assert status == 2 and expected in err and "Traceback" not in err
    status, _, err = run_script("-m", "fluxion", "run", path, "--steps", "1")
    assert status == 2 and err.strip() == expected
