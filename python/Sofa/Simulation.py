"""SofaPython3's ``Sofa.Simulation`` (bindings/Sofa/src/SofaPython3/Sofa/Simulation/
Submodule_Simulation.cpp) over Fluxion: see fluxion/sofa_simulation.py."""
from fluxion.sofa_simulation import (animate, animateNSteps, init, initRoot, load, reset,
                                     unload)

__all__ = ["init", "initRoot", "animate", "animateNSteps", "reset", "load", "unload"]


def __getattr__(name):
    # Any other SofaPython3 API of this module: one line saying so.
    from Sofa.Core import UnsupportedAttribute
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedAttribute(f"Sofa.Simulation.{name}: not provided by Fluxion (docs/python.md, "
                               "\"Coming from SofaPython3\")")
