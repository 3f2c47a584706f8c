"""SofaPython3-style scenes: ``createScene(root)`` builds the scene graph with
``root.addChild("name")`` and ``node.addObject("Type", name=..., **fields)``; Fluxion turns the
graph into its XML scene and loads that with the XML loader, so a Python scene and its XML twin
are the same scene to the last bit.

Values are written as XML text: numbers in shortest round-trip form (``repr``), booleans as
``true``/``false``, lists, tuples and NumPy arrays flattened and space-separated, strings (and
``"@links"``) as they are. Each element's line carries its Python origin in a comment, so that
errors found while loading point at the ``addObject`` call.

A Python scene is a program: it runs with the rights of the user who runs it, like any script.
The XML loader's guarantees (README.md, "Files and safety") are about XML scenes.

The graph is also what Fluxion's ``Sofa`` package (python/Sofa/, sofa_simulation.py) runs:
after ``Sofa.Simulation.init(root)`` the root holds the running simulation, and data reads and
writes go to it (scene_data.py); controllers (``Sofa.Core.Controller``) are kept in the graph but
never written into the XML.

This file is standalone (standard library and scene_data.py only) so that scene-runner can run it as
``python3 scene_graph.py --result-fd 3 SCENE.py`` without the compiled module: it writes the XML
on that file descriptor, a channel of its own, and what the scene prints goes to stderr.
"""
import math
import os
import contextlib
import runpy
import stat
import sys

if __package__:
    from . import sofa_matrices
    from .scene_data import Data, LinkPath, sofa_value
else:  # run as a script by scene-runner: the folder of this file is first on sys.path
    import sofa_matrices
    from scene_data import Data, LinkPath, sofa_value

__all__ = ["Node", "Object", "Data", "Controller", "GraphError", "controllers", "xml_text",
           "to_xml", "build_scene_file", "scene_file_problem"]


class GraphError(ValueError):
    """A graph Fluxion does not build, raised at the script's call ("FILE:LINE: what is wrong
    (what was expected)"): the scene process, ``python3 -m fluxion run`` and a script's main()
    report it in one line, not a traceback."""


def xml_text(value) -> str:
    """The XML attribute text of a Python value (see the module's doc)."""
    if isinstance(value, (Object, Data, Node)):
        return value.getLinkPath()  # SofaPython3 writes a link for an object or data given
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()  # NumPy arrays and scalars, without importing NumPy
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a finite number (expected a finite value)")
        return repr(value)  # the shortest text that parses back to the same double
    if isinstance(value, str):
        return str(value)  # a LinkPath is its text
    if isinstance(value, (list, tuple)):
        return " ".join(xml_text(item) for item in value)
    raise TypeError(f"cannot write a {type(value).__name__} as a scene value "
                    "(expected a number, a string, a list or a NumPy array)")


def _caller_origin(scene_file):
    """(file, line) of the call into this module: the innermost frame in the scene file when
    there is one (helpers defined elsewhere still point at the scene's line), else the caller."""
    frame = sys._getframe(2)
    caller = (frame.f_code.co_filename, frame.f_lineno)
    while frame is not None:
        if scene_file and os.path.abspath(frame.f_code.co_filename) == scene_file:
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return caller


# The data of a node (framework/src/build/node_spec.cpp), with their defaults: `node.dt = 0.01`
# sets one; any other attribute set on a node stays a plain Python attribute, as SofaPython3 keeps
# attributes that name no data of the node (Binding_Base.cpp, BindingBase::SetAttr).
NODE_DATA = {"dt": 0.01, "gravity": [0.0, -9.81, 0.0], "time": 0.0, "animate": False,
             "multiThreadSimulation": False, "activated": True}


