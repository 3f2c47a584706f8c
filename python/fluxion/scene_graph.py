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

This file is standalone (standard library only) so that scene-runner can run it as
``python3 scene_graph.py --result-fd 3 SCENE.py`` without the compiled module: it writes the XML
on that file descriptor, a channel of its own, and what the scene prints goes to stderr.
"""
import math
import os
import contextlib
import runpy
import stat
import sys

__all__ = ["Node", "Object", "Data", "xml_text", "to_xml", "build_scene_file", "scene_file_problem"]


def xml_text(value) -> str:
    """The XML attribute text of a Python value (see the module's doc)."""
    if isinstance(value, (Object, Data)):
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
        return value
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


class Data:
    """A field of an added component, as SofaPython3's ``obj.position``: its ``linkpath``
    (``@/path/to/object.position``) links another component's field to it; ``value`` is the
    value given in ``addObject`` (values computed while loading are not known here)."""

    def __init__(self, owner, field):
        self._owner, self._field = owner, field

    def getLinkPath(self):
        return self._owner.getLinkPath() + "." + self._field

    linkpath = property(getLinkPath)

    @property
    def value(self):
        try:
            return self._owner._fields[self._field]
        except KeyError:
            raise AttributeError(f"{self._owner.name}.{self._field} was not given in addObject "
                                 "(values computed while loading are not known to the scene "
                                 "script)") from None


class Object:
    """A component added with ``node.addObject``: its type, name and fields. Any other attribute
    is one of its fields as a ``Data`` (``loader.position.linkpath``)."""

    def __init__(self, node, type_name, fields, origin):
        self._node, self._type, self._fields, self._origin = node, type_name, fields, origin

    @property
    def name(self):
        return self._fields.get("name", self._type)

    def getLinkPath(self):
        """``@/path/to/object``, as SofaPython3's ``linkpath``, for links to this object."""
        return "@" + self._node._path() + "/" + xml_text(self.name)

    linkpath = property(getLinkPath)

    def __getattr__(self, field):
        if field.startswith("_"):
            raise AttributeError(field)
        return Data(self, field)


class Node:
    """A node of the scene graph. Attributes set on it (``root.dt = 0.01``,
    ``root.gravity = [0, -9.81, 0]``) become the node's XML attributes."""

    def __init__(self, name="root", _parent=None, _origin=None, _scene_file=None):
        object.__setattr__(self, "_attributes", {"name": name})
        object.__setattr__(self, "_children", [])  # Nodes and Objects, in call order
        object.__setattr__(self, "_parent", _parent)
        object.__setattr__(self, "_origin", _origin)
        object.__setattr__(self, "_scene_file", _scene_file)

    def __setattr__(self, key, value):
        self._attributes[key] = value

    def __getattr__(self, key):
        try:
            return self._attributes[key]
        except KeyError:
            raise AttributeError(key) from None

    def addChild(self, name, **attributes):
        """Adds and returns the child node ``name`` (SofaPython3's ``Node.addChild``)."""
        child = Node(name, self, _caller_origin(self._scene_file), self._scene_file)
        for key, value in attributes.items():
            setattr(child, key, value)
        self._children.append(child)
        return child

    def addObject(self, type_name, **fields):
        """Adds and returns a component (SofaPython3's ``Node.addObject``)."""
        added = Object(self, type_name, fields, _caller_origin(self._scene_file))
        self._children.append(added)
        return added

    def getChild(self, name):
        for child in self._children:
            if isinstance(child, Node) and child._attributes["name"] == name:
                return child
        return None

    def getObject(self, name):
        for child in self._children:
            if isinstance(child, Object) and child.name == name:
                return child
        return None

    def _path(self):
        return "" if self._parent is None else self._parent._path() + "/" + xml_text(self.name)


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
            else:
                lines.append(f"{indent}  <{child._type}{_attributes(child._fields.items())}/>"
                             + _origin_comment(child._origin))
        lines.append(f"{indent}</Node>")

    emit(root, 0)
    return "\n".join(lines) + "\n"


def python_origin(xml, line):
    """(file, line) of the Python call that made XML line ``line`` (1-based), or None."""
    lines = xml.split("\n")
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    start = text.rfind("<!--python ")
    if start < 0 or not text.endswith("-->"):
        return None
    file, _, number = text[start + len("<!--python "):-len("-->")].rpartition(":")
    return (file, int(number)) if number.isdigit() else None


def _sofa_stand_ins():
    """Modules named as SofaPython3's, for scenes written for SOFA that import them at the top
    (``import Sofa``, ``import SofaRuntime; SofaRuntime.importPlugin(...)``) and only build the
    graph: Sofa.Core.Node is this module's Node, importPlugin does nothing (plugins are
    RequiredPlugin components, or Fluxion's own). Only put in place when SOFA's own are absent.
    Anything else of SofaPython3 (controllers, Sofa.Simulation) is not provided."""
    import importlib.util
    import types
    if importlib.util.find_spec("Sofa") is not None:
        return {}
    sofa = types.ModuleType("Sofa", "Fluxion's stand-in for SofaPython3's Sofa (graph only)")
    sofa.Core = types.ModuleType("Sofa.Core")
    sofa.Core.Node, sofa.Core.Object, sofa.Core.Data = Node, Object, Data
    runtime = types.ModuleType("SofaRuntime", "Fluxion's stand-in: importPlugin does nothing")
    runtime.importPlugin = lambda name: None
    return {"Sofa": sofa, "Sofa.Core": sofa.Core, "SofaRuntime": runtime}


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
    with contextlib.redirect_stdout(sys.stderr):
        xml = to_xml(build_scene_file(args[0]))
    if result_fd is None:
        sys.stdout.write(xml)
    else:
        with os.fdopen(result_fd, "w", encoding="utf-8") as channel:
            channel.write(xml)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
