/* walkmesh public API: include this one header. */
#ifndef WALKMESH_H
#define WALKMESH_H

#include "wm_api.h"
#include "wm_context.h"
#include "wm_format.h"
#include "wm_geometry.h"
#include "wm_io.h"
#include "wm_mesh.h"
#include "wm_parallel.h"
#include "wm_pipeline.h"
#include "wm_surface.h"

/* The version of these headers (CMake's project version is read from here). */
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
