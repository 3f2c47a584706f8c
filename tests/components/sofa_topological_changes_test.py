#!/usr/bin/env python3
"""Runs SOFA's topological-change examples, unmodified from SOFA's layout, when the environment
names a SOFA tree, and is skipped (exit 77, CTest's SKIP_RETURN_CODE) otherwise:

    SOFA_TREE=/path/to/sofa ctest -R sofa_topological_changes

    sofa_topological_changes_test.py SCENE_RUNNER

examples/Benchmark/TopologicalChanges/*.scn remove 145 triangles ten times, from t = 0.1 to 1.0
(RemovingTrianglesProcess_constraint.txt), from a square of 1450 triangles (share/mesh/square3.msh)
whose every point is on a triangle: after t = 1 no point is left. The scenes Fluxion cannot run
yet are checked to fail with the message naming what they lack (so that this test says when
they start to run). 
examples/Component/Topology/Container/Dynamic/{Hexahedron,Quad,Triangular}ForceFieldTopologyChange
Handling.scn run to t = 1, their containers losing at each T= the elements their process file names;
the hexahedron one and RemovingTriangle2EdgeProcess.scn (a Triangle2Edge border with an edge
pressure) are followed in place, their ParaView files byte for byte those of the rebuild; so are
RemovingTetra2TriangleProcess*.scn and RemovingTetra2Triangle_options{1,2}.scn (a membrane,
bending springs or a collision model on the Tetra2Triangle surface),
RemovingQuad2TriangleProcess.scn and RemovingHexa2QuadProcess.scn (a quad sheet with a
Quad2TriangleTopologicalMapping child holding a membrane, bending springs and a collision model; a
hexahedral body with a Hexa2QuadTopologicalMapping surface holding bending springs and a collision
model); the Adding*Process.scn scenes follow their additions in place (ADDING below says how
many), with the rebuild's ParaView files.
FixedConstraint_RemovingMeshTest is also checked point by point against SOFA's removal written out
here independently, from SOFA's TriangleSetTopologyModifier::removeTrianglesProcess, EdgeSet-
and PointSetTopologyModifier (shells of triangles around points and edges, ids sorted descending,
the last element moved into each removed slot), MechanicalObject's state (the last point moved into
the removed one) and TopologySubsetIndices (the fixed list: removed points erased, the moved last
point renamed): after each removal the run has SOFA's number of points, and its fixed points,
renumbered, sit exactly at their original coordinates. SOFA's files are never copied into this
repository."""
import math
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
        "TriangularBendingSprings_RemovingMeshTest", "TriangularFEMForceField_RemovingMeshTest",
        "LinearMovementConstraint_RemovingMeshTest", "ProjectDirectionConstraint_RemovingMeshTest"]
# What each remaining scene lacks: a phrase of the error it stops with (none left).
LACKS = {}
DATA_INPUTS = "examples/Component/Topology/Utility/TopologicalChangeProcessor_useDataInputs_option.scn"


def run(runner, tree, scene, steps, folder):
    env = dict(os.environ, SOFA_ROOT=tree)
    return subprocess.run([runner, "--no-rows", "--steps", str(steps), "--quiet", scene],
                          cwd=folder, env=env, capture_output=True, text=True, check=False)


def read_square(path):
    """Points, edges (type-1 elements, then the triangles' missing sides as MeshLoader's
    createSubelements adds them) and triangles of a Gmsh 1 file, in file order."""
    lines = open(path).read().split("\n")
    k = lines.index("$NOD")
    count = int(lines[k + 1])
    ids, points = {}, []
    for line in lines[k + 2:k + 2 + count]:
        words = line.split()
        ids[int(words[0])] = len(points)
        points.append(tuple(float(w) for w in words[1:4]))
    k = lines.index("$ELM")
    edges, triangles = [], []
    for line in lines[k + 2:k + 2 + int(lines[k + 1])]:
        words = [int(w) for w in line.split()]
        nodes = [ids[n] for n in words[5:5 + words[4]]]
        if words[1] == 1:
            edges.append(nodes)
        elif words[1] == 2:
            triangles.append(nodes)
    known = {tuple(sorted(e)) for e in edges}
    for t in triangles:
        for j in range(3):
            e = [t[(j + 1) % 3], t[(j + 2) % 3]]
            if tuple(sorted(e)) not in known:
                known.add(tuple(sorted(e)))
                edges.append(e)
    return points, edges, triangles


