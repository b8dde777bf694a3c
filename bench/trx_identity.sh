#!/bin/sh
# TRN/TRX written from meshes, against a reference build's, byte for byte (issue 20: the
# TRX writer's memory work must not change a corpus output):
#   - every corpus TRX/TRN exported to OBJ (by the reference), then written back with --base
#     itself (its unchanged triangles keep the base's decisions: the pairing hints), and
#     every TRX/TRN converted to itself;
#   - condemned_caves' OBJ and the 100k grid OBJ (bench_import_scale's, in $TMPDIR) with each
#     of the first 9 TRX of nwn2/ as --base;
#   - every corpus WOK/PWK/DWK with --base condemned_caves.trx.
# Walkmeshes of 32 MiB of records or more (the 1M and 5M grids) are deflated in other pieces
# since session 7: compare those by their inflated ASWM packets, not here.
#   bench/trx_identity.sh NEW_WALKMESH REFERENCE_WALKMESH [CORPUS_DIR]
set -u
new=$1 ref=$2 corpus=${3:-${WALKMESH_CORPUS_DIR:-../shared/corpus}}
work=$(mktemp -d "${TMPDIR:-/tmp}/walkmesh-trx-identity-XXXXXX")
trap 'rm -rf "$work"' EXIT
same=0 differ=0
compare() { # label, then the convert arguments (input, options); the output is added
  label=$1
  shift
  "$ref" convert "$@" "$work/ref.trx" --force --quiet 2>/dev/null; a=$?
  "$new" convert "$@" "$work/new.trx" --force --quiet 2>/dev/null; b=$?
  if [ $a -ne $b ]; then echo "exit $b (reference $a): $label"; differ=$((differ + 1)); return; fi
  if [ $a -ne 0 ] || cmp -s "$work/ref.trx" "$work/new.trx"; then same=$((same + 1)); else
    echo "differs: $label"; differ=$((differ + 1)); fi
}
for f in "$corpus"/nwn2/* "$corpus"/nwn2-areas/*; do
  case "$f" in *.trx | *.TRX | *.trn | *.TRN) ;; *) continue ;; esac
  name=$(basename "$f")
  if "$ref" convert "$f" "$work/export.obj" --force --quiet 2>/dev/null; then
    compare "$name -> OBJ -> --base itself" "$work/export.obj" --base "$f"
  fi
  compare "$name -> itself" "$f"
done
caves=$corpus/nwn2/condemned_caves.trx
"$ref" convert "$caves" "$work/caves.obj" --force --quiet 2>/dev/null
grid=${TMPDIR:-/tmp}/walkmesh-bench-grid-225.obj
for base in $(ls "$corpus"/nwn2/*.trx | head -9); do
  compare "condemned_caves.obj --base $(basename "$base")" "$work/caves.obj" --base "$base"
  [ -f "$grid" ] && compare "100k grid --base $(basename "$base")" "$grid" --base "$base"
done
for f in "$corpus"/bwm/*; do
  case "$f" in *.wok | *.WOK | *.pwk | *.PWK | *.dwk | *.DWK) ;; *) continue ;; esac
  compare "$(basename "$f") --base condemned_caves.trx" "$f" --base "$caves"
done
echo "$same identical, $differ different"
[ $differ -eq 0 ]
