#!/usr/bin/env python3
"""scene-runner --output RUN.h5 (framework/src/output/hdf5_trajectory_writer.cpp), read back with
h5py, an independent reader, and compared with the CSV of the same run: the same column names and
the same numbers bit for bit (the CSV prints each double in its shortest round-trip form, so
float(text) is the double itself); the topology is the one the scene gives; the same run writes
the same bytes; a run that diverges leaves NAME.partial, a valid HDF5 file holding every row the
CSV of the same failed run holds.

usage: hdf5_trajectory_test.py SCENE_RUNNER   (exit 77, CTest's skip, without h5py or numpy)
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

from script_checks import Checks, skip


# Three points on two springs and a fixed first point, a triangle over them (the topology the
# file must carry), with the variational symplectic solver so that a solver output exists.
SCENE = """<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <VariationalSymplecticSolver computeHamiltonian="1"/>
  <SparseLDLSolver/>
  <Node name="sheet">
    <MeshTopology name="mesh" position="0 0 0  1 0 0  0 0 1" triangles="0 1 2"/>
    <MechanicalObject name="dofs"/>
    <UniformMass vertexMass="0.1"/>
    <FixedProjectiveConstraint indices="0"/>
    <MeshSpringForceField linesStiffness="50" linesDamping="0.1"/>
  </Node>
  <Node name="bead">
    <MechanicalObject name="dofs" template="Vec1d" position="2" velocity="1"/>
    <UniformMass vertexMass="1"/>
  </Node>
</Node>
"""

# The same sheet, so stiff for its dt that explicit Euler diverges within a few dozen steps.
DIVERGING = """<Node name="root" dt="0.1" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  <MeshTopology position="0 0 0  1 0 0  0 0 1" triangles="0 1 2"/>
  <MechanicalObject name="dofs"/>
  <UniformMass vertexMass="0.01"/>
  <FixedProjectiveConstraint indices="0"/>
  <MeshSpringForceField linesStiffness="1e4"/>
</Node>
"""

# A line of 140,001 points, larger than one chunk, falling freely (no springs: cheap steps).
LINE = """<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerExplicitSolver/>
  <RegularGridTopology n="140001 1 1" min="0 0 0" max="1 0 0"/>
  <MechanicalObject name="dofs"/>
  <UniformMass totalMass="1"/>
