# walkmesh as a library: a shared build installed into a scratch prefix, checked for
# its SONAME, the CLI's RUNPATH, the installed headers and the exported names, then
# three consumers (find_package, pkg-config, add_subdirectory) each read a sample.
set(build "${WORK_DIR}/shared-build")
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "${shown} failed:\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

function(check_consumer program label)
  execute_process(COMMAND "${program}" "${SAMPLE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  # courtyard.obj: 56 triangles (corpus/README.md); the version is core/wm_version.h's.
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "${version} 56")
    message(FATAL_ERROR "${label} consumer printed '${out}' (exit ${rc}) ${err}, expected '${version} 56'")
  endif()
  message(STATUS "${label} consumer: ${out}")
endfunction()

file(STRINGS "${SOURCE_DIR}/core/wm_version.h" version_line REGEX "#define WALKMESH_VERSION \"")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" version "${version_line}")

# 1. The shared library, installed.
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}" -DCMAKE_C_COMPILER=${CC}
  -DBUILD_SHARED_LIBS=ON -DWALKMESH_TESTS=OFF -DWALKMESH_BENCH=OFF -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build "${build}" -j2)
run(${CMAKE_COMMAND} --install "${build}" --prefix "${prefix}")
file(GLOB_RECURSE library "${prefix}/lib*/libwalkmesh.so.${version}")
if(NOT library)
  message(FATAL_ERROR "libwalkmesh.so.${version} not installed")
endif()
run(readelf -d "${library}")
if(NOT run_output MATCHES "Library soname: \\[libwalkmesh\\.so\\.0\\]")
  message(FATAL_ERROR "SONAME is not libwalkmesh.so.0:\n${run_output}")
endif()
run(readelf -d "${prefix}/bin/walkmesh")
if(NOT run_output MATCHES "\\(RUNPATH\\)[^\n]*\\$ORIGIN/\\.\\./lib")
  message(FATAL_ERROR "the installed CLI has no RUNPATH to ../lib:\n${run_output}")
endif()
run("${prefix}/bin/walkmesh" formats)

# Installed headers: walkmesh.h and exactly the headers it includes (a module's public header
# in its folder: walkmesh/nwn2/wm_nwn2.h).
file(GLOB_RECURSE installed LIST_DIRECTORIES true RELATIVE "${prefix}/include" "${prefix}/include/*")
file(STRINGS "${SOURCE_DIR}/formats/walkmesh.h" includes REGEX "^#include \"")
set(expected walkmesh walkmesh/walkmesh.h)
foreach(line IN LISTS includes)
  string(REGEX REPLACE "^#include \"([^\"]+)\".*" "walkmesh/\\1" header "${line}")
  list(APPEND expected ${header})
  get_filename_component(folder "${header}" DIRECTORY)
  list(FIND expected "${folder}" known)
  if(known EQUAL -1)
    list(APPEND expected ${folder})
  endif()
endforeach()
list(SORT installed)
list(SORT expected)
if(NOT installed STREQUAL expected)
  message(FATAL_ERROR "installed headers and folders ${installed}\nare not the public API ${expected}")
endif()

# Exported names: only wm_ / WM_.
run(nm -D --defined-only "${library}")
string(REGEX MATCHALL "[^\n]+" symbols "${run_output}")
set(public 0)
set(outside "")
foreach(line IN LISTS symbols)
  string(REGEX REPLACE "^.* " "" name "${line}")
  if(name MATCHES "^(wm_|WM_)")
    math(EXPR public "${public} + 1")
  else()
    list(APPEND outside ${name})
  endif()
endforeach()
if(outside)
  message(FATAL_ERROR "libwalkmesh exports names outside wm_/WM_: ${outside}")
endif()
# ... and every function the public headers declare WM_API is among them.
set(declared 0)
foreach(header IN LISTS installed)
  if(header MATCHES "\\.h$" AND NOT header MATCHES "wm_api\\.h$")
    file(STRINGS "${prefix}/include/${header}" lines REGEX "^WM_API ")
    list(LENGTH lines n)
    math(EXPR declared "${declared} + ${n}")
    # A public function declared without WM_API would be neither exported nor counted.
    file(STRINGS "${prefix}/include/${header}" unmarked REGEX "^[a-z][^;(]*[ *]wm_[a-z0-9_]+\\(")
    list(FILTER unmarked EXCLUDE REGEX "^typedef ")
    if(unmarked)
      message(FATAL_ERROR "${header} declares public functions without WM_API: ${unmarked}")
    endif()
  endif()
endforeach()
if(NOT declared EQUAL public)
  message(FATAL_ERROR "the public headers declare ${declared} WM_API functions, the library exports ${public}")
endif()
message(STATUS "nm -D: ${public} exported names, all wm_/WM_, = the ${declared} WM_API declarations")

# 2. find_package(walkmesh CONFIG).
run(${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/package" -G "${GENERATOR}"
  -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_RPATH=${prefix}/lib)
run(${CMAKE_COMMAND} --build "${WORK_DIR}/package")
check_consumer("${WORK_DIR}/package/consumer" "find_package")

# 3. pkg-config, from the installed walkmesh.pc alone.
file(GLOB_RECURSE pc "${prefix}/*/walkmesh.pc")
get_filename_component(pc_dir "${pc}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
run(pkg-config --cflags --libs walkmesh)
string(STRIP "${run_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
get_filename_component(libdir "${library}" DIRECTORY)
run(${CC} -std=c11 "${CONSUMER_DIR}/consumer.c" -o "${WORK_DIR}/pkgconfig-consumer" ${flags} -Wl,-rpath,${libdir})
check_consumer("${WORK_DIR}/pkgconfig-consumer" "pkg-config")

# 4. add_subdirectory(walkmesh), as a static library inside another project.
run(${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/subdirectory" -G "${GENERATOR}"
  -DCMAKE_C_COMPILER=${CC} -DWALKMESH_SOURCE=${SOURCE_DIR})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/subdirectory" -j2)
check_consumer("${WORK_DIR}/subdirectory/consumer" "add_subdirectory")
file(REMOVE_RECURSE "${WORK_DIR}")
