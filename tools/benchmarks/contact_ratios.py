#!/usr/bin/env python3
"""What contact costs per step, as ratios measured in one run of fluxion-benchmark.

Runs Contact/<n>/<threads> (a cloth of n x n points lying on a static 20 000-triangle floor, every
point a contact, SOFA's collision pipeline with the penalty response) and NoContact/<n>/<threads>
(the same scene without the pipeline), each repeated, and prints a Markdown table of the median
wall time per step, the contact cost (Contact - NoContact) as a ratio to the plain step, and how
the contact cost grows from one size to the next, per doubling of the cloth's points (n -> 2n
multiplies the points by 4: growth per doubling = (cost ratio)^(1/2)).

  tools/benchmarks/contact_ratios.py build-release/bin/fluxion-benchmark [--sizes 64 128 256]
      [--threads 1 2] [--repetitions 5] [--min-time 0.2]
"""
import argparse
import sys

from benchmark_medians import median_wall_times, run_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", help="path of fluxion-benchmark")
    parser.add_argument("--sizes", nargs="+", type=int, default=[64, 128, 256])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", default="0.2")
    args = parser.parse_args()

    sizes = "|".join(str(n) for n in args.sizes)
    threads = "|".join(str(t) for t in args.threads)
    pattern = f"^(No)?Contact/({sizes})/({threads})/real_time$"
    measured = median_wall_times(args.benchmark, pattern, args.repetitions, args.min_time)
    if measured is None:
        return 1
    median, context = measured
    print(run_line(context, args.repetitions))
    print()
    print("| n | threads | step without contact (µs) | step with contact (µs) | "
          "contact cost / plain step | growth per doubling of points |")
    print("|---|---|---|---|---|---|")
    for t in args.threads:
        previous = None
        for n in args.sizes:
            plain, full = median.get(f"NoContact/{n}/{t}"), median.get(f"Contact/{n}/{t}")
            if plain is None or full is None:
                continue
            cost = full - plain
            growth = "–" if previous is None else f"{(cost / previous) ** 0.5:.2f}×"
            print(f"| {n}² | {t} | {plain:.0f} | {full:.0f} | {cost / plain:.1f} | {growth} |")
            previous = cost
    return 0


if __name__ == "__main__":
    sys.exit(main())
