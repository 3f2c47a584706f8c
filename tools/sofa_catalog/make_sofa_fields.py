#!/usr/bin/env python3
"""Writes framework/src/registry/sofa_fields.inc: for each component SOFA registers, the names of
the data fields and links its class and every base class declare, read from SOFA's source (a bare
git repository).

    tools/sofa_catalog/make_sofa_fields.py /work/.mirror/sofa-framework+sofa/repo \
        > framework/src/registry/sofa_fields.inc

Fluxion uses the table for SOFA's rule on attributes (docs/scene-format.md, "Attributes SOFA does
not read"): an attribute that neither Fluxion's component nor SOFA's declares is one SOFA ignores
with a warning, and so does Fluxion. The table must therefore never miss a name SOFA's component
has; where the extraction cannot be sure it marks the component incomplete, and Fluxion keeps
refusing unknown attributes of that component. A component is complete when

  - every class on its inheritance chain (SOFA_CLASS / SOFA_CLASS2 / SOFA_ABSTRACT_CLASS… parent
    arguments, template arguments dropped) is found, with its constructor's file, and
  - every initData(...) / initLink(...) call in the files of those classes names its field with
    string literals (the name is the literal before the help text; adjacent literals are joined),
    and none of those files creates data at run time (addData, vectorData).

Names also come from addAlias(&data, "name") and from attributes SOFA's own parse() reads with
getAttribute("name") in those files (e.g. VisualModelImpl's `scale`, `dx`). Attributes every
SOFA object accepts (name, template, src, type, and Base's and BaseObject's data) come from the
classes Base and BaseObject like any other base."""
import re
import subprocess
import sys
from collections import defaultdict

repo = sys.argv[1]


def git(*args, data=None):
    out = subprocess.run(["git", "--git-dir", repo, *args], check=True, capture_output=True,
                         input=data)
    return out.stdout


commit = git("rev-parse", "HEAD").decode().strip()
listing = git("ls-tree", "-r", "HEAD").decode().splitlines()
paths = []
for line in listing:
    meta, path = line.split("\t", 1)
    if not path.endswith((".h", ".inl", ".cpp")):
        continue
    if not (path.startswith("Sofa/") or path.startswith("applications/")):
        continue
    if "/test/" in path or "/tests/" in path or "_test" in path:
        continue
    paths.append((meta.split()[2], path))

# All blobs through one cat-file --batch.
batch = git("cat-file", "--batch", data="\n".join(sha for sha, _ in paths).encode() + b"\n")
texts = {}
pos = 0
for sha, path in paths:
    header_end = batch.index(b"\n", pos)
    header = batch[pos:header_end].split()
    if len(header) < 3 or header[1] == b"missing":
        pos = header_end + 1
        continue
    size = int(header[2])
    texts[path] = batch[header_end + 1:header_end + 1 + size].decode("utf-8", errors="replace")
    pos = header_end + 1 + size + 1


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def call_arguments(text, start):
    """The text between the parenthesis at text[start] and its match."""
    depth = 0
    i = start
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            if c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
        i += 1
    return None


def literals(arguments):
    """String literals of a call's arguments, adjacent ones joined."""
    joined = []
    previous_end = None
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', arguments):
        if previous_end is not None and arguments[previous_end:m.start()].strip() == "" and joined:
            joined[-1] += m.group(1)
        else:
            joined.append(m.group(1))
        previous_end = m.end()
    return joined


def last_name(expression):
    """SOFA_TEMPLATE(core::behavior::ForceField, DataTypes) -> ForceField; a::b::C<T> -> C."""
    expression = expression.strip()
    m = re.match(r"SOFA_TEMPLATE\d?\s*\(\s*([A-Za-z_][A-Za-z0-9_:]*)", expression)
    if m:
        expression = m.group(1)
    expression = expression.split("<", 1)[0].strip()
    return expression.split("::")[-1]


def split_top(arguments):
    parts, depth, current = [], 0, ""
    for c in arguments:
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    parts.append(current)
    return parts


parents = {}          # class -> [parent class names]
class_files = defaultdict(set)  # class -> files holding its SOFA_CLASS or constructor
fields = defaultdict(set)
unsure = set()        # classes with a field name the extraction could not read

