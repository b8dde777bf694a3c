#!/usr/bin/env bash
# Fuzzes every libFuzzer target of a fuzz build (CC=clang -DWALKMESH_FUZZ=ON) for a
# bounded time each, starting from the kept crashers (tests/fuzz/regressions/<target>/)
# and the real-file corpus (WALKMESH_CORPUS_DIR, when set) as seeds.
#   tests/fuzz/run.sh BUILD_DIR            # WALKMESH_FUZZ_SECONDS per target (default 60),
#                                          # WALKMESH_FUZZ_JOBS targets at once (default: processors)
# A target that crashes, leaks, trips UBSan, runs past the per-input timeout or over the
# memory limit fails the run; its input is saved under BUILD_DIR/fuzz/new-crashers/<target>/
# and the script names the path: fix the defect, then add that file to
# tests/fuzz/regressions/<target>/, where the ordinary test suite replays it.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)"
seconds="${WALKMESH_FUZZ_SECONDS:-60}"
corpus="${WALKMESH_CORPUS_DIR:-}"
work="$build/fuzz"
rm -rf "$work/seeds" "$work/new-crashers"
mkdir -p "$work/tmp"
export TMPDIR="$work/tmp" # fuzz_render writes its input and picture there

# Corpus files (under 128 KiB, so each run stays fast) that seed a target:
# subfolder and name patterns, by target.
seed_patterns() {
  case "$1" in
    fuzz_bwm) echo "bwm *.wok *.pwk *.dwk *.ascii" ;;
    fuzz_nwn2 | fuzz_bake_trx) echo "nwn2 *.trx *.TRX *.trn *.TRN" ;;
    fuzz_gff) echo "nwn2 *.GIT *.git *.ARE *.are" ;;
    fuzz_wmo) echo "wmo *.wmo" ;;
    fuzz_obj_check | fuzz_obj_read) echo "assimp-models *.obj" ;;
    fuzz_archive) echo "archives *.mod *.erf *.ERF *.rim *.hak *.key *.bif" ;;
  esac
}

# The render target's first byte picks the format (see fuzz_render.c): seeds get it prepended.
render_prefix() {
  case "$1" in
    *.wok) echo 0 ;; *.pwk | *.dwk) echo 1 ;; *.ascii) echo 2 ;; *.trx | *.TRX | *.trn | *.TRN) echo 3 ;;
    *.wmo) echo 4 ;; *.obj) echo 5 ;;
  esac
}

add_seeds() { # target seed_dir
  local target="$1" dir="$2" spec folder
  [ -n "$corpus" ] && [ -d "$corpus" ] || return 0
  if [ "$target" = fuzz_render ]; then
    for folder in bwm nwn2 wmo; do
      [ -d "$corpus/$folder" ] || continue
      find "$corpus/$folder" -type f -size -128k | while read -r f; do
        local p
        p="$(render_prefix "$f")"
        [ -n "$p" ] || continue
        { printf "\\$(printf '%03o' "$p")"; cat "$f"; } > "$dir/$(basename "$f")"
      done
    done
    return 0
  fi
  [ "$target" = fuzz_surface_table ] && cp "$here/../../core/surfaces.txt" "$dir/"
  spec="$(seed_patterns "$target")"
  [ -n "$spec" ] || return 0
  set -- $spec
  folder="$1"
  shift
  local roots=()
  for root in "$corpus/$folder" "$corpus/$folder-areas"; do [ -d "$root" ] && roots+=("$root"); done
  [ "${#roots[@]}" -gt 0 ] || return 0
  for pattern in "$@"; do
    find "${roots[@]}" -type f -size -128k -name "$pattern" -exec cp {} "$dir/" \;
  done
}

# One target: fuzz it, then record its executions and, on a failure, keep its inputs.
# Writes $work/$target.log, .result (executions) and .report (what to tell on a failure).
fuzz_target() { # exe
  local exe="$1" target regressions seeds grown artifacts log code execs
  target="$(basename "$exe")"
  regressions="$here/regressions/$target"
  seeds="$work/seeds/$target"
  grown="$work/corpus/$target"          # what libFuzzer adds; kept between local runs
  artifacts="$work/artifacts/$target"
  mkdir -p "$seeds" "$grown" "$artifacts"
  rm -f "$artifacts"/* "$work/$target.report"
  add_seeds "$target" "$seeds"
  local dirs=("$grown" "$seeds")
  [ -d "$regressions" ] && dirs+=("$regressions")
  log="$work/$target.log"
  echo "== $target: ${seconds}s from $(find "${dirs[@]}" -type f | wc -l) inputs"
  "$exe" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${dirs[@]}" > "$log" 2>&1
  code=$?
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  printf '%-20s %10s executions\n' "$target" "${execs:-?}" > "$work/$target.result"
  [ "$code" -eq 0 ] && return 0
  {
    tail -n 40 "$log"
    local found=0 crash
    mkdir -p "$work/new-crashers/$target"
    for crash in "$artifacts"/*; do
      [ -f "$crash" ] || continue
      cp "$crash" "$work/new-crashers/$target/"
      found=1
      echo "walkmesh fuzz: NEW CRASHER in $target: $work/new-crashers/$target/$(basename "$crash")"
      echo "  fix it, then add that file to tests/fuzz/regressions/$target/ (the test suite replays it)"
    done
    [ "$found" = 1 ] || echo "walkmesh fuzz: $target failed (exit $code) without an artifact; see $log"
  } > "$work/$target.report"
}

# Targets run side by side, one a processor (WALKMESH_FUZZ_JOBS overrides): each still gets
# its full time, and CI's wall time is the sum divided by the processors.
jobs="${WALKMESH_FUZZ_JOBS:-$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)}"
targets=()
for exe in "$build"/tests/fuzz/fuzz_*; do [ -x "$exe" ] && targets+=("$exe"); done
for exe in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  fuzz_target "$exe" &
done
wait

status=0
for exe in "${targets[@]}"; do
  target="$(basename "$exe")"
  cat "$work/$target.result" 2> /dev/null || printf '%-20s %10s executions\n' "$target" "?"
  if [ -f "$work/$target.report" ]; then
    status=1
    cat "$work/$target.report"
  fi
done
exit "$status"
