#!/usr/bin/env python3
"""Runs SOFA's topological-change examples, unmodified from SOFA's layout, when the environment
names a SOFA tree, and is skipped (exit 77, CTest's SKIP_RETURN_CODE) otherwise:

    SOFA_TREE=/path/to/sofa ctest -R sofa_topological_changes

    sofa_topological_changes_test.py SCENE_RUNNER

examples/Benchmark/TopologicalChanges/*.scn remove 145 triangles ten times, from t = 0.1 to 1.0
(RemovingTrianglesProcess_constraint.txt), from a square of 1450 triangles (share/mesh/square3.msh)
whose every point is on a triangle: after t = 1 no point is left. The scenes Fluxion cannot run
yet are checked to fail with the message naming what they lack (so that this test says when
they start to run). SOFA's files are never copied into this repository."""
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
BENCHMARK = "examples/Benchmark/TopologicalChanges"
RUNS = ["AffineMovementConstraint__RemovingMeshTest", "FixedConstraint_RemovingMeshTest",
        "FixedPlaneConstraint_RemovingMeshTest", "ProjectToLineConstraint_RemovingMeshTest",
        "ProjectToPlaneConstraint_RemovingMeshTest", "ProjectToPointConstraint_RemovingMeshTest",
        "TriangularBendingSprings_RemovingMeshTest", "TriangularFEMForceField_RemovingMeshTest"]
# What each remaining scene lacks: a phrase of the error it stops with.
LACKS = {
    "LinearMovementConstraint_RemovingMeshTest":
        "LinearMovementProjectiveConstraint 'movements' has 30 numbers",
    "ProjectDirectionConstraint_RemovingMeshTest":
        "'DirectionProjectiveConstraint' is not supported",
}
DATA_INPUTS = "examples/Component/Topology/Utility/TopologicalChangeProcessor_useDataInputs_option.scn"


def run(runner, tree, scene, steps, folder):
    env = dict(os.environ, SOFA_ROOT=tree)
    return subprocess.run([runner, "--no-rows", "--steps", str(steps), "--quiet", scene],
                          cwd=folder, env=env, capture_output=True, text=True, check=False)


def main():
    runner = sys.argv[1]
    tree = os.environ.get("SOFA_TREE", "")
    if not tree or not os.path.isdir(os.path.join(tree, BENCHMARK)):
        print("skipped: set SOFA_TREE to SOFA's source tree to run its topological-change examples")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        for name in RUNS:
            result = run(runner, tree, os.path.join(tree, BENCHMARK, name + ".scn"), 110, folder)
            points = re.search(r"dofs: (\d+) points", result.stdout)
            if result.returncode != 0 or not points or points.group(1) != "0":
                failures.append(f"{name}: exit {result.returncode}, expected no point left at "
                                f"t = 1.1: {result.stdout.strip()} {result.stderr.strip()}")
            else:
                print(f"ran: {name} (no point left after t = 1)")
        for name, lack in LACKS.items():
            result = run(runner, tree, os.path.join(tree, BENCHMARK, name + ".scn"), 110, folder)
            if result.returncode == 0 or lack not in result.stderr:
                failures.append(f"{name}: expected to stop with '{lack}' (exit "
                                f"{result.returncode}: {result.stderr.strip()})")
            else:
                print(f"cannot run yet: {name}: {lack}")
        result = run(runner, tree, os.path.join(tree, DATA_INPUTS), 300, folder)
        if result.returncode != 0:
            failures.append(f"{DATA_INPUTS}: exit {result.returncode}: {result.stderr.strip()}")
        else:
            print(f"ran: {os.path.basename(DATA_INPUTS)}")
    for failure in failures:
        print("FAIL: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
