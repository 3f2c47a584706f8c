#!/usr/bin/env bash
# install.out_of_tree_plugin — Fluxion as a user gets it (issue 6, "Must show"):
#   1. cmake --install the build tree into a temporary prefix, check the layout, and move the prefix
#      elsewhere (the installed tree must be relocatable: no build path is baked in);
#   2. build examples/out-of-tree-solver in a fresh build folder with nothing but the installed
#      package (find_package(Fluxion) + fluxion_add_plugin);
#   3. copy its fluxion_damped_euler.so into a temporary plugin folder, run the 1-DOF oscillator with
#      the INSTALLED scene-runner --plugin-dir, and check x_n, v_n against Damped Euler's closed form;
#   4. run the solver conformance suite (tests/conformance) with FLUXION_PLUGIN_PATH pointing at that
#      plugin folder, filtered to DampedEulerSolver's instances: at least one test must run (the
#      suite found the plugin on the path) and none may fail;
#   5. build a plugin stamped with another ABI version the same way: the installed scene-runner must
#      refuse it with exit 3 and a message naming the file and both versions.
# With PYTHON (a build with FLUXION_PYTHON), step 1 also checks the moved tree's Python package:
# it imports from the prefix, finds the bundled plugins, and scene-runner runs a Python scene.
#
# usage: out_of_tree_plugin_test.sh BUILD_DIR SOURCE_DIR CHECKER [CMAKE] [CONFIG] [CXX_COMPILER]
#                                   [CONFORMANCE_TEST] [PYTHON]
set -euo pipefail

build_dir="$1"
source_dir="$2"
checker="$3"
cmake="${4:-cmake}"
config="${5:-}"
cxx="${6:-}"
conformance="${7:-}"  # the solver_conformance_test executable of the build tree
python="${8:-}"       # the interpreter the Python module was built for; empty without it
jobs=2

work="$(mktemp -d "${TMPDIR:-/tmp}/fluxion-install-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
unset FLUXION_PLUGIN_PATH  # only the bundled folder and --plugin-dir count here

