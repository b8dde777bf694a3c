#!/usr/bin/env bash
# Runs the Windows build of walkmesh (tools/windows/build.sh) under Wine over the real corpus:
#   - every KotOR .wok/.pwk, NWN2 .trx/.trn converted to its own format: byte-identical to the file;
#   - every WoW .wmo (roots and groups) converted to .wmo and to .obj: byte-identical to what the
#     Linux build writes from the same file (WMO output is rebuilt from the neutral mesh);
#   - one bake (TRX -> TRX), one OBJ import and one glTF import (Assimp, which walkmesh opens by
#     its DLL's name at run time), byte-identical to the Linux build's;
#   - an existing output refused without --force (exit 3, file untouched) and replaced with it;
#   - a folder and file name with a space and non-ASCII letters, through every command used;
#   - wildcards (*, ?) expanded by walkmesh.exe itself, as cmd does not;
#   - a program built against the package's DLL with its walkmesh.pc.
#
#   tests/windows/run-wine.sh PACKAGE_DIR LINUX_CLI [CORPUS_DIR]
#
# PACKAGE_DIR is the unpacked package (bin/walkmesh.exe inside), LINUX_CLI the Linux walkmesh
# used as the reference. CORPUS_DIR defaults to $WALKMESH_CORPUS_DIR, else ../shared/corpus
# beside the checkout; without it only the corpus-free checks run. The Wine prefix and the
# scratch files live in PACKAGE_DIR/../wine (nothing in /tmp); Wine's noise is off.
set -uo pipefail
package=$(cd "$1" && pwd)
linux_cli=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${3:-${WALKMESH_CORPUS_DIR:-$source_dir/../shared/corpus}}
exe=$package/bin/walkmesh.exe
state=$(dirname "$package")/wine
export WINEPREFIX=$state/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" LC_ALL=C.UTF-8
# Wine's own temporary folders go under the build folder too, not /tmp.
export TMPDIR=$state/tmp
work=$state/work
rm -rf "$work"
mkdir -p "$work" "$WINEPREFIX" "$TMPDIR"
cd "$work"

passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# A Unix path as the Windows program sees it (Wine maps / to drive Z:).
win() { local p=$1; printf 'Z:%s' "${p//\//\\}"; }
wm() { wine "$exe" "$@"; }

start=$SECONDS
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  wineboot -i > /dev/null 2>&1
  wineserver -w
  echo "wine prefix created in $((SECONDS - start)) s"
fi
# One wine server for the whole run (not one started and stopped around each program).
wineserver -p
trap 'wineserver -k 2> /dev/null' EXIT

# The program runs at all, and reports the version it was built as.
version=$(sed -n 's/^#define WALKMESH_VERSION "\(.*\)"/\1/p' "$source_dir/core/wm_version.h")
out=$(wm --version | tr -d '\r')
[ "$out" = "walkmesh $version" ] && pass || fail "--version printed '$out'"

