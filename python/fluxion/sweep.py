"""fluxion-sweep: many runs of one scene with changed data, as Dask tasks (docs/sweeps.md).

    fluxion-sweep scenes/cloth_grid.scn \\
        --set root/cloth/MeshSpringForceField.linesStiffness=100:500:5 \\
        --solver EulerExplicitSolver,RungeKutta4Solver --steps 200 --out sweep/

Each case is the scene with its values written in, run as scene-runner runs it: DIR/case-<k>.h5
(and .xdmf) as ``scene-runner -o`` writes them, bit for bit, and one row of DIR/summary.csv.
Cases are Dask tasks, on a LocalCluster of --workers processes (default: one per core) or on the
cluster of --scheduler ADDRESS. A failed case is recorded and the sweep goes on; a sweep run
again with the same arguments runs only the cases that have not finished.

Exit status: 0 every case ran, 1 some case failed (its status in summary.csv), 2 bad arguments,
scene or output folder, 3 plugin problem, 130 interrupted.
"""
import argparse
import csv
import json
import logging
import os
import signal
import sys
import time

from .sweep_cases import CaseError, build_cases, parse_report, parse_set, parse_values, \
    read_case_table
from .sweep_worker import run_case

EXIT_OK, EXIT_FAILED_CASES, EXIT_INVALID, EXIT_PLUGIN, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def _arguments(argv):
    parser = argparse.ArgumentParser(
        prog="fluxion-sweep",
        description="Run a scene many times with changed data (a parameter sweep) as Dask "
                    "tasks, on this machine or a cluster.",
        epilog="PATH names a component's data as node/path/object.data (an unnamed object by its "
               "type, as trajectory column ids do: root/cloth/MeshSpringForceField."
               "linesStiffness), a node's as node/path.data (root.gravity), or dt. VALUES: a,b,c "
               "| a:b:n | a:b:n:log. Exit status: 0 all cases ran, 1 some case failed, 2 bad "
               "input, 3 plugin problem, 130 interrupted. See docs/sweeps.md.")
    parser.add_argument("scene", help="the scene file (XML)")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="PATH=VALUES",
                        help="values of one datum (repeatable; the last varies fastest)")
    parser.add_argument("--solver", default=None, metavar="A,B,...",
                        help="ODE solvers to run each case with (as scene-runner --solver; "
                             "they vary slowest)")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--steps", type=int, default=None, help="steps per case (default 100)")
    length.add_argument("--end-time", type=float, default=None,
                        help="run each case to this time [s], as scene-runner --end-time")
    combine = parser.add_mutually_exclusive_group()
    combine.add_argument("--grid", action="store_true", help="every combination (the default)")
    combine.add_argument("--zip", action="store_true",
                         help="the i-th values of every --set together")
    combine.add_argument("--cases", metavar="TABLE.csv",
                         help="the cases as a CSV table: a header of data paths (and optionally "
                              "'solver'), one row per case")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="start a LocalCluster of this many worker processes (default: the "
                            "number of cores)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="use the Dask cluster of this scheduler (tcp://host:8786)")
    parser.add_argument("--report", action="append", default=[], metavar="OBJECT:INDEX",
                        help="add the final position of this point to the summary (repeatable)")
    parser.add_argument("--out", required=True, metavar="DIR", help="the output folder")
    parser.add_argument("--plugin-dir", action="append", default=[], metavar="DIR",
                        help="a further plugin folder, as scene-runner --plugin-dir")
    parser.add_argument("--data-path", action="append", default=[], metavar="DIR",
                        help="a further folder of files the scene names, as scene-runner")
    parser.add_argument("--threads-per-case", type=int, default=1,
                        help="Fluxion threads in each case (default 1: the cases are the "
                             "parallelism; results are the same whatever the count)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    return parser.parse_args(argv)


def _error(message, status):
    for line in str(message).splitlines():
        print(f"error: {line}", file=sys.stderr)
    return status


def _plan(args):
    """The sweep's description (what DIR/sweep.json holds) and its cases."""
    if args.steps is not None and args.steps < 0:
        raise CaseError("--steps: expected a count of steps ≥ 0")
    if args.workers is not None and args.workers < 1:
        raise CaseError("--workers: expected at least 1")
    if args.threads_per_case < 0:
        raise CaseError("--threads-per-case: expected a count ≥ 0 (0: Fluxion's default)")
    if args.cases and args.sets:
        raise CaseError("--cases and --set: give the cases one way")
    sets = [parse_set(s) for s in args.sets]
    solvers = parse_values(args.solver, "--solver") if args.solver else []
    table = read_case_table(args.cases) if args.cases else None
    paths, cases = build_cases(sets, solvers, "zip" if args.zip else "grid", table)
    reports = [parse_report(r) for r in args.report]
    sweep = {
        "scene": os.path.abspath(args.scene),
        "paths": paths,
        "solvers": bool(solvers) or (table is not None and "solver" in table[0]),
        "steps": args.steps if args.steps is not None or args.end_time is not None else 100,
        "end_time": args.end_time,
        "reports": [list(r) for r in reports],
        "cases": cases,
        "plugin_dirs": [os.path.abspath(d) for d in args.plugin_dir],
        "data_path": [os.path.abspath(d) for d in args.data_path],
    }
    # As sweep.json holds it (tuples become lists), so that a resumed sweep compares equal.
    return json.loads(json.dumps(sweep))


def _check_scene(sweep):
    """Prepares the scene here once: a scene, a data path or a reported point that cannot work
    stops the sweep before any case runs. Returns an exit status, the message, and the dimension
    of each reported object."""
    import fluxion
    try:
        prepared = fluxion.prepare(sweep["scene"], plugin_dirs=sweep["plugin_dirs"],
                                   data_path=sweep["data_path"])
    except fluxion.PluginError as error:
        return EXIT_PLUGIN, str(error), {}
    except fluxion.Error as error:
        return EXIT_INVALID, str(error), {}
    first = sweep["cases"][0]
    try:
        sim = prepared.instantiate(first["values"], solver=first["solver"])
    except fluxion.SceneError as error:
        sim = None
        # A path naming nothing fails every case: stop. A bad value is that case's failure.
        paths = [d.format() for d in error.diagnostics
                 if d.line == 0 and d.message.startswith("override ")]
        if paths:
            return EXIT_INVALID, "\n".join(paths), {}
    except fluxion.Error:
        sim = None
    if sim is None:  # the first case fails by its value: the scene as written has the objects
        sim = prepared.instantiate()
    dimensions = {}
    for obj, point in sweep["reports"]:
        if obj not in sim.objects:
            return EXIT_INVALID, (f"--report {obj}:{point}: no object '{obj}' (expected one of: "
                                  f"{', '.join(sim.objects)})"), {}
        count = sim.objects[obj].positions.shape[0]
        if point >= count:
            return EXIT_INVALID, (f"--report {obj}:{point}: '{obj}' has {count} points "
                                  f"(expected an index below {count})"), {}
        dimensions[obj] = sim.objects[obj].positions.shape[1]
    return EXIT_OK, "", dimensions


def _finished(out, count):
    """The results of the cases a previous run of the sweep finished: case-<k>.json, and for a
    case that ran, its complete case-<k>.h5."""
    done = {}
    for k in range(count):
        path = os.path.join(out, f"case-{k}.json")
        try:
            with open(path, encoding="utf-8") as stream:
                result = json.load(stream)
        except (OSError, ValueError):
            continue
        if result.get("case") != k:
            continue
        if result.get("status") == "ok" and not os.path.isfile(
                os.path.join(out, f"case-{k}.h5")):
            continue
        done[k] = result
    return done


def _start_sweep_folder(out, sweep):
    """Creates DIR and its sweep.json, or checks that DIR holds this same sweep."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "sweep.json")
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as stream:
                previous = json.load(stream)
        except (OSError, ValueError):
            previous = None
        if previous != sweep:
            raise CaseError(f"--out {out}: holds another sweep (its sweep.json differs: expected "
                            "the same scene and arguments to resume it, or another folder)")
        return
    with open(path + ".tmp", "w", encoding="utf-8") as stream:
        json.dump(sweep, stream, indent=1)
    os.replace(path + ".tmp", path)


def _write_summary(out, sweep, results, dimensions):
    """DIR/summary.csv: one row per case, in case order; numbers in full precision (repr).
    `dimensions`: of each reported object (its columns .x, .y, .z)."""
    header = ["case"] + sweep["paths"] + (["solver"] if sweep["solvers"] else [])
    header += ["status", "wall_s", "steps_per_s"]
    axes = "xyz"
    for obj, point in sweep["reports"]:
        header += [f"{obj}/p{point}.{axes[a]}" for a in range(dimensions[obj])]
    rows = []
    for k, case in enumerate(sweep["cases"]):
        result = results.get(k)
        row = [str(k)] + [text for _, text in case["values"]]
        if sweep["solvers"]:
            row.append(case["solver"] or "")
        if result is None:
            row += ["not run", "", ""]
        else:
            row += [result["status"], repr(result["wall_s"]), repr(result["steps_per_s"])]
        for index, (obj, _) in enumerate(sweep["reports"]):
            reports = result["reports"] if result else []
            if index < len(reports):
                row += [repr(float(x)) for x in reports[index]]
            else:
                row += [""] * dimensions[obj]
        rows.append(row)
    path = os.path.join(out, "summary.csv")
    with open(path + ".tmp", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(header)
        writer.writerows(rows)
    os.replace(path + ".tmp", path)
    return path


class _Progress:
    """A bar on stderr: done/total, failures, elapsed time."""

    def __init__(self, total, done, quiet):
        self.total, self.done, self.failed, self.quiet = total, done, 0, quiet
        self.started = time.monotonic()
        self.tty = sys.stderr.isatty()

    def update(self, result=None):
        if result is not None:
            self.done += 1
            self.failed += result["status"] != "ok"
        if self.quiet:
            return
        width = 30
        filled = width * self.done // max(self.total, 1)
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} cases"
                f"{f', {self.failed} failed' if self.failed else ''}, "
                f"{time.monotonic() - self.started:.1f} s")
        # On a terminal the bar redraws itself; in a log, one line per case.
        print(("\r" + line) if self.tty else line, end="" if self.tty else "\n",
              file=sys.stderr, flush=True)

    def close(self):
        if self.tty and not self.quiet:
            print(file=sys.stderr, flush=True)


def _client(args):
    """A Dask client: of the given scheduler, or of a LocalCluster of worker processes (one
    thread each: the cases are the parallelism)."""
    from distributed import Client, LocalCluster
    if args.scheduler:
        return Client(args.scheduler, timeout="30s"), None
    workers = args.workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster), cluster


def _dashboard_text(client):
    try:
        import bokeh  # noqa: F401  (Dask's dashboard needs it)
    except ImportError:
        return "Dask dashboard: not available (it needs bokeh, which Debian 12 does not package)"
    return f"Dask dashboard: {client.dashboard_link}"


def main(argv=None):
    args = _arguments(argv)
    try:
        sweep = _plan(args)
    except CaseError as error:
        return _error(error, EXIT_INVALID)
    import fluxion
    if not fluxion.has_hdf5():
        return _error("this Fluxion was built without HDF5 (expected a build with libhdf5-dev: "
                      "each case writes case-<k>.h5)", EXIT_INVALID)
    if not os.path.isfile(sweep["scene"]):
        return _error(f"{args.scene}: no such scene file", EXIT_INVALID)
    status, message, dimensions = _check_scene(sweep)
    if status != EXIT_OK:
        return _error(message, status)
    out = os.path.abspath(args.out)
    try:
        _start_sweep_folder(out, sweep)
    except CaseError as error:
        return _error(error, EXIT_INVALID)
    except OSError as error:
        return _error(f"--out {args.out}: cannot create the folder ({error.strerror})",
                      EXIT_INVALID)

    cases = sweep["cases"]
    results = _finished(out, len(cases))
    if results and not args.quiet:
        print(f"resuming: {len(results)} of {len(cases)} cases already finished in {args.out}",
              file=sys.stderr)
    todo = [k for k in range(len(cases)) if k not in results]
    progress = _Progress(len(cases), len(results), args.quiet)
    interrupted = False
    client = cluster = None
    # SIGTERM ends the sweep as Ctrl-C does: finished cases stay finished.
    previous_term = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        if todo:
            from distributed import as_completed
            client, cluster = _client(args)
            if not args.quiet:
                workers = len(client.scheduler_info().get("workers", {}))
                print(f"{len(todo)} cases on {workers} Dask workers "
                      f"({args.scheduler or 'LocalCluster'}); {_dashboard_text(client)}",
                      file=sys.stderr)
            jobs = []
            for k in todo:
                jobs.append({"case": k, "scene": sweep["scene"], "values": cases[k]["values"],
                             "solver": cases[k]["solver"], "steps": sweep["steps"],
                             "end_time": sweep["end_time"], "reports": sweep["reports"],
                             "out": out, "plugin_dirs": sweep["plugin_dirs"],
                             "data_path": sweep["data_path"],
                             "threads": args.threads_per_case})
            # pure=False: a case is a run with side effects (its files), never deduplicated.
            futures = client.map(run_case, jobs, key=[f"fluxion-case-{k}-{os.getpid()}"
                                                      for k in todo], pure=False, retries=2)
            progress.update()
            for future in as_completed(futures):
                try:
                    result = future.result()
                except Exception as error:  # the task itself could not run (a worker lost)
                    k = todo[futures.index(future)]
                    result = {"case": k, "status": f"{type(error).__name__}: {error}",
                              "wall_s": 0.0, "steps_per_s": 0.0, "reports": []}
                results[result["case"]] = result
                progress.update(result)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        progress.close()
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    # The cases finished by workers after the client stopped listening are on disk too.
    results.update(_finished(out, len(cases)))
    summary = _write_summary(out, sweep, results, dimensions)
    failed = sum(1 for r in results.values() if r["status"] != "ok")
    if not args.quiet:
        print(f"{len(results)} of {len(cases)} cases finished, {failed} failed: {summary}",
              file=sys.stderr)
    if interrupted:
        print("interrupted: run the same command again to finish the sweep", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_FAILED_CASES if failed else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