</Node>
"""


def run(runner, *arguments):
    return subprocess.run([runner, *arguments], capture_output=True, text=True, timeout=120)


def check_xdmf(xdmf_path, h5_path, check):
    import xml.etree.ElementTree as ET
    import h5py
    import numpy
    root = ET.parse(xdmf_path).getroot()
    check(root.tag == "Xdmf" and root.get("Version") == "3.0", "XDMF root")
    collections = root.find("Domain").findall("Grid")
    # The Vec1d bead has no XDMF geometry: only the sheet is described.
    check([g.get("Name") for g in collections] == ["root/sheet/dofs"], "XDMF grids")

    def evaluate(item, f):
        if item.get("ItemType") == "HyperSlab":
            selection, source = item.findall("DataItem")
            start, stride, count = numpy.array(selection.text.split(), dtype=int).reshape(3, -1)
            data = evaluate(source, f)
            index = tuple(slice(a, a + s * c, s) for a, s, c in zip(start, stride, count))
            shape = [int(n) for n in item.get("Dimensions").split()]
            return data[index].reshape(shape)
        file_name, dataset = item.text.strip().split(":")
        check(file_name == os.path.basename(h5_path), f"XDMF names {file_name}")
        return f[dataset][:]

    with h5py.File(h5_path, "r") as f:
        grids = collections[0].findall("Grid")
        check(len(grids) == len(f["time"]), f"{len(grids)} XDMF states")
        for k, grid in enumerate(grids):
            check(float(grid.find("Time").get("Value")) == f["time"][k], f"XDMF time {k}")
            topology = grid.find("Topology")
            check(topology.get("TopologyType") == "Triangle" and
                  evaluate(topology.find("DataItem"), f).tolist() == [[0, 1, 2]],
                  "XDMF topology")
            positions = evaluate(grid.find("Geometry").find("DataItem"), f)
            check((positions == f["objects/root/sheet/dofs/position"][k]).all(),
                  f"XDMF geometry of state {k}")
            velocity = grid.find("Attribute")
            check(velocity.get("Name") == "velocity" and
                  (evaluate(velocity.find("DataItem"), f) ==
                   f["objects/root/sheet/dofs/velocity"][k]).all(), f"XDMF velocity {k}")


def main():
    try:
        import h5py  # noqa: F401  (Debian: python3-h5py)
        import numpy  # noqa: F401
    except ImportError as missing:
        return skip(missing, "python3-h5py")
    import h5py
    runner = sys.argv[1]
    check = Checks()

    with tempfile.TemporaryDirectory() as folder:
        scene = os.path.join(folder, "sheet.scn")
        with open(scene, "w") as out:
            out.write(SCENE)
        common = ["--steps", "25", "--every", "4", "--energy", "--solver-outputs", "-q"]
        for name in ("run.csv", "run.h5"):
            done = run(runner, scene, *common, "-o", os.path.join(folder, name))
            check(done.returncode == 0, f"{name}: exit {done.returncode}: {done.stderr}")
        with open(os.path.join(folder, "run.csv")) as text:
            rows = list(csv.reader(text))
        header, rows = rows[0], rows[1:]
        with h5py.File(os.path.join(folder, "run.h5"), "r") as f:
            check(f.attrs["format"] == b"fluxion-trajectory", "format attribute")
            check(int(f.attrs["format_version"]) == 1, "format_version attribute")
            columns = [c.decode() for c in f["columns"][:]]
            check(columns == header[2:], "columns differ from the CSV header")
            check(len(f["step"]) == len(rows) == 8, f"{len(f['step'])} states, {len(rows)} rows")
            # Row k of the CSV, rebuilt from the datasets in the CSV's order.
            for k, row in enumerate(rows):
                values = [float(f["step"][k]), float(f["time"][k])]
                for object_id in ("root/sheet/dofs", "root/bead/dofs"):
                    group = f["objects/" + object_id]
                    values += list(group["position"][k].ravel()) + list(group["velocity"][k].ravel())
                values.append(float(f["solver_outputs/root/VariationalSymplecticSolver/hamiltonian"][k]))
                values += [float(f["energy/" + e][k]) for e in ("kinetic", "potential", "total")]
                expected = [float(v) for v in row]
                # NaN equals NaN here: a solver output is NaN before the first step (the
                # Hamiltonian has no previous step yet), in both files.
                same = len(values) == len(expected) and all(
                    a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(values, expected))
                check(same, f"row {k} differs: {values} != {expected}")
            sheet = f["objects/root/sheet/dofs"]
            check(sheet["position"].shape == (8, 3, 3), f"position shape {sheet['position'].shape}")
            check(f["objects/root/bead/dofs/position"].shape == (8, 1, 1), "Vec1d shape")
            check(sheet["triangles"][:].tolist() == [[0, 1, 2]], "triangles")
            # MeshTopology derives the triangle's edges, oriented as in the triangle (SOFA).
            check(sorted(map(sorted, sheet["edges"][:].tolist())) == [[0, 1], [0, 2], [1, 2]],
                  "edges")
            # HDF5's own filters (no plugin needed to read it): shuffle then deflate, chunks of
            # one coordinate of the points (docs/output-formats.md).
            check(sheet["position"].compression == "gzip" and sheet["position"].shuffle,
                  "shuffled and deflated")
            check(sheet["velocity"].chunks[1:] == (3, 1), f"chunks {sheet['velocity'].chunks}")

        # The same run writes the same bytes (the writer thread's timing changes nothing, and no
        # modification times are stored).
        again = os.path.join(folder, "again.h5")
        done = run(runner, scene, *common, "-o", again)
        check(done.returncode == 0, f"again.h5: exit {done.returncode}: {done.stderr}")
        with open(os.path.join(folder, "run.h5"), "rb") as a, open(again, "rb") as b:
            check(a.read() == b.read(), "two runs of the same scene write different bytes")

        # Many states of a larger object (the gallery's 8 x 8 cloth, every step of 300): chunks
        # spanning many states, rows queued while the run steps; all equal to the CSV's numbers.
        cloth = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenes",
                             "cloth_grid.scn")
        for name in ("cloth.csv", "cloth.h5"):
            done = run(runner, cloth, "--steps", "300", "-q", "-o", os.path.join(folder, name))
            check(done.returncode == 0, f"{name}: exit {done.returncode}: {done.stderr}")
        with open(os.path.join(folder, "cloth.csv")) as text:
            rows = [[float(v) for v in row] for row in list(csv.reader(text))[1:]]
        with h5py.File(os.path.join(folder, "cloth.h5"), "r") as f:
            group = f["objects/root/cloth/dofs"]
            states = numpy.concatenate([group["position"][:].reshape(len(f["step"]), -1),
                                        group["velocity"][:].reshape(len(f["step"]), -1)], axis=1)
            table = numpy.column_stack([f["step"][:], f["time"][:], states])
            check(table.shape == (301, 2 + 64 * 6) and table.tolist() == rows,
                  f"the 8 x 8 cloth's 301 states differ from its CSV ({table.shape})")

        # A state larger than a chunk (140,001 points falling, 2^17 points a chunk): its chunks,
        # the last one reaching past the points, are shuffled and deflated by the writer itself
        # (HDF5's direct chunk writes); h5py reads the CSV's numbers back.
        line = os.path.join(folder, "line.scn")
        with open(line, "w") as out:
            out.write(LINE)
        for name in ("line.csv", "line.h5"):
            done = run(runner, line, "--steps", "3", "-q", "-o", os.path.join(folder, name))
            check(done.returncode == 0, f"{name}: exit {done.returncode}: {done.stderr}")
        with open(os.path.join(folder, "line.csv")) as text:
            rows = [[float(v) for v in row] for row in list(csv.reader(text))[1:]]
        with h5py.File(os.path.join(folder, "line.h5"), "r") as f:
            position = f["objects/root/dofs/position"]
            check(position.chunks == (1, 2 ** 17, 1), f"line chunks {position.chunks}")
            table = numpy.column_stack([
                f["step"][:], f["time"][:], position[:].reshape(4, -1),
                f["objects/root/dofs/velocity"][:].reshape(4, -1)])
            check(table.tolist() == rows, "the 140,001 points' states differ from their CSV")

        # RUN.xdmf beside RUN.h5 (what ParaView opens): evaluated here by the XDMF 3 rules
        # (Debian's VTK has no XDMF reader), each grid's hyperslab must select state k.
        check_xdmf(os.path.join(folder, "run.xdmf"), os.path.join(folder, "run.h5"), check)

        # --compare reads an HDF5 reference as the CSV of the same run: the same run matches
        # exactly; another dt does not.
        # (Without solver outputs: the Hamiltonian is NaN before the first step, and --compare
        # counts NaN against NaN as a difference.)
        plain = ["--steps", "25", "--every", "4", "--energy", "-q"]
        reference = os.path.join(folder, "plain.h5")
        done = run(runner, scene, *plain, "-o", reference)
        check(done.returncode == 0, f"plain.h5: exit {done.returncode}: {done.stderr}")
        done = run(runner, scene, *plain, "--compare", reference, "--rtol", "0", "--atol", "0")
        check(done.returncode == 0 and done.stdout.startswith("MATCH"),
              f"--compare with the HDF5 reference: exit {done.returncode}: {done.stdout}")
        done = run(runner, scene, *plain, "--dt", "0.011", "--compare", reference)
        check(done.returncode == 1 and done.stdout.startswith("MISMATCH"),
              f"--compare with another dt: exit {done.returncode}: {done.stdout}")
        not_hdf5 = os.path.join(folder, "not.h5")
        with open(not_hdf5, "w") as out:
            out.write("step,time\n")
        done = run(runner, scene, "--steps", "1", "--compare", not_hdf5)
        check(done.returncode == 2 and "not an HDF5 file" in done.stderr,
              f"--compare with a text file named .h5: exit {done.returncode}: {done.stderr}")

        # scene-regress with an HDF5 reference: --update records one (an HDF5 file), the same
        # scene then passes, a changed scene fails.
        regress = os.path.join(os.path.dirname(runner), "scene-regress")
        with open(os.path.join(folder, "manifest.json"), "w") as out:
            out.write('{"cases": [{"name": "sheet", "scene": "sheet.scn", "steps": 20, '
                      '"every": 5, "reference": "references/sheet.h5"}]}')
        manifest = ["--manifest", os.path.join(folder, "manifest.json"),
                    "--scene-runner", runner, "--quiet"]
        done = subprocess.run([regress, *manifest, "--update"], capture_output=True, text=True)
        check(done.returncode == 0 and "new references/sheet.h5" in done.stdout,
              f"scene-regress --update: exit {done.returncode}: {done.stdout}{done.stderr}")
        with h5py.File(os.path.join(folder, "references", "sheet.h5"), "r") as f:
            check(len(f["step"]) == 5, "the HDF5 reference holds steps 0, 5, … 20")
        done = subprocess.run([regress, *manifest], capture_output=True, text=True)
        check(done.returncode == 0 and "PASS" in done.stdout,
              f"scene-regress against the HDF5 reference: {done.returncode}: {done.stdout}")
        with open(scene, "w") as out:
            out.write(SCENE.replace('linesStiffness="50"', 'linesStiffness="51"'))
        done = subprocess.run([regress, *manifest], capture_output=True, text=True)
        check(done.returncode != 0 and "MISMATCH" in done.stdout,
              f"scene-regress, changed scene: {done.returncode}: {done.stdout}")

        # A diverging run: exit 4, NAME.partial readable, holding the rows before the failure.
        diverging = os.path.join(folder, "diverging.scn")
        with open(diverging, "w") as out:
            out.write(DIVERGING)
        output = os.path.join(folder, "diverging.h5")
        done = run(runner, diverging, "--steps", "400", "-q", "--no-stability-check", "-o", output)
        check(done.returncode == 4, f"diverging run: exit {done.returncode}: {done.stderr}")
        check(not os.path.exists(output), "a failed run must not leave NAME")
        # The CSV of the same failed run: the rows the HDF5 file must hold, every one of them.
        text_output = os.path.join(folder, "diverging.csv")
        done = run(runner, diverging, "--steps", "400", "-q", "--no-stability-check",
                   "-o", text_output)
        with open(text_output + ".partial") as text:
            failed_rows = [[float(v) for v in row] for row in list(csv.reader(text))[1:]]
        with h5py.File(output + ".partial", "r") as f:
            steps = f["step"][:].tolist()
            check(len(steps) > 2 and steps == list(range(len(steps))),
                  f"partial file steps {steps[:5]}…")
            check(len(steps) == len(failed_rows),
                  f"partial file: {len(steps)} states, the CSV's: {len(failed_rows)}")
            check(f["objects/root/dofs/position"][:].reshape(len(steps), -1).tolist() ==
                  [row[2:11] for row in failed_rows], "partial file: the CSV's positions")
            check(bool(numpy.isfinite(f["objects/root/dofs/position"][:]).all()),
                  "only finite states are recorded")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
