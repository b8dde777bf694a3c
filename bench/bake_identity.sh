#!/usr/bin/env bash
# Every corpus bake by two builds, compared (issue 20: "tables identical on all 83 corpus TRX"):
#   - the corpus TRX of nwn2/ and nwn2-areas/, re-baked in one batch by each build;
#   - every TRN with a GIT beside it, baked alone, with --git, and with --git --cut-whole;
# the inflated ASWM packets (geometry, tile path tables, line-of-sight bits, islands) must be the
# same bytes. The zlib stream may differ (a new deflate): the script counts the files that are also
# byte-identical, and checks every new TRX is no larger than the toolset's file it re-bakes.
# Usage: bench/bake_identity.sh NEW_BUILD_DIR REFERENCE_WALKMESH [CORPUS]
#   NEW_BUILD_DIR: a build with tools/walkmesh and bench/bench_floor (it inflates the packets);
#   REFERENCE_WALKMESH: the walkmesh binary of the build to compare with (e.g. a copy made before a change).
set -euo pipefail
build=${1:?usage: bench/bake_identity.sh NEW_BUILD_DIR REFERENCE_WALKMESH [CORPUS]}
ref=${2:?usage: bench/bake_identity.sh NEW_BUILD_DIR REFERENCE_WALKMESH [CORPUS]}
corpus=${3:-${WALKMESH_CORPUS_DIR:-$(dirname "$0")/../../shared/corpus}}
new=$build/tools/walkmesh
floor=$build/bench/bench_floor
for tool in "$new" "$ref" "$floor"; do
  [ -x "$tool" ] || { echo "missing $tool" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t trx < <(find "$corpus/nwn2" "$corpus/nwn2-areas" -maxdepth 1 -iname '*.trx' | sort)
mapfile -t trn < <(find "$corpus/nwn2" "$corpus/nwn2-areas" -maxdepth 1 -iname '*.trn' | sort)
[ ${#trx[@]} -gt 0 ] || { echo "no TRX under $corpus/nwn2 and $corpus/nwn2-areas" >&2; exit 1; }

for side in new ref; do
  bin=$new
  [ $side = ref ] && bin=$ref
  "$bin" bake "${trx[@]}" -o "$tmp/$side" --quiet --force
  for f in "${trn[@]}"; do
    name=$(basename "${f%.*}")
    git=$(find "$(dirname "$f")" -maxdepth 1 -iname "$name.git" | head -1)
    "$bin" bake "$f" -o "$tmp/$side/$name.alone.trx" --quiet --force
    [ -n "$git" ] || continue
    "$bin" bake "$f" --git "$git" -o "$tmp/$side/$name.git.trx" --quiet --force
    "$bin" bake "$f" --git "$git" --cut-whole -o "$tmp/$side/$name.whole.trx" --quiet --force
  done
done

same=0 bytes=0 differ=0 larger=0 size_new=0 size_ref=0
for out in "$tmp"/new/*.trx; do
  name=$(basename "$out")
  "$floor" packet "$out" "$tmp/a.raw"
  "$floor" packet "$tmp/ref/$name" "$tmp/b.raw"
  if cmp -s "$tmp/a.raw" "$tmp/b.raw"; then same=$((same + 1)); else differ=$((differ + 1)); echo "packet differs: $name"; fi
  cmp -s "$out" "$tmp/ref/$name" && bytes=$((bytes + 1))
  size_new=$((size_new + $(stat -c %s "$out"))) size_ref=$((size_ref + $(stat -c %s "$tmp/ref/$name")))
done
for f in "${trx[@]}"; do
  name=$(basename "${f%.*}").trx
  if [ "$(stat -c %s "$tmp/new/$name")" -gt "$(stat -c %s "$f")" ]; then
    larger=$((larger + 1))
    echo "larger than the toolset's file: $name ($(stat -c %s "$tmp/new/$name") > $(stat -c %s "$f"))"
  fi
done
total=$((same + differ))
echo "${#trx[@]} TRX re-baked, ${#trn[@]} TRN baked alone / with GIT / --cut-whole: $total bakes"
echo "ASWM packets identical: $same of $total; files byte-identical: $bytes of $total"
echo "all outputs: $size_new bytes against the reference's $size_ref"
echo "re-baked TRX larger than the toolset's file: $larger of ${#trx[@]}"
[ $differ -eq 0 ] && [ $larger -eq 0 ]
