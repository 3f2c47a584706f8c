"""Components written in Python, as SofaPython3 defines them (bindings/Sofa/src/SofaPython3/Sofa/
Core/Binding_ForceField.cpp): subclass ``Sofa.Core.ForceFieldVec3d``, define ``addForce(mparams,
f, x, v)``, ``addDForce(mparams, df, dx)`` and/or ``addKToMatrix(mparams, nNodes, nDofs)``, and add
an instance with ``node.addObject(MyForceField(name="ff"))``.

How it runs: the graph writes the component into its XML scene as ``<PythonForceField
handle="N"/>``, N naming the Python object in this module's registry; the Python module's
PythonForceField (python/src/python_force_field.cpp), a C++ ForceField, calls the object back
at every force evaluation with NumPy views over Fluxion's vectors (no copies). ``init()`` runs
while the scene is built, before any force is asked for, with the node's MechanicalObject
reading its initial state. What the methods receive and how the solvers use them:
docs/python.md, "Writing a component in Python".

Standard library only (NumPy imported when a vector view is made), as scene_graph.py: scene-runner's
scene process defines these classes too, to find the components and hand the run to
``python3 -m fluxion run`` (a component is Python code called at every step).
"""

if __package__:
    from .scene_data import Data
else:  # beside scene_graph.py in scene-runner's scene process
    from scene_data import Data

__all__ = ["PythonComponent", "ForceField", "ForceFieldVec3d", "ForceFieldVec2d",
           "ForceFieldVec1d", "Mapping_Vec3d_Vec3d", "DataEngine", "components", "lookup",
           "vector_data"]

# handle → component, for the process: the scene's XML names components by handle, and
# Sofa.Simulation.reset reloads that XML.
_registry = {}
# (component, method, exception) of the last exception a component raised during a step, until
# the binding reports it (take_failure).
_failure = None


class PythonComponent:
    """What components written in Python share (SofaPython3's BaseComponent as a Python base
    class): a name, data added with ``addData``, ``init()``, the node as ``getContext()``.
    Keyword arguments of the constructor set the data of that name, else become plain Python
    attributes, as SofaPython3's BindingBase::SetAttr does; so does ``self.x = v`` later."""

    _fluxion_component = True  # scene_graph.Node.addObject recognises components by this mark
    _fluxion_type = None       # the XML element the graph writes (PythonForceField, …)

    def __init__(self, *args, **kwargs):
        if args and "name" in kwargs:
            raise TypeError(f"{type(self).__name__}: the name is given twice, as an argument "
                            f"'{args[0]}' and as name='{kwargs['name']}' (expected one)")
        own = self.__dict__
        own["_data"] = {}      # name → value, in addData order
        own["_data_info"] = {}  # name → (help, group, type)
        own["_component_name"] = str(args[0]) if args else str(kwargs.pop("name",
                                                                            type(self).__name__))
        own["_handle"] = None
        own["_node"] = None
        own["_initialised"] = False
        for key, value in kwargs.items():
            setattr(self, key, value)

    # --- SofaPython3's Base ----------------------------------------------------------------------
    def addData(self, name, value=None, default=None, help="", group="", type=""):
        """Adds a data (SofaPython3's Base.addData): ``self.<name>.value`` reads it,
        ``self.<name> = v`` and ``.value = v`` write it. ``value`` (else ``default``) is its
        value; ``help``, ``group`` and ``type`` are kept for ``getDataFields`` only."""
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"addData: {name!r} is not a data name (expected an identifier not "
                             "starting with '_')")
        if name in self._data or name == "name":
            raise ValueError(f"addData: {type_name(self)} already has a data '{name}'")
        self._data[name] = default if value is None else value
        self._data_info[name] = (help, group, type)
        return Data(self, name)

    def getDataFields(self):
        return ["name", *self._data]

    def getName(self):
        return self._name()

    @property
    def name(self):
        return Data(self, "name")

    def findData(self, field):
        if field != "name" and field not in self._data:
            raise AttributeError(f"{self._name()} has no data '{field}'")
        return Data(self, field)

    def getClassName(self):
        return type(self).__name__

    def getContext(self):
        return self.__dict__.get("_node")

    def getPathName(self):
        node = self.getContext()
        return ("" if node is None else node._path()) + "/" + self._name()

    def getLinkPath(self):
        return "@" + self.getPathName()

    linkpath = property(getLinkPath)

    def init(self):
        pass

    def reinit(self):
        pass

    def draw(self, visual_params):
        pass

    # --- Data plumbing (scene_data.Data calls these) ---------------------------------------------
    def _name(self):
        return self.__dict__["_component_name"]

    def _read(self, field):
        if field == "name":
            return self._name()
        try:
            value = self._data[field]
        except KeyError:
            raise AttributeError(f"{self._name()} has no data '{field}'") from None
        # A data added with another data as its value is linked to it (SOFA's parent link).
        return value.value if isinstance(value, Data) else value

    def _write(self, field, value):
        if field == "name":
            self.__dict__["_component_name"] = str(value)
        elif field in self._data:
            self._data[field] = value
        else:
            raise AttributeError(f"{self._name()} has no data '{field}' (addData adds one)")

    def _is_set(self, field):
        return field == "name" or field in self._data

    def __getattr__(self, key):
        # Only for names not found the usual way: data added with addData.
        data = self.__dict__.get("_data")
        if data is not None and key in data:
            return Data(self, key)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{key}'")

    def __setattr__(self, key, value):
        if key == "name" or key in self.__dict__.get("_data", ()):
            self._write(key, value)
        else:
            object.__setattr__(self, key, value)

    def _fluxion_handle(self):
        """The number the scene's XML names this component by (registered on first use)."""
        if self.__dict__["_handle"] is None:
            handle = len(_registry) + 1
            _registry[handle] = self
            self.__dict__["_handle"] = handle
        return self.__dict__["_handle"]

    def _fluxion_xml_fields(self):
        """The XML element's attributes: name and handle only (the data stay in Python)."""
        return {"name": self._name(), "handle": self._fluxion_handle()}


