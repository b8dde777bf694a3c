#!/usr/bin/env bash
# A module of 1,000 rooms converted to OBJ in one batch (walkmesh convert MODULE -o DIR --to obj),
# on one job and on two, against the same 1,000 files converted loose in one batch: wall and CPU
# time of each, best of three. The rooms are copies of one corpus .wok.
#   bench/archive_batch.sh BUILD_DIR [ROOM.wok] [COUNT]
set -euo pipefail
build="${1:?usage: archive_batch.sh BUILD_DIR [ROOM.wok] [COUNT]}"
here="$(cd "$(dirname "$0")" && pwd)"
room="${2:-${WALKMESH_CORPUS_DIR:-$here/../../shared/corpus}/bwm/k1cp-m13aa_04a.wok}"
count="${3:-1000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/bench/bench_archive" rooms "$count" "$room" "$work/rooms.mod"
mkdir -p "$work/loose"
for i in $(seq 0 $((count - 1))); do cp "$room" "$(printf '%s/loose/room%05d.wok' "$work" "$i")"; done
best() { # label, then the command: the best wall and CPU of three runs
  local label="$1" wall best_wall=999 best_cpu=999 cpu
  shift
  for run in 1 2 3; do
    rm -rf "$work/out"
    /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null
    read -r wall user sys <"$work/time"
    cpu="$(echo "$user + $sys" | bc)"
    best_wall="$(echo "if ($wall < $best_wall) $wall else $best_wall" | bc)"
    best_cpu="$(echo "if ($cpu < $best_cpu) $cpu else $best_cpu" | bc)"
  done
  echo "$label: wall $best_wall s, CPU $best_cpu s"
}
cli="$build/tools/walkmesh"
best "module, 1 job " "$cli" convert "$work/rooms.mod" -o "$work/out" --to obj -q -j 1
best "module, 2 jobs" "$cli" convert "$work/rooms.mod" -o "$work/out" --to obj -q -j 2
best "loose,  2 jobs" "$cli" convert "$work"/loose/*.wok -o "$work/out" --to obj -q -j 2