step() { echo "== $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# Runs a command quietly, showing its output only when it fails.
quiet() {
  local log="$work/command.log"
  "$@" > "$log" 2>&1 || {
    cat "$log" >&2
    fail "$*"
  }
}

# --- 1. install, check the layout, move the tree -------------------------------------------------
step "cmake --install into a temporary prefix"
quiet "$cmake" --install "$build_dir" --prefix "$work/staging" ${config:+--config "$config"}

step "no build or source path in the installed files (relocatable)"
# Text files (CMake package, headers, docs) must not name one at all; binaries not outside their
# debug information (where a debugger looks for the sources; the .deb and --strip drop it).
# A sanitizer build's binaries are exempt: GCC 12 and Clang 14 keep each translation unit's
# absolute source path in the ASan/UBSan instrumentation data whatever -ffile-prefix-map says
# (checked with one file under both compilers, docs/fuzzing.md "Sanitizer builds"); such builds
# are for testing and are never packaged (the .deb is a release build).
sanitized=0
grep -q '^FLUXION_SANITIZERS:BOOL=ON$' "$build_dir/CMakeCache.txt" 2>/dev/null && sanitized=1
while IFS= read -r -d '' file; do
  checked="$file"
  if [[ "$(head -c 4 "$file" | tr -d '\0')" == $'\x7fELF' ]]; then
    [[ $sanitized -eq 1 ]] && continue
    command -v objcopy > /dev/null || continue
    objcopy --strip-debug "$file" "$work/stripped" || fail "objcopy cannot read $file"
    checked="$work/stripped"
  fi
  if grep -qaF -e "$build_dir" -e "$source_dir" "$checked"; then
    fail "${file#"$work/staging/"} contains an absolute build or source path"
  fi
done < <(find "$work/staging" -type f -print0)
mv "$work/staging" "$work/prefix"  # from here on the tree lives where it was not installed
prefix="$work/prefix"
runner="$prefix/bin/scene-runner"

step "installed layout"
[[ -x "$runner" ]] || fail "no bin/scene-runner"
library="$(find "$prefix" -name 'libfluxion.so.*' -type f | head -n 1)"
[[ -n "$library" ]] || fail "no libfluxion.so.* installed"
libdir="$(dirname "$library")"
[[ -L "$libdir/libfluxion.so" ]] || fail "no libfluxion.so development link in $libdir"
abi="$(sed -n 's/^#define FLUXION_ABI_VERSION \([0-9]*\)$/\1/p' "$prefix/include/fluxion/version.h")"
[[ -n "$abi" ]] || fail "include/fluxion/version.h does not define FLUXION_ABI_VERSION"
if command -v readelf > /dev/null; then
  readelf -d "$library" | grep -q "SONAME.*\[libfluxion\.so\.$abi\]" ||
    fail "libfluxion's SONAME is not libfluxion.so.$abi"
  readelf -d "$runner" | grep -q 'R.*PATH.*\$ORIGIN/' || fail "scene-runner has no \$ORIGIN RPATH"
fi
for header in state.h mechanical_system.h solver.h plugin.h force_field.h linear_solver.h parameters.h log.h \
  errors.h types.h version.h export.h; do
  [[ -f "$prefix/include/fluxion/$header" ]] || fail "include/fluxion/$header is not installed"
done
# Only the public headers: exactly framework/include/fluxion/*.h plus the two generated ones.
expected="$( (cd "$source_dir/framework/include/fluxion" && ls -- *.h; echo version.h; echo export.h) | sort -u)"
installed="$( (cd "$prefix/include" && find . -type f | sed 's|^\./fluxion/||') | sort)"
[[ "$installed" == "$expected" ]] || fail "include/ holds other files than the public headers: $installed"
ls "$libdir"/fluxion/plugins/fluxion_*.so > /dev/null || fail "no bundled plugin in $libdir/fluxion/plugins"
[[ -f "$libdir/cmake/Fluxion/FluxionConfig.cmake" && -f "$libdir/cmake/Fluxion/FluxionConfigVersion.cmake" &&
  -f "$libdir/cmake/Fluxion/FluxionPlugin.cmake" ]] || fail "the CMake package is incomplete"
[[ -f "$prefix/share/fluxion/scenes/sofa_spring_test.scn" ]] || fail "no scenes in share/fluxion/scenes"
[[ -f "$prefix/share/doc/fluxion/docs/writing-a-solver.md" ]] || fail "no docs in share/doc/fluxion"

step "the installed scene-runner runs a gallery scene with its bundled plugins"
quiet "$runner" "$prefix/share/fluxion/scenes/sofa_spring_test.scn" --steps 10 --quiet \
  --output "$work/gallery.csv"

if [[ -n "$python" ]]; then
  step "the installed Python package imports from the moved prefix and runs scenes"
  package="$(find "$prefix/lib" -path '*-packages/fluxion/__init__.py' -print -quit)"
  [[ -n "$package" ]] || fail "no Python package (…-packages/fluxion) under $prefix/lib"
  PYTHONPATH="$(dirname "$(dirname "$package")")" quiet "$python" -c "
import fluxion
sim = fluxion.load('$prefix/share/fluxion/scenes/cloth_grid.scn')
sim.replace_solver('RungeKutta4Solver')  # a bundled plugin, found next to the installed libfluxion
sim.step(10)
assert sim.step_count == 10 and fluxion.plugins()[0]['path'].startswith('$prefix/'), fluxion.plugins()
"
  quiet "$runner" "$prefix/share/fluxion/scenes/hanging_chain.py" --steps 10 --quiet \
    --output "$work/python-scene.csv"
fi

# --- 2. build the example out of tree --------------------------------------------------------------
step "configure and build examples/out-of-tree-solver against the installed package only"
quiet "$cmake" -S "$source_dir/examples/out-of-tree-solver" -B "$work/example-build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DFLUXION_WERROR=ON ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"}
grep -q "^Fluxion_DIR:PATH=$libdir/cmake/Fluxion\$" "$work/example-build/CMakeCache.txt" ||
  fail "find_package(Fluxion) did not use the installed package: $(grep Fluxion_DIR "$work/example-build/CMakeCache.txt")"
if grep -qiE '^(tinyxml2|spdlog|fmt|Boost)[A-Za-z_]*_DIR:' "$work/example-build/CMakeCache.txt"; then
  fail "the plugin SDK looked for a private dependency of libfluxion"
fi
quiet "$cmake" --build "$work/example-build" -j "$jobs"
plugin="$work/example-build/fluxion_damped_euler.so"
[[ -f "$plugin" ]] || fail "the example did not produce fluxion_damped_euler.so"
if command -v readelf > /dev/null && readelf -d "$plugin" | grep -qiE 'NEEDED.*(tinyxml|spdlog|fmt|boost)'; then
  fail "the plugin links a private dependency of libfluxion"
fi

# --- 3. drop it in and check it against the closed form -------------------------------------------
step "drop fluxion_damped_euler.so into a plugin folder; scene-runner --list-plugins sees it"
mkdir "$work/plugins"
cp "$plugin" "$work/plugins/"
"$runner" --list-plugins --plugin-dir "$work/plugins" > "$work/plugins.txt"
grep -q "damped_euler 1.0.0  ABI $abi  loaded" "$work/plugins.txt" ||
  fail "damped_euler is not listed as loaded: $(cat "$work/plugins.txt")"
