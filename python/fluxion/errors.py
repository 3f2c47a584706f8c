"""Fluxion's exceptions, mirroring fluxion/errors.h and scene-runner's exit statuses.

``str(error)`` is exactly what scene-runner prints after ``error:`` (one line per problem), and
``exit_status`` is the status scene-runner exits with for the same problem:

- ``SceneError`` (2): a bad scene, parameter or value; ``diagnostics`` lists every problem found
  in one pass, each ``Diagnostic(file, line, message)``. For a Python scene the file and line are
  those of the ``addObject``/``addChild`` call.
- ``ComponentError`` (2, a SceneError): a component written in Python raised during a step, at
  the line that raised (``step``, ``time``; ``__cause__`` is the exception).
- ``PluginError`` (3): a component whose plugin is not on the search path, a refused plugin.
- ``NumericalError`` (4): the state stopped being finite or a solve failed (``step``, ``time``,
  ``line`` of the ODE solver); the simulation keeps the last good state.
- ``UsageError``: the API was misused (an array of the wrong shape or dtype, a static object
  written); also a ``ValueError``.

This module is pure Python so that a Python scene's errors can be re-raised at its own lines.
"""
from typing import NamedTuple


class Diagnostic(NamedTuple):
    """One problem of a scene: ``file:line: message`` (``file: message`` without a line)."""

    file: str
    line: int
    message: str

    def format(self) -> str:
        where = self.file + (":" + str(self.line) if self.line > 0 else "")
        return where + ": " + self.message if where else self.message


class Error(Exception):
    """Base of every exception Fluxion raises."""

    exit_status = 2


class SceneError(Error):
    """A scene could not be loaded; holds every problem found, in document order."""

    exit_status = 2

    def __init__(self, diagnostics):
        self.diagnostics = [Diagnostic(*d) for d in diagnostics]
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class ComponentError(SceneError):
    """A component written in Python (Sofa.Core.ForceFieldVec3d, …) raised during a step: one
    diagnostic at the line that raised, naming the exception, the component, the step and the
    time. The simulation keeps the last good state; ``__cause__`` is the exception itself."""

    def __init__(self, file, line, message, step=0, time=0.0):
        super().__init__([Diagnostic(file, line, message)])
        self.step, self.time = step, time


class PluginError(Error):
    """A plugin could not be found or loaded, or conflicts with another one."""

    exit_status = 3


class NumericalError(Error):
    """A step failed: the state stopped being finite, or a linear solve failed."""

    exit_status = 4

    def __init__(self, message, step=0, time=0.0, line=0):
        super().__init__(message)
        self.step, self.time, self.line = step, time, line


class UsageError(Error, ValueError):
    """The API was used against its documented preconditions (a programming error)."""


def script_location(traceback):
    """FILE:LINE of the innermost frame of a traceback outside Fluxion's Python packages (fluxion,
    Sofa, SofaRuntime): the user's call that led to an error raised inside them."""
    import os
    packages = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    where = None
    while traceback is not None:
        file = traceback.tb_frame.f_code.co_filename
        if not os.path.abspath(file).startswith(packages):
            where = f"{file}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    return where or "<script>"
