"""fluxion-sweep (python/fluxion/sweep.py, docs/sweeps.md): the 5 stiffness × 3 solvers sweep of
the gallery cloth equals 15 separate scene-runner runs of the XML with each stiffness written in,
bit for bit — on a LocalCluster of 2 workers, on a separately started dask-scheduler with two
dask-worker processes, with one of those workers killed mid-sweep, and across an interrupted and
resumed sweep. The reference is scene-runner's own output (its HDF5 trajectories), never the
sweep's.
"""
import csv
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import SCENE_RUNNER, run_scene_runner, scene_path

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None or importlib.util.find_spec("h5py") is None,
    reason="needs Dask distributed and h5py (apt-get install python3-distributed python3-h5py)")

SWEEP = os.path.join(os.path.dirname(SCENE_RUNNER), "fluxion-sweep")
SPRINGS = "root/cloth/MeshSpringForceField.linesStiffness"
STIFFNESS = ["100", "200", "300", "400", "500"]  # what 100:500:5 gives
SOLVERS = ["EulerExplicitSolver", "RungeKutta4Solver", "EulerImplicitSolver"]
STEPS = 20
REPORTED = [63, 36]  # a free corner and an inner point of the 8×8 cloth
ARGUMENTS = [scene_path("cloth_grid.scn"), "--set", f"{SPRINGS}=100:500:5",
             "--solver", ",".join(SOLVERS), "--steps", str(STEPS), "--quiet",
             "--report", "root/cloth/dofs:63", "--report", "root/cloth/dofs:36"]
# A generous bound for one sweep on a loaded 2-core machine; a hung sweep fails, never blocks.
TIMEOUT = 240


def sweep(out, *extra, check=True):
    done = subprocess.run([SWEEP, *ARGUMENTS, *extra, "--out", str(out)], capture_output=True,
                          text=True, timeout=TIMEOUT)
    if check and done.returncode != 0:
        raise AssertionError(f"fluxion-sweep failed ({done.returncode}): {done.stderr}")
    return done


def summary(out):
    with open(os.path.join(out, "summary.csv"), newline="") as stream:
        return list(csv.reader(stream))


def final_positions(h5_path):
    import h5py
    with h5py.File(h5_path, "r") as f:
        return f["objects/root/cloth/dofs/position"][-1]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The 15 cases as separate scene-runner runs: the cloth's XML with each stiffness written
    in, with --solver; case k = solver k // 5, stiffness k % 5 (solvers vary slowest)."""
    folder = tmp_path_factory.mktemp("reference")
    with open(scene_path("cloth_grid.scn")) as stream:
        xml = stream.read()
    assert xml.count('linesStiffness="100"') == 1
    runs = []
    for solver in SOLVERS:
        for ks in STIFFNESS:
            k = len(runs)
            scene = folder / f"cloth-{ks}.scn"
            scene.write_text(xml.replace('linesStiffness="100"', f'linesStiffness="{ks}"'))
            h5 = folder / f"ref-{k}.h5"
            run_scene_runner(str(scene), "--solver", solver, "--steps", str(STEPS), "-o", str(h5),
                             "--quiet")
            runs.append({"values": [ks, solver], "h5": str(h5),
                         "final": final_positions(str(h5))})
    return runs


def assert_same_as_reference(out, reference):
    """summary.csv's values and every case's trajectory equal scene-runner's, bit for bit."""
    rows = summary(out)
    header = rows[0]
    assert header == ["case", SPRINGS, "solver", "status", "wall_s", "steps_per_s",
                      "root/cloth/dofs/p63.x", "root/cloth/dofs/p63.y", "root/cloth/dofs/p63.z",
                      "root/cloth/dofs/p36.x", "root/cloth/dofs/p36.y", "root/cloth/dofs/p36.z"]
    assert len(rows) == 1 + len(reference)
    import h5py
    for k, (row, ref) in enumerate(zip(rows[1:], reference)):
        assert row[:4] == [str(k)] + ref["values"] + ["ok"], row
        assert float(row[5]) > 0  # steps per second measured
        # Full precision: each number parses back to scene-runner's double exactly.
        reported = [float(x) for x in row[6:]]
        expected = [float(x) for p in REPORTED for x in ref["final"][p]]
        assert reported == expected, (k, reported, expected)
        # The trajectory: every dataset of scene-runner's file, the same values and shapes.
        with h5py.File(ref["h5"], "r") as a, h5py.File(os.path.join(out, f"case-{k}.h5"), "r") as b:
            names = []
            a.visit(names.append)
            other = []
            b.visit(other.append)
            assert names == other
            for name in names:
                if isinstance(a[name], h5py.Dataset):
                    assert a[name].shape == b[name].shape, name
                    assert (a[name][()] == b[name][()]).all(), name
                assert dict(a[name].attrs) == dict(b[name].attrs), name
            # The file's attributes too, but for the scene's path (the reference's is a copy).
            assert {**a.attrs, "scene": ""} == {**b.attrs, "scene": ""}
        assert os.path.isfile(os.path.join(out, f"case-{k}.xdmf"))


def test_local_cluster_of_two_workers_equals_fifteen_scene_runner_runs(tmp_path, reference):
    out = tmp_path / "sweep"
    sweep(out, "--workers", "2")
    assert_same_as_reference(out, reference)
    # The same run writes the same bytes: case 0 is the scene as written (stiffness 100, its own
    # solver), and its file is scene-runner's of that scene, byte for byte (the file records the
    # scene's path, so the reference's copies differ there).
    own = tmp_path / "own.h5"
    run_scene_runner(scene_path("cloth_grid.scn"), "--steps", str(STEPS), "-o", str(own),
                     "--quiet")
    assert own.read_bytes() == (out / "case-0.h5").read_bytes()


