#!/usr/bin/env python3
"""Runs tools/sofa_regression/sofa-regression on SOFA's real scenes and references when the
environment names them, and is skipped (exit 77, CTest's SKIP_RETURN_CODE) otherwise:

    SOFA_TREE=/path/to/sofa SOFA_REGRESSION_DIR=/path/to/regression ctest -L sofa-references

    sofa_regression_real_test.py TOOL SCENE_RUNNER

It passes when every scene Fluxion can run matches SOFA's reference by SOFA's rule; scenes Fluxion
cannot run yet are listed, not failed. SOFA's files are never copied into this repository."""
import os
import subprocess
import sys

SKIP = 77


def main():
    tool, runner = sys.argv[1], sys.argv[2]
    tree = os.environ.get("SOFA_TREE", "")
    regression = os.environ.get("SOFA_REGRESSION_DIR", "")
    if not tree or not regression:
        print("skipped: set SOFA_TREE (SOFA's source tree) and SOFA_REGRESSION_DIR (SOFA's "
              "Regression project) to compare Fluxion with SOFA's own references")
        return SKIP
    for name, folder in (("SOFA_TREE", tree), ("SOFA_REGRESSION_DIR", regression)):
        if not os.path.isdir(folder):
            print(f"skipped: {name}={folder} is not a folder")
            return SKIP
    command = [sys.executable, tool, "--sofa-tree", tree, "--regression-dir", regression,
               "--scene-runner", runner, *sys.argv[3:]]
    print("$ " + " ".join(command), flush=True)
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
