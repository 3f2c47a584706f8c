"""scene-regress --cluster local:2 (tools/scene_regress/cluster.h): the suite's cases run as Dask
tasks and the report and exit status are those of a local run — for a passing selection of the
real suite and for a suite with a mismatching case."""
import importlib.util
import json
import os
import subprocess

import pytest

from conftest import SCENE_RUNNER, SOURCE_DIR

pytestmark = pytest.mark.skipif(importlib.util.find_spec("distributed") is None,
                                reason="needs Dask distributed (apt-get install "
                                       "python3-distributed)")

SCENE_REGRESS = os.path.join(os.path.dirname(SCENE_RUNNER), "scene-regress")
MANIFEST = os.path.join(SOURCE_DIR, "tests", "regression", "manifest.json")


def regress(*args):
    done = subprocess.run([SCENE_REGRESS, *args], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_cluster_run_reports_as_a_local_run():
    selection = ["--manifest", MANIFEST, "--filter", "^sofa_spring_test|^oscillator_1d$"]
    local = regress(*selection)
    cluster = regress(*selection, "--cluster", "local:2")
    assert local[0] == 0, local[2]
    assert cluster[:2] == local[:2], cluster[2]
    assert "8 cases: 8 PASS" in cluster[1]
    assert "Dask workers (local:2)" in cluster[2]


def test_a_mismatch_gives_the_same_report_and_status(tmp_path):
    # The oscillator's reference with one value changed: a mismatch, status 1.
    reference = os.path.join(SOURCE_DIR, "tests", "regression", "references", "oscillator_1d.csv")
    lines = open(reference).read().splitlines()
    cells = lines[3].split(",")
    cells[2] = repr(float(cells[2]) + 1e-3)
    lines[3] = ",".join(cells)
    (tmp_path / "oscillator.csv").write_text("\n".join(lines) + "\n")
    manifest = {"root": SOURCE_DIR, "defaults": {"rtol": 1e-9, "atol": 1e-12, "every": 10},
                "cases": [{"name": "oscillator", "scene": "scenes/oscillator_1d.scn",
                           "steps": 1000, "energy": True, "reference": "oscillator.csv"},
                          {"name": "spring", "scene": "scenes/sofa_spring_test.scn",
                           "steps": 100, "every": 1, "energy": True,
                           "reference": os.path.join(SOURCE_DIR, "tests", "regression",
                                                     "references", "sofa_spring_test.csv")}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    local = regress("--manifest", str(tmp_path / "manifest.json"))
    cluster = regress("--manifest", str(tmp_path / "manifest.json"), "--cluster", "local:2")
    assert local[0] == 1, local
    assert cluster[:2] == local[:2], cluster[2]
    assert "MISMATCH" in cluster[1]


def test_an_unusable_cluster_is_bad_input():
    status, _, stderr = regress("--manifest", MANIFEST, "--filter", "^oscillator_1d$",
                                "--cluster", "local:0", "--quiet")
    assert status == 2
    assert "error: --cluster local:0: " in stderr