"$runner" --list-plugins --json --plugin-dir "$work/plugins" > "$work/plugins.json"
grep -q '"name": "damped_euler"' "$work/plugins.json" || fail "--list-plugins --json lacks damped_euler"

step "Hoffmann's default D = Φ/2 (ω = 2, h = 0.25): r = 1"
quiet "$runner" "$source_dir/examples/out-of-tree-solver/oscillator.scn" --plugin-dir "$work/plugins" \
  --steps 200 --quiet --output "$work/default.csv"
"$checker" "$work/default.csv" --omega 2 --dt 0.25 --equilibrium 1 \
  --position root/dofs/p1.x --velocity root/dofs/v1.x

step "dampingRatio = 0.15 at omega = 1, so D = 0.3 at the oscillator's ω = 2 (h = 0.1): r < 1"
cat > "$work/fixed_damping.scn" << 'EOF'
<?xml version="1.0"?>
<Node name="root" gravity="0 0 0" dt="0.1">
  <DampedEulerSolver dampingRatio="0.15" omega="1"/>
  <MechanicalObject name="dofs" template="Vec1d" position="0 1.3" velocity="0 0.4"/>
  <DiagonalMass vertexMass="0 1"/>
  <FixedProjectiveConstraint indices="0"/>
  <SpringForceField spring="0 1 4 0 1"/>
</Node>
EOF
quiet "$runner" "$work/fixed_damping.scn" --plugin-dir "$work/plugins" --steps 100 --every 7 \
  --quiet --output "$work/fixed.csv"
"$checker" "$work/fixed.csv" --omega 2 --dt 0.1 --equilibrium 1 --damping-ratio 0.3 \
  --position root/dofs/p1.x --velocity root/dofs/v1.x

# --- 4. the dropped-in plugin passes the solver conformance suite ---------------------------------
step "the solver conformance suite finds DampedEulerSolver on FLUXION_PLUGIN_PATH and passes it"
[[ -n "$conformance" && -x "$conformance" ]] ||
  fail "no solver conformance test executable (7th argument): '$conformance'"
# The suite enumerates every registered solver; the filter keeps the instances named after the
# out-of-tree one (the bundled solvers are the build's own tests' business).
status=0
FLUXION_PLUGIN_PATH="$work/plugins" "$conformance" --gtest_filter='*DampedEulerSolver*' \
  > "$work/conformance.log" 2>&1 || status=$?
# gtest's summary line: "[==========] 12 tests from 3 test suites ran. (1 ms total)"
ran="$(sed -n 's/^\[==========\] \([0-9][0-9]*\) tests\{0,1\} from .* ran\..*$/\1/p' "$work/conformance.log")"
if [[ $status -ne 0 ]] || grep -q '^\[  FAILED  \]' "$work/conformance.log"; then
  cat "$work/conformance.log" >&2
  fail "the solver conformance suite failed for DampedEulerSolver (exit status $status)"
fi
if [[ -z "$ran" || "$ran" -eq 0 ]]; then
  cat "$work/conformance.log" >&2
  fail "no conformance test ran for DampedEulerSolver: the suite did not find the plugin"
fi
grep -q '^\[ RUN      \] .*SolverConformance\..*/DampedEulerSolver$' "$work/conformance.log" ||
  fail "DampedEulerSolver did not run the solver checks (not registered as an ODE solver?)"
echo "$ran conformance tests passed"

# --- 5. a plugin for another ABI is refused ---------------------------------------------------------
step "a plugin stamped with ABI $((abi + 1)) is refused by the installed scene-runner"
quiet "$cmake" -S "$source_dir/tests/install/stale_abi_plugin" -B "$work/stale-build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"}
quiet "$cmake" --build "$work/stale-build" -j "$jobs"
mkdir "$work/stale"
cp "$work/stale-build/fluxion_stale_abi.so" "$work/stale/"
status=0
"$runner" "$source_dir/examples/out-of-tree-solver/oscillator.scn" --plugin-dir "$work/plugins" \
  --plugin-dir "$work/stale" --steps 1 --quiet > /dev/null 2> "$work/stale.err" || status=$?
cat "$work/stale.err"
[[ $status -eq 3 ]] || fail "exit status $status, expected 3"
grep -qF "$work/stale/fluxion_stale_abi.so" "$work/stale.err" || fail "the message does not name the file"
grep -qF "ABI version $((abi + 1))" "$work/stale.err" || fail "the message does not name the plugin's ABI"
grep -qF "ABI version $abi" "$work/stale.err" || fail "the message does not name this Fluxion's ABI"

echo "OK: installed, relocated, built out of tree, dropped in, checked against the closed form"
