"""SofaPython3's ``Sofa.Helper`` messages (bindings/Sofa/src/SofaPython3/Sofa/Helper/
Submodule_Helper.cpp): ``msg_info(message)`` or ``msg_info(emitter, message)``, to stderr
through the ``logging`` logger "Sofa", never on stdout where a trajectory may be written."""
import logging
import sys

__all__ = ["msg_info", "msg_warning", "msg_error", "msg_deprecated", "msg_fatal"]

_logger = logging.getLogger("Sofa")
if not _logger.handlers:
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
    _logger.addHandler(_handler)
    _logger.setLevel(logging.INFO)
    _logger.propagate = False


def _text(args):
    # (message) or (emitter, message[, file, line]): the emitter a string or a node/component.
    if len(args) == 1:
        return str(args[0])
    emitter = args[0] if isinstance(args[0], str) else args[0].getName()
    return f"[{emitter}] {args[1]}"


def msg_info(*args):
    _logger.info(_text(args))


def msg_warning(*args):
    _logger.warning(_text(args))


def msg_error(*args):
    _logger.error(_text(args))


def msg_deprecated(*args):
    _logger.warning("deprecated: " + _text(args))


def msg_fatal(*args):
    _logger.critical(_text(args))


def __getattr__(name):
    # Any other SofaPython3 API of this module: one line saying so.
    from Sofa.Core import UnsupportedAttribute
    if name.startswith("__"):
        raise AttributeError(name)
    raise UnsupportedAttribute(f"Sofa.Helper.{name}: not provided by Fluxion (docs/python.md, "
                               "\"Coming from SofaPython3\")")
