// Recast samples the floor's height along a polygon's edges and inside it for the detail mesh;
// where its spiral search finds no span near a sample (a polygon edge along a one-cell ledge,
// for instance) it keeps its "unset" value, 0xffff cells, and the vertex lands kilometres above
// the floor (65535 x 0.05 = 3276.75 units at KotOR's cell height: blackvulkar m10aa_03a). Such a
// vertex is put back on its polygon, whose own corners have heights from the voxels.
#include "recast_module_detail.h"

#include <cfloat>
#include <cmath>

namespace {

const int MAX_CORNERS = 64; // Recast's polygons have up to maxVertsPerPoly (6 here) corners

struct corner {
    float x, y, z;
};

int polygon_corners(const rcPolyMesh &p, int poly, corner *out)
{
    const unsigned short *v = &p.polys[poly * 2 * p.nvp];
    int n = 0;
    while (n < p.nvp && n < MAX_CORNERS && v[n] != RC_MESH_NULL_IDX) {
        const unsigned short *c = &p.verts[v[n] * 3];
        out[n].x = p.bmin[0] + c[0] * p.cs, out[n].y = p.bmin[1] + c[1] * p.ch, out[n].z = p.bmin[2] + c[2] * p.cs;
        n++;
    }
    return n;
}

// The polygon's height under (x, z): inside one of its fan's triangles, interpolated there;
// else the nearest corner's.
float polygon_height(const corner *c, int n, float x, float z)
{
    for (int i = 1; i + 1 < n; i++) {
        const corner &a = c[0], &b = c[i], &d = c[i + 1];
        float det = (b.x - a.x) * (d.z - a.z) - (d.x - a.x) * (b.z - a.z);
        if (std::fabs(det) < 1e-12f)
            continue;
        float u = ((x - a.x) * (d.z - a.z) - (d.x - a.x) * (z - a.z)) / det;
        float w = ((b.x - a.x) * (z - a.z) - (x - a.x) * (b.z - a.z)) / det;
        const float slack = -1e-3f;
        if (u >= slack && w >= slack && u + w <= 1 - slack)
            return a.y + u * (b.y - a.y) + w * (d.y - a.y);
    }
    float best = FLT_MAX, y = c[0].y;
    for (int i = 0; i < n; i++) {
        float d2 = (c[i].x - x) * (c[i].x - x) + (c[i].z - z) * (c[i].z - z);
        if (d2 < best)
            best = d2, y = c[i].y;
    }
    return y;
}

} // namespace

int wmrc_settle_unset_detail_heights(const rcPolyMesh &poly, rcPolyMeshDetail &detail)
{
    const float top = poly.bmax[1] + poly.ch; // no sample of a real span lies above the heightfield
    corner corners[MAX_CORNERS];
    int moved = 0;
    for (int i = 0; i < poly.npolys; i++) {
        const unsigned int base = detail.meshes[i * 4], count = detail.meshes[i * 4 + 1];
        int n = -1;
        for (unsigned int k = base; k < base + count; k++) {
            float *v = &detail.verts[k * 3];
            if (v[1] <= top)
                continue;
            if (n < 0)
                n = polygon_corners(poly, i, corners);
            v[1] = polygon_height(corners, n, v[0], v[2]);
            moved++;
        }
    }
    return moved;
}