def type_name(component):
    return type(component).__name__


class ForceField(PythonComponent):
    """SofaPython3's ``Sofa.Core.ForceField<Vec>`` (Binding_ForceField.cpp): Fluxion calls

    - ``addForce(mparams, f, x, v)``: add the force at positions x, velocities v to f;
    - ``addDForce(mparams, df, dx)``: add kFactor·(∂f/∂x)·dx to df (matrix-free implicit
      solvers: EulerImplicitSolver with CGLinearSolver);
    - ``addKToMatrix(mparams, nNodes, nDofs)``: return kFactor·∂f/∂x, as a (n, n, 1) array or
      rows (i, j, value) (implicit solvers with a direct linear solver);

    f, x, v, df, dx are data whose ``value`` / ``array()`` are read-only NumPy views (points ×
    dimension) over Fluxion's vectors and ``writeableArray()`` a writable one (for f and df);
    mparams is SofaPython3's dict (time, mFactor, bFactor, kFactor, isImplicit, energy). A
    class without addDForce and addKToMatrix runs with explicit solvers; an implicit solver that
    needs one stops with one line naming it."""

    _fluxion_type = "PythonForceField"
    _dimension = 3

    def addForce(self, mparams, f, x, v):
        raise NotImplementedError(f"{type_name(self)}.addForce is not defined (SofaPython3's "
                                  "ForceField needs addForce(mparams, f, x, v))")


class ForceFieldVec3d(ForceField):
    _dimension = 3


class ForceFieldVec2d(ForceField):
    _dimension = 2


class ForceFieldVec1d(ForceField):
    _dimension = 1


class Mapping_Vec3d_Vec3d(PythonComponent):
    """SofaPython3's ``Sofa.Core.Mapping_Vec3d_Vec3d`` (Binding_Mapping.cpp): ``input`` and
    ``output`` (objects or link paths, SOFA's defaults: the parent node's object and the node's
    own) are the objects mapped from and to; Fluxion calls ``apply(mparams, outCoord, inCoord)``
    (write the output positions) and ``applyJ(mparams, outDeriv, inDeriv)`` (write
    J·inDeriv), reading J column by column from applyJ (python/src/python_mapping.h);
    ``applyJT`` is never called (forces map back through those entries)."""

    _fluxion_type = "PythonMapping"
    _dimension = 3

    def __init__(self, *args, **kwargs):
        links = {key: kwargs.pop(key) for key in ("input", "output") if key in kwargs}
        PythonComponent.__init__(self, *args, **kwargs)
        self.__dict__["_links"] = links

    def apply(self, mparams, out_coord, in_coord):
        raise NotImplementedError(f"{type_name(self)}.apply is not defined (SofaPython3's "
                                  "Mapping needs apply(mparams, outCoord, inCoord))")

    def applyJ(self, mparams, out_deriv, in_deriv):
        raise NotImplementedError(f"{type_name(self)}.applyJ is not defined (SofaPython3's "
                                  "Mapping needs applyJ(mparams, outDeriv, inDeriv))")

    def _fluxion_xml_fields(self):
        fields = PythonComponent._fluxion_xml_fields(self)
        for key, target in self.__dict__["_links"].items():
            fields[key] = target if isinstance(target, str) else target.getLinkPath()
        return fields


