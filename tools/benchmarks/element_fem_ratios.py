#!/usr/bin/env python3
"""One implicit step of a 10 x 10 x 40 cantilever with SOFA's element FEM, as ratios measured in
one run of fluxion-benchmark (issue #33).

Runs ElementFemBeam/<kind>/<system>/<threads> (element_fem_benchmark.cpp: CorotationalFEMForceField
and LinearSmallStrainFEMForceField on hexahedra and tetrahedra, MeshSpringForceField on the same
grid; SparseLDLSolver or exactly 25 CG iterations), each repeated, and prints a Markdown table:
the median wall time per step, its ratio to the springs' step with the same linear system and
number of threads, and the speed-up from 1 to 2 threads.

  tools/benchmarks/element_fem_ratios.py build/bin/fluxion-benchmark [--threads 1 2]
      [--repetitions 3] [--min-time 1]
"""
import argparse
import sys

from benchmark_medians import median_rows, run_line

KINDS = ("corotational-hexahedra", "linear-hexahedra", "corotational-tetrahedra",
         "linear-tetrahedra", "springs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", help="path of fluxion-benchmark")
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--min-time", default="1")
    args = parser.parse_args()

    threads = "|".join(str(t) for t in args.threads)
    pattern = (f"^ElementFemBeam/({'|'.join(KINDS)})/(assembled|matrixfree)/({threads})"
               "/real_time$")
    measured = median_rows(args.benchmark, pattern, args.repetitions, args.min_time)
    if measured is None:
        return 1
    rows, context = measured
    print(run_line(context, args.repetitions))
    print()
    print("| beam | linear system | threads | step (ms) | step / springs' step | 1 → 2 threads |")
    print("|---|---|---|---|---|---|")
    for kind in KINDS:
        for system in ("assembled", "matrixfree"):
            for t in args.threads:
                row = rows.get(f"ElementFemBeam/{kind}/{system}/{t}")
                springs = rows.get(f"ElementFemBeam/springs/{system}/{t}")
                if row is None or springs is None:
                    continue
                one = rows.get(f"ElementFemBeam/{kind}/{system}/1")
                speedup = "–" if t == 1 or one is None else \
                    f"{one['real_time'] / row['real_time']:.2f}×"
                print(f"| {kind} | {system} | {t} | {row['real_time']:.1f} | "
                      f"{row['real_time'] / springs['real_time']:.2f} | {speedup} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
