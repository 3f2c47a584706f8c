"""The scaffolding of the Python end-to-end tests of tests/tools/: checks collected without
stopping at the first, one summary line CTest and CI read, and exit 77 (CTest's
SKIP_RETURN_CODE) when a Debian module the test reads files with is missing."""
import sys

SKIP = 77


class Checks:
    """Collects failed checks; `finish()` prints them and the closing 'N passed, N failed' line
    and returns the exit status."""

    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        if not condition:
            self.failures.append(what)

    def finish(self):
        for failure in self.failures:
            print("FAIL:", failure)
        print(f"{0 if self.failures else 1} passed, {1 if self.failures else 0} failed")
        return 1 if self.failures else 0


def skip(missing, package):
    """Says why the test is skipped and returns CTest's skip status."""
    print(f"skipped: {missing} (install {package})")
    sys.stdout.flush()
    return SKIP