class Cluster:
    """A dask-scheduler on a free port of 127.0.0.1 and `workers` dask-worker processes (one
    thread each, no nanny: killing one loses it), stopped by stop()."""

    def __init__(self, folder, workers=2):
        self.file = str(folder / "scheduler.json")
        common = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.scheduler = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", "0", "--no-dashboard", "--scheduler-file", self.file], **common)
        deadline = time.monotonic() + 60
        while not os.path.exists(self.file) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)  # the file is written whole before the scheduler listens
        with open(self.file) as stream:
            self.address = json.load(stream)["address"]
        self.workers = [subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", self.file,
             "--nthreads", "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1",
             "--local-directory", str(folder)], **common) for _ in range(workers)]
        from distributed import Client
        with Client(self.address, timeout="30s") as client:
            client.wait_for_workers(workers, timeout=60)

    def stop(self):
        for process in self.workers + [self.scheduler]:
            if process.poll() is None:
                process.terminate()
        for process in self.workers + [self.scheduler]:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def cluster(tmp_path):
    started = Cluster(tmp_path)
    yield started
    started.stop()


def test_separate_scheduler_and_two_workers_give_the_same_table(tmp_path, reference, cluster):
    out = tmp_path / "sweep"
    sweep(out, "--scheduler", cluster.address)
    assert_same_as_reference(out, reference)
    # Both workers ran cases.
    workers = {json.load(open(out / f"case-{k}.json"))["worker"] for k in range(15)}
    assert len(workers) == 2, workers


def finished_cases(out):
    return [k for k in range(15) if (out / f"case-{k}.json").exists()]


def test_killing_a_worker_mid_sweep_reruns_its_cases_elsewhere(tmp_path, reference, cluster):
    out = tmp_path / "sweep"
    process = subprocess.Popen([SWEEP, *ARGUMENTS, "--scheduler", cluster.address,
                                "--out", str(out)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    # Once each worker has finished a case (both take part), the first worker dies.
    victim = cluster.workers[0]
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and process.poll() is None:
        pids = {json.load(open(out / f"case-{k}.json"))["worker"].rsplit(":", 1)[1]
                for k in finished_cases(out)}
        if str(victim.pid) in pids and len(pids) == 2:
            break
        time.sleep(0.01)
    assert process.poll() is None, "the sweep ended before a worker could be killed"
    done_before = len(finished_cases(out))
    assert done_before < 15
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    _, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, stderr
    assert_same_as_reference(out, reference)
    # The cases after the kill ran on the surviving worker.
    survivor = str(cluster.workers[1].pid)
    late = [json.load(open(out / f"case-{k}.json"))["worker"] for k in range(15)]
    assert sum(w.endswith(":" + survivor) for w in late) >= 15 - done_before


def test_an_interrupted_sweep_reruns_only_the_missing_cases(tmp_path, reference):
    out = tmp_path / "sweep"
    process = subprocess.Popen([SWEEP, *ARGUMENTS, "--workers", "1", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + TIMEOUT
    while len(finished_cases(out)) < 3 and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()[1]
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)  # Ctrl-C
    _, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 130, stderr
    before = {k: (out / f"case-{k}.json").read_bytes() for k in finished_cases(out)}
    assert 3 <= len(before) < 15, sorted(before)
    rows = summary(out)
    assert [r[3] for r in rows[1:]].count("not run") == 15 - len(before)

    again = sweep(out, "--workers", "1")
    assert_same_as_reference(out, reference)
    # The finished cases were not run again: their results are the same bytes (wall time
    # included), and the second run said so.
    for k, data in before.items():
        assert (out / f"case-{k}.json").read_bytes() == data, k
    del again


def test_a_failed_case_is_recorded_and_the_sweep_goes_on(tmp_path):
    out = tmp_path / "sweep"
    done = subprocess.run([SWEEP, scene_path("cloth_grid.scn"), "--set", f"{SPRINGS}=100,-5,200",
                           "--steps", "3", "--workers", "1", "--out", str(out), "--quiet"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 1, done.stderr
    rows = summary(out)
    assert [r[:2] for r in rows[1:]] == [["0", "100"], ["1", "-5"], ["2", "200"]]
    assert rows[1][2] == rows[3][2] == "ok"
    # The case's status is the error the XML with -5 written in gives scene-runner.
    scene = tmp_path / "cloth.scn"
    scene.write_text(open(scene_path("cloth_grid.scn")).read().replace(
        'linesStiffness="100"', 'linesStiffness="-5"'))
    status, _, stderr = run_scene_runner(str(scene), "--steps", "3", check=False)
    assert status == 2
    expected = [line for line in stderr.splitlines() if line.startswith("error: ")][0]
    expected = expected.removeprefix("error: ")
    assert rows[2][2] == expected.replace(str(scene), scene_path("cloth_grid.scn"))
    assert not (out / "case-1.h5").exists()


def test_bad_arguments_stop_before_any_case_runs(tmp_path):
    for extra, message in [
            (["--set", "root/cloth/springs.linesStiffness=1,2"],
             "override root/cloth/springs.linesStiffness: no component or node 'springs'"),
            (["--set", f"{SPRINGS}=1:2:x"], "is not a count"),
            (["--set", f"{SPRINGS}=1,2", "--report", "root/cloth/dofs:64"],
             "'root/cloth/dofs' has 64 points")]:
        done = subprocess.run([SWEEP, scene_path("cloth_grid.scn"), *extra, "--steps", "1",
                               "--out", str(tmp_path / "sweep")], capture_output=True,
                              text=True, timeout=TIMEOUT)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("error: ") and message in done.stderr, done.stderr
        assert not (tmp_path / "sweep" / "case-0.json").exists()
