#!/usr/bin/env python3
"""What a topological change costs, as ratios measured in one run of fluxion-benchmark.

Runs TopologyChange/<n>/<k>, TopologyChangeFreeing/<n>/<k> (the removals free points) and
TopologyChangeFreeingExplicit/<n>/<k> (the same under EulerExplicitSolver, whose step does the
same work before and after a change) and TopologyAddition/<n>/<k> (k triangles added back, in
two additions, to a membrane cloth) (tools/benchmarks/topology_change_benchmark.cpp: k triangles removed
from an n x n cloth twice, DiagonalMass, MeshSpringForceField, two fixed corners,
EulerImplicitSolver with CGLinearSolver), each repeated, and prints a Markdown table: the median
plain step, the median cost of the second change itself (the step that applies it less the plain
step before it), that change in units of the plain step, its growth from the smallest cloth at
the same k (issue #30: at fixed k it should stay flat as n grows), and the first change in units
of the plain step (it also sets up the in-place follow, once per build of the scene). FLUXION_TOPOLOGY_REBUILD=1 in the
environment measures the rebuild of the scene instead of the in-place follow.

  tools/benchmarks/topology_change_ratios.py build/bin/fluxion-benchmark [--repetitions 5]
      [--min-time 0.5] [--filter '^TopologyChangeFreeing/']
"""
import argparse
import sys

from benchmark_medians import median_rows, run_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", help="path of fluxion-benchmark")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", default="0.5")
    parser.add_argument("--filter", default="^Topology(Change(Freeing(Explicit)?)?|Addition)/",
                        help="benchmarks to run (a --benchmark_filter regular expression)")
    args = parser.parse_args()

    measured = median_rows(args.benchmark, args.filter, args.repetitions, args.min_time)
    if measured is None:
        return 1
    rows, context = measured
    print(run_line(context, args.repetitions).replace("wall time per step",
                                                      "wall time per change and per step"))
    print()
    print("| removal | n | k | plain step (µs) | change (µs) | change / plain step | "
          "change / change at the smallest n | first change / plain step |")
    print("|---|---|---|---|---|---|---|---|")
    cases = []
    for name, row in rows.items():
        family, n, k = name.split("/")[:3]
        removal = ("frees points, explicit" if family.endswith("FreeingExplicit") else
                   "frees points" if family.endswith("Freeing") else
                   "addition" if family.endswith("Addition") else "holes")
        cases.append((removal, int(k) != 8, int(n), int(k), row))
    smallest = {}
    for removal, _, n, k, row in sorted(cases):
        change = row["real_time"]
        smallest.setdefault((removal, k), change)
        print(f"| {removal} | {n} | {k} | {row['step'] * 1e6:.0f} | {change:.0f} | "
              f"{row['change_over_step']:.2f} | {change / smallest[(removal, k)]:.2f} | "
              f"{row['first_change_over_step']:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
