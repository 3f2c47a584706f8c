#!/usr/bin/env python3
"""Runs scene-runner on every example scene of a SOFA source tree and says which run.

Each scene runs from the tree's own folder layout (meshes found as SOFA finds them: the scene's
folder, then share/ and examples/, which scene-runner reads because SOFA_ROOT names the tree). One line per scene:

    STATUS | scene | what it needs (every SOFA component Fluxion refused, all at once) or the
                     first error line

A scene is *in scope* for issue #12 ("SOFA's own mass-spring example scenes") when none of the
components it needs belongs to what that issue leaves out: the collision pipeline, sparse grids,
topological changes, GPU templates, mechanical mappings, BDF/Newton/static solvers — and when it is
a mass-spring scene (no FEM, no rigid bodies, no Lagrangian constraints). The summary counts the
scenes that run, the in-scope scenes that do not, and the components the others need most.

usage: tools/sofa_catalog/survey_sofa_scenes.py SOFA_TREE [--runner build/bin/scene-runner]
                                                [--steps 5] [--jobs 2] [--filter SUBSTRING]
                                                [--under examples]

--under names the folder of the tree whose scenes are run (default examples; e.g. applications
for the plugins' example scenes).
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

# Families of SOFA components that put a scene outside issue #12 (its "Must show" list), or
# outside mass-spring simulation altogether.
OUT_OF_SCOPE = [
    (re.compile(r"Collision|Pipeline|BroadPhase|NarrowPhase|Intersection|ContactManager|"
                r"Detection|Model$|ContactListener|CollisionResponse|LocalMinDistance|"
                r"MinProximity|NewProximity|DiscreteIntersection|RayTraceDetection"),
     "collision"),
    (re.compile(r"SparseGrid"), "sparse grid"),
    (re.compile(r"TopologicalChange|Topology(Modifier|Algorithms)?Handler|Incision|Cutting|"
                r"Removing|Adding"), "topological change"),
    (re.compile(r"(?<!Topological)Mapping$"), "mapping"),
    (re.compile(r"^(BDFOdeSolver|NewtonRaphsonSolver|StaticSolver)$"), "BDF/Newton/static"),
    (re.compile(r"FEM|TensorMass|Beam|Hyperelastic|Plastic|Elastic|Corotational"), "FEM"),
    (re.compile(r"AnimationLoop|Lagrangian|LCP|GenericConstraint|ConstraintCorrection|"
                r"ConstraintSolver|BilateralInteraction|Uncoupled|Precomputed"),
     "Lagrangian constraints"),
    (re.compile(r"Rigid|Articulat|Joint"), "rigid bodies"),
    (re.compile(r"CUDA|Cuda|GPU"), "GPU"),
]

UNSUPPORTED = re.compile(r"SOFA component '([A-Za-z0-9_]+)' is not supported")
TEMPLATE = re.compile(r"'template': '([A-Za-z0-9_]+)' is not one of the choices")
PLUGIN = re.compile(r"required plugin '([A-Za-z0-9_.]+)' was not found")


def family(component):
    for pattern, name in OUT_OF_SCOPE:
        if pattern.search(component):
            return name
    return None


COMMENT = re.compile(r"<!--.*?-->", re.S)
PIPELINE = re.compile(r"<(CollisionPipeline|DefaultPipeline)\b")
CONSTRAINT_LOOP = re.compile(r"FreeMotionAnimationLoop|ConstraintAnimationLoop")
RESPONSE = re.compile(r'response="([^"]*)"')


def penalty_contact_scene(tree, scene):
    """True for a scene of issue #26's set: a collision pipeline whose responses are all the
    penalty (PenalityContactForceField, or SOFA's "default"), under no constraint animation loop
    (comments left out)."""
    with open(os.path.join(tree, scene), errors="replace") as f:
        text = COMMENT.sub("", f.read())
    if not PIPELINE.search(text) or CONSTRAINT_LOOP.search(text):
        return False
    return all(r in ("PenalityContactForceField", "default") for r in RESPONSE.findall(text))


def run_scene(tree, runner, steps, scene):
    with tempfile.TemporaryDirectory() as out:
        try:
            done = subprocess.run(
                [runner, scene, "--steps", str(steps), "-q", "-o", os.path.join(out, "t.csv"),
                 "--output-dir", out],
                cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                text=True, errors="replace",
                env=dict(os.environ, SOFA_ROOT=os.path.abspath(tree)))  # the tree's share/, examples/
            return done.returncode, done.stderr.splitlines()
        except subprocess.TimeoutExpired:
            return "timeout", ["timed out after 120 s"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree")
    parser.add_argument("--runner", default="build/bin/scene-runner")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--filter", default="")
    parser.add_argument("--under", default="examples")
    args = parser.parse_args()
    runner = os.path.realpath(args.runner)
    scenes = sorted(
        os.path.relpath(os.path.join(folder, name), args.tree)
        for folder, _, names in os.walk(os.path.join(args.tree, args.under))
        for name in names if name.endswith(".scn"))
    scenes = [s for s in scenes if args.filter in s]

    runs, in_scope_failures = 0, []
    needs = collections.Counter()
    contact_total, contact_runs, contact_needs = 0, 0, collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda s: (s, run_scene(args.tree, runner, args.steps, s)), scenes)
        for scene, (status, lines) in results:
            errors = [l for l in lines if l.startswith("error:")]
            missing = sorted({m for l in errors for m in UNSUPPORTED.findall(l)} |
                             {"template " + m for l in errors for m in TEMPLATE.findall(l)} |
                             {"plugin " + m for l in errors for m in PLUGIN.findall(l)})
            families = sorted({f for f in map(family, missing) if f})
            if penalty_contact_scene(args.tree, scene):
                contact_total += 1
                contact_runs += status == 0
                contact_needs.update(missing if missing else ["(an error, above)"] * (status != 0))
            if status == 0:
                runs += 1
                print(f"0|{scene}|")
                continue
            needs.update(missing)
            detail = ("needs " + ", ".join(missing)) if missing else (errors or lines or [""])[0]
            scope = ("out of scope: " + ", ".join(families)) if families else "IN SCOPE"
            if not families:
                in_scope_failures.append(scene)
            print(f"{status}|{scene}|{scope}|{detail[:300]}", flush=True)

    print(f"\n== {runs} of {len(scenes)} scenes run; {len(in_scope_failures)} in-scope scenes do not:")
    for scene in in_scope_failures:
        print("   " + scene)
    print("== what the others need most:")
    for component, count in needs.most_common(25):
        print(f"{count:5d} {component}" + (f"  ({family(component)})" if family(component) else ""))
    print(f"== contact (#26): {contact_runs} of {contact_total} scenes with a collision pipeline and "
          "the penalty response run; the others need:")
    for component, count in contact_needs.most_common(25):
        print(f"{count:5d} {component}")


if __name__ == "__main__":
    sys.exit(main())
