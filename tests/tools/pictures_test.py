#!/usr/bin/env python3
"""scene-runner's pictures (issue 27, items 10 and 11), read back with Pillow and judged by their
pixels, never against a picture the code made.

Item 10, --render: gravity is drawn as a purple arrow (0.55 0.1 0.65, i.e. RGB 140 26 166) whose
head is a filled triangle, so its pixels' centroid lies towards the head from the middle of their
bounding box; the default view of a 3-D scene looks across gravity, so the arrow points straight
down whatever axis gravity is along, and a cloth held at two corners hangs below them.
Item 11, --animate: one camera for the whole run (a point falling 5 m stays in every frame) and
one strain scale (an oscillating spring is saturated red or blue only near its extreme frames).

usage: pictures_test.py SCENE_RUNNER   (exit 77, CTest's skip, without Pillow)
"""
import os
import subprocess
import sys
import tempfile

from script_checks import Checks, skip


def run(runner, folder, name, scene, *arguments):
    path = os.path.join(folder, name + ".scn")
    with open(path, "w") as out:
        out.write(scene)
    done = subprocess.run([runner, path, "-q", "-o", os.path.join(folder, name + ".csv"),
                           *arguments], capture_output=True, text=True)
    return done


def purple(pixel):
    r, g, b = pixel[:3]
    return r > 100 and g < 60 and b > 120


def arrow_direction(image):
    """(dx, dy) of the gravity arrow: bounding-box extent and centroid offset (y down)."""
    rgb = image.convert("RGB")
    points = [(x, y) for y in range(rgb.height) for x in range(rgb.width)
              if purple(rgb.getpixel((x, y)))]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    mid_x, mid_y = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return width, height, cx - mid_x, cy - mid_y


def falling_block(gravity):
    return f"""<Node name="root" dt="0.01" gravity="{gravity}">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0  0 1 0  0 0 1"/>
  <UniformMass vertexMass="1"/>
</Node>
"""


# A cloth in the x-y plane, gravity along -z (as many SOFA scenes have it), held at its two
# corners on the x axis; after 0.5 s it hangs about 1 m down.
CLOTH = """<Node name="root" gravity="0 0 -9.81" dt="0.001">
  <EulerExplicitSolver/>
  <Node name="cloth">
    <RegularGridTopology n="8 8 1" min="0 0 0" max="1 1 0"/>
    <MechanicalObject template="Vec3d"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0 7"/>
    <MeshSpringForceField linesStiffness="100" linesDamping="0.5"/>
  </Node>
</Node>
"""


def check_gravity_arrow(runner, folder, check, Image):
    # Down the picture for gravity along -y and along -z (the default view follows gravity):
    # taller than wide, its head (centroid) below the middle.
    for gravity in ("0 -10 0", "0 0 -10", "-10 0 0"):
        png = os.path.join(folder, "g.png")
        done = run(runner, folder, "g", falling_block(gravity), "--steps", "1",
                   "--render-size", "400x300", "--render", png)
        check(done.returncode == 0, f"gravity {gravity}: exit {done.returncode}: {done.stderr}")
        with Image.open(png) as image:
            found = arrow_direction(image)
        check(found is not None, f"gravity {gravity}: no purple arrow")
        if found:
            width, height, dx, dy = found
            check(height > 2 * width and dy > 1,
                  f"gravity {gravity}: the arrow does not point down ({width}x{height}, {dx:+.1f}, {dy:+.1f})")
    # --view x shows y to the right: gravity along -y points left.
    png = os.path.join(folder, "x.png")
    done = run(runner, folder, "x", falling_block("0 -10 0"), "--steps", "1", "--view", "x",
               "--render-size", "400x300", "--render", png)
    check(done.returncode == 0, f"--view x: exit {done.returncode}: {done.stderr}")
    with Image.open(png) as image:
        found = arrow_direction(image)
    check(found is not None and found[0] > 2 * found[1] and found[2] < -1,
          f"--view x: the arrow does not point left ({found})")


def dark_blocks(rgb, top, bottom, size=6):
    """Centres (x, y) of size×size blocks of pure black between rows top and bottom."""
    blocks = []
    for y in range(top, bottom - size):
        for x in range(0, rgb.width - size):
            if all(rgb.getpixel((x + i, y + j)) == (0, 0, 0)
                   for i in range(size) for j in range(size)):
                if not any(abs(x - bx) < 12 and abs(y - by) < 12 for bx, by in blocks):
                    blocks.append((x, y))
    return blocks


