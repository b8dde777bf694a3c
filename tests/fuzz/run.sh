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
[ -z "$corpus" ] || [ -d "$corpus" ] || { echo "walkmesh fuzz: WALKMESH_CORPUS_DIR=$corpus is not a folder" >&2; exit 2; }
work="$build/fuzz"
rm -rf "$work/seeds" "$work/new-crashers"
mkdir -p "$work/tmp"
export TMPDIR="$work/tmp" # fuzz_render writes its input and picture there

# Seeds, one line a target: the folders of the real-file corpus (or, after @, of this project),
# the file name patterns (case-insensitive) and how a file becomes an input: copy; render (the
# format byte fuzz_render.c reads first, then the file); aswm or zlib (nwn2_packet.py: the
# walkmesh packet inflated, or its zlib stream behind its size); and, optionally, the largest file
# taken in KiB (default 128, so each run stays fast). A target without a line stops the run: a new
# target adds one here.
seed_spec() {
  case "$1" in
    fuzz_bwm) echo "bwm bwm-models : *.wok *.pwk *.dwk *.ascii : copy" ;;
    fuzz_mdl) echo "bwm-models : *.mdl : copy : 512" ;;
    fuzz_lyt) echo "bwm-models : *.lyt : copy" ;;
    fuzz_nwn2 | fuzz_bake_trx) echo "nwn2 nwn2-areas : *.trx *.trn : copy" ;;
    fuzz_bake) echo "nwn2 nwn2-areas : *.trx *.trn : aswm" ;;
    fuzz_deflate_scan) echo "nwn2 nwn2-areas : *.trx *.trn : zlib" ;;
    fuzz_gff) echo "nwn2 nwn2-areas : *.git *.are *.gic : copy : 1024" ;;
    fuzz_wmo) echo "wmo : *.wmo : copy" ;;
    fuzz_obj_check | fuzz_obj_read) echo "assimp-models : *.obj : copy" ;;
    fuzz_render) echo "bwm nwn2 nwn2-areas wmo : *.wok *.pwk *.dwk *.ascii *.trx *.trn *.wmo : render" ;;
    fuzz_surface_table) echo "@core : surfaces.txt : copy" ;;
    fuzz_archive) echo "archives : *.mod *.erf *.rim *.hak *.key *.bif : copy" ;;
    fuzz_zip) echo "@tests/fuzz/regressions/fuzz_zip : *.zip : copy" ;;
    fuzz_navmesh) echo "@tests/fuzz/regressions/fuzz_navmesh : *.navmesh : copy" ;;
    fuzz_route) echo "bwm nwn2 : *.wok *.pwk *.dwk *.trx : copy" ;;
    *) return 1 ;;
  esac
}

# The render target's first byte picks the format (see fuzz_render.c).
render_prefix() {
  case "$1" in
    *.wok) echo 0 ;; *.pwk | *.dwk) echo 1 ;; *.ascii) echo 2 ;; *.trx | *.trn) echo 3 ;;
    *.wmo) echo 4 ;; *.obj) echo 5 ;;
  esac
}

# The files a seed line names, one a line (folders that are not there are passed over).
seed_files() { # folders patterns largest_kib
  local roots=() folder pattern names=()
  for folder in $1; do
    case "$folder" in
      @*) folder="$here/../../${folder#@}" ;;
      *) [ -n "$corpus" ] || continue; folder="$corpus/$folder" ;;
    esac
    [ -d "$folder" ] && roots+=("$folder")
  done
  [ "${#roots[@]}" -gt 0 ] || return 0
  for pattern in $2; do names+=(-o -iname "$pattern"); done
  find "${roots[@]}" -type f -size -"$3"k \( "${names[@]:1}" \)
}

# Fills the target's seed folder; prints how many seeds it made. Fails for a target without a line.
add_seeds() { # target seed_dir
  local target="$1" dir="$2" spec folders patterns how largest f p files
  spec="$(seed_spec "$target")" || return 1
  IFS=: read -r folders patterns how largest <<< "$spec"
  how="${how// /}"
  largest="${largest// /}"
  set -f # the patterns reach find unexpanded
  mapfile -t files < <(seed_files "$folders" "$patterns" "${largest:-128}")
  set +f
  [ "${#files[@]}" -gt 0 ] || { echo 0; return 0; }
  case "$how" in
    copy) cp "${files[@]}" "$dir/" ;;
    aswm | zlib) python3 "$here/nwn2_packet.py" "$how" "$dir" "${files[@]}" ;;
    render)
      for f in "${files[@]}"; do
        p="$(render_prefix "$(printf '%s' "$f" | tr 'A-Z' 'a-z')")"
        [ -n "$p" ] && { printf "\\$(printf '%03o' "$p")"; cat "$f"; } > "$dir/$(basename "$f")"
      done ;;
  esac
  find "$dir" -type f | wc -l
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
  mkdir -p "$grown" "$artifacts"
  rm -f "$artifacts"/* "$work/$target.report"
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
[ "${#targets[@]}" -gt 0 ] || { echo "walkmesh fuzz: no fuzz_* programs in $build/tests/fuzz" >&2; exit 2; }

# Every target's seeds before any fuzzing, so a target without a seed line, or (with a corpus)
# one whose line finds no file, stops the run at once instead of fuzzing from nothing.
[ -n "$corpus" ] || echo "walkmesh fuzz: WALKMESH_CORPUS_DIR not set: seeds from the kept crashers only" >&2
for exe in "${targets[@]}"; do
  target="$(basename "$exe")"
  mkdir -p "$work/seeds/$target"
  if ! count="$(add_seeds "$target" "$work/seeds/$target")"; then
    echo "walkmesh fuzz: $target has no seed line: add one to seed_spec in $here/run.sh" >&2
    exit 2
  fi
  if [ -n "$corpus" ] && [ "$count" -eq 0 ]; then
    echo "walkmesh fuzz: $target: its seed line ($(seed_spec "$target")) finds no file under $corpus" >&2
    exit 2
  fi
  echo "$target: $count seed(s)"
done

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
