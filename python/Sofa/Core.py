"""SofaPython3's ``Sofa.Core`` (bindings/Sofa/src/SofaPython3/Sofa/Core/): the scene graph
(``Node``, components, ``Data``) and ``Controller`` are Fluxion's (fluxion/scene_graph.py).
Force fields, mappings and data engines written in Python (``ForceFieldVec3d``, ``Vec2d``,
``Vec1d``, ``Mapping_Vec3d_Vec3d``, ``DataEngine``) are Fluxion's (fluxion/python_components.py);
the other SofaPython3 classes for them (other mapping templates, Prefab, rigid force fields) are
not supported: making one is one line saying so."""
from fluxion.python_components import (DataEngine, ForceFieldVec1d, ForceFieldVec2d,
                                       ForceFieldVec3d, Mapping_Vec3d_Vec3d)
from fluxion.scene_graph import Controller, Data, Node, Object

__all__ = ["Node", "Object", "Data", "Controller", "Unsupported", "ForceFieldVec3d",
           "ForceFieldVec2d", "ForceFieldVec1d", "ForceFieldRigid3d", "Mapping_Vec3d_Vec3d",
           "DataEngine", "Prefab", "Base", "BaseData", "BaseObject"]

Base = BaseObject = Object
BaseData = Data


class Unsupported(NotImplementedError):
    """A SofaPython3 API Fluxion does not provide; the message says why and what to use."""


class UnsupportedAttribute(Unsupported, AttributeError):
    """An attribute of a Sofa module Fluxion does not provide (hasattr() sees False)."""


def __getattr__(name):
    # Any other SofaPython3 class (TaskScheduler, Mapping_Vec3d_Vec1d, …): one line.
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedAttribute(f"Sofa.Core.{name}: not provided by Fluxion (docs/python.md, "
                               "\"Coming from SofaPython3\")")


def _python_component(name, reason):
    class PythonComponent:
        def __init__(self, *args, **kwargs):
            raise Unsupported(f"Sofa.Core.{name}: {reason} (docs/python.md, \"Writing a "
                              "component in Python\")")

    PythonComponent.__name__ = PythonComponent.__qualname__ = name
    return PythonComponent


ForceFieldRigid3d = _python_component(
    "ForceFieldRigid3d", "not supported by Fluxion (it has no rigid-body DOFs: Rigid3d)")
Prefab = _python_component(
    "Prefab", "not supported by Fluxion (build the nodes with a Python function instead)")
