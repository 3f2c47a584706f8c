#!/usr/bin/env bash
# architecture.layering — what docs/architecture.md promises, checked on the build:
#   1. libfluxion.so exports no fluxion::internal symbol (nm -D --defined-only);
#   2. a layer cannot include a layer it does not depend on: compiling `#include "build/…"` with
#      the mechanics layer's include path fails, while its own dependency (core) compiles;
#   3. the tools include public headers only (no framework/src folder on their include path).
#
# usage: layering_test.sh LIBFLUXION CXX "MECHANICS_INCLUDES" "BUILD_INCLUDES" "RUNNER_INCLUDES" SOURCE_DIR
set -euo pipefail
library="$1"
cxx="$2"
IFS='|' read -r -a mechanics_includes <<< "$3"
IFS='|' read -r -a build_includes <<< "$4"
IFS='|' read -r -a runner_includes <<< "$5"
source_dir="$6"
work="$(mktemp -d "${TMPDIR:-/tmp}/fluxion-layering.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

echo "== 1. exported symbols"
internal="$(nm -D --defined-only "$library" | c++filt | grep -c 'fluxion::internal' || true)"
[[ "$internal" == 0 ]] || {
  nm -D --defined-only "$library" | c++filt | grep 'fluxion::internal' | head >&2
  fail "$library exports $internal fluxion::internal symbols"
}
public="$(nm -D --defined-only "$library" | c++filt | grep -c 'fluxion::Host::LoadFile' || true)"
[[ "$public" -ge 1 ]] || fail "$library does not export the host API (fluxion::Host::LoadFile)"

# compiles INCLUDE_FLAGS_ARRAY_NAME HEADER: true if a file including HEADER compiles
compiles() {
  local -n includes="$1"
  local flags=()
  for dir in "${includes[@]}"; do [[ -n "$dir" ]] && flags+=("-I$dir"); done
  printf '#include "%s"\n' "$2" > "$work/probe.cpp"
  "$cxx" -std=c++20 -fsyntax-only "${flags[@]}" -I/usr/include/eigen3 "$work/probe.cpp" \
    > "$work/probe.log" 2>&1
}

echo "== 2. layers include only what they depend on"
compiles mechanics_includes "core/text_parsing.h" || {
  cat "$work/probe.log" >&2
  fail "mechanics cannot include its dependency core"
}
for header in build/build_state.h runtime/simulation_impl.h components/point_selection.h \
              plugin/plugin_loader.h scene/xml_reader.h; do
  if compiles mechanics_includes "$header"; then fail "mechanics can include $header"; fi
  grep -q "No such file" "$work/probe.log" || fail "including $header failed for another reason"
done
compiles build_includes "runtime/simulation_access.h" || fail "build cannot include runtime"
if compiles build_includes "components/gravity.h"; then fail "build can include components"; fi

echo "== 3. tools see public headers only"
for dir in "${runner_includes[@]}"; do
  [[ "$dir" == "$source_dir/framework/src"* ]] && fail "scene-runner includes $dir"
done
if grep -rnE '#include "(core|mechanics|linear|meshio|registry|plugin|scene|components|build|runtime|output|host|collision)/' \
     "$source_dir/tools" --include='*.cpp' --include='*.h'; then
  fail "a tool includes an internal header"
fi
echo "layering holds"
