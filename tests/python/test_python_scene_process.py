"""scene-runner runs a Python scene in a python3 process of its own (tools/scene_runner/
python_process.cpp): the scene comes back on a channel of its own, so what the script prints is
shown on stderr and never mixed into the scene; the channel is read with the scene size cap; the
child has a time limit and dies with scene-runner; a FIFO or a missing file is refused in one
line, without blocking (issue #25, item 13). Every hostile scene is written by the test."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import fluxion
from conftest import SCENE_RUNNER, read_csv, run_scene_runner

# One falling point: enough for scene-runner to load and step.
POINT = textwrap.dedent("""\
    root.dt = 0.01
    root.addObject("EulerExplicitSolver")
    root.addObject("MechanicalObject", name="dofs", position=[0, 0, 0])
    root.addObject("UniformMass", vertexMass=1)
""")


def scene(body):
    """A Python scene whose createScene(root) runs `body` (unindented lines)."""
    return "def createScene(root):\n" + textwrap.indent(body, "    ") + "    return root\n"


def error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith("error:")]


def process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (reaped by init soon) no longer runs.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[-1].split()[0] != "Z"


def test_what_the_scene_prints_goes_to_stderr_never_into_the_scene(tmp_scene):
    path = tmp_scene("printing.py", scene(
        'print("<Node name=\\"forged\\">")\nprint("building the scene")\n' + POINT))
    status, out, err = run_scene_runner(path, "--steps", "2", "--output", "-", check=False)
    assert status == 0, err
    header, rows = read_csv(out)
    assert header[:3] == ["step", "time", "root/dofs/p0.x"] and len(rows) == 3
    assert "building the scene" in err and '<Node name="forged">' in err


def test_python_m_fluxion_prints_only_the_xml_on_stdout(tmp_scene):
    path = tmp_scene("printing.py", scene('print("not XML")\n' + POINT))
    done = subprocess.run([sys.executable, "-m", "fluxion", path], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<Node") and "not XML" in done.stderr


def test_a_scene_larger_than_the_cap_is_stopped_while_it_is_read(tmp_scene):
    # 70 MB of XML, over the 64 MiB scene cap: refused in one line, without reading it all.
    path = tmp_scene("huge.py", scene('root.addObject("MechanicalObject", position="0 " * '
                                      '35_000_000)\n'))
    status, _, err = run_scene_runner(path, "--steps", "1", check=False)
    assert status == 2
    assert error_lines(err) == [
        f"error: {path}: the Python scene built more than 67108864 bytes of XML: stopped "
        "(expected a smaller scene, as for an XML scene)"]


def test_a_slow_scene_is_stopped_at_the_time_limit(tmp_scene):
    path = tmp_scene("slow.py", scene("import time\ntime.sleep(60)\n" + POINT))
    started = time.monotonic()
    status, _, err = run_scene_runner(path, "--python-timeout", "1", check=False)
    assert time.monotonic() - started < 30
    assert status == 2
    assert error_lines(err) == [
        f"error: {path}: the Python scene did not build its scene within 1 s: stopped "
        "(expected a faster createScene, or a longer --python-timeout SECONDS; 0 for none)"]


@pytest.mark.parametrize("terminate", [signal.SIGTERM, signal.SIGINT])
def test_python_dies_with_scene_runner(tmp_scene, tmp_path, terminate):
    pid_file = tmp_path / "python.pid"
    path = tmp_scene("waiting.py", scene(
        f'import os, time\nopen({str(pid_file)!r}, "w").write(str(os.getpid()))\n'
        'time.sleep(120)\n' + POINT))
    runner = subprocess.Popen([SCENE_RUNNER, path], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        python = int(pid_file.read_text())
        runner.send_signal(terminate)
        runner.wait(timeout=30)
        deadline = time.monotonic() + 10
        while process_exists(python) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not process_exists(python), "python3 outlived scene-runner"
    finally:
        runner.kill()
        runner.wait()


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    done = subprocess.run([SCENE_RUNNER, str(fifo)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert error_lines(done.stderr) == [
        f"error: {fifo}: is not a regular file (expected a scene file; a FIFO or device is never "
        "read)"]
    with pytest.raises(fluxion.SceneError) as raised:
        fluxion.load(str(fifo))
    assert str(raised.value) == (f"{fifo}: is not a regular file (expected a scene file; a FIFO "
                                 "or device is never read)")


def test_a_missing_scene_is_one_line(tmp_path):
    missing = str(tmp_path / "missing.py")
    status, _, err = run_scene_runner(missing, check=False)
    assert status == 2
    assert err.splitlines() == [
        f"error: {missing}: the scene file does not exist (expected a readable Python scene)"]
    with pytest.raises(fluxion.SceneError) as raised:
        fluxion.load(missing)
    assert str(raised.value) == (f"{missing}: the scene file does not exist (expected a "
                                 "readable Python scene)")
