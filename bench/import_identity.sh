#!/bin/sh
# The import's output against a reference build's, byte for byte: every corpus
# WOK exported to OBJ (by the reference), then OBJ -> WOK by both; the
# project's courtyard.obj; and the generated grid OBJs bench_import_scale
# leaves in $TMPDIR. Prints one line per difference and a count.
#   bench/import_identity.sh NEW_WALKMESH REFERENCE_WALKMESH [CORPUS_DIR]
set -u
new=$1 ref=$2 corpus=${3:-${WALKMESH_CORPUS_DIR:-../shared/corpus}}
here=$(dirname "$0")
work=$(mktemp -d "${TMPDIR:-/tmp}/walkmesh-identity-XXXXXX")
trap 'rm -rf "$work"' EXIT
same=0 differ=0
compare() { # obj name
  "$ref" convert "$1" "$work/ref.wok" --force --quiet 2>/dev/null; a=$?
  "$new" convert "$1" "$work/new.wok" --force --quiet 2>/dev/null; b=$?
  if [ $a -ne $b ]; then echo "exit $b (reference $a): $2"; differ=$((differ + 1)); return; fi
  if [ $a -ne 0 ] || cmp -s "$work/ref.wok" "$work/new.wok"; then same=$((same + 1)); else
    echo "differs: $2"; differ=$((differ + 1)); fi
}
for wok in "$corpus"/bwm/*.wok "$corpus"/bwm-models/*.wok; do
  [ -f "$wok" ] || continue
  "$ref" convert "$wok" "$work/export.obj" --force --quiet 2>/dev/null || continue
  compare "$work/export.obj" "$(basename "$wok") -> OBJ -> WOK"
done
compare "$here/../corpus/courtyard.obj" courtyard.obj
for obj in "${TMPDIR:-/tmp}"/walkmesh-bench-grid-*.obj; do
  [ -f "$obj" ] && compare "$obj" "$(basename "$obj")"
done
echo "$same identical, $differ different"
[ $differ -eq 0 ]
