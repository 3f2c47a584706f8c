"""``python3 -m fluxion run SCENE.py [options]``: runs a Python scene through Sofa.Simulation,
controllers included, and writes scene-runner's trajectory CSV (the same writer, so the same
bytes). scene-runner hands a scene with controllers over to it (docs/python.md, "Coming from
SofaPython3"): its scene process only builds XML and cannot run a controller at every step.

Options are scene-runner's, those that make sense here: --steps N or --end-time T (default 100
steps), --every K, --energy, --solver-outputs, -o/--output FILE ('-' or none: stdout),
--threads N. The CSV goes to stdout (or FILE, written as FILE.partial and renamed when the run
ends, as scene-runner does; a device or FIFO is written directly); anything the scene prints goes
to stderr. Exit statuses are scene-runner's: 0 success, 2 invalid input, 3 plugin problem, 4
numerical failure.
"""
import argparse
import contextlib
import os
import stat
import sys

from . import errors, scene_graph, sofa_simulation
from ._fluxion import CsvTrajectory, set_thread_count

USAGE = ("python3 -m fluxion run SCENE.py [--steps N | --end-time T] [--every K] [--energy] "
         "[--solver-outputs] [-o FILE] [--threads N]")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print(f"error: {message} (usage: {USAGE})", file=sys.stderr)
        sys.exit(2)


def _arguments(argv):
    parser = _Parser(prog="python3 -m fluxion run", usage=USAGE, add_help=True)
    parser.add_argument("scene")
    steps = parser.add_mutually_exclusive_group()
    steps.add_argument("--steps", type=int)
    steps.add_argument("--end-time", type=float)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--energy", action="store_true")
    parser.add_argument("--solver-outputs", action="store_true")
    parser.add_argument("-o", "--output", default="")
    parser.add_argument("--threads", type=int)
    arguments = parser.parse_args(argv)
    if arguments.steps is not None and arguments.steps < 0:
        parser.error("--steps must not be negative")
    if arguments.every < 1:
        parser.error("--every must be at least 1")
    return arguments


def _steps(arguments, simulation):
    if arguments.end_time is None:
        return 100 if arguments.steps is None else arguments.steps
    return simulation.steps_until(arguments.end_time)


def _run(arguments, trajectory_fd):
    root = scene_graph.build_scene_file(arguments.scene)
    sofa_simulation.init(root)
    live = root.__dict__["_live_scene"]
    trajectory = CsvTrajectory(trajectory_fd, energy=arguments.energy,
                               solver_outputs=arguments.solver_outputs)
    trajectory.begin(live.simulation)
    trajectory.record(live.simulation)
    steps = _steps(arguments, live.simulation)
    for step in range(1, steps + 1):
        sofa_simulation.animate(root)
        if step % arguments.every == 0 or step == steps:
            trajectory.record(live.simulation)
    live.simulation.finish()
    if not trajectory.close():
        raise errors.UsageError("the trajectory could not be written (write failed)")


def main(argv):
    arguments = _arguments(argv)
    problem = scene_graph.scene_file_problem(arguments.scene)
    if problem is not None:
        print(f"error: {arguments.scene}: {problem}", file=sys.stderr)
        return 2
    if arguments.threads is not None:
        set_thread_count(arguments.threads)
    # The rows go to stdout's file, or FILE.partial; fd 1 and sys.stdout then point at stderr,
    # so that what the scene prints, from Python or C, never mixes into the rows.
    to_file = arguments.output not in ("", "-")
    partial = arguments.output + ".partial"
    # A device or a pipe (/dev/null, a FIFO) is written directly, never replaced by a renamed
    # file: scene-runner's rule (tools/scene_runner/output_file.h).
    direct = to_file and os.path.exists(arguments.output) and \
        not stat.S_ISREG(os.stat(arguments.output).st_mode)
    if direct:
        trajectory_fd = os.open(arguments.output, os.O_WRONLY)
    elif to_file:
        trajectory_fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    else:
        trajectory_fd = os.dup(1)
    sys.stdout.flush()
    os.dup2(2, 1)
    status = 0
    try:
        with contextlib.redirect_stdout(sys.stderr):
            _run(arguments, trajectory_fd)
    except (errors.UsageError, NotImplementedError) as error:
        # A refused write or call, a SofaPython3 API Fluxion lacks (Sofa.Unsupported): at the
        # scene's line that made it.
        print(f"error: {errors.script_location(error.__traceback__)}: {error}", file=sys.stderr)
        status = 2
    except scene_graph.GraphError as error:  # a graph Fluxion does not build, at its call
        print(f"error: {error}", file=sys.stderr)
        status = 2
    except errors.Error as error:  # located already; a SceneError: one line per problem
        for line in str(error).splitlines():
            print(f"error: {line}", file=sys.stderr)
        status = error.exit_status
    finally:
        os.close(trajectory_fd)
    if to_file and not direct and status == 0:
        os.replace(partial, arguments.output)
    elif to_file and not direct:
        print(f"error: the rows written so far are in {partial}", file=sys.stderr)
    return status