# Runs COMMAND IN OUT with both builds (fresh folders) and compares every file written; where
# the Linux build refuses the input, walkmesh.exe must refuse it with the same exit code.
same_run_as_linux() {
  local command=$1 in=$2 name=$3 label=$4 file windows_code linux_code
  shift 4
  rm -rf w l && mkdir w l
  (cd w && wm "$command" "$(win "$in")" "$name" --quiet "$@" > ../w.log 2>&1)
  windows_code=$?
  (cd l && "$linux_cli" "$command" "$in" "$name" --quiet "$@" > ../l.log 2>&1)
  linux_code=$?
  if [ $windows_code -ne $linux_code ]; then
    fail "$label: exit $windows_code, the Linux build's $linux_code: $(tr -d '\r' < w.log | grep -v wine32 | head -3)"
    return
  fi
  if [ "$(cd w && ls)" != "$(cd l && ls)" ]; then
    fail "$label: different files written: $(cd w && ls | tr '\n' ' ') vs $(cd l && ls | tr '\n' ' ')"
    return
  fi
  for file in l/*; do
    [ -e "$file" ] || continue
    # OBJ/MTL headers name the Assimp build ("# (assimp v5.2.x)"), which differs by design.
    cmp -s <(grep -av '^# (assimp v' "$file") <(grep -av '^# (assimp v' "w/${file#l/}") ||
      { fail "$label: ${file#l/} differs from the Linux build's ($(cmp "$file" "w/${file#l/}" 2>&1 | head -1))"; return; }
  done
  pass
}
same_as_linux() { same_run_as_linux convert "$@"; }

# An NWN2 container's packets, one line each (type, size, SHA-256), COMP (zlib) payloads inflated.
trx_packets() {
  python3 - "$1" <<'PY'
import hashlib, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
magic, major, minor, count = struct.unpack_from("<4sHHI", data, 0)
print(magic, major, minor, count)
for i in range(count):
    kind, offset = struct.unpack_from("<4sI", data, 12 + 8 * i)
    size = struct.unpack_from("<I", data, offset + 4)[0]
    payload = data[offset + 8 : offset + 8 + size]
    if payload[:4] == b"COMP":
        payload = payload[:4] + payload[8:12] + zlib.decompress(payload[12:])
    print(kind, len(payload), hashlib.sha256(payload).hexdigest())
PY
}

if [ -d "$corpus" ]; then
  # Byte-exact round trips: WOK/PWK and TRX/TRN written back as they were read.
  count=0
  for f in "$corpus"/bwm/*.wok "$corpus"/bwm/*.pwk "$corpus"/nwn2/*.[tT][rR][xXnN]; do
    [ -f "$f" ] || continue
    ext=${f##*.}
    rm -f copy.*
    if wm convert "$(win "$f")" "copy.$ext" --quiet > w.log 2>&1 && cmp -s "$f" "copy.$ext"; then
      pass
    else
      fail "$(basename "$f"): not byte-identical after convert ($(tr -d '\r' < w.log | head -2))"
    fi
    count=$((count + 1))
  done
  echo "byte-exact round trips: $count WOK/PWK/TRX/TRN files"

  # WMO: rebuilt through the neutral mesh, so compared with the Linux build's bytes.
  count=0
  for f in "$corpus"/wmo/*.wmo; do
    same_as_linux "$f" out.wmo "$(basename "$f") -> wmo"
    same_as_linux "$f" out.obj "$(basename "$f") -> obj"
    count=$((count + 1))
  done
  echo "WMO round trips: $count files (to .wmo and .obj)"

  # Archives: every corpus archive lists with the Linux build's exit status; every walkmesh member
  # read through its archive path, with \ and with / before the member, converts to the Linux
  # build's bytes; a member written into a copy of a module gives the Linux build's archive; an
  # MPQ (StormLib is not in the Windows package) is refused, naming StormLib.
  count=0
  for a in "$corpus"/archives/*; do
    case "$a" in *.mod | *.MOD | *.erf | *.ERF | *.rim | *.hak | *.key | *.bif) ;; *) continue ;; esac
    wm info "$(win "$a")" > w.log 2>&1
    windows_code=$?
    "$linux_cli" info "$a" > l.log 2>&1
    linux_code=$?
    [ $windows_code -eq $linux_code ] && pass ||
      fail "info $(basename "$a"): exit $windows_code, the Linux build's $linux_code"
    count=$((count + 1))
    for member in $(sed -n 's/^  \([^ ]*\.[pdw][wo]k\) .* triangles$/\1/p' l.log); do
      same_run_as_linux convert "$a/$member" "out.${member##*.}" "$(basename "$a")\\$member"
      rm -rf w && mkdir w
      (cd w && wm convert "$(win "$a")/$member" "out.${member##*.}" --quiet > ../w.log 2>&1) &&
        cmp -s "w/out.${member##*.}" "l/out.${member##*.}" && pass ||
        fail "$(basename "$a")/$member (with /): not the Linux build's bytes"
    done
  done
  module=$corpus/archives/kotor-pykotor-capsule.mod
  room=$(ls "$corpus"/bwm/*.wok | head -1)
  if [ -f "$module" ] && [ -n "$room" ]; then
    rm -rf w l && mkdir w l && cp "$module" w/capsule.mod && cp "$module" l/capsule.mod
    (cd w && wm convert "$(win "$room")" 'capsule.mod\added.wok' --quiet > ../w.log 2>&1)
    windows_code=$?
    "$linux_cli" convert "$room" l/capsule.mod/added.wok --quiet > l.log 2>&1
    [ $windows_code -eq 0 ] && cmp -s w/capsule.mod l/capsule.mod && pass ||
      fail "convert into capsule.mod: exit $windows_code, or not the Linux build's archive ($(tr -d '\r' < w.log | head -2))"
  fi
  if command -v smpq > /dev/null && [ -n "$(ls "$corpus"/wmo/*.wmo 2> /dev/null)" ]; then
    rm -rf mpq && mkdir mpq && cp "$(ls "$corpus"/wmo/*.wmo | head -1)" mpq/tower.wmo
    (cd mpq && smpq -q -c test.mpq tower.wmo > /dev/null 2>&1)
    wm info "$(win "$work/mpq/test.mpq")" > w.log 2>&1
    windows_code=$?
    [ $windows_code -ne 0 ] && grep -q 'StormLib, which reads MPQ archives, is not available' w.log && pass ||
      fail "info test.mpq: exit $windows_code ($(tr -d '\r' < w.log | head -2)), expected a refusal naming StormLib"
  fi
  echo "archives: $count corpus archives listed, their walkmesh members read, one written, MPQ refused"

  # One bake, compared with the Linux build's packet by packet: the ASWM packet inflated (a Linux
  # build with libdeflate compresses it differently from zlib, the same data), the others as bytes.
  trx=$corpus/nwn2/enter_world.trx
  rm -rf w l && mkdir w l
  if (cd w && wm bake "$(win "$trx")" -o baked.trx > ../w.log 2>&1) && "$linux_cli" bake "$trx" -o l/baked.trx > /dev/null 2>&1 &&
    [ "$(trx_packets w/baked.trx)" = "$(trx_packets l/baked.trx)" ]; then
    pass
  else
    fail "bake enter_world.trx: differs from the Linux build's ($(tr -d '\r' < w.log | tail -2))"
  fi
else
  echo "no corpus at $corpus: corpus checks skipped"
fi

# navmesh_routes for Linux (the reference build's static library, its module beside it) and for
# Windows (the package's DLL through its walkmesh.pc, walkmesh-recast.dll found beside the DLL).
build_routes_probes() {
  local linux_build probe=$source_dir/tests/windows/navmesh_routes.c
  linux_build=$(dirname "$(dirname "$linux_cli")")
  # shellcheck disable=SC2046 # the flags are words
  gcc -std=c11 "$probe" -o navmesh_routes -I"$linux_build/public-include" -I"$linux_build/public-include/walkmesh" \
    -DWM_STATIC "$linux_build/libwalkmesh.a" $(sed -n 's/^Libs: //p' "$linux_build/walkmesh.pc" | sed 's/-L[^ ]*//; s/-lwalkmesh//') \
    > w.log 2>&1 && cp "$linux_build"/tools/walkmesh-recast.* . &&
    x86_64-w64-mingw32-gcc-posix -std=c11 "$probe" -o navmesh_routes.exe \
      $(PKG_CONFIG_LIBDIR="$package/lib/pkgconfig" pkg-config --cflags --libs walkmesh) >> w.log 2>&1
}

