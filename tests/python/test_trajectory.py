"""Trajectories stepped from Python equal scene-runner's CSV bit for bit: same scene, same steps,
every position, velocity and energy compared with ==, never a tolerance. The CSV is the
reference: scene-runner is an independent host of the same library, and its numbers are in
shortest round-trip form, so float() recovers each double exactly."""
import math

import pytest

import fluxion
from conftest import python_row, read_csv, run_scene_runner, scene_path

STEPS = 50


def reference(scene, *options):
    _, out, _ = run_scene_runner(scene, "--steps", str(STEPS), "--energy", "--output", "-",
                                 "--quiet", *options)
    return read_csv(out)


def python_trajectory(sim):
    rows = [python_row(sim, energy=True)]
    for _ in range(STEPS):
        sim.step()
        rows.append(python_row(sim, energy=True))
    return rows


@pytest.mark.parametrize("scene", ["hanging_chain.scn", "cloth_grid.scn", "sofa_beam_grid.scn",
                                   "planar_2d.scn", "two_solver_nodes.scn"])
def test_single_steps_match_scene_runner_bit_for_bit(scene):
    header, expected = reference(scene_path(scene))
    rows = python_trajectory(fluxion.load(scene_path(scene)))
    assert len(rows[0]) == len(header)
    assert rows == expected


def test_run_with_every_and_callback_records_scene_runners_rows():
    header, expected = reference(scene_path("cloth_grid.scn"), "--every", "7")
    sim = fluxion.load(scene_path("cloth_grid.scn"))
    rows = [python_row(sim, energy=True)]
    ran = sim.run(steps=STEPS, every=7, callback=lambda s: rows.append(python_row(s, True)))
    assert ran == STEPS
    assert [row[0] for row in rows] == [0, 7, 14, 21, 28, 35, 42, 49, 50]
    assert rows == expected


def test_replace_solver_matches_scene_runner_solver_option():
    header, expected = reference(scene_path("hanging_chain.scn"), "--solver",
                                 "EulerImplicitSolver", "--param", "rayleighStiffness=0.1")
    sim = fluxion.load(scene_path("hanging_chain.scn"))
    sim.replace_solver("EulerImplicitSolver", rayleighStiffness=0.1)
    assert sim.solvers == [("root", "EulerImplicitSolver")]
    assert python_trajectory(sim) == expected


def test_end_time_counts_steps_as_scene_runner():
    # dt = 0.002: t = 0.01 is reached after 5 steps (not 6, whatever the rounding of 5 × 0.002).
    sim = fluxion.load(scene_path("hanging_chain.scn"))
    assert sim.run(end_time=0.01) == 5
    assert sim.step_count == 5
    # From the current step on: 0.02 is 5 steps further.
    assert sim.steps_until(0.02) == 5
    assert sim.steps_until(0.01) == 0


def test_end_time_count_is_settled_on_the_times():
    # 29 999 999.1 s is exactly 99 999 997 steps of 0.3 s; the quotient in doubles rounds to a
    # step more (what run(end_time=…) once counted): scene-runner's count is the first.
    sim = fluxion.load_string("""<Node name="root" dt="0.3"><Node name="p"><EulerExplicitSolver/>
        <MechanicalObject name="dofs" position="0 0 0"/><UniformMass totalMass="1"/></Node></Node>""")
    assert math.ceil(29999999.1 / 0.3 - 1e-9) == 99999998
    assert sim.steps_until(29999999.1) == 99999997
    assert sim.time_at(99999997) == 29999999.1


def test_solver_outputs_match_scene_runner_columns():
    _, out, _ = run_scene_runner(scene_path("hanging_chain.scn"), "--steps", "20",
                                 "--solver", "VariationalSymplecticSolver", "--solver-outputs",
                                 "--output", "-", "--quiet")
    header, rows = read_csv(out)
    column = header.index("root/VariationalSymplecticSolver/hamiltonian")
    sim = fluxion.load(scene_path("hanging_chain.scn"))
    sim.replace_solver("VariationalSymplecticSolver")
    hamiltonians = [sim.solver_outputs()]
    for _ in range(20):
        sim.step()
        hamiltonians.append(sim.solver_outputs())
    assert list(hamiltonians[0]) == ["root/VariationalSymplecticSolver/hamiltonian"]
    # Before the first step the solver has no Hamiltonian yet: NaN in both (NaN != NaN).
    ours = [h["root/VariationalSymplecticSolver/hamiltonian"] for h in hamiltonians]
    theirs = [row[column] for row in rows]
    assert math.isnan(ours[0]) and math.isnan(theirs[0])
    assert ours[1:] == theirs[1:]
