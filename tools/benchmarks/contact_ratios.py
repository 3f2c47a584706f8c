#!/usr/bin/env python3
"""What contact costs per step, as ratios measured in one run of fluxion-benchmark.

Runs, for each pose of the cloth (landed: every point a contact; falling: the first eighth of the
cloth within the alarm distance), Contact/<pose>/<n>/<threads> (a step with detection and the
penalty response; its counter `detection`: the pipeline's detection phase per step) and
NoContact/<n>/<threads> (the same cloth's step without the pipeline), each repeated, and prints a
Markdown table per pose: the median wall time of the plain step, detection alone and detection +
response (Contact - NoContact) as ratios to it, and how each grows from one size to the next, per
doubling of the cloth's points (n -> 2n multiplies the points by 4: growth per doubling =
(cost ratio)^(1/2)). Issue #26's targets: detection at most 5x the plain step at 128², growth at
most 2.3x per doubling.

  tools/benchmarks/contact_ratios.py build-release/bin/fluxion-benchmark [--sizes 64 128 256]
      [--threads 1 2] [--poses falling landed] [--repetitions 5] [--min-time 0.2]
"""
import argparse
import sys

from benchmark_medians import median_rows, run_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", help="path of fluxion-benchmark")
    parser.add_argument("--sizes", nargs="+", type=int, default=[64, 128, 256])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--poses", nargs="+", default=["falling", "landed"])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", default="0.2")
    args = parser.parse_args()

    sizes = "|".join(str(n) for n in args.sizes)
    threads = "|".join(str(t) for t in args.threads)
    poses = "|".join(args.poses)
    pattern = f"^(NoContact|Contact/({poses}))/({sizes})/({threads})/real_time$"
    measured = median_rows(args.benchmark, pattern, args.repetitions, args.min_time)
    if measured is None:
        return 1
    rows, context = measured
    print(run_line(context, args.repetitions))

    def growth(cost, previous):
        return "–" if previous is None else f"{(cost / previous) ** 0.5:.2f}×"

    for pose in args.poses:
        print()
        print(f"{pose}:")
        print()
        print("| n | threads | contacts | plain step (µs) | detection / plain step | "
              "detection + response / plain step | growth per doubling: detection | "
              "growth per doubling: detection + response |")
        print("|---|---|---|---|---|---|---|---|")
        for t in args.threads:
            previous = None
            for n in args.sizes:
                plain = rows.get(f"NoContact/{n}/{t}")
                full = rows.get(f"Contact/{pose}/{n}/{t}")
                if plain is None or full is None:
                    continue
                step = plain["real_time"]  # µs, the benchmarks' unit
                detect = full["detection"] * 1e6  # s per step
                both = full["real_time"] - step
                grown = ("–", "–") if previous is None else (
                    growth(detect, previous[0]), growth(both, previous[1]))
                print(f"| {n}² | {t} | {full.get('contacts', 0):.0f} | {step:.0f} | "
                      f"{detect / step:.1f} | {both / step:.1f} | {grown[0]} | {grown[1]} |")
                previous = (detect, both)
    return 0


if __name__ == "__main__":
    sys.exit(main())
