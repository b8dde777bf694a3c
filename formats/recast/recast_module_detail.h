// Repairs to Recast's detail mesh, inside the walkmesh-recast module (C++).
#ifndef WALKMESH_RECAST_MODULE_DETAIL_H
#define WALKMESH_RECAST_MODULE_DETAIL_H

#include <Recast.h>

// Detail vertices above the heightfield's top (Recast's "unset" sample height) put back on
// their polygon; returns how many were moved.
int wmrc_settle_unset_detail_heights(const rcPolyMesh &poly, rcPolyMeshDetail &detail);

#endif
