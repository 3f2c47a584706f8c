"""examples/python/ runs and writes its plot (skipped without Matplotlib)."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR


def test_cloth_energy_example_writes_its_png(tmp_path):
    pytest.importorskip("matplotlib", reason="the example needs python3-matplotlib")
    output = tmp_path / "cloth.png"
    done = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "examples", "python",
                                                        "cloth_energy.py"),
                           "--output", str(output), "--end-time", "0.1"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # 100 steps of dt = 0.001 for each of the two default solvers.
    assert "EulerExplicitSolver: 100 steps to t = 0.1 s" in done.stdout
    assert "EulerImplicitSolver: 100 steps to t = 0.1 s" in done.stdout
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cloth_energy_example_reports_a_bad_solver_as_scene_runner_would(tmp_path):
    pytest.importorskip("matplotlib", reason="the example needs python3-matplotlib")
    done = subprocess.run([sys.executable, os.path.join(SOURCE_DIR, "examples", "python",
                                                        "cloth_energy.py"),
                           "--output", str(tmp_path / "x.png"), "--solvers", "NoSuchSolver"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --solver: ")