class _Base:
    """What nodes, components and controllers share: SofaPython3's Base (names, paths, data)."""

    def getName(self):
        return self._name()

    @property
    def name(self):
        return Data(self, "name")

    def findData(self, field):
        return Data(self, field)

    def getLinkPath(self):
        return "@" + self.getPathName()

    linkpath = property(lambda self: LinkPath(self.getLinkPath(), self))

    def _live(self):
        """The running scene (fluxion.sofa_simulation.LiveScene) once the root was initialised,
        else None."""
        root = self.getContext().getRoot() if self.getContext() is not None else None
        if root is None:
            return None
        # While the scene is built, a Python component's init() reads through _build_scene.
        return root.__dict__.get("_live_scene") or root.__dict__.get("_build_scene")


class Object(sofa_matrices.MatrixAccess, _Base):
    """A component added with ``node.addObject``: its type, name and fields. Any other attribute
    is one of its fields as a ``Data`` (``loader.position.linkpath``); ``obj.field = value`` sets
    it (before init: written into the scene; after: the running simulation, or one line saying
    why not)."""

    def __init__(self, node, type_name, fields, origin):
        object.__setattr__(self, "_node", node)
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_fields", fields)
        object.__setattr__(self, "_origin", origin)

    def _name(self):
        return self._fields.get("name", self._type)

    def getClassName(self):
        return self._type

    def getContext(self):
        return self._node

    def getPathName(self):
        # SOFA's Base::getPathName: "/node/object", "/object" in the root.
        return self._node._path() + "/" + xml_text(self._name())

    def _read(self, field):
        live = self._live()
        if live is not None:
            return live.read_object(self, field)
        if field == "name":
            return self._name()
        try:
            return sofa_value(self._fields[field])
        except KeyError:
            raise AttributeError(f"{self._name()}.{field} was not given in addObject "
                                 "(values computed while loading are known after "
                                 "Sofa.Simulation.init(root))") from None

    def _write(self, field, value):
        live = self._live()
        if live is not None:
            live.write_object(self, field, value)
        else:
            self._fields[field] = value

    def _is_set(self, field):
        return field in self._fields

    def __getattr__(self, field):
        if field.startswith("_"):
            raise AttributeError(field)
        if self._type in sofa_matrices.LINEAR_SYSTEM_TYPES:
            method = sofa_matrices.linear_system_method(self, field)
            if method is not None:
                return method
        return Data(self, field)

    def __setattr__(self, field, value):
        if field.startswith("_"):
            object.__setattr__(self, field, value)
        else:
            self._write(field, value)


class Controller(_Base):
    """SofaPython3's ``Sofa.Core.Controller`` (Binding_Controller.cpp): subclass it, add an
    instance with ``node.addObject(MyController(name="c"))``, and Sofa.Simulation calls its
    ``onAnimateBeginEvent(event)`` before each step, ``onAnimateEndEvent(event)`` after it and
    ``onSimulationInitDoneEvent(event)`` after init (``onEvent`` for an event it has no method
    for), with SofaPython3's event dicts (Plugin/src/SofaPython3/PythonFactory.cpp). Key and
    mouse events are never sent: there is no GUI. Attributes are plain Python attributes; the
    keyword arguments other than ``name`` are ignored, as SofaPython3 ignores those that name
    no data (Binding_Component.inl, trampoline_init)."""

    def __init__(self, *args, **kwargs):
        self.__dict__["_controller_name"] = kwargs.get("name", type(self).__name__)

    def _name(self):
        return self.__dict__.get("_controller_name", type(self).__name__)

    def __setattr__(self, key, value):
        if key == "name" or key in self.__dict__.get("_data", ()):
            self._write(key, value)
        else:
            object.__setattr__(self, key, value)

    def __getattr__(self, key):
        # Only for names not found the usual way: data added with addData.
        if key in self.__dict__.get("_data", ()):
            return Data(self, key)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{key}'")

    def addData(self, name, value=None, default=None, help="", group="", type=""):
        """A data of the controller (SofaPython3's Base.addData), read and written as
        ``self.<name>.value``; another data as its value links it to that one."""
        self.__dict__.setdefault("_data", {})[name] = default if value is None else value
        return Data(self, name)

    def getClassName(self):
        return type(self).__name__

    def getContext(self):
        return self.__dict__.get("_node")

    def getPathName(self):
        node = self.getContext()
        return ("" if node is None else node._path()) + "/" + self._name()

    def _read(self, field):
        if field == "name":
            return self._name()
        if field in self.__dict__.get("_data", ()):
            value = self.__dict__["_data"][field]
            return value.value if isinstance(value, Data) else value
        raise AttributeError(f"{self._name()}.{field}: a controller's data other than its name "
                             "and those added with addData are not modelled (use plain Python "
                             "attributes)")

    def _write(self, field, value):
        if field in self.__dict__.get("_data", ()):
            self.__dict__["_data"][field] = value
            return
        if field != "name":
            raise AttributeError(f"{self._name()}.{field}: not a data of the controller")
        self.__dict__["_controller_name"] = value

    def _is_set(self, field):
        return field == "name" or field in self.__dict__.get("_data", ())

    def init(self):
        pass

    def reinit(self):
        pass

    def draw(self, visual_params):
        pass


