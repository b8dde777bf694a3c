#!/usr/bin/env bash
# A batch re-bake side by side with nwn-lib-d (issue 20, "Batch"): the corpus TRX files (nwn2/ and
# nwn2-areas/, 83 files) re-baked by ONE `walkmesh bake FILES... -o DIR --jobs 2` run, against a
# shell loop of `nwn-trn aswm-bake` over the same files. Target: ratio (nwn-trn / walkmesh) >= 8 in
# wall time on 2 cores. The contenders alternate, ROUNDS times; the best wall time and the best CPU
# time (user + system) of each count. Then the batch's output is compared with one-at-a-time runs
# (`walkmesh bake X -o Y --threads 3`, every file): they must be byte-identical.
#
# Setup: a release build (cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release && cmake --build
# build-release -j2); nwn-trn needs the D runtime (Debian libphobos2-ldc-shared100).
# Usage: bench/batch_bake_vs_peer.sh [BUILD_DIR (default build-release)] [ROUNDS (default 3)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
rounds=${2:-3}
corpus=${WALKMESH_CORPUS_DIR:-$root/../shared/corpus}
peer=${NWN_TRN:-$root/../shared/tools/nwn-trn}
walkmesh=$build/tools/walkmesh
[ -x "$walkmesh" ] || { echo "missing $walkmesh: build the project first (see bench/README.md)" >&2; exit 1; }
[ -x "$peer" ] || { echo "nwn-trn not found at $peer (set NWN_TRN)" >&2; exit 1; }
"$peer" --help >/dev/null 2>&1 || { echo "nwn-trn does not start: apt-get install libphobos2-ldc-shared100" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t files < <(find "$corpus/nwn2" "$corpus/nwn2-areas" -maxdepth 1 -iname '*.trx' | sort)
[ ${#files[@]} -gt 0 ] || { echo "no TRX under $corpus/nwn2 and $corpus/nwn2-areas" >&2; exit 1; }

# nwn-trn refuses a few files (more than its limit of walkable triangles in one tile) after
# doing most of the work; the loop goes on, as a modder's loop would, and says how many.
peer_loop() {
  local f refused=0
  for f in "${files[@]}"; do "$peer" aswm-bake "$f" -o "$tmp/peer.trx" 2>/dev/null || refused=$((refused + 1)); done
  echo "$refused" > "$tmp/refused"
}
walkmesh_batch() {
  "$walkmesh" bake "${files[@]}" -o "$tmp/batch" --jobs 2 --force --quiet
}

# run_ms FUNCTION: sets wall and cpu (user + system, children included) in milliseconds
TIMEFORMAT='%3R %3U %3S'
wall=0 cpu=0
run_ms() {
  local t
  t=$( { time "$1" >/dev/null 2>&1 || echo "failed: $1" >&2; } 2>&1 | tail -1)
  case $t in failed*) echo "$t" >&2; exit 1 ;; esac
  read -r wall cpu <<<"$(awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%d %d", f[1] * 1000, (f[2] + f[3]) * 1000 }')"
}
best_peer=999999999 best_ours=999999999 cpu_peer=999999999 cpu_ours=999999999
for ((i = 0; i < rounds; i++)); do
  run_ms peer_loop
  ((wall < best_peer)) && best_peer=$wall
  ((cpu < cpu_peer)) && cpu_peer=$cpu
  run_ms walkmesh_batch
  ((wall < best_ours)) && best_ours=$wall
  ((cpu < cpu_ours)) && cpu_ours=$cpu
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
echo "${#files[@]} TRX files, best of $rounds rounds each, alternating; $(nproc) processors online, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "| contender | wall | CPU |"
echo "|---|---|---|"
echo "| nwn-trn aswm-bake, a shell loop ($(cat "$tmp/refused") files refused) | ${best_peer} ms | ${cpu_peer} ms |"
echo "| walkmesh bake FILES -o DIR --jobs 2 | ${best_ours} ms | ${cpu_ours} ms |"
echo "| ratio (nwn-trn / walkmesh) | $(ratio $best_peer $best_ours)x | $(ratio $cpu_peer $cpu_ours)x |"

# The batch's files are the one-at-a-time runs' files, byte for byte.
mkdir -p "$tmp/single"
differ=0
for f in "${files[@]}"; do
  name=$(basename "$f")
  "$walkmesh" bake "$f" -o "$tmp/single/${name%.*}.trx" --threads 3 --quiet
  cmp -s "$tmp/single/${name%.*}.trx" "$tmp/batch/${name%.*}.trx" || { echo "differs: $name"; differ=$((differ + 1)); }
done
echo
echo "batch output vs one-at-a-time runs: $((${#files[@]} - differ)) of ${#files[@]} files byte-identical"
[ $differ -eq 0 ]
