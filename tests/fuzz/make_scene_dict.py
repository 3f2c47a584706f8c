#!/usr/bin/env python3
"""Writes tests/fuzz/scene.dict, the libFuzzer dictionary of the scene target, to stdout.

    tests/fuzz/make_scene_dict.py build/bin/scene-runner > tests/fuzz/scene.dict

The component, alias, field and choice names come from the registry of the given scene-runner
(`--list-components` and `--list-components --markdown`, bundled plugins only, as
`tools/fluxion docs`); the XML syntax, the Node fields (framework/src/build/node_spec.cpp), the
ignored attributes and the tricky values are listed here. Regenerate it when a component or a field
is added (docs/fuzzing.md).
"""
import os
import re
import subprocess
import sys

# XML syntax tinyxml2 reads (declarations, comments, CDATA, entities, character references) and the
# structure of a scene.
XML_SYNTAX = [
    '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-8"?>', "<?", "?>",
    "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE Node>", "<!DOCTYPE", "<!ENTITY",
    "<", ">", "</", "/>", "=", '="', '"', "'", "='", "&amp;", "&lt;", "&gt;", "&quot;",
    "&apos;", "&#10;", "&#13;", "&#9;", "&#27;", "&#x1b;", "&#x7f;", "&#0;", "&#xFFFF;",
    "&#1114111;", "&#x10FFFF;", "&#xD800;", "&", ";",
    "<Node", "<Node>", "</Node>", '<Node name="', "<Object", '<Object type="', "<include",
]
# The Node's own fields (NodeSpec) and the attribute names every component ignores
# (IsIgnoredAttribute).
NODE_FIELDS = ["name", "dt", "gravity", "time", "animate", "multiThreadSimulation", "activated"]
IGNORED_ATTRIBUTES = ["showObject", "drawMode", "listening", "printLog", "tags", "bbox",
                      "componentState", "color", "isToPrint", "verbose", "notMuted", "_", "NO"]
# Values at the edges of what the parsers accept: numbers (finite doubles only, whole indices,
# booleans), lists, links and plugin names.
VALUES = [
    "0", "1", "-1", "-0", "2", "3", "0.5", "1e-9", "1e-320", "4.9e-324", "1e308", "1.7976931348623157e308",
    "1e999", "-1e999", "nan", "NaN", "inf", "-inf", "infinity", "0x10", "1.2.3", "+1", ".5",
    "1e", "2147483647", "2147483648", "4294967296", "9223372036854775807",
    "18446744073709551616", "99999999999999999999", "1000000", "1000001",
    "true", "false", "TRUE", "maybe", " ", ",", "  ", "\t", "\n", "\r\n",
    "0 0 0", "1 1 1", "0 -9.81 0", "0 0 0  1 0 0", "0 1 10 0 1", "0 0 0 1",
    "@", "@.", "@./", "@..", "@../", "@/", "@/root", "@root", "//", "/", "..", "../", "./",
    "Sofa.Component.", "Sofa.Component.Mass", "/tmp/", "energy.csv", "../energy.csv",
    "/dev/null", "\x1b[31m", "\xc3\xa9", "\xe2\x80\xa6", "\xff",
]


def run(scene_runner, *arguments):
    environment = dict(os.environ)
    environment.pop("FLUXION_PLUGIN_PATH", None)  # bundled plugins only
    return subprocess.run([scene_runner, *arguments], env=environment, check=True,
                          capture_output=True, text=True).stdout


def quoted(token):
    """A token in libFuzzer's dictionary syntax: printable ASCII, \\\\, \\" and \\xNN."""
    out = []
    for byte in token.encode("utf-8", "surrogateescape"):
        if byte in (0x5C, 0x22):
            out.append("\\" + chr(byte))
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append("\\x%02X" % byte)
    return '"' + "".join(out) + '"'


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_scene_dict.py SCENE_RUNNER > tests/fuzz/scene.dict")
    scene_runner = sys.argv[1]

    # "EulerImplicitSolver (alias EulerImplicit, ImplicitEuler)  [ODE solver; plugin euler_implicit]"
    components, plugins = [], set()
    for line in run(scene_runner, "--list-components").splitlines():
        match = re.match(r"^(\w+)(?: \(alias ([^)]*)\))?  \[[^;]*; (?:plugin (\w+)|built-in)\]", line)
        if match:
            components.append(match.group(1))
            components += [a.strip() for a in (match.group(2) or "").split(",") if a.strip()]
            if match.group(3):
                plugins.add(match.group(3))
    # "| `threshold` (`smallDenominatorThreshold`) | real | 1e-05 | >= 0 | ..." and
    # "| `template` | choice | Vec3d | one of Vec1d, Vec2d, Vec3d | ..."
    fields, choices = set(NODE_FIELDS), set()
    for line in run(scene_runner, "--list-components", "--markdown").splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) < 6 or not cells[1].startswith("`"):
            continue
        fields.update(re.findall(r"`(\w+)`", cells[1]))
        if cells[4].startswith("one of "):
            choices.update(value.strip() for value in cells[4][len("one of "):].split(","))
    if not components or not fields:
        sys.exit("make_scene_dict.py: no components or fields read from " + scene_runner)

    sections = [
        ("XML syntax and scene structure", XML_SYNTAX),
        ("components and their aliases (scene-runner --list-components)",
         [token for name in components for token in ("<" + name, name)]),
        ("fields: the Node's and every component's, and the ignored attributes",
         [token for name in sorted(fields) + IGNORED_ATTRIBUTES
          for token in (name, " " + name + '="')]),
        ("choice values", sorted(choices)),
        ("bundled plugin names (RequiredPlugin pluginName)",
         [token for name in sorted(plugins) for token in (name, "fluxion_" + name)]),
        ("values at the edges of the parsers", VALUES),
    ]
    print("# libFuzzer dictionary of the scene target (tests/fuzz/scene_fuzz.cpp).")
    print("# Generated by tests/fuzz/make_scene_dict.py from scene-runner's registry: do not edit.")
    seen = set()
    for title, tokens in sections:
        print("\n# " + title)
        for token in tokens:
            if token not in seen:
                seen.add(token)
                print(quoted(token))


if __name__ == "__main__":
    main()
