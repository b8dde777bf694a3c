#!/usr/bin/env bash
# Re-bake and `info` against their floors (issue 20), side by side in one run:
#   - `walkmesh bake X.trx --threads 1` against `bench_floor rebake` (read, inflate the ASWM packet,
#     deflate it at libdeflate 6 as a re-bake does, write): CPU ratio <= 1.3 wanted;
#   - `walkmesh info X.trx` against `bench_floor inflate` (read and inflate the packet only):
#     CPU ratio <= 1.3 wanted;
#   - `walkmesh bake X.trx --threads 2` against `--threads 1`: wall and CPU, the deflate of a large
#     packet on both cores (nwn2_deflate_parallel.c) and the tiles' stages; with REFERENCE_WALKMESH
#     (a build without that deflate), its `--threads 2` against ours in the same run;
# on condemned_caves.trx and the largest TRX of nwn2-areas/. Each command runs ROUNDS times, the
# two alternating; the best CPU time (user + system) and the best wall time of each count.
# Usage: bench/nwn2_floor.sh [BUILD_DIR (default build-release)] [ROUNDS (default 11)] [REFERENCE_WALKMESH]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-release}
rounds=${2:-11}
reference=${3:-}
corpus=${WALKMESH_CORPUS_DIR:-$root/../shared/corpus}
walkmesh=$build/tools/walkmesh
floor=$build/bench/bench_floor
for tool in "$walkmesh" "$floor"; do
  [ -x "$tool" ] || { echo "missing $tool: build the project first (see bench/README.md)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%3R %3U %3S'
# run_us CMD...: run_wall and run_cpu (user + system) in microseconds
run_us() {
  local t
  t=$( { time "$@" >/dev/null 2>&1 || echo "failed: $*" >&2; } 2>&1 | tail -1)
  case $t in failed*) echo "$t" >&2; exit 1 ;; esac
  read -r run_wall run_cpu <<<"$(awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%d %d", f[1] * 1e6, (f[2] + f[3]) * 1e6 }')"
}
# pair A... -- B...: best wall/CPU of A (wall_a, cpu_a) and of B, alternating
pair() {
  local a=() b=() side=a
  for arg in "$@"; do
    if [ "$arg" = "--" ]; then side=b; continue; fi
    if [ $side = a ]; then a+=("$arg"); else b+=("$arg"); fi
  done
  wall_a=999999999 wall_b=999999999 cpu_a=999999999 cpu_b=999999999
  for ((i = 0; i < rounds; i++)); do
    run_us "${a[@]}"; (( run_wall < wall_a )) && wall_a=$run_wall; (( run_cpu < cpu_a )) && cpu_a=$run_cpu
    run_us "${b[@]}"; (( run_wall < wall_b )) && wall_b=$run_wall; (( run_cpu < cpu_b )) && cpu_b=$run_cpu
  done
  return 0
}
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# (awk reads all of sort's output: `head -1` could end sort with SIGPIPE, which pipefail reports)
largest=$(find "$corpus/nwn2-areas" -maxdepth 1 -iname '*.trx' -printf '%s %p\n' | sort -rn | awk 'NR == 1 { sub(/^[0-9]+ /, ""); print }')
echo "best of $rounds alternating rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | floor (bench_floor rebake) CPU (wall) | walkmesh bake --threads 1 CPU (wall) | CPU ratio (target <= 1.3) |"
echo "|---|---|---|---|"
for f in "$corpus/nwn2/condemned_caves.trx" "$largest"; do
  pair "$floor" rebake "$f" "$tmp/floor.trx" -- "$walkmesh" bake "$f" -o "$tmp/ours.trx" --force --quiet --threads 1
  echo "| $(basename "$f") | $(ms $cpu_a) ($(ms $wall_a)) | $(ms $cpu_b) ($(ms $wall_b)) | $(ratio $cpu_b $cpu_a)x |"
done
echo
echo "| file | floor (bench_floor inflate) CPU (wall) | walkmesh info CPU (wall) | CPU ratio (target <= 1.3) |"
echo "|---|---|---|---|"
for f in "$corpus/nwn2/condemned_caves.trx" "$largest"; do
  pair "$floor" inflate "$f" -- "$walkmesh" info "$f"
  echo "| $(basename "$f") | $(ms $cpu_a) ($(ms $wall_a)) | $(ms $cpu_b) ($(ms $wall_b)) | $(ratio $cpu_b $cpu_a)x |"
done
echo
echo "| file | bake --threads 1 CPU (wall) | bake --threads 2 CPU (wall) | wall ratio 2/1 | CPU ratio 2/1 |"
echo "|---|---|---|---|---|"
for f in "$corpus/nwn2/condemned_caves.trx" "$largest"; do
  bake=(bake "$f" -o "$tmp/ours.trx" --force --quiet --threads)
  pair "$walkmesh" "${bake[@]}" 1 -- "$walkmesh" "${bake[@]}" 2
  echo "| $(basename "$f") | $(ms $cpu_a) ($(ms $wall_a)) | $(ms $cpu_b) ($(ms $wall_b)) | $(ratio $wall_b $wall_a)x | $(ratio $cpu_b $cpu_a)x |"
done
if [ -n "$reference" ]; then
  echo
  echo "| file | reference bake --threads 2 CPU (wall) | this build's --threads 2 CPU (wall) | wall ratio | CPU ratio |"
  echo "|---|---|---|---|---|"
  for f in "$corpus/nwn2/condemned_caves.trx" "$largest"; do
    bake=(bake "$f" -o "$tmp/ours.trx" --force --quiet --threads 2)
    pair "$reference" "${bake[@]}" -- "$walkmesh" "${bake[@]}"
    echo "| $(basename "$f") | $(ms $cpu_a) ($(ms $wall_a)) | $(ms $cpu_b) ($(ms $wall_b)) | $(ratio $wall_b $wall_a)x | $(ratio $cpu_b $cpu_a)x |"
  done
fi
