#!/usr/bin/env bash
# NWN2 speed of walkmesh side by side with nwn-lib-d's nwn-trn, in one run (issue 9 targets):
#   - whole CLI re-bake (`walkmesh bake X.trx`) against `nwn-trn aswm-bake X.trx` on
#     condemned_caves.trx and the largest TRX of nwn2-areas/: ratio >= 10 wanted, and the
#     output no larger than the toolset's file;
#   - `walkmesh info X.trx` and `walkmesh convert X.trx Y.trx` against a bare zlib inflate of the
#     ASWM packet (bench_inflate, a process of its own): ratio <= 1.5 wanted;
#   - shadowdale_mages_guild.TRN with its GIT: under 0.5 s wanted.
# Each command runs ROUNDS times, the contenders alternating; the best wall time and the best CPU
# time (user + system) of each count (CPU time is the steadier figure on a machine shared with others).
#
# Setup: a release build (cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release && cmake --build
# build-release -j2); nwn-trn needs the D runtime, installed below when missing.
# Usage: bench/nwn2_vs_peer.sh [BUILD_DIR (default build-release)] [ROUNDS (default 7)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
rounds=${2:-7}
corpus=${WALKMESH_CORPUS_DIR:-$root/../shared/corpus}
peer=${NWN_TRN:-$root/../shared/tools/nwn-trn}
walkmesh=$build/tools/walkmesh
inflate=$build/bench/bench_inflate
for tool in "$walkmesh" "$inflate"; do
  [ -x "$tool" ] || { echo "missing $tool: build the project first (see bench/README.md)" >&2; exit 1; }
done
[ -x "$peer" ] || { echo "nwn-trn not found at $peer (set NWN_TRN)" >&2; exit 1; }
if ! "$peer" --help >/dev/null 2>&1; then
  echo "nwn-trn needs the D runtime: installing libphobos2-ldc-shared100" >&2
  $(command -v sudo) apt-get -o DPkg::Lock::Timeout=900 install -y -qq libphobos2-ldc-shared100 >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_us CMD...: sets run_wall and run_cpu (user + system) in microseconds
TIMEFORMAT='%3R %3U %3S'
run_wall=0 run_cpu=0
run_us() {
  local t
  t=$( { time "$@" >/dev/null 2>&1 || echo "failed: $*" >&2; } 2>&1 | tail -1)
  case $t in failed*) echo "$t" >&2; exit 1 ;; esac
  read -r run_wall run_cpu <<<"$(awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%d %d", f[1] * 1e6, (f[2] + f[3]) * 1e6 }')"
}
# best_pair -- A... -- B... : best wall and CPU time (microseconds) of A and of B, run alternately
best_a=0 best_b=0 cpu_a=0 cpu_b=0
best_pair() {
  local a=() b=() side=a
  shift
  for arg in "$@"; do
    if [ "$arg" = "--" ]; then side=b; continue; fi
    if [ $side = a ]; then a+=("$arg"); else b+=("$arg"); fi
  done
  best_a=999999999 best_b=999999999 cpu_a=999999999 cpu_b=999999999
  for ((i = 0; i < rounds; i++)); do
    run_us "${a[@]}"
    if (( run_wall < best_a )); then best_a=$run_wall; fi
    if (( run_cpu < cpu_a )); then cpu_a=$run_cpu; fi
    run_us "${b[@]}"
    if (( run_wall < best_b )); then best_b=$run_wall; fi
    if (( run_cpu < cpu_b )); then cpu_b=$run_cpu; fi
  done
}
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

largest=$(find "$corpus/nwn2-areas" -maxdepth 1 -iname '*.trx' -printf '%s %p\n' | sort -rn | awk 'NR == 1 { sub(/^[0-9]+ /, ""); print }')
echo "walkmesh $walkmesh vs nwn-trn $peer; best of $rounds rounds each, alternating"
echo
echo "| file | nwn-trn aswm-bake wall (CPU) | walkmesh bake wall (CPU) | ratio wall (CPU) | output bytes (toolset's file) |"
echo "|---|---|---|---|---|"
for f in "$corpus/nwn2/condemned_caves.trx" "$largest"; do
  best_pair -- "$peer" aswm-bake "$f" -o "$tmp/peer.trx" -- "$walkmesh" bake "$f" -o "$tmp/ours.trx" --force --quiet
  echo "| $(basename "$f") | $(ms $best_a) ($(ms $cpu_a)) | $(ms $best_b) ($(ms $cpu_b)) | $(ratio $best_a $best_b)x ($(ratio $cpu_a $cpu_b)x) | $(stat -c %s "$tmp/ours.trx") ($(stat -c %s "$f")) |"
done
echo
echo "| file | bare zlib inflate of the ASWM (bench_inflate) wall (CPU) | walkmesh info | ratio | walkmesh convert X.trx Y.trx | ratio |"
echo "|---|---|---|---|---|---|"
for f in "$corpus/nwn2/condemned_caves.trx" "$largest"; do
  best_pair -- "$inflate" "$f" -- "$walkmesh" info "$f"
  bare=$best_a bare_cpu=$cpu_a info=$best_b info_cpu=$cpu_b
  best_pair -- "$inflate" "$f" -- "$walkmesh" convert "$f" "$tmp/copy.trx" --force
  if (( best_a < bare )); then bare=$best_a; fi
  if (( cpu_a < bare_cpu )); then bare_cpu=$cpu_a; fi
  echo "| $(basename "$f") | $(ms $bare) ($(ms $bare_cpu)) | $(ms $info) ($(ms $info_cpu)) | $(ratio $info $bare)x ($(ratio $info_cpu $bare_cpu)x) | $(ms $best_b) ($(ms $cpu_b)) | $(ratio $best_b $bare)x ($(ratio $cpu_b $bare_cpu)x) |"
done
echo
area=$corpus/nwn2-areas/shadowdale_mages_guild
best_pair -- "$walkmesh" bake "$area.TRN" --git "$area.GIT" -o "$tmp/area.trx" --force --quiet \
  -- "$walkmesh" bake "$area.TRN" --git "$area.GIT" -o "$tmp/area.trx" --force --quiet
if (( best_b < best_a )); then best_a=$best_b; fi
if (( cpu_b < cpu_a )); then cpu_a=$cpu_b; fi
echo "shadowdale_mages_guild.TRN + GIT bake: $(ms $best_a) wall, $(ms $cpu_a) CPU (target < 500 ms)"
