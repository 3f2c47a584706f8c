"""SofaPython3's ``Sofa.Simulation`` over Fluxion: ``init(root)`` turns the graph built with
``Sofa.Core.Node`` into its XML scene and loads it as ``fluxion.load_scene`` does, keeping the
running ``fluxion.Simulation`` on the root (a ``LiveScene``); ``animate(root, dt)`` steps it
once, calling the controllers where SOFA's DefaultAnimationLoop sends its events
(Sofa/framework/Simulation/Core/src/sofa/simulation/DefaultAnimationLoop.cpp, ``step``:
AnimateBeginEvent, the step, the time advanced, AnimateEndEvent).

Why the graph stays Python and the scene XML: the XML loader is the one place where scenes are
checked and built, so a script run with ``python3 script.py``, the same ``createScene`` loaded
with ``fluxion.load`` and its XML twin are the same scene to the last bit. The price is that the
graph cannot change after init (SOFA allows it); dt and gravity are fixed at init too.
"""
import sys

import numpy

from . import errors, scene_data, scene_graph

__all__ = ["LiveScene", "init", "initRoot", "animate", "animateNSteps", "reset", "load",
           "unload"]

# The MechanicalObject data read from (and, for the state, written to) the running simulation.
_STATE_DATA = {"position": "positions", "velocity": "velocities",
               "rest_position": "rest_positions"}


def _object_id(component):
    """'root/cloth/dofs': the id Fluxion's Simulation gives a component (node path and name)."""
    root = component.getContext().getRoot()
    return root._name() + component.getPathName()


def _node_id(node):
    """'root/cloth': a node as Fluxion's ids name it."""
    return node.getRoot()._name() + node._path()


class LiveScene:
    """The running simulation of a graph after ``init``: reads and writes of data go here."""

    def __init__(self, root, simulation):
        self.root, self.simulation = root, simulation
        self.xml = simulation._scene_xml
        self.written = {}  # (component id, field) → value written since init, kept by reset
        self.output_names = None  # {(component id, data name)} of per-element outputs, once read

    # --- Nodes --------------------------------------------------------------------------------
    def read_node(self, node, field):
        if field == "dt":
            return self.simulation.dt
        if field == "time":
            return self.simulation.time
        if field == "gravity" and node is self.root:
            written = self.written.get((_node_id(node), "gravity"))
            if written is not None:
                return list(written)  # written since init (the simulation uses it from then on)
            return list(self.simulation.gravity)  # as built: a Gravity component's, if any
        if field in node._attributes:
            return node._attributes[field]
        if field == "gravity":
            return self.root._read("gravity")  # children inherit the root's gravity
        if field in scene_graph.NODE_DATA:
            return scene_graph.NODE_DATA[field]
        raise AttributeError(f"node '{node._name()}' has no data '{field}'")

    def write_node(self, node, field, value):
        # The root's gravity changes between steps (every mass's weight follows it from the next
        # step); its dt is refused by the simulation, with why.
        if node is self.root and field in ("gravity", "dt"):
            path = _node_id(node)
            self.simulation.set_component_field(path, field, value)
            self.written[(path, field)] = numpy.asarray(value, dtype=float).ravel().tolist()
            return
        raise errors.UsageError(
            f"{_node_id(node)}.{field} cannot be changed while the simulation runs (Fluxion "
            "builds a node's data into the scene at Sofa.Simulation.init: set it before)")

    # --- Components ---------------------------------------------------------------------------
    def _element_output_names(self):
        """{(component id, data name)} of the per-element outputs (fixed once built)."""
        if self.output_names is None:
            self.output_names = {(o["component"], o["name"])
                                 for o in self.simulation.element_outputs()}
        return self.output_names

    def read_object(self, component, field):
        view = self.simulation.objects.get(_object_id(component))
        if view is not None and field in _STATE_DATA:
            return getattr(view, _STATE_DATA[field])
        if view is not None and field == "force":
            return view.forces()
        if field == "name":
            return component._name()
        if (_object_id(component), field) in self._element_output_names():
            # A component's per-element output (TetrahedronFEMForceField.vonMisesPerElement),
            # computed at the current state only when it is read.
            for output in self.simulation.element_outputs():
                if output["component"] == _object_id(component) and output["name"] == field:
                    return output["values"]
        if (_object_id(component), field) in self.written:
            return self.written[(_object_id(component), field)]
        try:
            return scene_data.sofa_value(component._fields[field])
        except KeyError:
            raise AttributeError(
                f"{_object_id(component)}.{field}: Fluxion's runtime does not expose this data "
                "(it reads a MechanicalObject's position, velocity, rest_position and force, "
                "and the values given to addObject or written since)") from None

    def write_object(self, component, field, value):
        path = _object_id(component)
        view = self.simulation.objects.get(path)
        if view is not None:
            if field not in ("position", "velocity"):
                raise errors.UsageError(
                    f"{path}.{field} cannot be changed while the simulation runs (fields that "
                    "can: position, velocity)")
            array = numpy.asarray(value, dtype=float).reshape(view.num_points, view.dimension)
            setattr(view, _STATE_DATA[field], array)  # the solvers restart from the new state
            return
        self.simulation.set_component_field(path, field, value)
        # Kept beside the graph, not in it: the scene's XML stays what init loaded.
        self.written[(path, field)] = value

    # --- Events -------------------------------------------------------------------------------
    def send(self, event):
        """Sends `event` (a SofaPython3 event dict) to every controller, in SOFA's order, until
        one returns True (SOFA's PropagateEventVisitor stops at a handled event)."""
        for controller in scene_graph.controllers(self.root):
            method = getattr(controller, "on" + event["type"], None)
            if method is None:
                method = getattr(controller, "onEvent", None)
            if method is not None and method(event):
                event["isHandled"] = True
                return


