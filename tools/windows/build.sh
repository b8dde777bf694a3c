#!/usr/bin/env bash
# Cross-builds walkmesh for 64-bit Windows with Debian's MinGW-w64 and packages it as
# BUILD_DIR/walkmesh-VERSION-windows-x64.zip (walkmesh.exe, the walkmesh DLL with its
# headers, import library, CMake package and pkg-config file, the DLLs they need, a README).
#
#   tools/windows/build.sh [BUILD_DIR]        (default: build-windows)
#
# Needs the Debian packages mingw-w64, libz-mingw-w64-dev, libutfcpp-dev, dpkg-dev and cmake,
# and a deb-src line for this Debian suite: Assimp (only the importers and exporters walkmesh
# uses) and minizip (which Assimp needs) are cross-built from Debian's own source packages
# (apt-get source assimp zlib). They are cached in BUILD_DIR/deps-<versions>, so a second run
# only rebuilds walkmesh.
set -euo pipefail
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=$(mkdir -p "${1:-build-windows}" && cd "${1:-build-windows}" && pwd)
host=x86_64-w64-mingw32
jobs=${JOBS:-2}
toolchain=$source_dir/tools/windows/mingw-w64.cmake
step() { printf '== %s (%ss)\n' "$*" "$SECONDS"; }

# --- Dependencies, cached by the versions of Debian's source packages (and this recipe). ---
recipe=1
source_version() { apt-cache showsrc "$1" | awk '/^Version:/ { print $2; exit }'; }
assimp_version=$(source_version assimp)
zlib_version=$(source_version zlib)
if [ -z "$assimp_version" ] || [ -z "$zlib_version" ]; then
  echo "no source packages for assimp/zlib: add a deb-src line for this suite and run apt-get update" >&2
  exit 2
