#!/usr/bin/env python3
"""scene-runner --vtk read by VTK's own reader (Debian's python3-vtk9: vtkXMLUnstructuredGridReader,
the reader ParaView uses for .vtu files) and compared with the CSV of the same run.

`scene-runner scenes/cloth_grid.scn --vtk out/` writes out/cloth_grid.pvd, a ParaView collection
(its PVD reader is ParaView's, not VTK's, so the .pvd is read here as the XML it is) listing one
.vtu per recorded state. Each .vtu must hold, as VTK reads it:
- the 64 points of the 8 x 8 grid at the CSV's positions, bit for bit;
- the point data "velocity" equal to the CSV's velocities, bit for bit;
- the cloth's 161 springs as VTK_LINE cells: MeshSpringForceField puts a spring on every edge of
  the grid, the 7 x 8 along x (i, i + 1), the 7 x 8 along z (i, i + 8), and one diagonal per quad
  (SOFA's GridTopology takes the edges of the grid's triangles when it has them), 49.

usage: vtk_reader_test.py SCENE_RUNNER SOURCE_DIR   (exit 77, CTest's skip, without python3-vtk9)
"""
import csv
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from script_checks import Checks, skip

OBJECT = "root/cloth/dofs"
N = 8  # points along x and along z


def read_csv(path):
    """(step, time, positions [64 x 3], velocities [64 x 3]) of every row, as floats."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    index = {name: k for k, name in enumerate(rows[0])}
    states = []
    for row in rows[1:]:
        values = [float(v) for v in row]
        x = [[values[index[f"{OBJECT}/p{i}.{a}"]] for a in "xyz"] for i in range(N * N)]
        v = [[values[index[f"{OBJECT}/v{i}.{a}"]] for a in "xyz"] for i in range(N * N)]
        states.append((int(values[index["step"]]), values[index["time"]], x, v))
    return states


def expected_springs():
    """The grid's edges along x and z, and each quad's two possible diagonals."""
    axes = {(z * N + x, z * N + x + 1) for z in range(N) for x in range(N - 1)}
    axes |= {(z * N + x, (z + 1) * N + x) for z in range(N - 1) for x in range(N)}
    diagonals = [((z * N + x, (z + 1) * N + x + 1), (z * N + x + 1, (z + 1) * N + x))
                 for z in range(N - 1) for x in range(N - 1)]
    return axes, diagonals


def main():
    try:
        from vtkmodules.vtkCommonCore import vtkIdList
        from vtkmodules.vtkCommonDataModel import VTK_LINE
        from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
        from vtkmodules.util.numpy_support import vtk_to_numpy
    except ImportError as missing:
        return skip(missing, "python3-vtk9")
    runner, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    scene = os.path.join(source, "scenes", "cloth_grid.scn")
    check = Checks()

    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run([runner, scene, "--steps", "30", "--every", "10", "--vtk", "out/",
                               "--output", "run.csv"],
                              cwd=work, capture_output=True, text=True, timeout=120)
        check(done.returncode == 0, f"scene-runner: exit {done.returncode}: {done.stderr}")
        states = read_csv(os.path.join(work, "run.csv"))
        pvd = os.path.join(work, "out", "cloth_grid.pvd")
        collection = ET.parse(pvd).getroot()
        check(collection.get("type") == "Collection", "the .pvd is a VTK Collection")
        datasets = collection.findall("./Collection/DataSet")
        check(len(datasets) == len(states) == 4,
              f"steps 0, 10, 20, 30: {len(datasets)} data sets, {len(states)} CSV rows")
        axes, diagonals = expected_springs()

        for dataset, (step, time, x, v) in zip(datasets, states):
            check(float(dataset.get("timestep")) == time, f"step {step}: timestep {time}")
            reader = vtkXMLUnstructuredGridReader()
            reader.SetFileName(os.path.join(os.path.dirname(pvd), dataset.get("file")))
            reader.Update()
            check(reader.GetErrorCode() == 0, f"step {step}: VTK's reader failed")
            grid = reader.GetOutput()
            check(grid.GetNumberOfPoints() == N * N, f"step {step}: {grid.GetNumberOfPoints()} points")
            if grid.GetNumberOfPoints() != N * N:
                continue
            points = vtk_to_numpy(grid.GetPoints().GetData()).tolist()
            check(points == x, f"step {step}: the points are the CSV's positions")
            velocity = grid.GetPointData().GetArray("velocity")
            check(velocity is not None and velocity.GetNumberOfComponents() == 3,
                  f"step {step}: point data 'velocity' of 3 components")
            if velocity is not None:
                check(vtk_to_numpy(velocity).tolist() == v,
                      f"step {step}: the velocities are the CSV's")

            lines = []
            ids = vtkIdList()
            for cell in range(grid.GetNumberOfCells()):
                if grid.GetCellType(cell) == VTK_LINE:
                    grid.GetCellPoints(cell, ids)
                    lines.append(tuple(sorted(ids.GetId(k) for k in range(ids.GetNumberOfIds()))))
            check(len(lines) == len(set(lines)) == 161,
                  f"step {step}: 161 distinct springs as VTK_LINE cells, got {len(lines)}")
            found = set(lines)
            check(axes <= found, f"step {step}: every edge along x and z is a line")
            check(all((a in found) != (b in found) for a, b in diagonals),
                  f"step {step}: one diagonal of each quad is a line")
            check(found <= axes | {d for pair in diagonals for d in pair},
                  f"step {step}: no other line")
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
