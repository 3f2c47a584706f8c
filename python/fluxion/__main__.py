"""``python3 -m fluxion SCENE.py``: prints the XML scene a Python scene builds (what Fluxion loads
for it), to read it or to keep it as an XML scene. ``python3 -m fluxion run SCENE.py [options]``:
runs it through Sofa.Simulation, controllers included, writing scene-runner's trajectory CSV
(run_script.py)."""
import sys

if len(sys.argv) > 1 and sys.argv[1] == "run":
    from .run_script import main as run

    sys.exit(run(sys.argv[2:]))

from .scene_graph import main  # noqa: E402

sys.exit(main(sys.argv))
