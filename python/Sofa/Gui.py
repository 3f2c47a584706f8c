"""SofaPython3's ``Sofa.Gui``: Fluxion has no GUI, so any use of it is one line saying so. A
script's main() that opens a GUI runs headless by looping on Sofa.Simulation.animate instead."""
from .Core import UnsupportedAttribute


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedAttribute(f"Sofa.Gui.{name}: Fluxion has no GUI (run the scene headless: "
                               "a main() that loops on Sofa.Simulation.animate)")
