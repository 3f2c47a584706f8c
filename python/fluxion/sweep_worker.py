"""One case of a sweep, as a Dask task runs it on a worker (fluxion-sweep, docs/sweeps.md).

The scene is prepared once per worker process (``fluxion.prepare``: read, parsed and checked
once) and each case is an instance of it with the case's values written in, run as
``scene-runner SCENE --solver S --steps N -o DIR/case-<k>.h5`` runs the XML with those values:
the same trajectory writer, into ``case-<k>.h5.partial`` renamed to ``case-<k>.h5`` once
complete, then ``case-<k>.xdmf`` beside it. The case's result is written last, atomically, to
``case-<k>.json``: a case is finished when that file exists, which is what a resumed sweep reads.
"""
import json
import os
import threading
import time

# Prepared scenes of this process, by scene file and its state on disk (a long-lived worker of a
# cluster sees an edited scene as a new one), and the options that shape the build.
_prepared = {}
# The output policy and the thread count are process-wide: one case at a time per process (a
# worker started with several threads still runs its cases one after the other).
_lock = threading.Lock()


def _prepared_scene(job):
    import fluxion
    stat = os.stat(job["scene"])
    key = (job["scene"], stat.st_mtime_ns, stat.st_size, tuple(job["plugin_dirs"]),
           tuple(job["data_path"]))
    if key not in _prepared:
        _prepared.clear()  # one scene at a time: a worker of a finished sweep keeps no other
        _prepared[key] = fluxion.prepare(job["scene"], plugin_dirs=job["plugin_dirs"],
                                         data_path=job["data_path"])
    return _prepared[key]


def steps_until(sim, end_time):
    """scene-runner --end-time's count (Simulation::StepsUntil) from step 0."""
    import fluxion
    try:
        return sim.steps_until(end_time)
    except fluxion.UsageError as error:
        raise ValueError(
            f"--end-time {end_time!r} with dt = {sim.dt!r} needs too many steps") from error


def _one_line(error):
    """An exception as the summary's status: its first line (scene-runner's error line)."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def _write_json(path, data):
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as stream:
        json.dump(data, stream, indent=1)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, path)


def run_case(job):
    """Runs case job["case"] and returns its result (also written to case-<k>.json)."""
    with _lock:
        return _run_case(job)


def _run_case(job):
    import fluxion
    started = time.perf_counter()
    out, k = job["out"], job["case"]
    name = f"case-{k}"
    h5 = os.path.join(out, name + ".h5")
    result = {"case": k, "values": job["values"], "solver": job["solver"], "status": "ok",
              "wall_s": 0.0, "steps_per_s": 0.0, "steps": 0, "reports": [],
              "worker": f"{os.uname().nodename}:{os.getpid()}"}
    fluxion.set_thread_count(job["threads"])
    # Files the scene writes (exporters) go below the sweep's folder, as scene-runner
    # --output-dir would put them.
    fluxion.set_output_policy(directory=out, overwrite=True)
    stepping = 0.0
    try:
        sim = _prepared_scene(job).instantiate(job["values"], solver=job["solver"])
        steps = job["steps"] if job["steps"] is not None else steps_until(sim, job["end_time"])
        # A stale file of an earlier, killed attempt is replaced, never appended to.
        for stale in (h5, h5 + ".partial"):
            if os.path.lexists(stale):
                os.remove(stale)
        writer = fluxion.Hdf5Trajectory(h5 + ".partial")
        writer.begin(sim)
        writer.record(sim)
        stepping_started = time.perf_counter()
        try:
            for _ in range(steps):
                sim.step()
                writer.record(sim)
            stepping = time.perf_counter() - stepping_started
            sim.finish()
        finally:
            written = writer.end(sim)
        if not written:
            raise OSError(f"{h5}.partial: {writer.error or 'write failed'}")
        os.replace(h5 + ".partial", h5)
        fluxion.write_xdmf(h5, os.path.basename(h5), os.path.join(out, name + ".xdmf"))
        result["steps"] = sim.step_count
        for obj, point in job["reports"]:
            positions = sim.objects[obj].positions
            result["reports"].append([float(x) for x in positions[point]])
    except Exception as error:  # recorded: the sweep goes on with the other cases
        result["status"] = _one_line(error)
    result["wall_s"] = time.perf_counter() - started
    if stepping > 0:
        result["steps_per_s"] = result["steps"] / stepping
    _write_json(os.path.join(out, name + ".json"), result)
    return result
