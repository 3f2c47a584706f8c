#!/usr/bin/env python3
"""fluxion-plot (tools/fluxion_plot/fluxion-plot): the series it plots are the trajectory's own
columns — checked with --data against the CSV scene-runner wrote (and against the HDF5 file of
the same run) —, and the pictures it draws are PNG/SVG files of the expected kind and size (read
back with Pillow; no picture is compared with a picture). Bad arguments get one error line.

usage: plot_test.py SCENE_RUNNER FLUXION_PLOT SCENES_DIR   (exit 77 without Matplotlib)
"""
import csv
import io
import math
import os
import subprocess
import sys
import tempfile

from script_checks import Checks, skip



def read_text(path):
    """The file's text, "" when it was not written (the check that needs it then fails)."""
    try:
        with open(path) as text:
            return text.read()
    except OSError:
        return ""


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

        # #27 item 8: several runs overlaid. The chain again at half the step, to the same time:
        # --data gives each run's rows after a `run` column, equal to its own file.
        half_csv = os.path.join(folder, "chain_half.csv")
        done = subprocess.run([runner, os.path.join(scenes, "hanging_chain.scn"), "--steps",
                               "120", "--every", "6", "--dt", "0.001", "-q", "-o", half_csv],
                              capture_output=True, text=True)
        check(done.returncode == 0, f"scene-runner --dt 0.001: {done.stderr}")
        with open(half_csv) as text:
            half_rows = list(csv.DictReader(text))
        done = fluxion_plot(run_csv, half_csv, "--label", "dt", "--point", "root/chain/beads:7",
                            "--axes", "xy", "--data")
        check(done.returncode == 0, f"two runs --data: {done.stderr}")
        plotted = list(csv.DictReader(io.StringIO(done.stdout)))
        check(bool(plotted) and list(plotted[0].keys()) ==
              ["run", "time", "root/chain/beads/p7.x", "root/chain/beads/p7.y"],
              f"two runs: columns {list(plotted[0].keys()) if plotted else []}")
        labels = [row["run"] for row in plotted]
        check(labels == ["dt"] * len(rows) + ["chain_half.csv"] * len(half_rows),
              f"two runs: the rows of each run in turn, labelled ({labels[:2]} …)")
        for plotted_row, row in zip(plotted, rows + half_rows):
            if float(plotted_row["root/chain/beads/p7.y"]) != float(row["root/chain/beads/p7.y"]):
                check(False, f"two runs: p7.y differs at t = {row['time']}")
                break
        # A point by its index alone (the chain's beads are the only object with a point 7),
        # and the picture of both runs: a legend entry per run and axis.
        done = fluxion_plot(run_csv, half_csv, "--point", "7", "--axes", "xy", "--data")
        check(done.returncode == 0 and done.stdout.splitlines()[0] ==
              "run,time,root/chain/beads/p7.x,root/chain/beads/p7.y",
              f"--point 7: {done.returncode} {done.stderr} {done.stdout[:80]}")
        overlay = os.path.join(folder, "overlay.svg")
        done = fluxion_plot(run_csv, half_csv, "--point", "7", "--axes", "y", "-o", overlay)
        check(done.returncode == 0, f"overlay SVG: {done.stderr}")
        svg = read_text(overlay)
        check("chain.csv: p7.y" in svg and "chain_half.csv: p7.y" in svg,
              "overlay: legend of both runs")

        # --error on runs whose difference is known: the reference x = cos t, y = sin t (with its
        # velocities) every 0.01 s, the other run the same curve moved by (3, 4)·1e-3·t, every
        # 0.015 s (between the reference's rows but every third). The distance is 5e-3·t up to the
        # reference's Hermite error, h⁴/384 = 2.6e-11 at h = 0.01.
        def circle(path, h, n, shift):
            with open(path, "w") as out:
                out.write("step,time,root/o/p0.x,root/o/p0.y,root/o/v0.x,root/o/v0.y\n")
                for k in range(n + 1):
                    t = k * h
                    out.write(f"{k},{t!r},{math.cos(t) + 3 * shift * t!r},"
                              f"{math.sin(t) + 4 * shift * t!r},{-math.sin(t)!r},{math.cos(t)!r}\n")
        reference, moved = os.path.join(folder, "ref.csv"), os.path.join(folder, "moved.csv")
        circle(reference, 0.01, 300, 0.0)
        circle(moved, 0.015, 200, 1e-3)
        done = fluxion_plot(reference, moved, "--error", "--point", "0", "--data")
        check(done.returncode == 0, f"--error --data: {done.stderr}")
        curve = list(csv.DictReader(io.StringIO(done.stdout)))
        check(len(curve) == 201, f"--error: {len(curve)} times (expected the 201 of moved.csv)")
        worst = max((abs(float(r["error root/o:0"]) - 5e-3 * float(r["time"])) for r in curve),
                    default=1.0)
        check(worst <= 3e-11, f"--error: off the known distance 5e-3·t by {worst}")
        picture = os.path.join(folder, "error.png")
        done = fluxion_plot(reference, moved, "--error", "-o", picture)
        check(done.returncode == 0 and os.path.getsize(picture) > 0, f"--error PNG: {done.stderr}")

        two_objects = os.path.join(folder, "two.csv")
        with open(two_objects, "w") as out:
            out.write("step,time,root/a/p0.x,root/b/p0.x\n0,0,1,2\n")

        # Every option says what it does.
        done = fluxion_plot("--help")
        for words in ("point I of object ID", "the legend's name", "the distance |dx|",
                      "kinetic, potential and total", "print the plotted series"):
            check(words in done.stdout, f"--help lacks '{words}'")

        # Bad arguments: one line, exit 2.
        for arguments, words in (((run_csv, "--point", "root/chain/beads:99", "--data"),
                                  "no point 99 of 'root/chain/beads'"),
                                 ((run_csv, "--phase", "root/chain/beads:1", "--data"),
                                  "is not ID:I:AXIS"),
                                 ((os.path.join(folder, "missing.csv"), "--data"),
                                  "cannot read the trajectory"),
                                 ((run_csv, "-o", os.path.join(folder, "x.txt")),
                                  "is not a .png, .svg or .pdf file"),
                                 ((run_csv, "--error", "--data"), "expected two or more"),
                                 ((two_objects, "--point", "0", "--data"),
                                  "point 0 is ambiguous"),
                                 ((run_csv, "--frobnicate"), "unrecognized arguments"),
                                 ((run_csv, reference, "--data"), "no column")):
            done = fluxion_plot(*arguments)
            lines = done.stderr.splitlines()
            check(done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: ")
                  and words in lines[0], f"{arguments}: exit {done.returncode}: {done.stderr}")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
