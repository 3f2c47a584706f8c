"""The case table of a sweep (fluxion-sweep, docs/sweeps.md): the values of ``--set PATH=VALUES``
(comma lists, ranges ``a:b:n``, log ranges ``a:b:n:log``) combined as a grid (the last ``--set``
varying fastest) or zipped, or read from a CSV table; the solvers of ``--solver`` vary slowest.

Every value is kept as the text the scene's XML would hold: a listed value as written, a range's
numbers as their shortest round-trip decimals (``repr``), so that a case is the scene with that
text written in, and the summary shows what ran.
"""
import csv
import itertools
import math


class CaseError(ValueError):
    """A bad --set, --solver or --cases value: its message is one line for the user."""


def _number(text, what):
    try:
        value = float(text)
    except ValueError:
        raise CaseError(f"{what}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise CaseError(f"{what}: '{text}' is not a finite number")
    return value


def _real_text(value):
    """A range's number as XML text: integers without a fraction ("300"), others as repr."""
    if value == int(value) and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def parse_values(text, what="--set"):
    """The values of one --set as XML texts: "a,b,c" (each as written), "a:b:n" (n evenly spaced
    from a to b, both included), "a:b:n:log" (n evenly spaced in log10, a and b > 0)."""
    parts = text.split(":")
    if len(parts) in (3, 4) and (len(parts) == 3 or parts[3] == "log"):
        start, stop = _number(parts[0], what), _number(parts[1], what)
        try:
            count = int(parts[2])
        except ValueError:
            raise CaseError(f"{what}: range {text}: '{parts[2]}' is not a count "
                            "(expected a:b:n or a:b:n:log)") from None
        if count < 1:
            raise CaseError(f"{what}: range {text}: expected at least 1 value")
        if count == 1:
            return [_real_text(start)]
        if len(parts) == 4:
            if start <= 0 or stop <= 0:
                raise CaseError(f"{what}: log range {text}: expected positive ends")
            low, high = math.log10(start), math.log10(stop)
            values = [10.0 ** (low + (high - low) * i / (count - 1)) for i in range(count)]
        else:
            values = [start + (stop - start) * i / (count - 1) for i in range(count)]
        # The ends exactly as given, not as the formula's round-off leaves them.
        values[0], values[-1] = start, stop
        return [_real_text(v) for v in values]
    if len(parts) > 1 and all(p.strip() for p in parts):
        raise CaseError(f"{what}: '{text}' is not a range (expected a:b:n or a:b:n:log)")
    values = [v.strip() for v in text.split(",")]
    if any(v == "" for v in values):
        raise CaseError(f"{what}: '{text}' has an empty value (expected a,b,c)")
    return values


def parse_set(argument):
    """--set PATH=VALUES → (path, [texts])."""
    path, sep, values = argument.partition("=")
    path = path.strip()
    if not sep or not path:
        raise CaseError(f"--set {argument}: expected PATH=VALUES "
                        "(e.g. root/cloth/springs.linesStiffness=100,200)")
    return path, parse_values(values, f"--set {path}")


def read_case_table(path):
    """--cases TABLE.csv: a header of data paths (and optionally `solver`), one case a row."""
    try:
        with open(path, newline="", encoding="utf-8") as stream:
            rows = list(csv.reader(stream))
    except OSError as error:
        raise CaseError(f"--cases {path}: cannot read it ({error.strerror})") from None
    except (UnicodeDecodeError, csv.Error) as error:
        raise CaseError(f"--cases {path}: not a CSV table ({error})") from None
    rows = [r for r in rows if any(cell.strip() for cell in r)]
    if len(rows) < 2:
        raise CaseError(f"--cases {path}: expected a header of data paths and at least one row")
    header = [cell.strip() for cell in rows[0]]
    if len(set(header)) != len(header) or "" in header:
        raise CaseError(f"--cases {path}:1: the header names a column twice or has an empty name")
    cases = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise CaseError(f"--cases {path}:{number}: {len(row)} values "
                            f"(expected {len(header)}, one per header column)")
        cases.append([cell.strip() for cell in row])
    return header, cases


def build_cases(sets, solvers, mode, table=None):
    """The cases, in order: a list of {"values": [(path, text)…], "solver": name or None}.

    sets: [(path, [texts])] from --set; solvers: [names] (may be empty); mode: "grid" or "zip";
    table: (header, rows) from --cases, instead of sets. Solvers vary slowest."""
    if table is not None:
        header, rows = table
        combos = []
        for row in rows:
            values = [(p, v) for p, v in zip(header, row) if p != "solver"]
            solver = row[header.index("solver")] if "solver" in header else None
            combos.append((values, solver))
        if "solver" in header and solvers:
            raise CaseError("--solver and a `solver` column of --cases: give the solvers once")
    elif mode == "zip":
        lengths = {len(values) for _, values in sets}
        if len(lengths) > 1:
            raise CaseError("--zip: every --set needs as many values "
                            f"(got {', '.join(str(len(v)) for _, v in sets)})")
        count = lengths.pop() if lengths else 1
        combos = [([(p, v[i]) for p, v in sets], None) for i in range(count)]
    else:
        combos = [(list(zip([p for p, _ in sets], chosen)), None)
                  for chosen in itertools.product(*[v for _, v in sets])]
    paths = [p for p, _ in sets] if table is None else [p for p in table[0] if p != "solver"]
    if len(set(paths)) != len(paths):
        raise CaseError("a data path is given twice (expected each --set once)")
    cases = []
    for solver in (solvers or [None]):
        for values, row_solver in combos:
            cases.append({"values": values, "solver": solver if solver else row_solver})
    return paths, cases


def parse_report(argument):
    """--report OBJECT:INDEX → (object id, point index)."""
    obj, sep, index = argument.rpartition(":")
    try:
        point = int(index)
    except ValueError:
        point = -1
    if not sep or not obj or point < 0:
        raise CaseError(f"--report {argument}: expected OBJECT:INDEX "
                        "(e.g. root/cloth/dofs:63, a point index from 0)")
    return obj, point
