#!/usr/bin/env python3
"""fluxion-plot (tools/fluxion_plot/fluxion-plot): the series it plots are the trajectory's own
columns — checked with --data against the CSV scene-runner wrote (and against the HDF5 file of
the same run) —, and the pictures it draws are PNG/SVG files of the expected kind and size (read
back with Pillow; no picture is compared with a picture). Bad arguments get one error line.

usage: plot_test.py SCENE_RUNNER FLUXION_PLOT SCENES_DIR   (exit 77 without Matplotlib)
"""
import csv
import io
import os
import subprocess
import sys
import tempfile

from script_checks import Checks, skip



def main():
    try:
        import matplotlib  # noqa: F401  (Debian: python3-matplotlib)
        from PIL import Image
    except ImportError as missing:
        return skip(missing, "python3-matplotlib")
    runner, plot, scenes = sys.argv[1:4]
    check = Checks()

    def fluxion_plot(*arguments):
        return subprocess.run([sys.executable, plot, *arguments], capture_output=True, text=True)

    with tempfile.TemporaryDirectory() as folder:
        run_csv, run_h5 = os.path.join(folder, "chain.csv"), os.path.join(folder, "chain.h5")
        for output in (run_csv, run_h5):
            done = subprocess.run([runner, os.path.join(scenes, "hanging_chain.scn"), "--steps",
                                   "60", "--every", "3", "--energy", "-q", "-o", output],
                                  capture_output=True, text=True)
            check(done.returncode == 0, f"scene-runner -o {output}: {done.stderr}")
        with open(run_csv) as text:
            rows = list(csv.DictReader(text))

        # The series of each panel, by name, equal the trajectory's columns (CSV and HDF5 alike).
        for trajectory in (run_csv, run_h5):
            done = fluxion_plot(trajectory, "--point", "root/chain/beads:7", "--axes", "xy",
                                "--energy", "--phase", "root/chain/beads:3:y", "--data")
            check(done.returncode == 0, f"--data {trajectory}: {done.stderr}")
            plotted = list(csv.DictReader(io.StringIO(done.stdout)))
            names = ["time", "root/chain/beads/p7.x", "root/chain/beads/p7.y", "kinetic",
                     "potential", "total", "root/chain/beads/p3.y", "root/chain/beads/v3.y"]
            check(list(plotted[0].keys()) == names if plotted else False,
                  f"{trajectory}: plotted columns {list(plotted[0].keys()) if plotted else []}")
            check(len(plotted) == len(rows) == 21, f"{len(plotted)} plotted rows, {len(rows)}")
            for plotted_row, row in zip(plotted, rows):
                for name in names:
                    if float(plotted_row[name]) != float(row[name]):
                        check(False, f"{trajectory}: {name} differs at t = {row['time']}")
                        break

        # The pictures: a PNG with one panel per point, energy and phase portrait (3 panels of
        # 2.6 in at 110 dpi: 8 × 7.8 in → 880 × 858 px), and an SVG naming its panels.
        picture = os.path.join(folder, "chain.png")
        done = fluxion_plot(run_csv, "--point", "root/chain/beads:7", "--energy", "--phase",
                            "root/chain/beads:3:y", "-o", picture)
        check(done.returncode == 0, f"PNG: {done.stderr}")
        with Image.open(picture) as image:
            check(image.format == "PNG" and image.size == (880, 858), f"PNG {image.size}")
        vector = os.path.join(folder, "chain.svg")
        done = fluxion_plot(run_h5, "-o", vector)
        check(done.returncode == 0, f"SVG: {done.stderr}")
        with open(vector) as text:
            svg = text.read()
        check(svg.startswith("<?xml") and "<svg" in svg, "an SVG document")

        # Bad arguments: one line, exit 2.
        for arguments, words in (((run_csv, "--point", "root/chain/beads:99", "--data"),
                                  "no point 99 of 'root/chain/beads'"),
                                 ((run_csv, "--phase", "root/chain/beads:1", "--data"),
                                  "is not ID:I:AXIS"),
                                 ((os.path.join(folder, "missing.csv"), "--data"),
                                  "cannot read the trajectory"),
                                 ((run_csv, "-o", os.path.join(folder, "x.txt")),
                                  "is not a .png, .svg or .pdf file")):
            done = fluxion_plot(*arguments)
            lines = done.stderr.splitlines()
            check(done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: ")
                  and words in lines[0], f"{arguments}: exit {done.returncode}: {done.stderr}")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