sofa_class = re.compile(r"\bSOFA_(?:ABSTRACT_)?CLASS(?:2|_EXTERNAL|_UNIQUE)?\s*\(")
constructor = re.compile(r"\b([A-Z][A-Za-z0-9_]*)\s*(?:<[^<>;{}()]*>)?\s*::\s*\1\s*\(")
for path, raw in texts.items():
    text = strip_comments(raw)
    for m in sofa_class.finditer(text):
        args = call_arguments(text, m.end() - 1)
        if args is None:
            continue
        parts = split_top(args)
        if len(parts) < 2:
            continue
        name = last_name(parts[0])
        if "_EXTERNAL" in m.group(0) or "_UNIQUE" in m.group(0):
            continue
        parents.setdefault(name, [last_name(p) for p in parts[1:]])
        class_files[name].add(path)
    for m in constructor.finditer(text):
        class_files[m.group(1)].add(path)

# Fields: every initData/initLink/addAlias/getAttribute in a file is given to every class whose
# constructor or SOFA_CLASS that file holds (a name given to a class too many only keeps an
# attribute an error; one given too few would let Fluxion ignore what SOFA reads).
file_classes = defaultdict(set)
for name, files in class_files.items():
    for f in files:
        file_classes[f].add(name)

init_call = re.compile(r"\b(initData|initLink|addAlias|getAttribute|getAttributeAsFloat|"
                       r"getAttributeAsInt)\s*\(")
for path, raw in texts.items():
    owners = file_classes.get(path, set())
    if not owners:
        continue
    text = strip_comments(raw)
    # Data created at run time under names built then (addData, SOFA's vectorData of MergeMeshes'
    # position1, position2, …): the list cannot be complete.
    if re.search(r"(?<!::)(?<!void )\baddData\s*\(|\bvectorData\b|\bVectorData\b|createInputDataVector", text):
        unsure.update(owners - {"Base"})  # Base's own addData adds the data declared above
    for m in init_call.finditer(text):
        args = call_arguments(text, m.end() - 1)
        if args is None:
            continue
        if re.search(r"\bconst\b|\bBase(?:Data|Link)\s*\*|\bchar\s*\*", args):
            continue  # the declaration or definition of the function itself (Base.h)
        lits = literals(args)
        kind = m.group(1)
        name = None
        if kind == "initData":
            name = lits[-2] if len(lits) >= 2 else None
        elif kind == "initLink":
            name = lits[0] if lits and args.lstrip().startswith('"') else None
        elif kind == "addAlias":
            name = lits[0] if lits else None
        else:  # parse(): getAttribute("name", …)
            if lits and args.lstrip().startswith('"'):
                name = lits[0]
            else:
                continue  # a variable name: reads what some other rule declares
        for owner in owners:
            if name is None or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", name):
                unsure.add(owner)
            else:
                fields[owner].add(name)

# The registered components (as make_sofa_catalog.py finds them) and their classes.
add = re.compile(r"\.add\s*<\s*([A-Za-z_][A-Za-z0-9_:]*)")
alias = re.compile(r'addAlias\s*\(\s*"([A-Za-z0-9_]+)"\s*\)')
components = {}
for path, raw in texts.items():
    if not path.endswith(".cpp") or ("RegisterObject" not in raw and
                                     "ObjectRegistrationData" not in raw):
        continue
    if not ("/src/" in path or path.startswith("applications/")):
        continue
    classes = {m.group(1).split("::")[-1] for m in add.finditer(raw)}
    for c in classes:
        if c and not c[0].islower():
            components.setdefault(c, c)
    registration = raw[raw.find("RegisterObject"):] if "RegisterObject" in raw else raw
    for a in alias.findall(registration):
        if classes and a not in components:
            components[a] = sorted(classes)[0]


def closure(name, seen=None):
    """Fields of `name` and its bases, and whether every class was found and read."""
    seen = set() if seen is None else seen
    if name in seen:
        return set(), True
    seen.add(name)
    if name not in class_files:
        return set(), False
    names = set(fields[name])
    complete = name not in unsure
    for parent in parents.get(name, []):
        parent_names, parent_complete = closure(parent, seen)
        names |= parent_names
        complete = complete and parent_complete
    # A class without SOFA_CLASS has no known parents: complete only for SOFA's root, Base.
    if name not in parents and name != "Base":
        complete = False
    return names, complete


ALWAYS = {"name", "template", "src", "type"}  # read by SOFA's object factory and Base::parse
print("// Generated by tools/sofa_catalog/make_sofa_fields.py from sofa-framework/sofa")
print(f"// commit {commit}: for each component SOFA registers, the attributes its class and")
print("// base classes declare (data, links, aliases, parse()'s own), space-separated, and whether")
print("// the list is complete (every base class found and every field name read). Do not edit:")
print("// regenerate.")
print("// clang-format off")
for component in sorted(components):
    names, complete = closure(components[component])
    names = sorted(names | ALWAYS)
    print(f'{{"{component}", {"true" if complete else "false"}, "{" ".join(names)}"}},')
print("// clang-format on")
