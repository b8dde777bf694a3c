/* The library's version: the one place it is spelled (CMake reads it from here). */
#ifndef WM_VERSION_H
#define WM_VERSION_H

#include "wm_api.h"

#define WALKMESH_VERSION_MAJOR 0
#define WALKMESH_VERSION_MINOR 1
#define WALKMESH_VERSION_PATCH 0
#define WALKMESH_VERSION "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library actually linked, e.g. "0.1.0"; compare with
 * WALKMESH_VERSION to detect a shared library older than the headers. */
WM_API const char *wm_version(void);

#ifdef __cplusplus
}
#endif

#endif