class Node(_Base):
    """A node of the scene graph (SofaPython3's ``Sofa.Core.Node``, Binding_Node.cpp). Its data
    (NODE_DATA: ``root.dt = 0.01``, ``root.gravity = [0, -9.81, 0]``) become the node's XML
    attributes; other attributes set on it stay Python attributes. Children and components are
    found by name as attributes (``root.cloth.dofs.position.value``)."""

    def __init__(self, name="root", _parent=None, _origin=None, _scene_file=None):
        object.__setattr__(self, "_attributes", {"name": name})
        object.__setattr__(self, "_children", [])  # Nodes, Objects and Controllers, in call order
        object.__setattr__(self, "_parent", _parent)
        object.__setattr__(self, "_origin", _origin)
        object.__setattr__(self, "_scene_file", _scene_file)

    def __setattr__(self, key, value):
        if key in NODE_DATA or key == "name":
            self._write(key, value)
        else:
            object.__setattr__(self, key, value)  # a plain Python attribute

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        # SofaPython3's order (Binding_Node.cpp, __getattr__): components, children, data.
        found = self.getObject(key) or self.getChild(key)
        if found is not None:
            return found
        if key in NODE_DATA:
            return Data(self, key)
        raise AttributeError(f"node '{self._name()}' has no component, child or data named "
                             f"'{key}'")

    def _name(self):
        return self._attributes["name"]

    def _read(self, field):
        live = self._live()
        if live is not None:
            return live.read_node(self, field)
        if field in self._attributes:
            return self._attributes[field]
        if field in NODE_DATA:
            return NODE_DATA[field]
        raise AttributeError(f"node '{self._name()}' has no data '{field}'")

    def _write(self, field, value):
        live = self._live()
        if live is not None:
            live.write_node(self, field, value)
        else:
            self._attributes[field] = value

    def _is_set(self, field):
        return field in self._attributes

    def _refuse_if_live(self, what):
        if self._live() is not None:
            raise RuntimeError(f"{what}: the scene cannot change after Sofa.Simulation.init "
                               "(Fluxion builds it once; change it before init, or unload it)")

    def getContext(self):
        return self

    def getRoot(self):
        node = self
        while node._parent is not None:
            node = node._parent
        return node

    def getPathName(self):
        return self._path() or "/"  # SOFA's Node::getPathName: "/" for the root

    def addChild(self, child, **attributes):
        """Adds and returns the child node ``child`` (a name, or a parentless Node made with
        ``Sofa.Core.Node(name)``), as SofaPython3's ``Node.addChild``."""
        self._refuse_if_live("addChild")
        origin = _caller_origin(self._scene_file)
        if isinstance(child, Node):
            if child._parent is not None or child is self.getRoot():
                raise GraphError(f"{origin[0]}:{origin[1]}: addChild: node '{child._name()}' "
                                 "already is in a graph (expected a new node, or a name)")
            object.__setattr__(child, "_parent", self)
            object.__setattr__(child, "_origin", origin)
            object.__setattr__(child, "_scene_file", self._scene_file)
        else:
            child = Node(child, self, origin, self._scene_file)
        for key, value in attributes.items():
            setattr(child, key, value)
        self._children.append(child)
        return child

    def addObject(self, type_name, **fields):
        """Adds and returns a component (SofaPython3's ``Node.addObject``): a type name with its
        fields, a Controller or a component written in Python (python_components.py)."""
        self._refuse_if_live("addObject")
        component = getattr(type_name, "_fluxion_component", False)
        if component and type_name.__dict__.get("_node") is not None:
            origin = _caller_origin(self._scene_file)
            raise GraphError(f"{origin[0]}:{origin[1]}: addObject: '{type_name._name()}' "
                             "already is in a graph (expected a new instance)")
        if isinstance(type_name, Controller) or component:
            type_name.__dict__["_node"] = self
            type_name.__dict__["_origin"] = _caller_origin(self._scene_file)
            self._children.append(type_name)
            return type_name
        added = Object(self, type_name, fields, _caller_origin(self._scene_file))
        self._children.append(added)
        return added

    def removeChild(self, child):
        """Removes a child node, given as itself or by name (SofaPython3's removeChild)."""
        self._refuse_if_live("removeChild")
        node = child if isinstance(child, Node) else self.getChild(child)
        if node is None or node not in self._children:
            raise ValueError(f"removeChild: '{getattr(node, '_name', lambda: child)()}' is not a "
                             f"child of node '{self._name()}'")
        self._children.remove(node)
        object.__setattr__(node, "_parent", None)

    def removeObject(self, component):
        self._refuse_if_live("removeObject")
        self._children.remove(component)

    def getChild(self, name):
        for child in self._children:
            if isinstance(child, Node) and child._name() == name:
                return child
        return None

    def getObject(self, name):
        for child in self._children:
            if not isinstance(child, Node) and child._name() == name:
                return child
        return None

    @property
    def children(self):
        return [child for child in self._children if isinstance(child, Node)]

    @property
    def objects(self):
        return [child for child in self._children if not isinstance(child, Node)]

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        return None

    def _path(self):
        return "" if self._parent is None else self._parent._path() + "/" + xml_text(self._name())


