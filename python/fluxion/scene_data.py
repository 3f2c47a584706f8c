"""The data of a scene graph's nodes and components (fluxion/scene_graph.py), as SofaPython3's
``Sofa.Core.Data``: standard library only, as scene_graph.py, NumPy imported when an array is
asked for."""

__all__ = ["Data"]


def sofa_value(value):
    """A value given to addObject as SofaPython3 reads it back: a list or tuple of numbers (or of
    lists of numbers) as a NumPy array, so that ``a.position.value - b.position.value`` works
    before init as it does in SOFA; anything else as given (and lists as given when NumPy is
    missing, as in scene-runner's scene process)."""
    if not isinstance(value, (list, tuple)) or not value:
        return value
    try:
        import numpy
        array = numpy.asarray(value)
    except (ImportError, ValueError):  # no NumPy; a ragged list
        return value
    return array if array.dtype.kind in "biuf" else value


class LinkPath(str):
    """SofaPython3's ``linkpath``: the "@/path" text a field takes as a link, whose ``target()``
    is the component (or data) it names."""

    def __new__(cls, text, target):
        path = super().__new__(cls, text)
        path._target = target
        return path

    def target(self):
        return self._target


class Data:
    """One data of a node, component or controller, as SofaPython3's ``Sofa.Core.Data``
    (bindings/Sofa/src/SofaPython3/Sofa/Core/Binding_BaseData.cpp): ``value`` reads it (after
    ``Sofa.Simulation.init``, the running simulation's value where Fluxion has one: positions,
    velocities, forces, dt, time) and writing it changes the scene (before init) or the running
    simulation (after, or one line saying why it cannot); ``linkpath`` links another component's
    field to it."""

    def __init__(self, owner, field):
        self._owner, self._field = owner, field

    def getName(self):
        return self._field

    def getOwner(self):
        return self._owner

    def getLinkPath(self):
        return self._owner.getLinkPath() + "." + self._field

    linkpath = property(lambda self: LinkPath(self.getLinkPath(), self))

    def getPathName(self):
        return self._owner.getPathName() + "." + self._field

    @property
    def value(self):
        return self._owner._read(self._field)

    @value.setter
    def value(self, value):
        self._owner._write(self._field, value)

    def getValue(self):
        return self.value

    def setValue(self, value):
        self.value = value

    def isSet(self):
        return self._owner._is_set(self._field)

    def toList(self):
        value = self.value
        return value.tolist() if hasattr(value, "tolist") else value

    def array(self):
        """The value as a read-only NumPy array (for a state: a view that follows the run)."""
        import numpy
        value = self.value
        if isinstance(value, numpy.ndarray) and not value.flags.writeable:
            return value
        array = numpy.array(value)
        array.flags.writeable = False
        return array

    def writeableArray(self):
        """A writable copy of the value (SofaPython3's ``writeableArray()``): in a ``with``
        block, written back once when the block ends; outside one, each item assignment
        writes it back. A state written back restarts the solvers, as an assignment does."""
        return _WriteableArray.of(self)

    def __repr__(self):
        return f"<Data '{self.getPathName()}'>"


def _writeable_array_type():
    # Made on first use: this module needs NumPy only when an array is asked for.
    import numpy

    class WriteableArray(numpy.ndarray):
        @classmethod
        def of(cls, data):
            array = numpy.array(data.value, dtype=float).view(cls)
            array._data, array._deferred = data, False
            return array

        def __array_finalize__(self, source):
            self._data, self._deferred = None, False  # slices and results write nothing back

        def __enter__(self):
            self._deferred = True
            return self

        def __exit__(self, kind, error, traceback):
            self._deferred = False
            if kind is None:
                self._data.value = numpy.asarray(self)

        def __setitem__(self, key, value):
            super().__setitem__(key, value)
            if self._data is not None and not self._deferred:
                self._data.value = numpy.asarray(self)

    return WriteableArray


class _WriteableArray:
    _type = None

    @classmethod
    def of(cls, data):
        if cls._type is None:
            cls._type = _writeable_array_type()
        return cls._type.of(data)
