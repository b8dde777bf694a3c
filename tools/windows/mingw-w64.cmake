# CMake toolchain for 64-bit Windows with Debian's MinGW-w64 (package mingw-w64), used by
# tools/windows/build.sh. The POSIX-threads flavour of the compilers: Assimp's C++ needs
# std::thread, and the bake uses pthreads (winpthreads). Libraries built for Windows
# (Assimp, minizip, Recast) live in the folders the WALKMESH_WINDOWS_DEPS environment variable
# lists (a CMake list: separated by semicolons).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 $ENV{WALKMESH_WINDOWS_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
