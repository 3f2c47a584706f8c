#!/usr/bin/env python3
"""End-to-end test of tools/sofa_regression/sofa-regression on a fake SOFA tree and fake SOFA
references written here, with states computed by hand (not by Fluxion).

    sofa_regression_test.py TOOL SCENE_RUNNER

The scene: gravity (0, -10, 0), dt = 0.1, two point sets under EulerExplicitSolver (symplectic by
default in SOFA: v' = v + h g, then x' = x + h v'):
  Ball/ball (2 points, a child node Decor without state) and Other/MechanicalObject (1 point,
  unnamed: SOFA calls it MechanicalObject1).
  ball p0: x0 (0,0,0)  v0 (1,0,0)  ->  x1 (0.1,-0.1,0) v1 (1,-1,0)  ->  x2 (0.2,-0.3,0) v2 (1,-2,0)
  ball p1: x0 (1,2,3)  v0 (0,5,0)  ->  x1 (1,2.4,3)    v1 (0,4,0)   ->  x2 (1,2.7,3)    v2 (0,3,0)
  other:   x0 (0,0,0)  v0 (0,0,2)  ->  x1 (0,-0.1,0.2) v1 (0,-1,2)  ->  x2 (0,-0.3,0.4)  v2 (0,-2,2)
The list says 3 steps: SOFA compares at the start of steps 0, 1, 2, i.e. the states after 0, 1 and
2 steps (never after the 3rd)."""
import gzip
import os
import subprocess
import sys
import tempfile

TOOL, RUNNER = sys.argv[1], sys.argv[2]
FAILURES = []

SCENE = """<?xml version="1.0"?>
<Node name="root" dt="0.1" gravity="0 -10 0">
  <Node name="Ball">
    <EulerExplicitSolver/>
    <MechanicalObject name="ball" template="Vec3d" position="0 0 0  1 2 3" velocity="1 0 0  0 5 0"/>
    <UniformMass totalMass="2"/>
    <Node name="Decor"/>
  </Node>
  <Node name="Other">
    <EulerExplicitSolver/>
    <MechanicalObject template="Vec3d" position="0 0 0" velocity="0 0 2"/>
    <UniformMass totalMass="1"/>
  </Node>
</Node>
"""

UNSUPPORTED = """<Node name="root" dt="0.1">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0"/>
  <NoSuchForceFieldInFluxion/>
</Node>
"""

BALL = {0: ("0 0 0 1 2 3", "1 0 0 0 5 0"),
        1: ("0.1 -0.1 0 1 2.4 3", "1 -1 0 0 4 0"),
        2: ("0.2 -0.3 0 1 2.7 3", "1 -2 0 0 3 0")}
OTHER = {0: ("0 0 0", "0 0 2"), 1: ("0 -0.1 0.2", "0 -1 2"), 2: ("0 -0.3 0.4", "0 -2 2")}


STRIP = """<Node name="root" dt="0.1" gravity="0 0 0">
  <Node name="Cloth">
    <EulerExplicitSolver/>
    <MechanicalObject position="0 0 0  1 0 0  0 1 0  1 1 0"/>
    <TriangleSetTopologyContainer name="strip" position="0 0 0  1 0 0  0 1 0  1 1 0"
                                  triangles="0 1 2  1 3 2"/>
    <TriangleSetTopologyModifier/>
    <UniformMass totalMass="1"/>
    <TopologicalChangeProcessor filename="strip.txt"/>
  </Node>
</Node>
"""


def topology_records(steps):
    """A WriteTopology file: for each (T, (edges, triangles)) a T= line and the five lists."""
    text = ""
    for time, (edges, triangles) in steps:
        text += (f"T= {time}\n  Edges= {len(edges.split()) // 2}\n{edges}\n"
                 f"  Triangles= {len(triangles.split()) // 3}\n{triangles}\n"
                 "  Quads= 0\n\n  Tetrahedra= 0\n\n  Hexahedra= 0\n\n")
    return text


def records(states, times):
    """A WriteState file: for each (T, step) a T= line, then X= and V= of that step."""
    text = ""
    for time, step in times:
        x, v = states[step]
        text += f"T= {time}\n  X= {x}\n  V= {v}\n"
    return text


