#!/usr/bin/env python3
"""Explicit steps as ratios to the fused loop, measured in one run of fluxion-benchmark.

Runs the benchmark program on the Fused/<n> loop and the explicit solvers' steps
(Step/<solver>/<n>/<threads>), each repeated, and prints a Markdown table of the median wall
time per step, each step's ratio to the fused loop at the same n, and the speed-up of two
threads over one.

  tools/benchmarks/ratios.py build-release/bin/fluxion-benchmark [--solvers EulerExplicit]
      [--sizes 64 128 256 512] [--repetitions 5] [--min-time 0.2]
"""
import argparse
import sys

from benchmark_medians import median_wall_times, run_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmark", help="path of fluxion-benchmark")
    parser.add_argument("--solvers", nargs="+", default=["EulerExplicit"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[64, 128, 256, 512])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--min-time", default="0.2")
    args = parser.parse_args()

    sizes = "|".join(str(n) for n in args.sizes)
    solvers = "|".join(args.solvers)
    pattern = f"^(Fused/({sizes})|Step/({solvers})/({sizes})/[0-9]+)(/real_time)?$"
    measured = median_wall_times(args.benchmark, pattern, args.repetitions, args.min_time)
    if measured is None:
        return 1
    median, context = measured
    print(run_line(context, args.repetitions))
    print()
    head = "| n | fused loop (µs) |"
    rule = "|---|---|"
    for solver in args.solvers:
        for t in args.threads:
            head += f" {solver} {t} thread{'s' if t > 1 else ''} (µs) | ratio |"
            rule += "---|---|"
        if 1 in args.threads and len(args.threads) > 1:
            head += f" {solver} speed-up {args.threads[-1]}/1 |"
            rule += "---|"
    print(head)
    print(rule)
    for n in args.sizes:
        fused = median.get(f"Fused/{n}")
        if fused is None:
            continue
        line = f"| {n}² | {fused:.0f} |"
        for solver in args.solvers:
            for t in args.threads:
                step = median.get(f"Step/{solver}/{n}/{t}")
                line += " – | – |" if step is None else f" {step:.0f} | {step / fused:.2f} |"
            if 1 in args.threads and len(args.threads) > 1:
                one = median.get(f"Step/{solver}/{n}/1")
                many = median.get(f"Step/{solver}/{n}/{args.threads[-1]}")
                line += " – |" if one is None or many is None else f" {one / many:.2f}× |"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
