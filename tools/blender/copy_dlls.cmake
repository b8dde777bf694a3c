# Copies every DLL of FROM into TO (the Windows library and what it loads, for the add-on zip).
file(GLOB _dlls "${FROM}/*.dll")
if(NOT _dlls)
  message(FATAL_ERROR "WALKMESH_BLENDER_WINDOWS_DLLS=${FROM} holds no DLL")
endif()
file(COPY ${_dlls} DESTINATION "${TO}")
