"""What a sweep's machinery costs (docs/sweeps.md, "Cost"): 200 short cases of the gallery cloth
(scenes/cloth_grid.scn, 8 × 8 points, STEPS steps each, linesStiffness 100 to 300) run

  1. as a plain sequential loop of scene-runner calls, each on the XML with its value written in
     and writing its HDF5 trajectory (-o), the shell loop a sweep replaces;
  2. with fluxion-sweep --workers 1 and --workers 2 (a LocalCluster; its start-up included);

and, in one process, building the 200 simulations from a prepared scene (fluxion.prepare +
instantiate) against loading each from its XML text (load_string: read, parse and build). The
cases' own work is measured too (instantiate + stepping in-process, no file), so that each
method's overhead per case is its wall time per case minus that work.

    PYTHONPATH=build/python /usr/bin/python3 tools/benchmarks/sweep_overhead.py \\
        [--scene-runner build/bin/scene-runner] [--cases 200] [--steps 20]

Prints a table on stdout; progress on stderr. Timings are wall times of one run on one machine:
compare the ratios, within the run.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import fluxion

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
SCENE = os.path.join(SOURCE, "scenes", "cloth_grid.scn")
SPRINGS = "root/cloth/MeshSpringForceField.linesStiffness"


def values(count):
    return [repr(100.0 + 200.0 * i / (count - 1)) for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scene-runner", default=os.path.join(SOURCE, "build", "bin",
                                                               "scene-runner"))
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    bin_dir = os.path.dirname(os.path.abspath(args.scene_runner))
    sweep = os.path.join(bin_dir, "fluxion-sweep")
    ks = values(args.cases)
    xml = open(SCENE).read()
    assert xml.count('linesStiffness="100"') == 1
    texts = [xml.replace('linesStiffness="100"', f'linesStiffness="{k}"') for k in ks]
    fluxion.set_thread_count(1)
    results = {}

    with tempfile.TemporaryDirectory(prefix="fluxion-sweep-bench-") as work:
        # The cases' own work, in-process: build from a prepared scene, step, no file.
        prepared = fluxion.prepare(SCENE)
        started = time.perf_counter()
        for k in ks:
            prepared.instantiate({SPRINGS: k}).step(args.steps)
        results["work"] = time.perf_counter() - started

        # Building only: prepared scene against the XML read, parsed and built each time.
        started = time.perf_counter()
        for k in ks:
            prepared.instantiate({SPRINGS: k})
        results["instantiate"] = time.perf_counter() - started
        started = time.perf_counter()
        for text in texts:
            fluxion.load_string(text, file_name=SCENE)
        results["load_string"] = time.perf_counter() - started
        print("in-process builds measured", file=sys.stderr)

        # A sequential loop of scene-runner calls, each on its own XML file.
        started = time.perf_counter()
        for i, text in enumerate(texts):
            scene = os.path.join(work, f"case-{i}.scn")
            with open(scene, "w") as stream:
                stream.write(text)
            subprocess.run([args.scene_runner, scene, "--steps", str(args.steps), "--threads", "1",
                            "-o", os.path.join(work, f"loop-{i}.h5"), "--quiet"], check=True)
        results["loop"] = time.perf_counter() - started
        print("scene-runner loop measured", file=sys.stderr)

        for workers in (1, 2):
            out = os.path.join(work, f"sweep-{workers}")
            started = time.perf_counter()
            subprocess.run([sweep, SCENE, "--set", f"{SPRINGS}=" + ",".join(ks), "--steps",
                            str(args.steps), "--workers", str(workers), "--quiet", "--out", out],
                           check=True)
            results[f"sweep{workers}"] = time.perf_counter() - started
            print(f"fluxion-sweep --workers {workers} measured", file=sys.stderr)

    n = args.cases
    work = results["work"]
    print(f"{n} cases of {args.steps} steps of {os.path.relpath(SCENE, SOURCE)}; "
          f"os.cpu_count() = {os.cpu_count()}")
    print(f"{'method':38s} {'wall [s]':>9s} {'per case [ms]':>14s} {'overhead/case [ms]':>19s}")
    rows = [("in-process work (instantiate + steps)", work, 1),
            ("scene-runner loop (sequential)", results["loop"], 1),
            ("fluxion-sweep --workers 1", results["sweep1"], 1),
            ("fluxion-sweep --workers 2", results["sweep2"], 2)]
    for name, wall, cores in rows:
        # Overhead: the wall time per case beyond the work, with the work shared by `cores`.
        overhead = (wall - work / cores) / n * 1e3
        print(f"{name:38s} {wall:9.3f} {wall / n * 1e3:14.2f} {overhead:19.2f}")
    print(f"loop / sweep(1 worker) = {results['loop'] / results['sweep1']:.2f}, "
          f"loop / sweep(2 workers) = {results['loop'] / results['sweep2']:.2f}, "
          f"sweep(1) / sweep(2) = {results['sweep1'] / results['sweep2']:.2f}")
    print(f"build: load_string {results['load_string'] / n * 1e3:.3f} ms, prepared instantiate "
          f"{results['instantiate'] / n * 1e3:.3f} ms per case, ratio "
          f"{results['load_string'] / results['instantiate']:.2f}")


if __name__ == "__main__":
    main()