def sofa_remove_triangles(triangles, edges, origin, subset, ids):
    """SOFA's removeItems(ids) on lists it changes in place: `origin` is the MechanicalObject's
    state (the original number of the point at each index), `subset` an index list."""
    around_point = [[] for _ in origin]
    for t, tri in enumerate(triangles):
        for v in tri:
            around_point[v].append(t)
    first = {}
    for e, (a, b) in enumerate(edges):
        first.setdefault((min(a, b), max(a, b)), e)
    edges_in = [[first[tuple(sorted((tri[(j + 1) % 3], tri[(j + 2) % 3])))] for j in range(3)]
                for tri in triangles]
    around_edge = [[] for _ in edges]
    for t, es in enumerate(edges_in):
        for e in es:
            around_edge[e].append(t)
    ids = sorted((i for i in ids if i < len(triangles)), reverse=True)
    gone_edges, gone_points = [], []
    last = len(triangles) - 1
    for i in ids:
        for v in triangles[i]:
            around_point[v] = [t for t in around_point[v] if t != i]
            if not around_point[v]:
                gone_points.append(v)
        for e in edges_in[i]:
            around_edge[e] = [t for t in around_edge[e] if t != i]
            if not around_edge[e]:
                gone_edges.append(e)
        if i < last:
            for v in triangles[last]:
                around_point[v] = [i if t == last else t for t in around_point[v]]
            for e in edges_in[last]:
                around_edge[e] = [i if t == last else t for t in around_edge[e]]
        edges_in[i] = edges_in[last]
        triangles[i] = triangles[last]
        edges_in.pop()
        triangles.pop()
        last -= 1
    last = len(edges) - 1
    for e in sorted(gone_edges, reverse=True):
        for t in around_edge[last]:
            edges_in[t] = [e if x == last else x for x in edges_in[t]]
        around_edge[e] = around_edge[last]
        edges[e] = edges[last]
        around_edge.pop()
        edges.pop()
        last -= 1
    last = len(origin) - 1
    for p in sorted(gone_points, reverse=True):
        for t in around_point[last]:
            triangles[t] = [p if v == last else v for v in triangles[t]]
        for edge in edges:
            for j in range(2):
                if edge[j] == last:
                    edge[j] = p
        around_point[p] = around_point[last]
        around_point.pop()
        origin[p] = origin[last]
        origin.pop()
        subset[:] = [x for x in subset if x != p]
        subset[:] = [p if x == last else x for x in subset]
        last -= 1


def vtu_array(text, name):
    """The numbers of the ascii DataArray named `name` (the points' array has no name: None)."""
    start = text.index("<Points>") if name is None else text.index(f'Name="{name}"')
    start = text.index(">", start if name is not None else text.index("<DataArray", start)) + 1
    return [float(w) for w in text[start:text.index("</DataArray>", start)].split()]


def vtu_contents(path):
    """Points, per-point masses, and the edges and triangles (VTK types 3 and 5), in file order."""
    text = open(path).read()
    values = vtu_array(text, None)
    points = [tuple(values[k:k + 3]) for k in range(0, len(values), 3)]
    connectivity = [int(v) for v in vtu_array(text, "connectivity")]
    offsets = [int(v) for v in vtu_array(text, "offsets")]
    types = [int(v) for v in vtu_array(text, "types")]
    edges, triangles, begin = [], [], 0
    for end, kind in zip(offsets, types):
        if kind == 3:
            edges.append(connectivity[begin:end])
        elif kind == 5:
            triangles.append(connectivity[begin:end])
        begin = end
    return points, vtu_array(text, "mass"), edges, triangles


def lumped_masses(points, triangles, origin, density):
    """DiagonalMass: each triangle's density × rest area / 3 on each of its points."""
    masses = [0.0] * len(origin)
    for tri in triangles:
        a, b, c = (points[origin[v]] for v in tri)
        u = [b[k] - a[k] for k in range(3)]
        w = [c[k] - a[k] for k in range(3)]
        cross = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]]
        share = density * 0.5 * math.sqrt(sum(x * x for x in cross)) / 3
        for v in tri:
            masses[v] += share
    return masses


