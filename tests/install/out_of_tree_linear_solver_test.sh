#!/usr/bin/env bash
# install.out_of_tree_linear_solver — AddLinearSolver works out of tree:
#   1. cmake --install the build tree into a temporary prefix;
#   2. build examples/out-of-tree-linear-solver (JacobiPreconditionedCGSolver) in a fresh build
#      folder with nothing but the installed package (find_package(Fluxion) + fluxion_add_plugin);
#   3. copy its fluxion_jacobi_pcg.so into a temporary plugin folder: the INSTALLED scene-runner
#      --list-plugins lists the plugin and its component, --list-components describes its fields;
#   4. run the example's hanging_cord.scn with the installed scene-runner --plugin-dir: every solve
#      converges, and the trajectory matches the same scene solved by <SparseLDLSolver/> (a direct
#      solve, no plugin) to the tolerance the CG tolerance allows; with 2 iterations it must not;
#   5. without the plugin on the path a scene naming the component fails with exit 2 and one line
#      "unknown component …" saying how to add a plugin folder (nothing tells that the name is a
#      plugin's); the example scene, which also has a RequiredPlugin, with exit 3 and one line per
#      problem, the first naming the missing plugin, the second the component it would provide.
#
# usage: out_of_tree_linear_solver_test.sh BUILD_DIR SOURCE_DIR [CMAKE] [CONFIG] [CXX_COMPILER]
set -euo pipefail

build_dir="$1"
source_dir="$2"
cmake="${3:-cmake}"
config="${4:-}"
cxx="${5:-}"
jobs=2
example="$source_dir/examples/out-of-tree-linear-solver"
component=JacobiPreconditionedCGSolver
steps=400  # 2 s of hanging_cord.scn (dt = 5 ms): the cord swings down and through

work="$(mktemp -d "${TMPDIR:-/tmp}/fluxion-linear-solver-test.XXXXXX")"
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
# Runs the installed scene-runner, expecting exit status $1; stderr goes to $work/stderr.
expect_status() {
  local expected="$1" status=0
  shift
  "$runner" "$@" > "$work/stdout" 2> "$work/stderr" || status=$?
  if [[ $status -ne $expected ]]; then
    cat "$work/stdout" "$work/stderr" >&2
    fail "scene-runner $* exited with $status, expected $expected"
  fi
}
# The last command's stderr is exactly one line "error: …" containing $1.
expect_one_line_error() {
  [[ "$(wc -l < "$work/stderr")" -eq 1 ]] || fail "expected a one-line message, got: $(cat "$work/stderr")"
  grep -q '^error: ' "$work/stderr" || fail "the message does not start with 'error: ': $(cat "$work/stderr")"
  grep -qF "$1" "$work/stderr" || fail "the message does not name '$1': $(cat "$work/stderr")"
}

# --- 1. install -------------------------------------------------------------------------------------
step "cmake --install into a temporary prefix"
quiet "$cmake" --install "$build_dir" --prefix "$work/prefix" ${config:+--config "$config"}
prefix="$work/prefix"
runner="$prefix/bin/scene-runner"
[[ -x "$runner" ]] || fail "no bin/scene-runner"
[[ -f "$prefix/include/fluxion/linear_solver.h" ]] || fail "include/fluxion/linear_solver.h is not installed"
abi="$(sed -n 's/^#define FLUXION_ABI_VERSION \([0-9]*\)$/\1/p' "$prefix/include/fluxion/version.h")"
[[ -n "$abi" ]] || fail "include/fluxion/version.h does not define FLUXION_ABI_VERSION"

# --- 2. build the example out of tree ---------------------------------------------------------------
step "configure and build examples/out-of-tree-linear-solver against the installed package only"
quiet "$cmake" -S "$example" -B "$work/example-build" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON -DFLUXION_WERROR=ON ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"}
grep -q "^Fluxion_DIR:PATH=$prefix/.*/cmake/Fluxion\$" "$work/example-build/CMakeCache.txt" ||
  fail "find_package(Fluxion) did not use the installed package: $(grep Fluxion_DIR "$work/example-build/CMakeCache.txt")"
