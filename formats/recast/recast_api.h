/* The walkmesh-recast module, loaded on first use (recast_api.c): a process that does not
 * build or query a navmesh never loads it, Recast, Detour or the C++ runtime. */
#ifndef WM_RECAST_API_H
#define WM_RECAST_API_H

#include "walkmesh.h"

#include "recast_module.h"

/* The module's functions, loading it the first time (thread-safe); NULL with a
 * WM_ERR_UNSUPPORTED message in ctx (when given) if it cannot be loaded. */
const wmrc_functions *wm_recast_load(wm_ctx *ctx);

#endif
