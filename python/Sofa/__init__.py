"""Fluxion's ``Sofa`` package: SofaPython3's Python API (bindings/Sofa/package/__init__.py) over
Fluxion, so that a script written for SOFA runs unchanged with ``python3 script.py``::

    import Sofa
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for _ in range(100):
        Sofa.Simulation.animate(root, root.dt.value)

What is supported and what is refused, with the reason: docs/python.md, "Coming from
SofaPython3". Where SofaPython3 itself is installed and comes first on sys.path, its Sofa is
imported instead of this one.
"""
import sys

from . import Core, Gui, Helper, Simulation
from .Core import Unsupported

__fluxion__ = True  # tells Fluxion's Sofa apart from SofaPython3's
__all__ = ["Core", "Simulation", "Helper", "Gui", "Timer", "Unsupported"]


class _Refused:
    """A SofaPython3 module Fluxion does not provide: any use is one line saying why."""

    def __init__(self, name, reason):
        self._name, self._reason = name, reason

    def __getattr__(self, attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        raise Unsupported(f"{self._name}.{attribute}: {self._reason}")


Timer = _Refused("Sofa.Timer", "not provided by Fluxion (time steps with Python's "
                 "time.perf_counter, or scene-runner --profile)")


def __getattr__(name):
    # Any other SofaPython3 module (Sofa.SofaLinearSystem, Sofa.constants, …): one line.
    if name.startswith("__"):
        raise AttributeError(name)
    raise Core.UnsupportedAttribute(f"Sofa.{name}: not provided by Fluxion (docs/python.md, "
                                    "\"Coming from SofaPython3\")")


def _one_line_errors(kind, error, traceback):
    """A Fluxion error or refusal escaping a script ends it with one line, as scene-runner's
    `error: FILE:LINE: what is wrong (what was expected)`, not a traceback; so does the import
    of a SOFA module Fluxion does not provide (SofaImGui, Sofa.Gui, SofaTypes, …)."""
    from fluxion.errors import Error, UsageError, script_location
    from fluxion.scene_graph import GraphError
    if isinstance(error, GraphError):  # located at the script's call already
        print(f"error: {error}", file=sys.stderr)
    elif isinstance(error, Error) and not isinstance(error, UsageError):
        for line in str(error).splitlines():  # located already; a SceneError: one per problem
            print(f"error: {line}", file=sys.stderr)
    elif isinstance(error, (UsageError, Unsupported)):
        print(f"error: {script_location(traceback)}: {error}", file=sys.stderr)
    elif isinstance(error, ImportError) and (error.name or "").startswith("Sofa"):
        print(f"error: {script_location(traceback)}: {error}: a SOFA module Fluxion does not "
              "provide (docs/python.md, \"Coming from SofaPython3\")", file=sys.stderr)
    else:
        _previous_hook(kind, error, traceback)


_previous_hook = sys.excepthook
sys.excepthook = _one_line_errors
