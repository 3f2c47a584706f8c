#!/usr/bin/env python3
"""Measures what stepping from Python costs: a 128 × 128 cloth stepped in a Python loop of single
`sim.step()` calls against the same scene stepped by scene-runner (issue #17 asks for ≤ 1.1×).

    PYTHONPATH=build/python python3 examples/python/step_cost.py [--steps 2000]
        [--scene-runner build/bin/scene-runner]

scene-runner's time is measured twice, with --steps N and --steps 0, and the difference taken,
so that loading the scene and starting the process are left out of both sides. Both record
nothing per step (scene-runner --every larger than N). Timings on a shared machine are noisy:
run it a few times.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import fluxion

HERE = os.path.dirname(os.path.abspath(__file__))


def cloth(points):
    """A points × points cloth held at two corners, built with the Python scene API. Undamped
    springs and 100 kg in all keep symplectic Euler stable at dt = 1e-4 for 128² points (the
    gallery cloth's 1 kg and dashpots diverge at that size and step)."""
    root = fluxion.Node("root")
    root.gravity = [0, -9.81, 0]
    root.dt = 1e-4
    root.addObject("EulerExplicitSolver")
    node = root.addChild("cloth")
    node.addObject("RegularGridTopology", name="grid", n=[points, 1, points], min=[0, 0, 0],
                   max=[1, 0, 1])
    node.addObject("MechanicalObject", name="dofs", template="Vec3d")
    node.addObject("UniformMass", totalMass=100)
    node.addObject("FixedProjectiveConstraint", indices=[0, points - 1])
    node.addObject("MeshSpringForceField", linesStiffness=100)
    return root


def timed(command):
    start = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--points", type=int, default=128)
    parser.add_argument("--scene-runner", default=os.path.join(HERE, "..", "..", "build", "bin",
                                                                "scene-runner"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scene = os.path.join(folder, "cloth.scn")
        with open(scene, "w") as file:
            file.write(fluxion.scene_graph.to_xml(cloth(args.points)))
        sim = fluxion.load(scene)
        start = time.perf_counter()
        for _ in range(args.steps):
            sim.step()
        python = time.perf_counter() - start
        runner = [args.scene_runner, scene, "--output", os.devnull, "--quiet",
                  "--no-stability-check", "--every", str(args.steps + 1)]
        stepped = timed(runner + ["--steps", str(args.steps)])
        loaded = timed(runner + ["--steps", "0"])
    print(f"{args.points}² cloth, {args.steps} steps: Python loop {python:.3f} s, scene-runner "
          f"{stepped - loaded:.3f} s ({stepped:.3f} s − {loaded:.3f} s to load): "
          f"ratio {python / (stepped - loaded):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
