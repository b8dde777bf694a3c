/* walkmesh public API: include this one header. */
#ifndef WALKMESH_H
#define WALKMESH_H

#include "wm_context.h"
#include "wm_format.h"
#include "wm_geometry.h"
#include "wm_io.h"
#include "wm_mesh.h"
#include "wm_surface.h"

#define WALKMESH_VERSION "0.1.0"

#endif
