"""SofaPython3's ``Sofa.Core`` (bindings/Sofa/src/SofaPython3/Sofa/Core/): the scene graph
(``Node``, components, ``Data``) and ``Controller`` are Fluxion's (fluxion/scene_graph.py).
Components written in Python (ForceField, Mapping, DataEngine, Prefab) are not supported yet:
making one is one line saying so."""
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


def _python_component(name):
    class PythonComponent:
        def __init__(self, *args, **kwargs):
            raise Unsupported(f"Sofa.Core.{name}: components written in Python are not "
                              "supported by Fluxion yet (use a C++ component, or a plugin: "
                              "docs/writing-a-force-field.md)")

    PythonComponent.__name__ = PythonComponent.__qualname__ = name
    return PythonComponent


ForceFieldVec3d = _python_component("ForceFieldVec3d")
ForceFieldVec2d = _python_component("ForceFieldVec2d")
ForceFieldVec1d = _python_component("ForceFieldVec1d")
ForceFieldRigid3d = _python_component("ForceFieldRigid3d")
Mapping_Vec3d_Vec3d = _python_component("Mapping_Vec3d_Vec3d")
DataEngine = _python_component("DataEngine")
Prefab = _python_component("Prefab")
