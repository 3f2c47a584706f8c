#!/usr/bin/env python3
"""Writes the small meshes of tests/scenes/sofa_objects/mesh/ (committed; rerun to regenerate).

They stand in for SOFA's share/mesh/torus*.{obj,msh}, under the same file names so that the test
scenes have the structure of SOFA's examples/Objects/TorusFFD.xml and TorusSpring.xml:
  torus.obj               visual torus (R = 1.5, r = 0.3, 12 x 6 vertices) in the x-z plane
  torus_for_collision.obj coarser torus (8 x 4 vertices): the mapped collision surface
  torus_low_res.msh       tetrahedral ring (Gmsh 2.2): 8 triangular prisms of 3 tetrahedra each
Every vertex of the two OBJ meshes lies inside the regular grid of TorusFFD (x in [-2.5, 2.5],
y in [-0.5, 0.5], z in [-2, 2]).
"""
import math
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mesh")


def torus_obj(path, around, tube, R=1.5, r=0.3):
    lines = [f"# torus R={R} r={r}: {around} x {tube} vertices (tests/scenes/sofa_objects/make_meshes.py)"]
    for i in range(around):
        a = 2 * math.pi * i / around
        for j in range(tube):
            b = 2 * math.pi * j / tube
            rho = R + r * math.cos(b)
            lines.append(f"v {rho * math.cos(a):.6f} {r * math.sin(b):.6f} {rho * math.sin(a):.6f}")
    for i in range(around):
        for j in range(tube):
            p = lambda ii, jj: (ii % around) * tube + (jj % tube) + 1
            lines.append(f"f {p(i, j)} {p(i + 1, j)} {p(i + 1, j + 1)}")
            lines.append(f"f {p(i, j)} {p(i + 1, j + 1)} {p(i, j + 1)}")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def ring_msh(path, around=8, R=1.5, inradius=0.35):
    # Cross-section: an equilateral triangle around the centre line, in the plane of the ring's
    # radius and y.
    nodes = []
    for i in range(around):
        a = 2 * math.pi * i / around
        for k in range(3):
            b = 2 * math.pi * k / 3 + math.pi / 2
            rho = R + 2 * inradius * math.cos(b)
            nodes.append((rho * math.cos(a), 2 * inradius * math.sin(b), rho * math.sin(a)))
    tets = []
    for i in range(around):
        a = [3 * i + k + 1 for k in range(3)]
        b = [3 * ((i + 1) % around) + k + 1 for k in range(3)]
        tets += [(a[0], a[1], a[2], b[2]), (a[0], a[1], b[1], b[2]), (a[0], b[0], b[1], b[2])]
    lines = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$Nodes", str(len(nodes))]
    lines += [f"{n + 1} {x:.6f} {y:.6f} {z:.6f}" for n, (x, y, z) in enumerate(nodes)]
    lines += ["$EndNodes", "$Elements", str(len(tets))]
    lines += [f"{e + 1} 4 2 0 1 {t[0]} {t[1]} {t[2]} {t[3]}" for e, t in enumerate(tets)]
    lines += ["$EndElements"]
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


os.makedirs(HERE, exist_ok=True)
torus_obj(os.path.join(HERE, "torus.obj"), 12, 6)
torus_obj(os.path.join(HERE, "torus_for_collision.obj"), 8, 4)
ring_msh(os.path.join(HERE, "torus_low_res.msh"))
