"""Fluxion for Python: load SOFA-style scenes (XML, or Python with ``createScene(root)``), step
them, and read and set their state as NumPy arrays.

    import fluxion
    sim = fluxion.load("scenes/cloth_grid.scn")
    cloth = sim.objects["root/cloth/dofs"]
    sim.step(100)
    print(sim.time, cloth.positions[0], sim.energy()["total"])

Plugins are found as scene-runner finds them: the bundled folder next to libfluxion, then
FLUXION_PLUGIN_PATH, then ``plugin_dirs``. Errors are the exceptions of ``fluxion.errors``.
"""
import os

from . import errors
from .errors import Diagnostic, Error, NumericalError, PluginError, SceneError, UsageError
from . import python_components, scene_graph
from .scene_graph import Node
from ._fluxion import (CsvTrajectory, Hdf5Trajectory, Host, MechanicalObject, PreparedScene,
                       Simulation, has_hdf5, set_output_policy, set_thread_count, thread_count,
                       write_xdmf)

__all__ = ["load", "load_string", "load_scene", "prepare", "components", "solvers", "plugins",
           "set_output_policy", "set_thread_count", "thread_count", "Host", "CsvTrajectory",
           "Hdf5Trajectory", "write_xdmf", "has_hdf5", "Simulation", "PreparedScene",
           "MechanicalObject", "Node", "Error", "SceneError", "PluginError", "NumericalError",
           "UsageError", "Diagnostic"]

# One Host per plugin search path, created on first use: loading the plugins (dlopen of every
# fluxion_*.so on the path) is done once per process, not once per scene.
_hosts = {}


def _host(plugin_dirs):
    key = tuple(os.fspath(d) for d in (plugin_dirs or ()))
    if key not in _hosts:
        _hosts[key] = Host(list(key))
    return _hosts[key]


def load(path, plugin_dirs=None, dt=None, data_path=None, memory_limit=None):
    """Loads a scene file: XML (``.scn``, ``.xml``, …) or a Python scene (``.py``, whose
    ``createScene(root)`` runs here with your rights, like any script). Raises SceneError or
    PluginError with scene-runner's messages. ``memory_limit`` (bytes, or a size such as
    ``"2G"``, as scene-runner --memory-limit) refuses an XML scene estimated to need more."""
    path = os.fspath(path)
    if path.endswith(".py"):
        problem = scene_graph.scene_file_problem(path)
        if problem is not None:
            raise SceneError([Diagnostic(path, 0, problem)])
        return load_scene(scene_graph.build_scene_file(path), plugin_dirs, dt, data_path,
                          file_name=path)
    return _host(plugin_dirs).load_file(path, dt=dt, data_path=list(data_path or ()),
                                        memory_limit=memory_limit)


def prepare(path, plugin_dirs=None, dt=None, data_path=None, memory_limit=None):
    """Reads and checks an XML scene file once (build once, run many): the PreparedScene's
    ``instantiate(overrides, solver=None)`` builds it with some data replaced —
    ``{"root/cloth/MeshSpringForceField.linesStiffness": 250, "dt": 0.002}`` — bit for bit the
    scene loaded with those values written in its XML, without reading the XML again."""
    return _host(plugin_dirs).prepare(os.fspath(path), dt=dt, data_path=list(data_path or ()),
                                      memory_limit=memory_limit)


def load_string(xml, plugin_dirs=None, dt=None, file_name="scene.scn", data_path=None,
                memory_limit=None):
    """Loads a scene from XML text; ``file_name`` names it in messages (and its folder is where
    files it names are looked up). ``memory_limit`` as for ``load``."""
    return _host(plugin_dirs).load_string(xml, file_name=file_name, dt=dt,
                                          data_path=list(data_path or ()),
                                          memory_limit=memory_limit)


def load_scene(root, plugin_dirs=None, dt=None, data_path=None, file_name="scene.py"):
    """Loads a scene graph built with ``fluxion.Node`` (addChild/addObject). Errors point at the
    Python lines of the calls that added the faulty nodes and components. A graph with
    controllers (Sofa.Core.Controller) is refused: they run only through Sofa.Simulation."""
    problem = scene_graph.controller_problem(root)
    if problem is not None:
        raise SceneError([Diagnostic(*problem)])
    return _load_graph(root, plugin_dirs, dt, data_path, file_name)


def _load_graph(root, plugin_dirs=None, dt=None, data_path=None, file_name="scene.py"):
    """load_scene without the controllers' check: Sofa.Simulation.init runs them itself."""
    sim = _load_generated(scene_graph.to_xml(root), plugin_dirs, dt, data_path, file_name)
    # Force fields written in Python ran their init() while the scene was built; data engines
    # (Python only) run theirs now, as SOFA's init reaches every component.
    for component in python_components.components(root):
        if not component.__dict__["_initialised"]:
            component.init()
            component.__dict__["_initialised"] = True
    return sim


def _load_generated(xml, plugin_dirs=None, dt=None, data_path=None, file_name="scene.py"):
    """Loads the XML a Python graph built (scene_graph.to_xml). python_origins: every message
    (errors, warnings, the lines they refer to, a numerical failure's solver line) names the
    Python call that made the element (LoadOptions::python_origins)."""
    sim = _host(plugin_dirs).load_string(xml, file_name=file_name, dt=dt,
                                         data_path=list(data_path or ()), python_origins=True)
    sim._scene_xml = xml  # what Sofa.Simulation.reset reloads
    return sim


def components(plugin_dirs=None):
    """Every component available to scenes: name, kind, summary, fields, origin."""
    return _host(plugin_dirs).components()


def solvers(plugin_dirs=None):
    """The ODE solvers on the plugin search path, with their declared traits (order, explicit,
    implicit, symplectic, has_history, …)."""
    return _host(plugin_dirs).solvers()


def plugins(plugin_dirs=None):
    """Every plugin file found, loaded or refused, as scene-runner --list-plugins shows them."""
    return _host(plugin_dirs).plugins()