def _live(root, what):
    live = root.__dict__.get("_live_scene")
    if live is None:
        raise errors.UsageError(f"{what}: node '{root._name()}' was not initialised (call "
                                "Sofa.Simulation.init(root) first)")
    return live


def init(root):
    """Builds the scene of the graph rooted at `root`, calls each controller's ``init()``, then
    sends SimulationInitDoneEvent. Raises SceneError at the Python lines of faulty calls."""
    from . import _load_graph
    if root._parent is not None:
        raise errors.UsageError(f"init: node '{root._name()}' is not a root (Fluxion "
                                "initialises a whole scene from its root)")
    if root.__dict__.get("_live_scene") is not None:
        return  # SOFA's init of an initialised scene changes nothing either
    # The scene is named after its script: files it names (meshes) are looked up in its folder.
    script = getattr(sys.modules.get("__main__"), "__file__", None) or "scene.py"
    file_name = root._scene_file or (root._origin[0] if root._origin else script)
    simulation = _load_graph(root, file_name=file_name)
    live = LiveScene(root, simulation)
    object.__setattr__(root, "_live_scene", live)
    for controller in scene_graph.controllers(root):
        controller.init()
    live.send({"type": "SimulationInitDoneEvent", "isHandled": False})


initRoot = init


def animate(root, dt=0.0):
    """One step of dt (0: the scene's, as SOFA's DefaultAnimationLoop::step reads it): the
    controllers' onAnimateBeginEvent, the step, then onAnimateEndEvent. Fluxion steps with the
    dt the scene was built with; another dt is refused."""
    live = _live(root, "animate")
    simulation = live.simulation
    if dt == 0.0:
        dt = simulation.dt
    elif dt != simulation.dt:
        raise errors.UsageError(f"animate: dt={dt!r} differs from the scene's dt="
                                f"{simulation.dt!r} (Fluxion steps with the dt set before init: "
                                "set root.dt instead)")
    live.send({"type": "AnimateBeginEvent", "isHandled": False, "dt": dt})
    simulation.step()
    live.send({"type": "AnimateEndEvent", "isHandled": False, "dt": dt})


def animateNSteps(root, n_steps=1, dt=0.0):
    for _ in range(n_steps):
        animate(root, dt)


def reset(root):
    """Back to the start: the scene reloaded as init built it, with the fields written since
    init written again (SOFA's reset restores states and time, not data a controller changed).
    No event is sent, as SOFA sends none."""
    from . import _load_generated
    live = _live(root, "reset")
    live.simulation.finish()
    live.simulation = _load_generated(live.xml, file_name=live.simulation.file)
    for (path, field), value in live.written.items():
        live.simulation.set_component_field(path, field, value)


def unload(root):
    """Ends the run (exporters write their last files) and empties the graph, as SOFA's unload."""
    live = root.__dict__.get("_live_scene")
    if live is not None:
        live.simulation.finish()
        object.__setattr__(root, "_live_scene", None)
    for child in list(root._children):
        root._children.remove(child)


def load(file_name):
    raise errors.UsageError(
        f"Sofa.Simulation.load({file_name!r}): not supported by Fluxion (it loads a scene file "
        "as a Simulation, not as a graph: use fluxion.load(file), or build the graph in Python)")