fi
deps=$build_dir/deps-assimp-${assimp_version//[~:]/_}-zlib-${zlib_version//[~:]/_}-r$recipe
export WALKMESH_WINDOWS_DEPS=$deps
# pkg-config must see only Windows libraries, never the build machine's.
export PKG_CONFIG_LIBDIR=$deps/lib/pkgconfig:/usr/$host/lib/pkgconfig
unset PKG_CONFIG_PATH

if [ ! -f "$deps/.complete" ]; then
  step "building Assimp $assimp_version and minizip (zlib $zlib_version) for Windows"
  rm -rf "$deps" "$build_dir/deps-source"
  mkdir -p "$build_dir/deps-source" "$deps/lib/pkgconfig" "$deps/include/minizip"
  cd "$build_dir/deps-source"
  apt-get source -qq --only-source "assimp=$assimp_version" "zlib=$zlib_version" > apt-source.log 2>&1

  # minizip: the unzip half of zlib's contrib/minizip, as a static library.
  minizip=$(echo "$build_dir"/deps-source/zlib-*/contrib/minizip)
  for f in unzip ioapi iowin32; do
    $host-gcc-posix -O2 -c "$minizip/$f.c" -o "$f.o"
  done
  $host-ar rcs "$deps/lib/libminizip.a" unzip.o ioapi.o iowin32.o
  cp "$minizip"/{unzip.h,ioapi.h,iowin32.h,crypt.h} "$deps/include/minizip/"
  cat > "$deps/lib/pkgconfig/minizip.pc" <<PC
prefix=$deps
Name: minizip
Description: zip reading from zlib's contrib/minizip (Debian zlib $zlib_version)
Version: $zlib_version
Requires.private: zlib
Libs: -L\${prefix}/lib -lminizip -lz
Cflags: -I\${prefix}/include/minizip
PC

  # Assimp: Debian's source with Debian's patches, except the one that needs the system's
  # Draco (glTF Draco compression stays off, as without that patch).
  assimp=$(echo "$build_dir"/deps-source/assimp-*/)
  patch -s -R -d "$assimp" -p1 < "$assimp/debian/patches/use-system-libdraco.patch"
  # Debian's source leaves out resource scripts (Files-Excluded: *.rc); the DLL build lists
  # one for its version information, so it gets a minimal one.
  numeric=$(echo "$assimp_version" | sed 's/[^0-9.].*//; s/\./,/g')
  printf '1 VERSIONINFO\nFILEVERSION %s,0\nPRODUCTVERSION %s,0\nBEGIN\nEND\n' "$numeric" "$numeric" > "$assimp/code/res/assimp.rc"
  importers=(OBJ GLTF FBX COLLADA PLY STL 3DS BLEND X OFF LWO ASE MS3D 3MF)
  exporters=(OBJ GLTF PLY STL COLLADA)
  flags=()
  for i in "${importers[@]}"; do flags+=("-DASSIMP_BUILD_${i}_IMPORTER=ON"); done
  for e in "${exporters[@]}"; do flags+=("-DASSIMP_BUILD_${e}_EXPORTER=ON"); done
  cmake -S "$assimp" -B "$build_dir/deps-source/assimp-build" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$deps" -DBUILD_SHARED_LIBS=ON \
    -DASSIMP_BUILD_ALL_IMPORTERS_BY_DEFAULT=OFF -DASSIMP_BUILD_ALL_EXPORTERS_BY_DEFAULT=OFF "${flags[@]}" \
    -DASSIMP_BUILD_TESTS=OFF -DASSIMP_BUILD_ASSIMP_TOOLS=OFF -DASSIMP_BUILD_SAMPLES=OFF -DASSIMP_BUILD_DOCS=OFF \
    -DASSIMP_BUILD_ZLIB=OFF -DASSIMP_BUILD_DRACO=OFF -DASSIMP_WARNINGS_AS_ERRORS=OFF -DASSIMP_INSTALL_PDB=OFF \
    -DCMAKE_CXX_FLAGS="-isystem /usr/include/utf8cpp" -DCMAKE_SHARED_LINKER_FLAGS="-L$deps/lib" > "$build_dir/deps-source/assimp-configure.log"
  cmake --build "$build_dir/deps-source/assimp-build" -j"$jobs" > "$build_dir/deps-source/assimp-build.log"
  cmake --install "$build_dir/deps-source/assimp-build" > /dev/null
  touch "$deps/.complete"
  cd "$build_dir"
  rm -rf "$build_dir/deps-source"
  step "dependencies built"
else
  step "dependencies cached in $deps"
fi

# --- Recast and Detour (navmeshes, the walkmesh-recast module): Debian's recastnavigation source
# package, those two libraries only (no demo, tests or crowd code), static, so the module carries
# them and needs no DLL of theirs. Cached on their own, beside the folder above, which stays valid.
# WALKMESH_RECAST_SOURCE=DIR builds an unpacked source tree of that version instead (an archive
# mirror that has the package but not its source files). Without either, the zip has no navmeshes.
recast_version=$(source_version recastnavigation)
recast_deps=$build_dir/deps-recast-${recast_version//[~:+]/_}-r1
if [ -n "$recast_version" ] && [ ! -f "$recast_deps/.complete" ]; then
  step "building Recast and Detour $recast_version for Windows"
  rm -rf "$recast_deps" "$build_dir/recast-source"
  mkdir -p "$build_dir/recast-source" "$recast_deps/lib" "$recast_deps/include/recastnavigation"
  recast=${WALKMESH_RECAST_SOURCE:-}
  if [ -z "$recast" ] && (cd "$build_dir/recast-source" &&
    apt-get source -qq --only-source "recastnavigation=$recast_version" > apt-source.log 2>&1); then
    recast=$(echo "$build_dir"/recast-source/recastnavigation-*/)
  fi
  if [ -n "$recast" ]; then
    for lib in Recast Detour; do
      # Debian's own optimisation (-O2), one compiler per processor, and glibc's stable qsort
      # (tools/windows/stable_qsort.c: ties sorted as on Linux, so the same .navmesh).
      printf '%s\n' "$recast/$lib"/Source/*.cpp | xargs -P "$jobs" -I{} sh -c \
        'o="$3/$(basename "$2" .cpp).o" && $0-g++-posix -O2 -I"$1" -c "$2" -o "$o" &&
         $0-objcopy --redefine-sym qsort=walkmesh_stable_qsort "$o"' "$host" "$recast/$lib/Include" {} "$build_dir/recast-source"
      $host-gcc-posix -std=c11 -O2 -Wall -Wextra -Werror -c "$source_dir/tools/windows/stable_qsort.c" \
        -o "$build_dir/recast-source/stable_qsort.o"
      $host-ar rcs "$recast_deps/lib/lib$lib.a" "$build_dir"/recast-source/*.o
      rm "$build_dir"/recast-source/*.o
      cp "$recast/$lib"/Include/*.h "$recast_deps/include/recastnavigation/"
    done
    touch "$recast_deps/.complete"
    step "Recast and Detour built"
  else
    echo "warning: no recastnavigation source ($(tail -1 "$build_dir/recast-source/apt-source.log")): no navmeshes in the zip" >&2
    rm -rf "$recast_deps"
  fi
  rm -rf "$build_dir/recast-source"
fi
if [ -f "$recast_deps/.complete" ]; then
  WALKMESH_WINDOWS_DEPS="$deps;$recast_deps" # the toolchain's search roots, a CMake list
fi

# --- walkmesh: the DLL and walkmesh.exe, with the same -Werror warnings as on Linux. ---
step "building walkmesh"
cmake -S "$source_dir" -B "$build_dir/walkmesh" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=ON -DWALKMESH_TESTS=OFF -DWALKMESH_BENCH=OFF -DWALKMESH_PYTHON=OFF > /dev/null
cmake --build "$build_dir/walkmesh" -j"$jobs"

# --- The package: the install tree plus every DLL walkmesh.exe and the walkmesh DLL load. ---
version=$(sed -n 's/^#define WALKMESH_VERSION "\(.*\)"/\1/p' "$source_dir/core/wm_version.h")
name=walkmesh-$version-windows-x64
stage=$build_dir/$name
rm -rf "$stage" "$build_dir/$name.zip"
cmake --install "$build_dir/walkmesh" --prefix "$stage" > /dev/null
cp "$deps"/bin/*.dll "$stage/bin/"
gcc_runtime=$(dirname "$($host-gcc-posix -print-libgcc-file-name)")
cp "$gcc_runtime/libgcc_s_seh-1.dll" "$gcc_runtime/libstdc++-6.dll" /usr/$host/lib/libwinpthread-1.dll /usr/$host/lib/zlib1.dll "$stage/bin/"
# Every DLL ships stripped of its symbols and debug sections (libstdc++-6.dll is 23.7 MB unstripped).
$host-strip --strip-unneeded "$stage"/bin/*.dll
# README.txt names the zip's own folder; the licence and the third-party notices go beside it.
sed "s/@VERSION@/$version/g; s/@FOLDER@/$name/g" "$source_dir/tools/windows/README.txt" | sed 's/$/\r/' > "$stage/README.txt"
sed 's/$/\r/' "$source_dir/LICENSE" > "$stage/LICENSE.txt"
sed 's/$/\r/' "$source_dir/docs/THIRD-PARTY-NOTICES.txt" > "$stage/THIRD-PARTY-NOTICES.txt"
(cd "$build_dir" && cmake -E tar cf "$name.zip" --format=zip "$name")
step "packaged $build_dir/$name.zip"
