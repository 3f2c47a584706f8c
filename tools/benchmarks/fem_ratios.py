#!/usr/bin/env python3
"""An implicit step of a 20 x 20 x 80 beam as hexahedra, tetrahedra and springs, as ratios
measured in one run of fluxion-benchmark (issue #29).

Runs FemBeam/<kind>/<threads> (fem_benchmark.cpp: EulerImplicitSolver with exactly 25 CG
iterations; HexahedronFEMForceField, TetrahedronFEMForceField on the same cells cut in six,
MeshSpringForceField on the grid's edges), each repeated, and prints a Markdown table: the median
wall time per step, its ratio to the springs' step on the same number of threads, the speed-up
from 1 to 2 threads, and the resident memory the scene took (and its ratio to the springs').

  tools/benchmarks/fem_ratios.py build/bin/fluxion-benchmark [--threads 1 2] [--repetitions 3]
      [--min-time 1]
"""
import argparse
import sys

from benchmark_medians import median_rows, run_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", help="path of fluxion-benchmark")
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--min-time", default="1")
    args = parser.parse_args()

    threads = "|".join(str(t) for t in args.threads)
    pattern = f"^FemBeam/(hexahedra|tetrahedra|springs)/({threads})/real_time$"
    measured = median_rows(args.benchmark, pattern, args.repetitions, args.min_time)
    if measured is None:
        return 1
    rows, context = measured
    print(run_line(context, args.repetitions))
    print()
    print("| beam | threads | step (ms) | step / springs' step | 1 → 2 threads | "
          "memory (MB) | memory / springs' |")
    print("|---|---|---|---|---|---|---|")
    for kind in ("hexahedra", "tetrahedra", "springs"):
        for t in args.threads:
            row = rows.get(f"FemBeam/{kind}/{t}")
            springs = rows.get(f"FemBeam/springs/{t}")
            if row is None or springs is None:
                continue
            one = rows.get(f"FemBeam/{kind}/1")
            speedup = "–" if t == 1 or one is None else \
                f"{one['real_time'] / row['real_time']:.2f}×"
            print(f"| {kind} | {t} | {row['real_time']:.1f} | "
                  f"{row['real_time'] / springs['real_time']:.2f} | {speedup} | "
                  f"{row['RSS MB']:.0f} | {row['RSS MB'] / springs['RSS MB']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