# What the scene process writes on scene-runner's channel, instead of XML, for a scene with
# controllers (tools/scene_runner/python_scene.h); never the start of an XML scene.
CONTROLLERS_MARK = "#controllers "


def controller_problem(root):
    """(file, line, message) refusing a graph with controllers where only its XML scene is
    loaded (scene-runner, fluxion.load), or None: a controller is Python code run at every
    step."""
    found = controllers(root)
    if not found:
        return None
    origin = found[0].__dict__.get("_origin") or ("scene.py", 0)
    return (origin[0], origin[1], "the scene has Python controllers "
            f"({', '.join(type(c).__name__ for c in found)}), which run only with "
            "Sofa.Simulation in the script's own process (expected: python3 "
            f"{os.path.basename(origin[0])} with a main() that calls Sofa.Simulation.init and "
            f"animate, or python3 -m fluxion run {os.path.basename(origin[0])})")


def python_components(root):
    """Every component written in Python (python_components.py) in the graph, in SOFA's order."""
    found = [child for child in root._children if getattr(child, "_fluxion_component", False)]
    for child in root.children:
        found += python_components(child)
    return found


def runs_python_code(root):
    """(file, line, message) when the graph has controllers or components written in Python,
    which scene-runner's scene process (it sends XML) cannot run, else None."""
    problem = controller_problem(root)
    found = python_components(root)
    if problem is not None or not found:
        return problem
    origin = found[0].__dict__.get("_origin") or ("scene.py", 0)
    return (origin[0], origin[1], "the scene has components written in Python "
            f"({', '.join(type(c).__name__ for c in found)}), which run only in a Python process "
            f"(expected: python3 {os.path.basename(origin[0])}, python3 -m fluxion run "
            f"{os.path.basename(origin[0])}, or fluxion.load)")


