"""Bad input raises the documented exception, with the message scene-runner prints for the same
input (its stderr line without "error: "), and the category of its exit status."""
import numpy as np
import pytest

import fluxion
from conftest import run_scene_runner

UNKNOWN_COMPONENT = """<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="1"/>
  <SpringForceFeld/>
</Node>
"""

MISSING_PLUGIN = """<Node name="root" dt="0.01">
  <RequiredPlugin name="no_such_plugin"/>
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <UniformMass totalMass="1"/>
</Node>
"""

# A spring of 1e12 N/m on 1 kg at dt = 1 s (ω·dt = 1e6) under forward Euler: the amplitude grows
# by about 1e12 per step and overflows within about 30 steps.
BLOW_UP = """<Node name="root" dt="1" gravity="0 0 0">
  <EulerExplicitSolver symplectic="false"/>
  <MechanicalObject name="dofs" template="Vec1d" position="0 1"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 1e12 0 0.5"/>
</Node>
"""


def scene_runner_errors(path, *options):
    status, _, err = run_scene_runner(path, "--steps", "100", "--output", "-", *options,
                                      check=False)
    lines = [line[len("error: "):] for line in err.splitlines() if line.startswith("error: ")]
    return status, lines


def test_unknown_component_is_a_scene_error_with_scene_runners_message(tmp_scene):
    path = tmp_scene("unknown.scn", UNKNOWN_COMPONENT)
    status, lines = scene_runner_errors(path)
    with pytest.raises(fluxion.SceneError) as caught:
        fluxion.load(path)
    assert status == caught.value.exit_status == 2
    assert str(caught.value).split("\n") == lines
    assert caught.value.diagnostics[0].line == 5
    assert "did you mean 'SpringForceField'" in str(caught.value)


def test_missing_plugin_is_a_plugin_error_with_scene_runners_message(tmp_scene):
    path = tmp_scene("plugin.scn", MISSING_PLUGIN)
    status, lines = scene_runner_errors(path)
    with pytest.raises(fluxion.PluginError) as caught:
        fluxion.load(path)
    assert status == caught.value.exit_status == 3
    assert [str(caught.value)] == lines


def test_divergence_is_a_numerical_error_with_scene_runners_message(tmp_scene):
    path = tmp_scene("blow_up.scn", BLOW_UP)
    status, lines = scene_runner_errors(path, "--no-stability-check")
    sim = fluxion.load(path)
    with pytest.raises(fluxion.NumericalError) as caught:
        sim.step(100)
    assert status == caught.value.exit_status == 4
    assert [str(caught.value)] == lines
    assert caught.value.line == 2
    # The last good state stays: finite, one step before the failure.
    assert sim.step_count == caught.value.step - 1
    assert np.isfinite(sim.objects["root/dofs"].positions).all()


def test_missing_file_is_a_scene_error():
    with pytest.raises(fluxion.SceneError) as caught:
        fluxion.load("/nonexistent/scene.scn")
    assert caught.value.diagnostics[0].file == "/nonexistent/scene.scn"


POINTS = """<Node name="root" dt="0.01">
  <EulerExplicitSolver/>
  <MechanicalObject name="dofs" template="Vec3d" position="0 0 0  1 0 0"/>
  <UniformMass totalMass="1"/>
</Node>"""


@pytest.mark.parametrize("value, message", [
    (np.zeros((3, 3)), "root/dofs: positions must have shape (2, 3), got (3, 3)"),
    (np.zeros(6), "root/dofs: positions must have shape (2, 3), got (6,)"),
    (np.zeros((2, 3), dtype=np.complex128),
     "root/dofs: positions must hold real numbers (float64), got dtype complex128"),
    (np.zeros((2, 3), dtype=bool),
     "root/dofs: positions must hold real numbers (float64), got dtype bool"),
    ([["a", "b", "c"], ["d", "e", "f"]],
     "root/dofs: positions must hold real numbers (float64), got dtype <U1"),
])
def test_wrong_shape_or_dtype_is_a_usage_error(value, message):
    sim = fluxion.load_string(POINTS)
    dofs = sim.objects["root/dofs"]
    before = dofs.positions.copy()
    with pytest.raises(fluxion.UsageError) as caught:
        dofs.positions = value
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert (dofs.positions == before).all()  # nothing was written


def test_unknown_solver_in_replace_solver_is_a_scene_error():
    sim = fluxion.load_string(POINTS)
    with pytest.raises(fluxion.SceneError) as caught:
        sim.replace_solver("RungeKutta4")
    assert "did you mean 'RungeKutta4Solver'" in str(caught.value)


def test_run_arguments_are_checked():
    sim = fluxion.load_string(POINTS)
    with pytest.raises(fluxion.UsageError):
        sim.run()
    with pytest.raises(fluxion.UsageError):
        sim.run(steps=3, every=0)
