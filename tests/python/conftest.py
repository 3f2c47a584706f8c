"""Shared helpers of the Python tests: where scene-runner and the sources are (from CTest's
environment, see CMakeLists.txt), running scene-runner, and reading its CSV exactly."""
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("FLUXION_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
SCENE_RUNNER = os.environ.get("FLUXION_SCENE_RUNNER", "scene-runner")


def scene_path(name):
    return os.path.join(SOURCE_DIR, "scenes", name)


def run_scene_runner(*args, check=True):
    """scene-runner's (status, stdout, stderr) for ARGS."""
    done = subprocess.run([SCENE_RUNNER, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise AssertionError(f"scene-runner {' '.join(args)} failed ({done.returncode}): "
                             f"{done.stderr}")
    return done.returncode, done.stdout, done.stderr


def read_csv(text):
    """(header, rows) of a trajectory CSV, every number parsed with float(): scene-runner
    writes the shortest text that parses back to the same double, so this is exact."""
    lines = text.strip().split("\n")
    header = lines[0].split(",")
    return header, [[float(cell) for cell in line.split(",")] for line in lines[1:]]


def python_row(sim, energy=False):
    """The state of `sim` in scene-runner's column order: step, time, then per object its
    positions and velocities point by point, then kinetic, potential, total with `energy`."""
    row = [float(sim.step_count), sim.time]
    for obj in sim.objects.values():
        row += obj.positions.ravel().tolist() + obj.velocities.ravel().tolist()
    if energy:
        e = sim.energy()
        row += [e["kinetic"], e["potential"], e["total"]]
    return row


@pytest.fixture
def tmp_scene(tmp_path):
    """Writes TEXT to NAME in a fresh folder and returns its path."""
    def write(name, text):
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return write
