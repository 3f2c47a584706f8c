"""``python3 -m fluxion SCENE.py``: prints the XML scene a Python scene builds (what Fluxion loads
for it), to read it or to keep it as an XML scene."""
import sys

from .scene_graph import main

sys.exit(main(sys.argv))