def write(path, text, compress=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if compress:
        with gzip.open(path, "wt") as stream:
            stream.write(text)
    else:
        with open(path, "w") as stream:
            stream.write(text)


def make_tree(root, ball_text, other_text, extra_lines="", steps=3):
    """A SOFA tree (share/, examples/ with the list) and a Regression dir with the references."""
    sofa = os.path.join(root, "sofa")
    regression = os.path.join(root, "regression")
    os.makedirs(os.path.join(sofa, "share"), exist_ok=True)
    write(os.path.join(sofa, "examples", "Fall", "TwoBodies.scn"), SCENE)
    write(os.path.join(sofa, "examples", "Fall", "Unsupported.scn"), UNSUPPORTED)
    write(os.path.join(sofa, "examples", "Fall", "NoReference.scn"), SCENE)
    write(os.path.join(sofa, "examples", "RegressionStateScenes.regression-tests"),
          "# scene steps epsilon mapped lastOnly\n\n$REGRESSION_DIR/references/examples\n\n"
          f"Fall/TwoBodies.scn {steps} 1e-4 0 1\n" + extra_lines)
    reference = os.path.join(regression, "references", "examples", "Fall", "TwoBodies.scn.reference")
    write(reference, "")
    write(reference + "_0_ball_mstate.txt.gz", ball_text, compress=True)
    write(reference + "_1_MechanicalObject1_mstate.txt.gz", other_text, compress=True)
    return sofa, regression


def run(sofa, regression, *extra):
    result = subprocess.run([sys.executable, TOOL, "--sofa-tree", sofa, "--regression-dir",
                             regression, "--scene-runner", RUNNER, *extra],
                            capture_output=True, text=True, check=False)
    return result.returncode, result.stdout, result.stderr


def check(name, condition, output):
    if not condition:
        FAILURES.append(name)
        print(f"FAILED: {name}\n{output}")
    else:
        print(f"ok: {name}")


def line_of(stdout, scene):
    return next((line for line in stdout.splitlines() if scene in line), "")


def main():
    # SOFA's last-step-only references: T = 0 and T = dt (steps - 1) = 0.2.
    last_only = [(0, 0), (0.2, 2)]
    with tempfile.TemporaryDirectory() as scratch:
        # 1. The hand-computed states pass, with an error of exactly 0 (6-digit printing of
        #    0.30000000000000004 is 0.3).
        sofa, regression = make_tree(os.path.join(scratch, "pass"), records(BALL, last_only),
                                     records(OTHER, last_only))
        status, out, err = run(sofa, regression)
        line = line_of(out, "TwoBodies")
        check("hand-computed reference passes", status == 0 and line.startswith("PASS") and
              "errorByDof 0 <=" in line, out + err)

        # 2. ball p1.y at T=0.2 off by 0.006: compareVec gives 0.006 / 6 scalars = 0.001, divided
        #    by 2 points: ball's errorByDof 5e-4. CompareStateResult counts the ball's CompareState
        #    for Ball and for its child Decor, Other's once: (2 * 5e-4 + 0) / 3 = 3.33333e-4 > 1e-4.
        perturbed = dict(BALL)
        perturbed[2] = ("0.2 -0.3 0 1 2.706 3", BALL[2][1])
        sofa, regression = make_tree(os.path.join(scratch, "fail"), records(perturbed, last_only),
                                     records(OTHER, last_only))
        status, out, err = run(sofa, regression)
        line = line_of(out, "TwoBodies")
        check("perturbed reference fails with SOFA's weighted errorByDof",
              status == 1 and line.startswith("FAIL") and "errorByDof 0.000333333 > epsilon 0.0001"
              in line and "largest: root/Ball/ball/p1.y at step 2, Fluxion 2.7 vs SOFA 2.706" in line,
              out + err)

        # 3. A velocity error is counted like a position error: V of Other at T=0 off by 0.0006
        #    in one of 3 scalars -> 0.0002 / 1 point; counted once of 3 -> 6.66667e-5 <= 1e-4.
        other = dict(OTHER)
        other[0] = (OTHER[0][0], "0 0 2.0006")
        sofa, regression = make_tree(os.path.join(scratch, "velocity"), records(BALL, last_only),
                                     records(other, last_only))
        status, out, err = run(sofa, regression)
        line = line_of(out, "TwoBodies")
        check("a velocity error is weighted like a position error",
              status == 0 and line.startswith("PASS") and "errorByDof 6.66667e-05 <=" in line,
              out + err)

        # 4. SOFA's reading rule: at the start of step k it reads every record with
        #    T <= t_k + dt/1000 and compares only the last. Records at T=0.05 (garbage) and 0.1
        #    are both read at t=0.1; only 0.1 is compared. A record at T=0.15 is compared at t=0.2
        #    with the state after 2 steps. A record at T=0.3 is never reached (3 steps compare up
        #    to t=0.2), so its garbage is never compared.
        garbage = ("9 9 9 9 9 9", "9 9 9 9 9 9")
        ball = dict(BALL)
        ball["garbage"] = garbage
        timed = [(0, 0), (0.05, "garbage"), (0.1, 1), (0.15, 2), (0.3, "garbage")]
        other_timed = dict(OTHER)
        other_timed["garbage"] = ("9 9 9", "9 9 9")
        sofa, regression = make_tree(os.path.join(scratch, "timing"), records(ball, timed),
                                     records(other_timed, timed))
        status, out, err = run(sofa, regression)
        line = line_of(out, "TwoBodies")
        check("records matched to steps by SOFA's reading rule",
              status == 0 and line.startswith("PASS") and "errorByDof 0 <=" in line, out + err)
        # ... while the same garbage at T=0.2 is compared, and fails.
        timed = [(0, 0), (0.1, 1), (0.2, "garbage")]
        sofa, regression = make_tree(os.path.join(scratch, "timing2"), records(ball, timed),
                                     records(other_timed, timed))
        status, out, err = run(sofa, regression)
        check("a record at the last compared step is compared", status == 1 and
              line_of(out, "TwoBodies").startswith("FAIL"), out + err)

        # ... and the dt/1000 margin: after 8 steps of 0.1 SOFA's time is 0.7999999999999999,
        #    which WriteState prints as T= 0.8; with 9 steps that record is compared at step 8
        #    (0.7999999999999999 + 0.0001 >= 0.8), so its garbage fails the scene.
        timed = [(0, 0), (0.8, "garbage")]
        sofa, regression = make_tree(os.path.join(scratch, "timing3"), records(ball, timed),
                                     records(other_timed, timed), steps=9)
        status, out, err = run(sofa, regression)
        check("a record printed just after the step's time is compared (dt/1000 margin)",
              status == 1 and line_of(out, "TwoBodies").startswith("FAIL") and
              "at step 8" in line_of(out, "TwoBodies"), out + err)

        # 5. A scene Fluxion cannot run is reported with scene-runner's first error line and does not
        #    fail the run unless --fail-on-cannot-run; a listed scene without reference is reported
        #    and skipped (SOFA would record one).
        sofa, regression = make_tree(os.path.join(scratch, "cannot"), records(BALL, last_only),
                                     records(OTHER, last_only),
                                     "Fall/Unsupported.scn 3 1e-4 0 1\nFall/NoReference.scn 3 1e-4 0 1\n")
        reference = os.path.join(regression, "references", "examples", "Fall")
        write(os.path.join(reference, "Unsupported.scn.reference"), "")
        write(os.path.join(reference, "Unsupported.scn.reference_0_MechanicalObject1_mstate.txt.gz"),
              records({0: ("0 0 0", "0 0 0")}, [(0, 0)]), compress=True)
        status, out, err = run(sofa, regression)
        line = line_of(out, "Unsupported")
        check("cannot run: reported with scene-runner's error",
              status == 0 and line.startswith("CANNOT RUN") and "NoSuchForceFieldInFluxion" in line
              and line_of(out, "NoReference").startswith("NO REFERENCE")
              and "3 scenes: 1 pass, 0 fail, 1 cannot run, 1 no reference" in out, out + err)
        status, out, err = run(sofa, regression, "--fail-on-cannot-run")
        check("--fail-on-cannot-run makes it fatal", status == 1, out + err)
        status, out, err = run(sofa, regression, "TwoBodies")
        check("a pattern selects scenes", status == 0 and "1 scenes: 1 pass" in out, out + err)

        # 6. Topology references (RegressionTopologyScenes): a strip T0 (0 1 2), T1 (1 3 2) whose
        #    container derives the edges (1 2) (2 0) (0 1) (3 2) (1 3); REMOVE= T0 at t = 0.1:
        #    edges 2 and 1 go (last into each slot: (1 3) into 2, then (3 2) into 1), T1 moves to
        #    slot 0, point 0 goes and 3 takes its number: triangles (1 0 2), edges (1 2) (0 2)
        #    (1 0). Compared at t = 0, 0.1, 0.2.
        sofa, regression = make_tree(os.path.join(scratch, "topology"), records(BALL, last_only),
                                     records(OTHER, last_only))
        write(os.path.join(sofa, "examples", "Cut", "Strip.scn"), STRIP)
        write(os.path.join(sofa, "examples", "Cut", "strip.txt"), "T= 0.1\n  REMOVE= 1\n0\n")
        write(os.path.join(sofa, "examples", "RegressionTopologyScenes.regression-tests"),
              "$REGRESSION_DIR/references/examples\nCut/Strip.scn 3 1e-4 1\n")
        before = ("1 2 2 0 0 1 3 2 1 3", "0 1 2 1 3 2")
        after = ("1 2 0 2 1 0", "1 0 2")
        reference = os.path.join(regression, "references", "examples", "Cut", "Strip.scn.reference")
        write(reference, "")
        write(reference + "_0_strip_topology.txt.gz",
              topology_records([(0, before), (0.1, after), (0.2, after)]), compress=True)
        status, out, err = run(sofa, regression, "Strip")
        check("topology reference of a removal passes", status == 0 and
              line_of(out, "Strip").startswith("PASS") and "0 topology errors" in
              line_of(out, "Strip"), out + err)
        # One triangle's vertices in another order at t = 0.1 (an element whose vertices differ),
        # one edge too many at t = 0.2 (|4 - 3| = 1): 2 errors.
        write(reference + "_0_strip_topology.txt.gz",
              topology_records([(0, before), (0.1, (after[0], "1 2 0")),
                                (0.2, (after[0] + " 2 3", after[1]))]), compress=True)
        status, out, err = run(sofa, regression, "Strip")
        check("a topology that differs fails with CompareTopology's count", status == 1 and
              line_of(out, "Strip").startswith("FAIL") and "2 topology errors" in
              line_of(out, "Strip") and "edges 1, triangles 1" in line_of(out, "Strip"),
              out + err)

    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed: {', '.join(FAILURES)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