def check_fixed_scene_point_by_point(runner, tree, folder):
    """The failures of FixedConstraint_RemovingMeshTest against SOFA's removal written out."""
    points, edges, triangles = read_square(os.path.join(tree, "share/mesh/square3.msh"))
    origin = list(range(len(points)))
    fixed = list(range(31))
    env = dict(os.environ, SOFA_ROOT=tree)
    name = "FixedConstraint_RemovingMeshTest"
    result = subprocess.run([runner, "--no-rows", "--quiet", "--steps", "101", "--every", "10",
                             "--vtk", "vtk", "--vtk-ascii",
                             os.path.join(tree, BENCHMARK, name + ".scn")],
                            cwd=folder, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return [f"{name} with --vtk: exit {result.returncode}: {result.stderr.strip()}"]
    failures = []
    checked = 0
    for k in range(1, 11):
        # The removal at t = k/10 happens at the start of step 10k + 1; the file of step 10k + 10
        # (10k + 1 for the last) shows its result.
        sofa_remove_triangles(triangles, edges, origin, fixed, list(range(145)))
        step = 10 * k + 10 if k < 10 else 101
        if step > 101:
            continue
        file = os.path.join(folder, "vtk", f"{name}_root_SquareGravity_dofs_{step:06d}.vtu")
        if k == 10:
            file = os.path.join(folder, "vtk", f"{name}_root_SquareGravity_dofs_000101.vtu")
        run_points, run_masses, run_edges, run_triangles = vtu_contents(file)
        if len(run_points) != len(origin):
            failures.append(f"{name} after removal {k}: {len(run_points)} points (SOFA: "
                            f"{len(origin)})")
            continue
        if run_triangles != triangles or run_edges != edges:
            failures.append(f"{name} after removal {k}: the triangles or edges differ from SOFA's "
                            "renumbered ones")
        for index in fixed:
            if run_points[index] != points[origin[index]]:
                failures.append(f"{name} after removal {k}: fixed point {index} at "
                                f"{run_points[index]}, SOFA's is original point {origin[index]} "
                                f"at {points[origin[index]]}")
                break
        # Round-off: the run removes each triangle's share from the sums SOFA made at init, the
        # check sums the remaining shares (a few ulps of masses of order 1e-3).
        expected = lumped_masses(points, triangles, origin, 1.0)
        worst = max((abs(m - e) for m, e in zip(run_masses, expected)), default=0.0)
        if worst > 1e-15:
            failures.append(f"{name} after removal {k}: a point's mass is off by {worst}")
        checked += 1
    print(f"checked point by point (topology, fixed points, masses): {name}, {checked} removals "
          f"(points left: {len(origin)}, fixed left: {len(fixed)})")
    return failures


DYNAMIC = "examples/Component/Topology/Container/Dynamic"
# Scenes whose container loses elements line by line of their process file, by container name.
HANDLING = {"HexahedronForceFieldTopologyChangeHandling": ("RemovingHexaProcess.txt",
                                                           {"Container": "Hexahedra"}),
            "QuadForceFieldTopologyChangeHandling": ("RemovingQuadProcess.txt",
                                                     {"QuadularBendingSprings/Container": "Quads",
                                                      "RegularGridSprings/Container": "Quads"}),
            # Its nodes collide (a pipeline reads their TriangleCollisionModels): rebuilt at each
            # change. The TriangularTensorMass node has no processor and keeps its triangles.
            "TriangularForceFieldTopologyChangeHandling": (
                "RemovingTrianglesProcess.txt",
                {name + "/Container": "Triangles"
                 for name in ["TriangularBendingSprings", "TriangularBiquadratic",
                              "TriangularQuadratic", "TriangularFEM",
                              "TrianglePressureForceField"]})}


def expected_counts(process, initial):
    """The element count after each T= of a REMOVE= process file, read as SOFA's stream reads
    it: n indices announced, the missing ones read as 0, an index removed once, those past the
    count skipped."""
    counts, count, time = {}, initial, None
    lines = open(process).read().split("\n")
    for k, line in enumerate(lines):
        words = line.split()
        if words[:1] == ["T="]:
            time = float(words[1])
        elif words[:1] == ["REMOVE="]:
            n = int(words[1])
            ids = [int(w) for w in lines[k + 1].split()][:n]
            ids += [0] * (n - len(ids))
            count -= len({i for i in ids if i < count})
            counts[time] = count
    return counts


def topology_counts(path, name, kind):
    """The `kind` count of topology `name` (a path ending) at each time of a --topologies file."""
    counts, time, current = {}, None, None
    for line in open(path):
        words = line.split()
        if words[:1] == ["T="]:
            time = float(words[1])
        elif words[:1] == ["Topology="]:
            current = "/".join(words[1:])
        elif words[:1] == [kind + "="] and current and current.endswith(name):
            counts[time] = int(words[1])
    return counts


def check_handling_scenes(runner, tree, folder):
    """SOFA's *ForceFieldTopologyChangeHandling scenes run to t = 1 with their containers
    losing, at each T=, the elements the process file names."""
    failures = []
    env = dict(os.environ, SOFA_ROOT=tree)
    for name, (process, containers) in HANDLING.items():
        topologies = os.path.join(folder, name + ".topo")
        result = subprocess.run([runner, "--no-rows", "--steps", "100", "--quiet", "--topologies",
                                 topologies, os.path.join(tree, DYNAMIC, name + ".scn")],
                                cwd=folder, env=env, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            failures.append(f"{name}: exit {result.returncode}: {result.stderr.strip()}")
            continue
        reached = []
        for container, kind in containers.items():
            counts = topology_counts(topologies, container, kind)
            expected = expected_counts(os.path.join(tree, DYNAMIC, process), counts.get(0.0, 0))
            for time, count in expected.items():
                if counts.get(time) != count:
                    failures.append(f"{name}: {container} has {counts.get(time)} {kind} at "
                                    f"t = {time} (expected {count})")
            reached.append(f"{container}: {counts.get(0.0)} -> {counts.get(max(expected))} {kind}")
        print(f"ran: {name} ({', '.join(reached)})")
    return failures


# SOFA's examples that add elements to an empty container (cubeDof.msh's 27 points), six times,
# and the steps that take them past their last addition.
# AddingTetra2TriangleProcess adds AddingTetraProcess's tetrahedra under a Tetra2Triangle child
# carrying a membrane and a collision model (build/mapped_child_in_place.h); its first addition
# rebuilds (the mapping reads the triangles of a container that lists none yet).
# Scene: (steps, additions followed in place, additions in all); the others rebuild.
ADDING = {"AddingTrianglesProcess": (70, 6, 6), "AddingTriangle2EdgeProcess": (70, 6, 6),
          "AddingTetraProcess": (130, 6, 6), "AddingTetra2TriangleProcess": (130, 5, 6),
          "AddingQuad2TriangleProcess": (370, 5, 5), "AddingHexa2QuadProcess": (290, 3, 4)}


def check_additions_in_place(runner, tree, folder):
    """SOFA's Adding*Process.scn scenes: their containers start empty (a membrane or FEM built
    without elements), the additions ADDING names are followed in place (the debug log says so)
    and the others rebuild, and the run's ParaView files are byte-identical to those of a run
    that rebuilds at every change (FLUXION_TOPOLOGY_REBUILD=1). AddingQuad2TriangleProcess.scn
    adds quads under a Quad2TriangleTopologicalMapping child with a collision model,
    AddingHexa2QuadProcess.scn hexahedra under a Hexa2QuadTopologicalMapping child (its first
    addition, to the empty container, rebuilds)."""
    failures = []
    for name, (steps, expected, total) in ADDING.items():
        runs = {}
        for mode in ("in_place", "rebuilt"):
            env = dict(os.environ, SOFA_ROOT=tree)
            env.pop("FLUXION_TOPOLOGY_REBUILD", None)
            if mode == "rebuilt":
                env["FLUXION_TOPOLOGY_REBUILD"] = "1"
            out = os.path.join(folder, name + "_" + mode)
            os.makedirs(out)
            result = subprocess.run([runner, "--no-rows", "--steps", str(steps), "--log-level",
                                     "debug", "--output-dir", out, "--vtk", os.path.join(out, "vtk"),
                                     os.path.join(tree, DYNAMIC, name + ".scn")],
                                    cwd=folder, env=env, capture_output=True, text=True,
                                    check=False)
            if result.returncode != 0:
                failures.append(f"{name} ({mode}): exit {result.returncode}: "
                                f"{result.stderr.strip()[-2000:]}")
                break
            vtk = os.path.join(out, "vtk")
            files = {f: open(os.path.join(vtk, f), "rb").read() for f in sorted(os.listdir(vtk))}
            runs[mode] = (files, result.stderr.count("is followed in place"),
                          result.stderr.count("rebuilds the scene") +
                          result.stderr.count("rebuild the scene"))
        if len(runs) != 2:
            continue
        (in_place, followed, rebuilds), (rebuilt, rebuilt_followed, _) = (runs["in_place"],
                                                                         runs["rebuilt"])
        if followed != expected or rebuilds != total - expected or rebuilt_followed != 0:
            failures.append(f"{name}: {followed} additions followed in place (expected "
                            f"{expected}), {rebuilds} rebuilds (expected {total - expected}), "
                            f"{rebuilt_followed} followed with FLUXION_TOPOLOGY_REBUILD=1 "
                            f"(expected 0)")
        differing = [f for f in sorted(set(in_place) | set(rebuilt))
                     if in_place.get(f) != rebuilt.get(f)]
        if differing or not in_place:
            failures.append(f"{name}: {len(differing)} ParaView files differ from the rebuild's "
                            f"(first {differing[:1]}) of {len(in_place)}")
        else:
            print(f"ran: {name} ({followed} of {total} additions in place; its {len(in_place)} "
                  f"ParaView files "
                  f"byte-identical to the rebuild's)")
    return failures


# Scenes whose changes are followed in place (no "rebuilds the scene" at debug level), their
# ParaView files byte for byte those of the rebuild (FLUXION_TOPOLOGY_REBUILD=1).
# The Tetra2Triangle ones carry a membrane, bending springs or a collision model on the surface
# (build/mapped_child_in_place.h), the Quad2Triangle and Hexa2Quad ones on their children
# (build/element_child_in_place.h).
IN_PLACE = ["HexahedronForceFieldTopologyChangeHandling", "RemovingTriangle2EdgeProcess",
            "RemovingTetra2TriangleProcess", "RemovingTetra2Triangle_options1",
            "RemovingTetra2Triangle_options2", "RemovingTetra2TriangleProcess_performanceTest",
            "RemovingQuad2TriangleProcess", "RemovingHexa2QuadProcess"]


def check_in_place_scenes(runner, tree, folder):
    """The IN_PLACE scenes run to t = 1 followed in place, with the rebuild's ParaView files."""
    failures = []
    for name in IN_PLACE:
        files = {}
        for mode, rebuild in (("in_place", False), ("rebuilt", True)):
            env = dict(os.environ, SOFA_ROOT=tree)
            env.pop("FLUXION_TOPOLOGY_REBUILD", None)
            if rebuild:
                env["FLUXION_TOPOLOGY_REBUILD"] = "1"
            out = os.path.join(folder, name + "_" + mode)
            os.makedirs(out, exist_ok=True)
            vtk = os.path.join(out, "vtk")
            result = subprocess.run([runner, "--no-rows", "--steps", "100", "--log-level", "debug",
                                     "--output-dir", out, "--vtk", vtk,
                                     os.path.join(tree, DYNAMIC, name + ".scn")],
                                    cwd=folder, env=env, capture_output=True, text=True,
                                    check=False)
            if result.returncode != 0:
                failures.append(f"{name} ({mode}): exit {result.returncode}: "
                                f"{result.stderr.strip()[-2000:]}")
                break
            rebuilds = [line for line in result.stderr.split("\n") if "rebuilds the scene" in line]
            if not rebuild and rebuilds:
                failures.append(f"{name}: not followed in place: {rebuilds[0]}")
            files[mode] = {f: open(os.path.join(vtk, f), "rb").read()
                           for f in sorted(os.listdir(vtk))}
        if len(files) != 2:
            continue
        if sorted(files["in_place"]) != sorted(files["rebuilt"]):
            failures.append(f"{name}: the in-place run wrote other ParaView files than the rebuild")
            continue
        differing = [f for f in files["in_place"] if files["in_place"][f] != files["rebuilt"][f]]
        if differing:
            failures.append(f"{name}: {len(differing)} ParaView files differ from the rebuild's "
                            f"(first: {differing[0]})")
        else:
            print(f"followed in place: {name} ({len(files['in_place'])} ParaView files, byte for "
                  f"byte the rebuild's)")
    return failures


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
        failures += check_fixed_scene_point_by_point(runner, tree, folder)
        failures += check_handling_scenes(runner, tree, folder)
        failures += check_in_place_scenes(runner, tree, folder)
        failures += check_additions_in_place(runner, tree, folder)
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
