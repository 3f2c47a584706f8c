#!/usr/bin/env python3
"""CTest's entry to one pytest file: `run_pytest.py TEST_FILE [pytest options]`.

Exits 77 (CTest's SKIP_RETURN_CODE for these tests) with the reason on stdout when pytest or
NumPy is missing, so that a machine without python3-pytest or python3-numpy skips the Python
tests instead of failing them; otherwise pytest's own status.
"""
import importlib.util
import sys

missing = [name for name in ("pytest", "numpy") if importlib.util.find_spec(name) is None]
if missing:
    print("skipped: the Python tests need " + " and ".join(missing) +
          " (Debian: apt-get install python3-pytest python3-numpy)")
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
