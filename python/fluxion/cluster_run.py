"""Runs a list of commands as Dask tasks: what ``scene-regress --cluster`` calls to run its cases'
scene-runner commands on a cluster (docs/sweeps.md, docs/regression-testing.md).

    python3 -m fluxion.cluster_run --cluster ADDRESS|local[:N] --jobs JOBS.json --results OUT.json

JOBS.json: {"cwd": folder, "program": path, "cases": [{"name", "arguments", "stderr"}…]}; each
case runs ``program arguments…`` in ``cwd`` on a worker, its stderr written to the file
``stderr`` names (the folders are shared: one machine, or a cluster on a shared file system).
OUT.json: one {"started", "exit_code", "signal", "error", "seconds"} per case, in order — what
scene-regress would have seen running the command itself. Exit status: 0 every case ran (whatever
its own status), 2 bad arguments or a cluster that could not be used.
"""
import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import time


def run_command(case):
    """One case on a worker: the command, as scene-regress's RunProcess runs it."""
    started = time.perf_counter()
    result = {"started": False, "exit_code": -1, "signal": 0, "error": "", "seconds": 0.0}
    try:
        with open(case["stderr"], "wb") as stderr:
            process = subprocess.run([case["program"]] + case["arguments"], cwd=case["cwd"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=stderr, check=False)
        result["started"] = True
        if process.returncode >= 0:
            result["exit_code"] = process.returncode
        else:
            result["signal"] = -process.returncode
    except OSError as error:
        result["error"] = f"{case['program']}: cannot run it ({error.strerror})"
    result["seconds"] = time.perf_counter() - started
    return result


def client_for(address):
    """A Dask client of `address`: "local" (a LocalCluster, one worker process per core),
    "local:N" (N workers), or a scheduler's address. Returns (client, cluster or None)."""
    from distributed import Client, LocalCluster
    if address == "local" or address.startswith("local:"):
        count = os.cpu_count() or 1
        if address.startswith("local:"):
            try:
                count = int(address[len("local:"):])
            except ValueError:
                count = 0
            if count < 1:
                raise ValueError(f"--cluster {address}: expected local:N with N ≥ 1 workers")
        cluster = LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR)
        return Client(cluster), cluster
    return Client(address, timeout="30s"), None


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m fluxion.cluster_run",
                                     description="Run commands as Dask tasks (scene-regress "
                                                 "--cluster).")
    parser.add_argument("--cluster", required=True, help="a scheduler's address, local or local:N")
    parser.add_argument("--jobs", required=True, help="the commands (JSON)")
    parser.add_argument("--results", required=True, help="where their results go (JSON)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    try:
        with open(args.jobs, encoding="utf-8") as stream:
            jobs = json.load(stream)
        cases = [dict(case, program=jobs["program"], cwd=jobs["cwd"]) for case in jobs["cases"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"error: {args.jobs}: not a job list ({error})", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    client = cluster = None
    try:
        try:
            client, cluster = client_for(args.cluster)
        except (OSError, ValueError, TimeoutError) as error:
            print(f"error: --cluster {args.cluster}: cannot use this Dask cluster ({error})",
                  file=sys.stderr)
            return 2
        if not args.quiet:
            workers = len(client.scheduler_info().get("workers", {}))
            print(f"{len(cases)} cases on {workers} Dask workers ({args.cluster})",
                  file=sys.stderr)
        from distributed import as_completed
        futures = client.map(run_command, cases, pure=False, retries=2,
                             key=[f"scene-regress-{i}-{os.getpid()}" for i in range(len(cases))])
        results = [None] * len(cases)
        index = {future.key: i for i, future in enumerate(futures)}
        for done, future in enumerate(as_completed(futures), start=1):
            i = index[future.key]
            try:
                results[i] = future.result()
            except Exception as error:  # the task could not run (its workers were lost)
                results[i] = {"started": False, "exit_code": -1, "signal": 0,
                              "error": f"the Dask task failed: {type(error).__name__}: {error}",
                              "seconds": 0.0}
            if not args.quiet:
                print(f"[{done}/{len(cases)}] {cases[i]['name']}: ran "
                      f"({results[i]['seconds']:.1f} s)", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    with open(args.results + ".tmp", "w", encoding="utf-8") as stream:
        json.dump(results, stream)
    os.replace(args.results + ".tmp", args.results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