class DataEngine(PythonComponent):
    """SofaPython3's ``Sofa.Core.DataEngine`` (Binding_DataEngine.cpp): ``addInput(data)`` and
    ``addOutput(data)`` declare its inputs and outputs (its own data, often linked to other
    components' data), and reading an output runs ``update()`` first when an input changed since
    the last update (or none ran yet): SOFA's lazy data-dependency graph, with changes found by
    comparing the inputs' values. It lives in Python only (never in the XML scene): its outputs
    reach components written in Python, controllers and other engines, not the C++ components
    built from the scene (their fields are fixed when it is built)."""

    def __init__(self, *args, **kwargs):
        own = self.__dict__
        own["_inputs"], own["_outputs"], own["_seen"], own["_updating"] = [], [], None, False
        # No data exist yet, and SofaPython3's DataEngine ignores keyword arguments that name
        # none (Binding_DataEngine.cpp): only the name is taken.
        PythonComponent.__init__(self, *args, **{k: v for k, v in kwargs.items() if k == "name"})

    def addInput(self, data):
        self._inputs.append(data)

    def addOutput(self, data):
        if data.getOwner() is not self:
            raise ValueError(f"addOutput: {data.getPathName()} is not a data of "
                             f"{self._name()} (expected one of its own, added with addData)")
        self._outputs.append(data.getName())

    def update(self):
        raise NotImplementedError(f"{type_name(self)} has no update() method")

    def _inputs_changed(self):
        import numpy
        values = [numpy.array(data.value, copy=True) for data in self._inputs]
        seen = self.__dict__["_seen"]
        changed = seen is None or len(seen) != len(values) or not all(
            a.shape == b.shape and numpy.array_equal(a, b) for a, b in zip(seen, values))
        self.__dict__["_seen"] = values
        return changed

    def _read(self, field):
        if field in self._outputs and not self._updating and self._inputs_changed():
            self.__dict__["_updating"] = True  # update() reads its outputs without recursing
            try:
                self.update()
            except BaseException:
                self.__dict__["_seen"] = None  # not up to date: run it again next time
                raise
            finally:
                self.__dict__["_updating"] = False
        return PythonComponent._read(self, field)


def components(root):
    """Every component written in Python in the graph rooted at ``root``, in SOFA's order (a
    node's components in order, then its children, depth first)."""
    found = [child for child in root._children if getattr(child, "_fluxion_component", False)]
    for child in root.children:
        found += components(child)
    return found


def lookup(handle):
    """The component registered under ``handle``, or None."""
    return _registry.get(handle)


# --- Called by the Python module's PythonForceField (python/src/python_force_field.cpp) --------

class _BuildScene:
    """What data read while a component's ``init()`` runs, during the build: the component's
    MechanicalObject its initial state (read-only arrays, points × dimension), anything else as
    given to addObject; nothing is written."""

    def __init__(self, object_id, state):
        self.object_id, self.state = object_id, state

    def read_object(self, component, field):
        root = component.getContext().getRoot()
        if root._name() + component.getPathName() == self.object_id and field in self.state:
            return self.state[field]
        if field == "name":
            return component._name()
        try:
            return component._fields[field]
        except KeyError:
            raise AttributeError(f"{component.getPathName()}.{field}: not known while the scene "
                                 "is built (init() reads the MechanicalObject of its node, and "
                                 "values given to addObject)") from None

    def read_node(self, node, field):
        from .scene_graph import NODE_DATA
        if field in node._attributes:
            return node._attributes[field]
        if field == "gravity" and node._parent is not None:
            return node.getRoot()._read("gravity")
        if field in NODE_DATA:
            return NODE_DATA[field]
        raise AttributeError(f"node '{node._name()}' has no data '{field}'")

    def write_object(self, component, field, value):
        raise RuntimeError(f"{component.getPathName()}.{field}: data cannot be written while "
                           "the scene is built (write it before Sofa.Simulation.init, or from "
                           "a controller)")

    write_node = write_object