# Navmeshes: the walkmesh-recast module, with Recast and Detour cross-built from Debian's source
# (tools/windows/build.sh), loaded by walkmesh.exe beside itself. Every corpus WMO (roots and
# groups), KotOR walkmesh and NWN2 TRX, and a sample OBJ, through `navmesh`: the .navmesh (Detour's
# tile data) byte-identical to the Linux build's, as Recast's arithmetic is IEEE single precision
# in both (SSE, no fused multiply-add on x86-64 without -march).
# Detour's answers on each (nearest polygons, routes, reachable polygons: tests/windows/
# navmesh_routes.c built for both, each build querying its own file) printed exactly and the same.
if [ -f "$package/bin/walkmesh-recast.dll" ]; then
  routes_built=0
  if build_routes_probes; then routes_built=1; else fail "building navmesh_routes: $(head -3 w.log)"; fi
  count=0
  routes=0
  for f in "$corpus"/wmo/*.wmo "$corpus"/bwm/*.wok "$corpus"/bwm/*.pwk "$corpus"/nwn2/*.[tT][rR][xX]; do
    [ -f "$f" ] || continue
    same_run_as_linux navmesh "$f" out.navmesh "navmesh $(basename "$f")"
    count=$((count + 1))
    [ $routes_built -eq 1 ] && [ -f l/out.navmesh ] || continue
    ./navmesh_routes l/out.navmesh > l.routes 2>&1
    WINEPATH="$(win "$package/bin")" wine navmesh_routes.exe w/out.navmesh 2>&1 | tr -d '\r' > w.routes
    if cmp -s l.routes w.routes && grep -q '^route: result 0, complete 1' l.routes; then # a route at least
      pass
      routes=$((routes + $(grep -c '^route:' l.routes)))
    else
      fail "navmesh $(basename "$f"): Detour's answers differ or found no route: $(diff l.routes w.routes | head -3)"
    fi
  done
  echo "navmeshes: $count corpus files, each the same .navmesh as the Linux build's; $routes Detour routes the same"
  same_run_as_linux navmesh "$source_dir/corpus/courtyard.obj" courtyard.navmesh "navmesh courtyard.obj"
  same_run_as_linux navmesh "$source_dir/corpus/courtyard.obj" courtyard.obj "navmesh courtyard.obj -> obj" --preset trinitycore
else
  # Built without Recast (its source package could not be fetched): the command says so, status 4.
  wm navmesh "$(win "$source_dir/corpus/courtyard.obj")" none.navmesh > w.log 2>&1
  code=$?
  [ $code -eq 4 ] && [ ! -e none.navmesh ] && pass || fail "navmesh without the module: exit $code, expected 4"
  echo "no walkmesh-recast.dll in the package: navmesh comparisons not run"
fi

# generate (walkmesh from render geometry through Recast), path and reach (routes over walkable
# faces): where the Linux build has them, the same under Wine. generate: every corpus KotOR room
# model and the OBJ sample, the same file. path and reach: from the centres of a first, middle and
# last face of a walkable surface of every corpus KotOR walkmesh and NWN2 TRX, the same output and
# exit status (run in the file's folder, so that both print the same name).
face_points() {
  "$linux_cli" convert "$1" faces.obj --force --quiet > /dev/null 2>&1 || return
  python3 - faces.obj <<'PY'
import sys
UNWALKABLE = {"nonwalk", "obscuring", "transparent", "lava", "bottomlesspit", "deepwater", "nonwalkgrass"}
vertices, centres, material = [], [], ""
for line in open(sys.argv[1]):
    words = line.split()
    if words and words[0] == "v":
        vertices.append([float(x) for x in words[1:4]])
    elif words and words[0] == "usemtl":
        material = words[1]
    elif words and words[0] == "f" and material.lower() not in UNWALKABLE:
        corners = [vertices[int(w.split("/")[0]) - 1] for w in words[1:4]]
        x, up, z = (sum(c[i] for c in corners) / 3 for i in range(3))
        centres.append("%.4f,%.4f,%.4f" % (x, -z, up))  # OBJ is Y-up, walkmesh Z-up
if centres:
    print(centres[0], centres[len(centres) // 2], centres[-1])
PY
}
same_answer_as_linux() {
  local folder=$1 label=$2 windows_code linux_code
  shift 2
  (cd "$folder" && wm "$@" > "$work/w.out" 2>&1)
  windows_code=$?
  (cd "$folder" && "$linux_cli" "$@" > "$work/l.out" 2>&1)
  linux_code=$?
  if [ $windows_code -eq $linux_code ] && cmp -s <(tr -d '\r' < w.out) l.out; then
    pass
    [ $linux_code -eq 0 ] && answered=$((answered + 1))
  else
    fail "$label: exit $windows_code (Linux $linux_code): $(diff <(tr -d '\r' < w.out) l.out | head -3)"
  fi
}
if "$linux_cli" generate --help > /dev/null 2>&1 && [ -f "$package/bin/walkmesh-recast.dll" ]; then
  count=0
  for f in "$corpus"/bwm-models/*.mdl "$source_dir/corpus/courtyard.obj"; do
    [ -f "$f" ] || continue
    same_run_as_linux generate "$f" out.wok "generate $(basename "$f")"
    count=$((count + 1))
  done
  echo "generate: $count models, the same walkmesh as the Linux build's"
fi
if "$linux_cli" path --help > /dev/null 2>&1; then
  count=0
  answered=0
  for f in "$corpus"/bwm/*.wok "$corpus"/nwn2/*.[tT][rR][xX]; do
    [ -f "$f" ] || continue
    read -r first middle last <<< "$(face_points "$f")"
    [ -n "$last" ] || { fail "$(basename "$f"): no walkable face to start from"; continue; }
    same_answer_as_linux "$(dirname "$f")" "path $(basename "$f")" path "$(basename "$f")" "$first" "$last"
    same_answer_as_linux "$(dirname "$f")" "path $(basename "$f") (middle)" path "$(basename "$f")" "$first" "$middle" --json
    same_answer_as_linux "$(dirname "$f")" "reach $(basename "$f")" reach "$(basename "$f")" "$middle"
    count=$((count + 1))
  done
  echo "path and reach: $count walkmeshes, the same answers as the Linux build's ($answered with exit 0)"
fi

# One OBJ import (Assimp inside the Windows build), compared with the Linux build's.
same_as_linux "$source_dir/corpus/courtyard.obj" courtyard.wok "OBJ import"
wm validate "$(win "$work/w/courtyard.wok")" > w.log 2>&1 && pass || fail "validate courtyard.wok: $(tr -d '\r' < w.log)"

# An existing output: refused without --force (exit 3, untouched), replaced with it.
echo "not a walkmesh" > existing.wok
wm convert "$(win "$source_dir/corpus/courtyard.obj")" existing.wok > w.log 2>&1
code=$?
[ $code -eq 3 ] && [ "$(cat existing.wok)" = "not a walkmesh" ] && pass || fail "overwrite without --force: exit $code"
wm convert "$(win "$source_dir/corpus/courtyard.obj")" existing.wok --force > w.log 2>&1 &&
  cmp -s existing.wok w/courtyard.wok && pass || fail "--force did not replace the file: $(tr -d '\r' < w.log)"
ls existing.wok.tmp-* > /dev/null 2>&1 && fail "a temporary file was left behind" || pass

# A folder and file name with a space and non-ASCII letters (UTF-8 on both sides).
dir="$work/dossier été"
mkdir -p "$dir"
cp "$source_dir/corpus/courtyard.obj" "$dir/cour intérieure ü.obj"
(cd "$dir" && wm convert "cour intérieure ü.obj" "çà ü.wok" --quiet > ../w.log 2>&1) && cmp -s "$dir/çà ü.wok" w/courtyard.wok &&
  pass || fail "non-ASCII relative names: $(tr -d '\r' < w.log)"
wm convert "$(win "$dir/çà ü.wok")" "$(win "$dir/çà ü.svg")" --quiet > w.log 2>&1 && [ -s "$dir/çà ü.svg" ] &&
  pass || fail "non-ASCII absolute names: $(tr -d '\r' < w.log)"
wm info "$(win "$dir/çà ü.wok")" > w.log 2>&1 && grep -q "çà ü.wok" w.log && pass || fail "info on a non-ASCII name: $(tr -d '\r' < w.log | head -2)"
wm convert "$(win "$dir/çà ü.wok")" "$(win "$dir/çà ü.wok")" --force --quiet > w.log 2>&1 && cmp -s "$dir/çà ü.wok" w/courtyard.wok &&
  pass || fail "--force onto the same non-ASCII name: $(tr -d '\r' < w.log)"

# Wildcards: cmd hands "*.obj" to the program unexpanded; walkmesh.exe expands * and ? itself
# (sorted, folder part kept), and the batch creates its output folder.
mkdir -p "$work/wild"
cp "$source_dir/corpus/courtyard.obj" "$work/wild/a.obj"
cp "$source_dir/corpus/courtyard.obj" "$work/wild/b.obj"
(cd "$work/wild" && wm convert "*.obj" -o out --to wok --quiet > ../w.log 2>&1) && cmp -s "$work/wild/out/a.wok" w/courtyard.wok &&
  cmp -s "$work/wild/out/b.wok" w/courtyard.wok && pass || fail "convert *.obj: $(tr -d '\r' < w.log | head -2)"
wm info "$(win "$work/wild")\\?.obj" > w.log 2>&1 && [ "$(grep -c '^file:' w.log)" -eq 2 ] &&
  pass || fail "info DIR\\?.obj: $(tr -d '\r' < w.log | head -2)"
wm info "$(win "$work/wild")\\none*.obj" > w.log 2>&1
[ $? -eq 2 ] && grep -q 'none\*.obj: no such file' w.log && pass || fail "an unmatched wildcard: $(tr -d '\r' < w.log | head -2)"

# One glTF import: Assimp, which walkmesh opens at run time by its DLL's name (the name, taken
# from the import library, once missed the DLL's version suffix and no glTF could be read).
same_as_linux "$source_dir/corpus/courtyard.gltf" courtyard.wok "glTF import (Assimp)"

# The DLL as a library: a program built from the package's walkmesh.pc alone reads a sample.
flags=$(PKG_CONFIG_LIBDIR="$package/lib/pkgconfig" pkg-config --cflags --libs walkmesh)
# shellcheck disable=SC2086 # the flags are words
if x86_64-w64-mingw32-gcc-posix -std=c11 "$source_dir/tests/consumer/consumer.c" -o consumer.exe $flags > w.log 2>&1; then
  out=$(WINEPATH="$(win "$package/bin")" wine consumer.exe "$(win "$source_dir/corpus/courtyard.obj")" 2> /dev/null | tr -d '\r')
  [ "$out" = "$version 56" ] && pass || fail "DLL consumer printed '$out', expected '$version 56'"
else
  fail "building a program against the package: $(head -3 w.log)"
fi

echo "wine: $passed passed, $failed failed ($((SECONDS - start)) s)"
cd / && rm -rf "$work"
[ $failed -eq 0 ]