def controllers(root):
    """Every controller of the graph in the order SOFA's PropagateEventVisitor reaches them: a
    node's components in order, then its children, depth first."""
    found = []
    for child in root._children:
        if isinstance(child, Controller):
            found.append(child)
    for child in root.children:
        found += controllers(child)
    return found


def _escape(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\n", "&#10;"))


def _attributes(items):
    return "".join(f' {key}="{_escape(xml_text(value))}"' for key, value in items)


def _origin_comment(origin):
    # The Python line of the element, read back by fluxion.load and scene-runner to report
    # errors there; left out when the file name cannot sit in an XML comment.
    if origin is None or "--" in origin[0] or origin[0].endswith("-"):
        return ""
    return f" <!--python {origin[0]}:{origin[1]}-->"


def to_xml(root):
    """The XML scene of the graph rooted at ``root``, one element per line."""
    lines = []

    def emit(node, depth):
        indent = "  " * depth
        lines.append(f"{indent}<Node{_attributes(node._attributes.items())}>"
                     + _origin_comment(node._origin))
        for child in node._children:
            if isinstance(child, Node):
                emit(child, depth + 1)
            elif isinstance(child, Controller):
                continue  # Python code, run by Sofa.Simulation, never part of the XML scene
            elif getattr(child, "_fluxion_component", False):
                # A component written in Python: an element naming the object by its handle
                # (none for a DataEngine: it lives in Python only).
                if child._fluxion_type is None:
                    continue
                lines.append(f"{indent}  <{child._fluxion_type}"
                             f"{_attributes(child._fluxion_xml_fields().items())}/>"
                             + _origin_comment(child.__dict__.get("_origin")))
            else:
                lines.append(f"{indent}  <{child._type}{_attributes(child._fields.items())}/>"
                             + _origin_comment(child._origin))
        lines.append(f"{indent}</Node>")

    emit(root, 0)
    return "\n".join(lines) + "\n"


def _is_fluxion_sofa(spec):
    """Whether the `Sofa` package found is Fluxion's own (installed next to the fluxion
    package), not SofaPython3's."""
    origin = getattr(spec, "origin", None) or ""
    return os.path.isfile(os.path.join(os.path.dirname(os.path.dirname(origin)), "fluxion",
                                       "scene_graph.py"))


def _sofa_stand_ins():
    """Modules named as SofaPython3's for a scene written for SOFA, when this file runs on its own
    (scene-runner's scene process, standard library only): Sofa.Core with this module's Node and
    Controller, SofaRuntime.importPlugin doing nothing (plugins are RequiredPlugin components),
    Sofa.Simulation refusing (a scene process only builds the graph). None when SOFA's own
    modules are installed, or when Fluxion's Sofa package (python/Sofa/, which needs the
    compiled module) is what `import Sofa` finds for this module."""
    import importlib.util
    import types
    spec = importlib.util.find_spec("Sofa")
    if spec is not None and (__name__ == "fluxion.scene_graph" or not _is_fluxion_sofa(spec)):
        return {}

    def refuse(*args, **kwargs):
        raise RuntimeError("Sofa.Simulation runs a scene in the script's own process "
                           "(python3 script.py); scene-runner's scene process only builds it")

    sofa = types.ModuleType("Sofa", "Fluxion's stand-in for SofaPython3's Sofa (graph only)")
    sofa.Core = types.ModuleType("Sofa.Core")
    sofa.Core.Node, sofa.Core.Object, sofa.Core.Data = Node, Object, Data
    sofa.Core.Controller = Controller
    # Components written in Python: defined, so that the scene is built and handed over.
    if __package__:
        from . import python_components
    else:
        import python_components
    for name in ("ForceFieldVec3d", "ForceFieldVec2d", "ForceFieldVec1d", "Mapping_Vec3d_Vec3d",
                 "DataEngine"):
        setattr(sofa.Core, name, getattr(python_components, name))
    sofa.Simulation = types.ModuleType("Sofa.Simulation")
    for name in ("init", "initRoot", "animate", "reset", "load", "unload", "animateNSteps"):
        setattr(sofa.Simulation, name, refuse)
    sofa.Helper = types.ModuleType("Sofa.Helper")
    for name in ("msg_info", "msg_warning", "msg_error", "msg_deprecated"):
        setattr(sofa.Helper, name, lambda *args: print(*args[-1:], file=sys.stderr))
    runtime = types.ModuleType("SofaRuntime", "Fluxion's stand-in: importPlugin does nothing")
    runtime.importPlugin = lambda name: None
    return {"Sofa": sofa, "Sofa.Core": sofa.Core, "Sofa.Simulation": sofa.Simulation,
            "Sofa.Helper": sofa.Helper, "SofaRuntime": runtime}


def scene_file_problem(path):
    """Why ``path`` cannot be run as a Python scene (one line, as scene-runner says it), or None.
    Checked before Python opens it: a FIFO would block the open, a missing file give a
    traceback."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "the scene file does not exist (expected a readable Python scene)"
    except OSError as error:
        return f"the scene file cannot be read: {error.strerror} (expected a readable Python scene)"
    if stat.S_ISDIR(mode):
        return "is a directory (expected a scene file)"
    if not stat.S_ISREG(mode):
        return "is not a regular file (expected a scene file; a FIFO or device is never read)"
    return None


def build_scene_file(path):
    """Runs the Python scene ``path`` (its ``createScene(root)``) and returns the root node.
    The scene's folder is put first on sys.path, as SofaPython3 does, for its own modules."""
    given, path = os.fspath(path), os.path.abspath(path)
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)
    stand_ins = _sofa_stand_ins()
    sys.modules.update(stand_ins)
    try:
        # Run under the name given, so that its code (and messages) name the file as the user did.
        scene = runpy.run_path(given, run_name="__fluxion_scene__")
        create = scene.get("createScene")
        if not callable(create):
            raise ValueError(f"{given}: defines no createScene(root) function "
                             "(expected a SofaPython3-style scene)")
        root = Node("root", _scene_file=path)
        object.__setattr__(root, "_origin", (given, create.__code__.co_firstlineno))
        returned = create(root)
    finally:
        if sys.path and sys.path[0] == folder:
            del sys.path[0]
        for name in stand_ins:
            sys.modules.pop(name, None)
    return returned if isinstance(returned, Node) else root