def check_cloth_hangs(runner, folder, check, Image):
    # After 0.5 s the cloth hangs from its two held corners: in the default view, which follows
    # gravity, both held points (black squares) are at the top and the lowest point (a dot, RGB
    # 38 38 51) is well below both: the sag is seen. The isometric view, y up whatever gravity
    # is, showed a drop along -z going up the picture.
    png = os.path.join(folder, "cloth.png")
    done = run(runner, folder, "cloth", CLOTH, "--end-time", "0.5", "--render", png)
    check(done.returncode == 0, f"cloth: exit {done.returncode}: {done.stderr}")
    with Image.open(png) as image:
        rgb = image.convert("RGB")
    squares = dark_blocks(rgb, 55, rgb.height - 55)
    dots = [y for y in range(rgb.height) for x in range(rgb.width)
            if rgb.getpixel((x, y)) == (38, 38, 51)]
    check(len(squares) == 2, f"cloth: {len(squares)} held squares found, expected 2")
    check(bool(dots), "cloth: no dots")
    if len(squares) == 2 and dots:
        lowest_square = max(y for _, y in squares)
        check(max(dots) - lowest_square > 0.3 * rgb.height,
              f"cloth: the lowest point (row {max(dots)}) is not well below the held corners "
              f"(row {lowest_square})")


def gif_frames(Image, path):
    frames = []
    with Image.open(path) as image:
        for frame in range(image.n_frames):
            image.seek(frame)
            frames.append(image.convert("RGB"))
    return frames


def check_animation_camera(runner, folder, check, Image):
    # A held point and a free one falling 5 m in 1 s (no spring): every frame must show the free
    # point's dot, RGB 38 38 51, which the palette maps to (51 51 51).
    scene = """<Node name="root" dt="0.01" gravity="0 -10 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
</Node>
"""
    gif = os.path.join(folder, "fall.gif")
    done = run(runner, folder, "fall", scene, "--steps", "100", "--view", "z",
               "--render-size", "200x150", "--animate", gif, "--animate-every", "10")
    check(done.returncode == 0, f"fall: exit {done.returncode}: {done.stderr}")
    frames = gif_frames(Image, gif)
    check(len(frames) == 11, f"fall: {len(frames)} frames")
    for k, rgb in enumerate(frames):
        rows = [y for y in range(rgb.height) for x in range(rgb.width)
                if rgb.getpixel((x, y)) == (51, 51, 51)]
        check(bool(rows), f"fall: frame {k}: the falling point is outside the picture")


def saturation(rgb):
    """The most saturated strain colour of a frame (red minus green, or blue minus red) above
    row height - 40: above the colour bar and the axis triad, whose x and z arrows are red and
    blue."""
    best = 0
    data = list(rgb.getdata())
    for r, g, b in data[: rgb.width * (rgb.height - 40)]:
        if purple((r, g, b)):
            continue  # the gravity arrow (none here: no gravity)
        best = max(best, r - g, b - r)
    return best


def check_animation_scale(runner, folder, check, Image):
    # A 1 kg point on a spring k = 100, L0 = 1, started at 1.2 m, no gravity: it oscillates
    # between 1.2 and 0.8 m with period 2π/10 ≈ 0.63 s. The pictures' strain is against the
    # initial (rest) positions, so it swings between 0 and -1/3. With one scale for the run only
    # the frames near the extreme reach the end of the colour bar; with a scale per frame every
    # frame but the unstrained first does. The picture is 600 px wide (1 px lines) and 151 px
    # high, so the spring, at mid-height, covers pixel row 75 fully: its colour is not blended.
    scene = """<Node name="root" dt="0.001" gravity="0 0 0">
  <EulerExplicitSolver/>
  <MechanicalObject position="0 0 0  1.2 0 0"/>
  <UniformMass vertexMass="1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 100 0 1"/>
</Node>
"""
    gif = os.path.join(folder, "spring.gif")
    done = run(runner, folder, "spring", scene, "--steps", "630", "--view", "z",
               "--render-size", "600x151", "--animate", gif, "--animate-every", "21")
    check(done.returncode == 0, f"spring: exit {done.returncode}: {done.stderr}")
    levels = [saturation(rgb) for rgb in gif_frames(Image, gif)]
    check(len(levels) == 31, f"spring: {len(levels)} frames")
    check(max(levels) >= 150, f"spring: no frame is saturated ({levels})")
    saturated = sum(1 for level in levels if level == max(levels))
    check(saturated <= len(levels) // 3,
          f"spring: {saturated} of {len(levels)} frames reach the end of the colour bar: one "
          f"scale per frame ({levels})")


def main():
    try:
        from PIL import Image
    except ImportError as missing:
        return skip(missing, "python3-pil")
    runner = sys.argv[1]
    check = Checks()
    with tempfile.TemporaryDirectory() as folder:
        check_gravity_arrow(runner, folder, check, Image)
        check_cloth_hangs(runner, folder, check, Image)
        check_animation_camera(runner, folder, check, Image)
        check_animation_scale(runner, folder, check, Image)
    return check.finish()


if __name__ == "__main__":
    sys.exit(main())
