#!/usr/bin/env python3
"""scene-runner --animate FILE.gif (tools/scene_runner/animation.cpp), read back with Pillow, an
independent GIF decoder: the frame count and timing, the loop, the picture size, and the pixel
where the documented camera puts a known point.

The scene (as tests/tools/render_test.cpp's): point A (0 0 0), held by a fixed constraint, and
point B (1 0 0), a spring at rest between them, no gravity: nothing moves. The animation's camera
is fitted to every frame with a 10 % margin: in a 200×100 picture seen along z the scale is
min(160 px / 1 m, 80 px / 0) = 160 px/m centred on (0.5, 0), so A lands on pixel (20, 50) (a
black square: the palette keeps black exactly) and B on (180, 50).

usage: animation_test.py SCENE_RUNNER   (exit 77, CTest's skip, without Pillow)
"""
import os
import subprocess
import sys
import tempfile

from script_checks import Checks, skip


SCENE = """<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>
"""


def main():
    try:
        from PIL import Image
    except ImportError as missing:
        return skip(missing, "python3-pil")
    runner = sys.argv[1]
    check = Checks()

    with tempfile.TemporaryDirectory() as folder:
        scene = os.path.join(folder, "two.scn")
        with open(scene, "w") as out:
            out.write(SCENE)
        gif = os.path.join(folder, "two.gif")
        # 10 steps, a frame every 3: steps 0, 3, 6, 9 and the last, 10.
        done = subprocess.run([runner, scene, "--steps", "10", "-q", "-o",
                               os.path.join(folder, "two.csv"), "--view", "z",
                               "--render-size", "200x100", "--animate", gif,
                               "--animate-every", "3"], capture_output=True, text=True)
        check(done.returncode == 0, f"exit {done.returncode}: {done.stderr}")
        with Image.open(gif) as image:
            check(image.format == "GIF", f"format {image.format}")
            check(image.size == (200, 100), f"size {image.size}")
            check(image.n_frames == 5, f"{image.n_frames} frames")
            check(image.info.get("loop") == 0, "loops for ever")
            check(image.info.get("duration") == 40, f"frame time {image.info.get('duration')}")
            for frame in range(image.n_frames):
                image.seek(frame)
                rgb = image.convert("RGB")
                check(rgb.getpixel((20, 50)) == (0, 0, 0), f"frame {frame}: A is not black")
                check(rgb.getpixel((100, 20)) == (255, 255, 255),
                      f"frame {frame}: the background is not white")
                r, g, b = rgb.getpixel((180, 50))
                check(r == g and r < 100, f"frame {frame}: B is not a dark dot ({r}, {g}, {b})")

        # A folder that does not exist: one error line, exit 2.
        done = subprocess.run([runner, scene, "--steps", "1", "-q", "--animate",
                               os.path.join(folder, "missing", "x.gif")],
                              capture_output=True, text=True)
        check(done.returncode == 2 and done.stderr.startswith("error: ") and ": --animate: " in done.stderr,
              f"unwritable animation: exit {done.returncode}: {done.stderr}")

    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