def main(argv):
    """``python3 scene_graph.py [--result-fd N] SCENE.py``: writes the scene's XML to stdout, or
    to the open file descriptor N (scene-runner's channel). What the scene prints goes to stderr
    either way: it is the script's output, never part of the scene."""
    args = argv[1:]
    result_fd = None
    if len(args) == 3 and args[0] == "--result-fd" and args[1].isdigit():
        result_fd, args = int(args[1]), args[2:]
    if len(args) != 1:
        print("usage: python3 -m fluxion SCENE.py  (prints the XML scene it builds)",
              file=sys.stderr)
        return 2
    problem = scene_file_problem(args[0])
    if problem is not None:
        print(f"{args[0]}: {problem}", file=sys.stderr)
        return 2
    try:
        with contextlib.redirect_stdout(sys.stderr):
            root = build_scene_file(args[0])
    except GraphError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    problem = runs_python_code(root)
    if problem is not None and result_fd is not None:
        # scene-runner runs such a scene with `python3 -m fluxion run` (run_script.py): told so
        # on its channel, with the line it names if it cannot.
        with os.fdopen(result_fd, "w", encoding="utf-8") as channel:
            channel.write(f"{CONTROLLERS_MARK}{problem[0]}:{problem[1]}: {problem[2]}\n")
        return 0
    if problem is not None:
        print(f"{problem[0]}:{problem[1]}: {problem[2]}", file=sys.stderr)
        return 2
    xml = to_xml(root)
    if result_fd is None:
        sys.stdout.write(xml)
    else:
        with os.fdopen(result_fd, "w", encoding="utf-8") as channel:
            channel.write(xml)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
