/* walkmesh public API: include this one header. It is the whole library's header, so it lives
 * above core/ and the format modules: core's headers, then each module's public operations. */
#ifndef WALKMESH_H
#define WALKMESH_H

#include "wm_api.h"
#include "wm_archive.h"
#include "wm_context.h"
#include "wm_format.h"
#include "wm_geometry.h"
#include "wm_io.h"
#include "wm_layout.h"
#include "wm_mesh.h"
#include "wm_names.h"
#include "wm_parallel.h"
#include "wm_picture.h"
#include "wm_pipeline.h"
#include "wm_route.h"
#include "wm_surface.h"
#include "wm_version.h"

#include "bwm/wm_bwm.h"
#include "nwn2/wm_nwn2.h"
#include "nwn2/wm_nwn2_route.h"
#include "recast/wm_navmesh.h"
#include "recast/wm_generate.h"
#include "wmo/wm_wmo.h"

#endif
