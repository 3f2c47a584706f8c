#!/usr/bin/env bash
# Runs scene-runner on every example scene of a SOFA source tree, from the tree's own folder
# layout (meshes found as SOFA finds them: the scene's folder, then share/ and examples/), and
# prints one line per scene: exit status | scene | first error line. The summary at the end
# counts the scenes that run and the SOFA components the others need most.
#
# usage: tools/sofa_catalog/survey_sofa_scenes.sh SOFA_TREE [SCENE_RUNNER] [STEPS]
#   SOFA_TREE     a checkout of sofa-framework/sofa (its examples/ and share/ at least)
#   SCENE_RUNNER  default: build/bin/scene-runner
#   STEPS         steps per scene (default 5)
set -uo pipefail
tree="$1"
runner="$(realpath "${2:-build/bin/scene-runner}")"
steps="${3:-5}"
out="$(mktemp)"
trap 'rm -f "$out" "$out.csv"' EXIT
cd "$tree"
while IFS= read -r scene; do
  first="$(timeout 60 "$runner" "$scene" --steps "$steps" -q -o "$out.csv" 2>&1 >/dev/null | head -n 1)"
  status=${PIPESTATUS[0]}
  echo "$status|$scene|${first:0:200}"
done < <(find examples -name '*.scn' | sort) | tee "$out"
echo
echo "== $(grep -c '^0|' "$out") of $(wc -l < "$out") scenes run"
echo "== components the others need first:"
sed -n "s/.*SOFA component '\([A-Za-z0-9_]*\)'.*/\1/p" "$out" | sort | uniq -c | sort -rn | head -20