quiet "$cmake" --build "$work/example-build" -j "$jobs"
plugin="$work/example-build/fluxion_jacobi_pcg.so"
[[ -f "$plugin" ]] || fail "the example did not produce fluxion_jacobi_pcg.so"

# --- 3. drop it in: listed with its component and fields ------------------------------------------
step "drop fluxion_jacobi_pcg.so into a plugin folder; --list-plugins lists it and $component"
mkdir "$work/plugins"
cp "$plugin" "$work/plugins/"
expect_status 0 --list-plugins --plugin-dir "$work/plugins"
grep -q "^  jacobi_pcg 1.0.0  ABI $abi  loaded\$" "$work/stdout" ||
  fail "jacobi_pcg is not listed as loaded: $(cat "$work/stdout")"
# The components line that follows the plugin's line and its file line.
grep -A2 "^  jacobi_pcg " "$work/stdout" | grep -q "^    components: .*\b$component\b" ||
  fail "jacobi_pcg does not list $component: $(cat "$work/stdout")"
expect_status 0 --list-plugins --json --plugin-dir "$work/plugins"
grep -q '"name": "jacobi_pcg"' "$work/stdout" || fail "--list-plugins --json lacks jacobi_pcg"
expect_status 0 --list-components "$component" --plugin-dir "$work/plugins"
for field in iterations tolerance threshold; do
  grep -qw "$field" "$work/stdout" || fail "--list-components $component lacks '$field': $(cat "$work/stdout")"
done

# --- 4. the trajectory against a direct solve -------------------------------------------------------
step "hanging_cord.scn with $component: every solve converges"
# Default log level: a solve that misses its tolerance is logged as a warning (the step is kept).
expect_status 0 "$example/hanging_cord.scn" --plugin-dir "$work/plugins" --steps "$steps" \
  --output "$work/pcg.csv"
if grep -v '^progress:' "$work/stderr" | grep -q .; then
  fail "the run logged: $(cat "$work/stderr")"
fi

step "the same scene with <SparseLDLSolver/> and no plugin: the reference"
# The element replaced by a direct solver of the same name (the ODE solver's link still resolves),
# and the RequiredPlugin dropped, so the reference does not load the plugin at all.
sed -e "s|<$component [^>]*/>|<SparseLDLSolver name=\"linear\"/>|" \
  -e '/<RequiredPlugin pluginName="jacobi_pcg"\/>/d' "$example/hanging_cord.scn" > "$work/reference.scn"
grep -q '<SparseLDLSolver name="linear"/>' "$work/reference.scn" || fail "sed did not replace $component"
! grep -q "<$component\|\"jacobi_pcg\"" "$work/reference.scn" || fail "the reference scene still uses the plugin"
expect_status 0 "$work/reference.scn" --steps "$steps" --quiet --output "$work/ldl.csv"

step "$component matches SparseLDLSolver to 1e-4 (absolute)"
# Tolerance, from the CG stopping rule rather than from the output: each step solves
# A·Δv = b, A = M + h·B + h²·K, to ‖r‖ ≤ τ‖b‖ (τ = 1e-9), so ‖δΔv‖ ≤ κ(A)·τ·‖Δv‖. With
# λmax(A) ≤ λmax(M) + h·λmax(B) + h²·λmax(K) ≤ 2 + 4·(h·1 + h²·2000) = 2.22 (a chain: at most 4
# times one spring's) and λmin(A) ≥ min mass = 0.02 (K, B ⪰ 0 for stretched springs),
# κ(A) ≤ 111. Implicit Euler being stable, the errors of the steps add up: the velocities are off by
# at most κ(A)·τ·Σ‖Δv‖ and the positions (x += h·v) by the run's 2 s times that. Σ‖Δv‖, the
# velocity's total variation, is read from the reference below (≈ 108 m/s: the light beads ring);
# for Σ‖Δv‖ ≤ 150 m/s the bounds are 1.7e-5 m/s and 3.3e-5 m, and atol = 1e-4 leaves a factor 3;
# rtol = 0, the bound is absolute. The LDLᵀ reference is exact to round-off (κ(A)·ε ≈ 2e-14).
variation="$(awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i ~ /\/v[0-9]+\.[xyz]$/) v[++n] = i; next }
  { s = 0; for (k = 1; k <= n; ++k) { d = $v[k] - p[k]; s += d * d; p[k] = $v[k] } if (NR > 2) t += sqrt(s) }
  END { printf "%.1f", t }' "$work/ldl.csv")"
