#!/usr/bin/env python3
"""scene-runner --vtk read back by an independent reader (meshio, Debian's python3-meshio) and
compared with the CSV trajectory of the same run, and with numbers known from the scene itself.

The scene is the gallery's cloth (scenes/cloth_grid.scn): an 8 x 1 x 8 RegularGridTopology from
(0, 0, 0) to (1, 0, 1), so point i rests at (i % 8 / 7, 0, i // 8 / 7); UniformMass totalMass 1
(1/64 kg per point); gravity (0, -9.81, 0); MeshSpringForceField on the grid's edges: the 7 x 8
edges along x, the 7 x 8 along z and one diagonal per quad (49), 161 lines; the grid's 49 quads
and, as SOFA's RegularGridTopology lists them too (computeTriangleList), 2 triangles per quad.
At rest and at zero velocity every spring is at its rest length, so the force on each point is
m g.

usage: vtk_output_test.py SCENE_RUNNER SOURCE_DIR
Exit 77 (CTest: skipped) when meshio is not installed.
"""
import csv
import math
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

try:
    import meshio
    import numpy as np
except ImportError as error:
    print(f"SKIP: {error} (install Debian's python3-meshio)")
    sys.exit(77)

RUNNER, SOURCE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
SCENE = os.path.join(SOURCE, "scenes", "cloth_grid.scn")
OBJECT = "root/cloth/dofs"
POINTS = 64
MASS = 1.0 / 64
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(*args, cwd):
    return subprocess.run([RUNNER, SCENE, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    index = {name: k for k, name in enumerate(header)}
    out = []
    for row in body:
        values = [float(v) for v in row]
        x = np.array([[values[index[f"{OBJECT}/p{i}.{a}"]] for a in "xyz"] for i in range(POINTS)])
        v = np.array([[values[index[f"{OBJECT}/v{i}.{a}"]] for a in "xyz"] for i in range(POINTS)])
        out.append((int(values[index["step"]]), values[index["time"]], x, v))
    return out


def rest_position(i):
    return np.array([i % 8 / 7, 0.0, i // 8 / 7])


def check_run(folder, output_dir, rows, encoding):
    """The .pvd in `folder` against the CSV rows; every .vtu read with meshio."""
    pvd = ET.parse(os.path.join(folder, "cloth_grid.pvd")).getroot()
    check(pvd.get("type") == "Collection", "the .pvd is a VTK Collection")
    datasets = pvd.findall("./Collection/DataSet")
    # --every 10 over 20 steps: steps 0, 10, 20, one part (the cloth's object) each.
    check(len(datasets) == len(rows) == 3, f"3 recorded states, got {len(datasets)} data sets")
    for dataset, (step, time, x, v) in zip(datasets, rows):
        check(float(dataset.get("timestep")) == time, f"step {step}: timestep {time}")
        check(dataset.get("part") == "0" and dataset.get("name") == OBJECT,
              f"step {step}: part 0 named {OBJECT}")
        path = os.path.join(folder, dataset.get("file"))
        check(os.path.realpath(path).startswith(os.path.realpath(output_dir) + os.sep),
              f"{path} is below the output folder")
        # The encoding as declared in the file.
        root = ET.parse(path).getroot()
        formats = {a.get("format") for a in root.iter("DataArray")}
        if encoding == "binary":
            check(root.get("compressor") == "vtkZLibDataCompressor", f"{path}: zlib compressor")
        check(formats == {encoding}, f"{path}: every array {encoding}, got {formats}")

        mesh = meshio.read(path)
        check(np.array_equal(mesh.points, x), f"step {step}: points equal the CSV's positions")
        check(np.array_equal(mesh.point_data["velocity"], v),
              f"step {step}: velocity equals the CSV's")
        check(np.allclose(mesh.point_data["mass"], MASS, rtol=1e-15, atol=0),
              f"step {step}: mass 1/64 per point")
        blocks = {block.type: block.data for block in mesh.cells}
        check(sorted(blocks) == ["line", "quad", "triangle"],
              f"step {step}: lines, quads and triangles, got {sorted(blocks)}")
        lines = blocks.get("line", np.zeros((0, 2), int))
        quads = blocks.get("quad", np.zeros((0, 4), int))
        check(len(lines) == 7 * 8 * 2 + 49, f"step {step}: 161 springs as lines, got {len(lines)}")
        check(len(quads) == 49, f"step {step}: 49 quads, got {len(quads)}")
        check(len(blocks.get("triangle", [])) == 98, f"step {step}: 98 triangles")
        # Every line joins grid neighbours: rest length 1/7 (along x or z) or sqrt(2)/7.
        rest = [np.linalg.norm(rest_position(a) - rest_position(b)) for a, b in lines]
        check(all(math.isclose(r, 1 / 7, rel_tol=1e-12)
                  or math.isclose(r, math.sqrt(2) / 7, rel_tol=1e-12) for r in rest),
              f"step {step}: lines are the grid's edges and diagonals")
        # Cell data: elongation l - l0 of each line (from the CSV positions), 0 for the others.
        kinds = [block.type for block in mesh.cells]
        elongation = mesh.cell_data["elongation"]
        expected = [np.linalg.norm(x[a] - x[b]) - r for (a, b), r in zip(lines, rest)]
        # Tolerance: lengths of about 0.2 m computed in double precision, 1e-15 m apart at most.
        check(np.allclose(elongation[kinds.index("line")], expected, rtol=0, atol=1e-14),
              f"step {step}: elongation of every line")
        check(all(np.all(elongation[k] == 0) for k, kind in enumerate(kinds) if kind != "line"),
              f"step {step}: the other cells' elongation is 0")
        if step == 0:
            check(all(np.allclose(x[i], rest_position(i), rtol=0, atol=1e-15)
                      for i in range(POINTS)), "step 0: the grid's rest positions")
            # At rest and at zero velocity: the force on every point is m g.
            check(np.allclose(mesh.point_data["force"], [[0, -9.81 * MASS, 0]] * POINTS,
                              rtol=1e-15, atol=1e-15), "step 0: force m g on every point")


# Two objects: a 2-D pair of unit masses falling under g = (0, -2) with dt = 0.5 (symplectic
# Euler: after one step v = (0, -1), y = -0.5, f = m g), and a massless 3-D point, which stays.
TWO_OBJECTS = """<Node name="root" dt="0.5" gravity="0 -2 0">
  <EulerExplicitSolver/>
  <Node name="pair">
    <MechanicalObject name="dofs" template="Vec2d" position="0 0  1 0"/>
    <UniformMass vertexMass="1"/>
  </Node>
  <Node name="wall">
    <MechanicalObject name="dofs" position="5 5 5"/>
  </Node>
</Node>
"""


def check_objects(work):
    """Each object its own part, named by its id; 2-D points padded; points without topology as
    vertices."""
    scene = os.path.join(work, "two.scn")
    with open(scene, "w") as f:
        f.write(TWO_OBJECTS)
    result = subprocess.run([RUNNER, scene, "--steps", "1", "--vtk", "two", "--output", os.devnull],
                            cwd=work, capture_output=True, text=True, timeout=120)
    check(result.returncode == 0, f"two objects: exit {result.returncode}: {result.stderr}")
    datasets = ET.parse(os.path.join(work, "two", "two.pvd")).getroot().findall(
        "./Collection/DataSet")
    check([(d.get("timestep"), d.get("part"), d.get("name")) for d in datasets] ==
          [("0", "0", "root/pair/dofs"), ("0", "1", "root/wall/dofs"),
           ("0.5", "0", "root/pair/dofs"), ("0.5", "1", "root/wall/dofs")],
          "two objects: two parts per state, named by their ids")
    pair = meshio.read(os.path.join(work, "two", datasets[2].get("file")))
    check(np.array_equal(pair.points, [[0, -0.5, 0], [1, -0.5, 0]]), "pair: points after 1 step")
    check(np.array_equal(pair.point_data["velocity"], [[0, -1, 0], [0, -1, 0]]), "pair: velocity")
    check(np.array_equal(pair.point_data["force"], [[0, -2, 0], [0, -2, 0]]), "pair: force m g")
    check(np.array_equal(pair.point_data["mass"], [1, 1]), "pair: mass 1")
    check([(b.type, len(b.data)) for b in pair.cells] == [("vertex", 2)], "pair: 2 vertices")
    check("elongation" not in pair.cell_data, "pair: no edges, no elongation")
    wall = meshio.read(os.path.join(work, "two", datasets[3].get("file")))
    check(np.array_equal(wall.points, [[5, 5, 5]]), "wall: stays")
    check(np.array_equal(wall.point_data["mass"], [0]), "wall: massless")


# A point 5 mm above a static triangle floor, no gravity (docs/contact.md, "Contact response"):
# MinProximity's triangle-point test takes the floor as model 1 and the point as model 2, the
# normal from the floor's point (0.2, 0.3, 0) to the point (0.2, 0.3, 0.005) is (0, 0, 1);
# d = contactDistance = 0.01, penetration d - 0.005 = 0.005, ks = 10 * 5 / d = 5000 N/m, so the
# force on the point is ks * 0.005 * n = (0, 0, 25) N.
CONTACT = """<Node name="root" gravity="0 0 0" dt="0.001">
  <CollisionPipeline/> <BruteForceBroadPhase/> <BVHNarrowPhase/>
  <MinProximityIntersection alarmDistance="0.05" contactDistance="0.01"/>
  <CollisionResponse response="PenalityContactForceField"/>
  <Node name="floor">
    <MeshTopology position="-1 -1 0  2 -1 0  -1 2 0" triangles="0 1 2"/>
    <MechanicalObject name="dofs"/>
    <TriangleCollisionModel moving="0" simulated="0"/>
  </Node>
  <Node name="body">
    <EulerExplicitSolver/>
    <MechanicalObject name="dofs" position="0.2 0.3 0.005"/>
    <UniformMass totalMass="0.1"/>
    <PointCollisionModel contactStiffness="5"/>
  </Node>
</Node>
"""


def check_contacts(work):
    """A scene with a collision pipeline gets a 'contacts' part: one line per contact between its
    two points, with normal, penetration, distance and force as cell data (an empty data set
    before the first step)."""
    scene = os.path.join(work, "contact.scn")
    with open(scene, "w") as f:
        f.write(CONTACT)
    for encoding, extra in (("binary", []), ("ascii", ["--vtk-ascii"])):
        folder = "contact_" + encoding
        result = subprocess.run([RUNNER, scene, "--steps", "1", "--vtk", folder, "--output",
                                 os.devnull, *extra], cwd=work, capture_output=True, text=True,
                                timeout=120)
        check(result.returncode == 0, f"contacts: exit {result.returncode}: {result.stderr}")
        datasets = ET.parse(os.path.join(work, folder, "contact.pvd")).getroot().findall(
            "./Collection/DataSet")
        check([(d.get("timestep"), d.get("part"), d.get("name")) for d in datasets] ==
              [("0", "0", "root/floor/dofs"), ("0", "1", "root/body/dofs"), ("0", "2", "contacts"),
               ("0.001", "0", "root/floor/dofs"), ("0.001", "1", "root/body/dofs"),
               ("0.001", "2", "contacts")], f"contacts ({encoding}): a third part per state")
        before = ET.parse(os.path.join(work, folder, datasets[2].get("file"))).getroot()
        check(before.find(".//Piece").get("NumberOfPoints") == "0" and
              before.find(".//Piece").get("NumberOfCells") == "0",
              f"contacts ({encoding}): none before the first step")
        after = meshio.read(os.path.join(work, folder, datasets[5].get("file")))
        # (the floor's point is the body's projected on the triangle: round-off in its last bits)
        check(np.allclose(after.points, [[0.2, 0.3, 0], [0.2, 0.3, 0.005]], rtol=0, atol=1e-12),
              f"contacts ({encoding}): the floor's point, then the body's")
        check([(b.type, b.data.tolist()) for b in after.cells] == [("line", [[0, 1]])],
              f"contacts ({encoding}): one line")
        cell = {name: data[0][0] for name, data in after.cell_data.items()}
        check(np.allclose(cell["normal"], [0, 0, 1], rtol=0, atol=1e-12),
              f"contacts ({encoding}): normal")
        check(math.isclose(cell["penetration"], 0.005, abs_tol=1e-15) and
              math.isclose(cell["distance"], 0.01, abs_tol=1e-15),
              f"contacts ({encoding}): penetration 0.005, distance 0.01")
        check(np.allclose(cell["force"], [0, 0, 25], rtol=0, atol=1e-9),
              f"contacts ({encoding}): force (0, 0, 25) N on the body, got {cell['force']}")


CUBE_POINTS = [(i & 1, (i >> 1) & 1, (i >> 2) & 1) for i in range(8)]
CUBE_TETRAHEDRA = "0 1 3 7  0 1 5 7  0 2 3 7  0 2 6 7  0 4 5 7  0 4 6 7"
STRETCH = (1.01, 0.99, 1.02)


def stressed_cube(in_child):
    """A unit cube of six tetrahedra stretched by diag(1.01, 0.99, 1.02) from its rest shape,
    TetrahedronFEMForceField (E = 1e6 Pa, nu = 0.3, large, computeVonMisesStress=1) in the
    object's node (its own topology) or in a child node with a topology of its own."""
    rest = " ".join(f"{c}" for p in CUBE_POINTS for c in p)
    moved = " ".join(f"{c * s!r}" for p in CUBE_POINTS for c, s in zip(p, STRETCH))
    topology = f'<MeshTopology name="mesh" position="{rest}" tetrahedra="{CUBE_TETRAHEDRA}"/>'
    fem = ('<TetrahedronFEMForceField name="fem" youngModulus="1e6" poissonRatio="0.3" '
           'method="large" computeVonMisesStress="1"/>')
    before, after = (("", f'<Node name="tets">{topology}{fem}</Node>') if in_child
                     else (topology, fem))
    return f"""<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/><CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>
  {before}
  <MechanicalObject name="dofs" position="{moved}" rest_position="{rest}"/>
  <UniformMass totalMass="1"/>
  {after}
</Node>
"""


def check_element_outputs(work):
    """A FEM force field's von Mises stress (SOFA's vonMisesPerElement) as cell data: on the
    object's own cells (its tetrahedra's; 0 on its edges and triangles) when the force field uses
    the object's topology, else as a part of its own holding that topology's tetrahedra. At the
    first record the cube is stretched by F = diag(1.01, 0.99, 1.02) from rest: the corotational
    strain is F - I in every tetrahedron, sigma = lambda tr(e) I + 2 mu e, and von Mises
    sqrt(((s1 - s2)^2 + (s2 - s3)^2 + (s3 - s1)^2) / 2) = 2 mu sqrt(((e1 - e2)^2 + ...) / 2)."""
    mu = 1e6 / (2 * 1.3)
    e = [s - 1 for s in STRETCH]
    expected = 2 * mu * math.sqrt(0.5 * ((e[0] - e[1]) ** 2 + (e[1] - e[2]) ** 2 +
                                         (e[2] - e[0]) ** 2))
    for in_child in (False, True):
        name = "child" if in_child else "own"
        scene = os.path.join(work, f"cube_{name}.scn")
        with open(scene, "w") as f:
            f.write(stressed_cube(in_child))
        folder = f"cube_{name}"
        result = subprocess.run([RUNNER, scene, "--steps", "1", "--vtk", folder, "--output",
                                 os.path.join(work, f"{folder}.csv")], cwd=work,
                                capture_output=True, text=True, timeout=120)
        check(result.returncode == 0, f"cube ({name}): exit {result.returncode}: {result.stderr}")
        datasets = ET.parse(os.path.join(work, folder, f"cube_{name}.pvd")).getroot().findall(
            "./Collection/DataSet")
        parts = [(d.get("timestep"), d.get("part"), d.get("name")) for d in datasets]
        if in_child:
            check(parts[:2] == [("0", "0", "root/dofs"), ("0", "1", "root/tets/fem")],
                  f"cube (child): the object, then the force field's part, got {parts}")
            mesh = meshio.read(os.path.join(work, folder, datasets[1].get("file")))
            check([b.type for b in mesh.cells] == ["tetra"] and len(mesh.cells[0].data) == 6,
                  "cube (child): the six tetrahedra of the force field's topology")
            values = mesh.cell_data["vonMisesPerElement"][0]
            check(np.allclose(mesh.points, [[c * s for c, s in zip(p, STRETCH)]
                                            for p in CUBE_POINTS], rtol=0, atol=1e-15),
                  "cube (child): the object's points")
        else:
            check(parts[0] == ("0", "0", "root/dofs") and len(parts) == 2,
                  f"cube (own): the object's part only, got {parts}")
            mesh = meshio.read(os.path.join(work, folder, datasets[0].get("file")))
            kinds = [b.type for b in mesh.cells]
            data = mesh.cell_data["vonMisesPerElement"]
            check(all(np.all(data[k] == 0) for k, kind in enumerate(kinds) if kind != "tetra"),
                  "cube (own): 0 on the cells that are not tetrahedra")
            values = data[kinds.index("tetra")]
        check(len(values) == 6 and np.allclose(values, expected, rtol=1e-12, atol=0),
              f"cube ({name}): von Mises {expected} Pa in every tetrahedron, got {values}")


def main():
    work = tempfile.mkdtemp(prefix="fluxion-vtk-test-")
    try:
        out = os.path.join(work, "out")
        os.mkdir(out)
        # Binary (the default) and ascii, each with the CSV of the same run.
        for encoding, folder, extra in (("binary", "vtk", []),
                                        ("ascii", "vtk_ascii", ["--vtk-ascii"])):
            result = run("--steps", "20", "--every", "10", "--output-dir", out, "--vtk",
                         os.path.join("out", folder),
                         "--output", os.path.join(work, f"{folder}.csv"), *extra, cwd=work)
            check(result.returncode == 0,
                  f"{encoding} run: exit {result.returncode}: {result.stderr}")
            check(result.stdout == "", f"{encoding} run: nothing on stdout")
            check("progress" not in result.stderr, f"{encoding} run: no progress off a terminal")
            rows = read_csv(os.path.join(work, f"{folder}.csv"))
            check_run(os.path.join(out, folder), out, rows, encoding)

        # Run again into the same folder: refused, the files kept, unless --overwrite.
        pvd = os.path.join(out, "vtk", "cloth_grid.pvd")
        before = open(pvd, "rb").read()
        result = run("--steps", "5", "--output-dir", out, "--vtk", "out/vtk", cwd=work)
        check(result.returncode == 2, f"existing files: exit 2, got {result.returncode}")
        check("error: --vtk out/vtk: cannot open 'vtk/cloth_grid.pvd'" in result.stderr
              and "already exists" in result.stderr and "--overwrite" in result.stderr,
              f"existing files: one error line naming --overwrite, got {result.stderr!r}")
        check(open(pvd, "rb").read() == before, "existing files: the .pvd is kept")
        result = run("--steps", "5", "--output-dir", out, "--vtk", "out/vtk", "--overwrite",
                     "--output", os.devnull, cwd=work)
        check(result.returncode == 0,
              f"--overwrite: exit 0, got {result.returncode}: {result.stderr}")
        check(len(ET.parse(pvd).getroot().findall("./Collection/DataSet")) == 6,
              "--overwrite: the new run's 6 states (steps 0 to 5)")

        check_objects(work)
        check_contacts(work)
        check_element_outputs(work)

        # A folder outside the output folder is refused and not created, given relative to the
        # working folder (as every path of the command line) or absolute, or leading out.
        for given in ("outside", os.path.join(work, "outside"), "out/../outside"):
            result = run("--steps", "1", "--output-dir", out, "--vtk", given, cwd=work)
            check(result.returncode == 2 and "is outside the output folder" in result.stderr,
                  f"outside ({given}): exit 2 and why, got {result.returncode}: {result.stderr!r}")
            check(not os.path.exists(os.path.join(work, "outside")), f"outside ({given}): nothing")
        # A link inside the output folder to a folder outside it is refused too.
        os.mkdir(os.path.join(work, "elsewhere"))
        os.symlink(os.path.join(work, "elsewhere"), os.path.join(out, "link"))
        result = run("--steps", "1", "--output-dir", out, "--vtk", "out/link", cwd=work)
        check(result.returncode == 2 and "is outside the output folder" in result.stderr,
              f"link: exit 2 and why, got {result.returncode}: {result.stderr!r}")
        check(os.listdir(os.path.join(work, "elsewhere")) == [], "link: nothing written through")
    finally:
        if not failures:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("files kept in", work)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
