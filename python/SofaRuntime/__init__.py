"""SofaPython3's ``SofaRuntime`` (bindings/SofaRuntime/package/__init__.py) over Fluxion:
``importPlugin`` does nothing (Fluxion's components are built in or loaded from the plugin
path; a scene names SOFA's plugins with RequiredPlugin), ``Timer`` is refused."""
import Sofa

__all__ = ["importPlugin", "Timer"]


def importPlugin(name):
    """Nothing to do: a plugin's components are available once it is on the plugin path."""
    return None


Timer = Sofa.Timer


def __getattr__(name):
    # Any other SofaPython3 API of this module: one line saying so.
    from Sofa.Core import UnsupportedAttribute
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedAttribute(f"SofaRuntime.{name}: not provided by Fluxion (docs/python.md, "
                               "\"Coming from SofaPython3\")")