echo "total variation of the reference velocity: $variation m/s"
awk -v t="$variation" 'BEGIN { exit !(t > 1 && t <= 150) }' ||
  fail "Σ‖Δv‖ = $variation m/s: the tolerance's premise (≤ 150 m/s) no longer holds; derive it again"
expect_status 0 "$example/hanging_cord.scn" --plugin-dir "$work/plugins" --steps "$steps" --quiet \
  --output "$work/pcg-compare.csv" --compare "$work/ldl.csv" --rtol 0 --atol 1e-4
cat "$work/stdout"

step "the comparison discriminates: with iterations=\"2\" it must not match"
sed -e 's|iterations="60"|iterations="2"|' "$example/hanging_cord.scn" > "$work/two_iterations.scn"
grep -q 'iterations="2"' "$work/two_iterations.scn" || fail "sed did not set iterations=2"
expect_status 1 "$work/two_iterations.scn" --plugin-dir "$work/plugins" --steps "$steps" --quiet \
  --output "$work/two.csv" --compare "$work/ldl.csv" --rtol 0 --atol 1e-4

# --- 5. without the plugin -----------------------------------------------------------------------------
# One rule (issue 15): a component no loaded plugin provides and that nothing ties to a plugin is
# an unknown name (exit 2), whose message says how to add a plugin folder; with a RequiredPlugin
# naming a missing plugin it is a plugin problem (exit 3). Every problem is one line.
step "without the plugin and without RequiredPlugin: exit 2, one line naming $component"
sed -e '/<RequiredPlugin pluginName="jacobi_pcg"\/>/d' "$example/hanging_cord.scn" > "$work/no_required.scn"
expect_status 2 "$work/no_required.scn" --steps 1 --quiet
cat "$work/stderr"
expect_one_line_error "$work/no_required.scn:"
grep -qF "unknown component '$component'" "$work/stderr" ||
  fail "the message does not say that $component is unknown"
# The message says how to add a plugin folder, unless the name is close to a built-in one: then it
# suggests that one, as for any misspelling (JacobiPreconditionedCGSolver is close to SOFA's
# JacobiPreconditioner, built in since PCGLinearSolver's preconditioners are).
grep -qF -- "--plugin-dir DIR" "$work/stderr" ||
  grep -qF "(did you mean 'JacobiPreconditioner'?)" "$work/stderr" ||
  fail "the message neither says how to add a plugin folder nor suggests a close built-in name"

step "without the plugin: the example scene fails with exit 3, RequiredPlugin 'jacobi_pcg' not found"
expect_status 3 "$example/hanging_cord.scn" --steps 1 --quiet
cat "$work/stderr"
# Two problems, one line each: the RequiredPlugin, then the component it would have provided.
if grep -qv "^error: $example/hanging_cord.scn:[0-9]*: " "$work/stderr"; then
  fail "not every line is 'error: FILE:LINE: …': $(cat "$work/stderr")"
fi
[[ "$(wc -l < "$work/stderr")" -le 2 ]] || fail "more than the two expected problems: $(cat "$work/stderr")"
head -n 1 "$work/stderr" | grep -qF "required plugin 'jacobi_pcg' was not found" ||
  fail "the first line does not name the missing plugin 'jacobi_pcg'"
sed -n 2p "$work/stderr" | grep -qF "component '$component' is not available: no loaded plugin provides it, and the scene requires plugin 'jacobi_pcg'" ||
  fail "the second line does not tie $component to the missing plugin 'jacobi_pcg'"

echo "OK: $component built out of tree, loaded from --plugin-dir, matches SparseLDLSolver"