def initialise(component, object_id, state):
    """Calls ``component.init()`` once (SOFA's init), with the data of its node's MechanicalObject
    reading ``state`` ({"position": array, …}). Returns None, or the one-line message of the
    exception it raised."""
    if component.__dict__["_initialised"]:
        return None
    root = component.getContext().getRoot()
    root.__dict__["_build_scene"] = _BuildScene(object_id, state)
    try:
        component.init()
    except Exception as error:  # the scene's code: reported at its line, in one line
        return f"{type_name(component)}.init() raised {describe(error)}"
    finally:
        root.__dict__.pop("_build_scene", None)
    component.__dict__["_initialised"] = True
    return None


def describe(error):
    """'ZeroDivisionError: division by zero at ff.py:12': the exception and the innermost line of
    the scene's code (outside Fluxion's packages) it was raised at."""
    from .errors import script_location
    return f"{type(error).__name__}: {error} at {script_location(error.__traceback__)}"


def component_failed(component, method, error, trace):
    """Keeps the exception a component raised during a step, for the binding to report; returns
    the one-line message the C++ side carries meanwhile."""
    global _failure
    if error.__traceback__ is None and trace is not None:
        error = error.with_traceback(trace)
    _failure = (component, method, error)
    return f"{type_name(component)}.{method} raised {describe(error)}"


def take_failure(step, time):
    """The ComponentError for the exception kept by component_failed (then forgotten), or None:
    `step` is the step that failed, `time` the time it started from."""
    global _failure
    if _failure is None:
        return None
    component, method, error = _failure
    _failure = None
    from .errors import ComponentError, script_location
    if error.__traceback__ is not None:
        file, _, line = script_location(error.__traceback__).rpartition(":")
    else:  # refused by Fluxion (a method missing): at the addObject line of the component
        file, line = map(str, component.__dict__.get("_origin") or ("<script>", ""))
    message = (f"{type(error).__name__}: {error} (in {type_name(component)}.{method} of "
               f"'{component.getPathName()}', step {step}, t={time!r})")
    failure = ComponentError(file, int(line) if line.isdigit() else 0, message, step, time)
    failure.__cause__ = error
    return failure


_writeable_view = None


def vector_data(array, name):
    """The data handed to a component's method for one of Fluxion's vectors: ``array`` is a
    NumPy view (points × dimension) over it, made once by the C++ side and reused."""
    global _writeable_view
    if _writeable_view is None:
        import numpy

        class WriteableView(numpy.ndarray):
            """writeableArray(): the vector itself, also usable as ``with … as a:``."""

            def __enter__(self):
                return self

            def __exit__(self, kind, error, traceback):
                return None

        _writeable_view = WriteableView
    return VectorData(array, name, _writeable_view)


class VectorData:
    """A vector handed to addForce, addDForce… (SofaPython3 hands its Data): ``value`` and
    ``array()`` read-only NumPy views (points × dimension) over Fluxion's vector,
    ``writeableArray()`` a writable one for outputs (f, df), ``value = v`` copies into it."""

    __slots__ = ("_name", "_read_view", "_write_view")

    def __init__(self, array, name, writeable_type):
        self._name = name
        self._write_view = array.view(writeable_type) if array.flags.writeable else None
        self._read_view = array.view()
        self._read_view.flags.writeable = False

    def getName(self):
        return self._name

    @property
    def value(self):
        return self._read_view

    @value.setter
    def value(self, value):
        self.writeableArray()[...] = value

    def getValue(self):
        return self._read_view

    def setValue(self, value):
        self.value = value

    def array(self):
        return self._read_view

    def writeableArray(self):
        if self._write_view is None:
            raise ValueError(f"{self._name} is an input: it cannot be written (expected "
                             "writes to the output: f, df)")
        return self._write_view

    def toList(self):
        return self._read_view.tolist()

    def __array__(self, dtype=None):
        return self._read_view if dtype is None else self._read_view.astype(dtype)

    def __len__(self):
        return len(self._read_view)

    def __repr__(self):
        return f"<Data '{self._name}' {self._read_view.shape}>"
