#!/usr/bin/env python3
"""Runs the gallery's cloth (scenes/cloth_grid.scn: 8 × 8 points held at two corners, falling
under gravity) with two solvers, and plots each run's energy and the path of the free corner
opposite the held ones, into a PNG (Matplotlib's Agg backend: no display needed).

    PYTHONPATH=build/python python3 examples/python/cloth_energy.py [--output cloth.png]
        [--scene scenes/cloth_grid.scn] [--end-time 2] [--solvers EulerExplicitSolver,RungeKutta4Solver]

What to look at: with symplectic Euler (the scene's EulerExplicitSolver) the total energy falls
only as the springs' dashpots dissipate it; implicit Euler (EulerImplicitSolver) adds numerical
damping of its own: its energy falls faster and the corner swings back less high.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only: runs on a machine without a display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import fluxion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# The gallery in a clone, else where the .deb installs it.
DEFAULT_SCENE = next((p for p in (os.path.join(HERE, "..", "..", "scenes", "cloth_grid.scn"),
                                  "/usr/share/fluxion/scenes/cloth_grid.scn")
                      if os.path.exists(p)), "cloth_grid.scn")
CLOTH = "root/cloth/dofs"
CORNER = 63  # the 8 × 8 grid's last point: the free corner opposite the held points 0 and 7


def run(scene, solver, end_time):
    """(times, total energies, corner positions) of one run, every step."""
    sim = fluxion.load(scene)
    if solver != sim.solvers[0][1]:
        sim.replace_solver(solver)
    cloth = sim.objects[CLOTH]
    times, energies, corner = [], [], []

    def record(s):
        times.append(s.time)
        energies.append(s.energy()["total"])
        corner.append(cloth.positions[CORNER].copy())  # a copy: the view follows the state

    record(sim)
    sim.run(end_time=end_time, callback=record)
    return np.array(times), np.array(energies), np.array(corner)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scene", default=DEFAULT_SCENE)
    parser.add_argument("--output", default="cloth_energy.png")
    parser.add_argument("--end-time", type=float, default=2.0)
    parser.add_argument("--solvers", default="EulerExplicitSolver,EulerImplicitSolver")
    args = parser.parse_args()

    figure, (energy_axes, height_axes, path_axes) = plt.subplots(1, 3, figsize=(15, 4.5))
    for solver in args.solvers.split(","):
        try:
            times, energies, corner = run(args.scene, solver, args.end_time)
        except fluxion.Error as error:  # a bad scene or solver: scene-runner's message
            print(f"error: {error}", file=sys.stderr)
            return error.exit_status
        energy_axes.plot(times, energies, label=solver)
        height_axes.plot(times, corner[:, 1], label=solver)
        path_axes.plot(corner[:, 0], corner[:, 1], label=solver)
        print(f"{solver}: {len(times) - 1} steps to t = {times[-1]:.6g} s, total energy "
              f"{energies[0]:.6g} -> {energies[-1]:.6g} J, corner at {corner[-1].round(4)}")
    energy_axes.set(title="total energy", xlabel="t [s]", ylabel="E [J]")
    height_axes.set(title=f"corner (point {CORNER}) height", xlabel="t [s]", ylabel="y [m]")
    path_axes.set(title="corner path (x, y)", xlabel="x [m]", ylabel="y [m]")
    for axes in (energy_axes, height_axes, path_axes):
        axes.grid(True, alpha=0.3)
        axes.legend()
    figure.suptitle(os.path.basename(args.scene))
    figure.tight_layout()
    figure.savefig(args.output, dpi=100)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
