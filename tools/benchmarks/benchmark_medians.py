"""What ratios.py and contact_ratios.py share: one run of fluxion-benchmark, repeated, read back as
the median wall time of each benchmark, and the line that says where and when it ran."""
import json
import subprocess
import sys


def median_rows(benchmark, pattern, repetitions, min_time):
    """Runs `benchmark` on the benchmarks matching `pattern`; returns ({run name without
    "/real_time": its median row (wall time in "real_time", in the benchmark's unit; its counters
    by name)}, the report's context), or None after printing the first benchmark that reported
    an error."""
    # Repetitions interleaved in random order: on a shared machine a burst of load then spreads
    # over every benchmark instead of falling on one.
    command = [benchmark, f"--benchmark_filter={pattern}", "--benchmark_format=json",
               f"--benchmark_repetitions={repetitions}",
               "--benchmark_enable_random_interleaving=true",
               "--benchmark_report_aggregates_only=true", f"--benchmark_min_time={min_time}"]
    print("running: " + " ".join(command), file=sys.stderr)
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    report = json.loads(result.stdout)
    median = {}
    for row in report["benchmarks"]:
        if row.get("aggregate_name") != "median":
            continue
        if row.get("error_occurred"):
            print(f"error: {row['run_name']}: {row.get('error_message')}", file=sys.stderr)
            return None
        median[row["run_name"].removesuffix("/real_time")] = row
    return median, report["context"]


def median_wall_times(benchmark, pattern, repetitions, min_time):
    """median_rows' wall times only: ({run name: median wall time}, context), or None."""
    measured = median_rows(benchmark, pattern, repetitions, min_time)
    if measured is None:
        return None
    rows, context = measured
    return {name: row["real_time"] for name, row in rows.items()}, context


def run_line(context, repetitions):
    """When and where: date, CPUs, load average, and what the numbers are."""
    return (f"{context['date']}, {context['num_cpus']} CPUs at {context['mhz_per_cpu']} MHz, "
            f"load average {', '.join(f'{x:.2f}' for x in context.get('load_avg', []))}; "
            f"median of {repetitions} runs, wall time per step")
