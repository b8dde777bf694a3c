/* The C interface of the walkmesh-recast module (recast_module.cpp): Recast's build steps and
 * Detour's tile data and queries, behind plain C types, so that the library (C11) can load
 * it on demand (recast_api.c) and no process that does not build or query a navmesh loads
 * Recast, Detour or the C++ runtime. docs/recast.md says why and how.
 *
 * Conventions: coordinates are Recast's (Y up); every pointer handed out by the module is
 * freed by the module (wmrc_build_free, wmrc_free, wmrc_navmesh_close); a failing call returns
 * 0 and writes a one-line reason into `why` (WMRC_WHY bytes). Counts are ints, as in Recast. */
#ifndef WM_RECAST_MODULE_H
#define WM_RECAST_MODULE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a structure or a signature below changes: the loader refuses another. */
#define WMRC_INTERFACE_VERSION 3
#define WMRC_WHY 256

/* Which of Recast's optional steps run (wmrc_config.steps). */
enum {
    WMRC_FILTER_LOW_HANGING = 1u << 0, /* rcFilterLowHangingWalkableObstacles */
    WMRC_FILTER_LEDGES = 1u << 1,      /* rcFilterLedgeSpans */
    WMRC_FILTER_LOW_HEIGHT = 1u << 2,  /* rcFilterWalkableLowHeightSpans */
    WMRC_MEDIAN_AREAS = 1u << 3,       /* rcMedianFilterWalkableArea */
    WMRC_ALL_STEPS = 0xFu
};

/* How spans become regions (Recast's three partitionings). */
enum { WMRC_REGIONS_WATERSHED = 0, WMRC_REGIONS_MONOTONE = 1, WMRC_REGIONS_LAYERS = 2 };

/* rcConfig, field for field (sizes in voxels where Recast's are), plus the choices above. */
typedef struct wmrc_config {
    int width, height;             /* voxel columns along x and z (bmin..bmax, border included) */
    int tile_size, border_size;    /* border: voxels around the tile that are built and cut away */
    float cs, ch;                  /* cell size (x, z) and cell height (y) */
    float bmin[3], bmax[3];
    float walkable_slope_angle;    /* degrees; steeper triangles become area 0 (0: keep caller's areas) */
    int walkable_height, walkable_climb, walkable_radius; /* voxels */
    int max_edge_len;              /* voxels, 0: no limit */
    float max_simplification_error;
    int min_region_area, merge_region_area; /* voxels (squared sizes) */
    int max_verts_per_poly;        /* 3..6 (Detour's DT_VERTS_PER_POLYGON) */
    float detail_sample_dist, detail_sample_max_error;
    unsigned steps;                /* WMRC_* filters */
    int region_method;             /* WMRC_REGIONS_* */
    unsigned char low_area;        /* with WMRC_FILTER_LOW_HEIGHT: spans with less headroom than walkable_height
                                    * but at least low_height take this area instead of none (0: none) */
    int low_height;                /* voxels */
} wmrc_config;

/* A built tile: rcPolyMesh and rcPolyMeshDetail as flat arrays, owned by the module. */
typedef struct wmrc_polymesh {
    unsigned short *verts;       /* 3 per vertex, voxel coordinates from bmin (heights may be lowered) */
    int vert_count;
    const unsigned short *polys; /* 2 * nvp per polygon: vertices then neighbours (0xffff: none) */
    unsigned short *flags;       /* per polygon, 0 from Recast: the caller sets them */
    const unsigned char *areas;  /* per polygon: the area id of the triangles it came from */
    int poly_count, nvp;
    float bmin[3], bmax[3], cs, ch;
    int border_size;
    const unsigned int *detail_meshes; /* 4 per polygon: vertex base, count, triangle base, count */
    const float *detail_verts;         /* 3 per vertex, world coordinates */
    const unsigned char *detail_tris;  /* 4 per triangle: 3 indices, edge flags */
    int detail_vert_count, detail_tri_count;
} wmrc_polymesh;

typedef struct wmrc_build wmrc_build;

/* Rasterises the triangles (areas: one per triangle, 0 not walkable, 1..63 an area id) into a
 * heightfield of cfg, runs the chosen filters, builds the compact heightfield, erodes by the
 * radius, partitions, traces contours and builds the polygon and detail meshes. *out is NULL
 * (and the call succeeds) when nothing walkable remains. */
int wmrc_build_tile(const wmrc_config *cfg, const float *verts, int vert_count, const int *tris,
                    const unsigned char *areas, int tri_count, wmrc_build **out, const wmrc_polymesh **mesh,
                    char *why);
void wmrc_build_free(wmrc_build *build);

/* dtCreateNavMeshData for one built tile: Detour's tile bytes (free with wmrc_free). */
typedef struct wmrc_tile_params {
    int tile_x, tile_y;
    float walkable_height, walkable_radius, walkable_climb; /* world units */
} wmrc_tile_params;
int wmrc_create_tile_data(const wmrc_polymesh *mesh, const wmrc_tile_params *params, unsigned char **data,
                          int *size, char *why);
void wmrc_free(void *data);

/* A dtNavMesh and a dtNavMeshQuery over tiles added to it (each copied). */
typedef struct wmrc_navmesh wmrc_navmesh;
typedef struct wmrc_navmesh_params {
    float origin[3], tile_width, tile_height;
    int max_tiles, max_polys;
} wmrc_navmesh_params;
int wmrc_navmesh_open(const wmrc_navmesh_params *params, int max_nodes, wmrc_navmesh **out, char *why);
int wmrc_navmesh_add_tile(wmrc_navmesh *navmesh, const unsigned char *data, int size, char *why);
void wmrc_navmesh_close(wmrc_navmesh *navmesh);

/* A polygon of the navmesh as the caller knows it: the tile's (x, y) and its index there. */
typedef struct wmrc_poly_id {
    int tile_x, tile_y, poly;
} wmrc_poly_id;

/* findNearestPoly within half_extents of pos; *found 0 when none. include_flags: polygons
 * whose flags share a bit with it are used (dtQueryFilter's include flags). */
int wmrc_nearest_poly(wmrc_navmesh *navmesh, const float pos[3], const float half_extents[3],
                      unsigned short include_flags, int *found, wmrc_poly_id *poly, float nearest[3], char *why);
/* findPath then findStraightPath between the polygons nearest to start and end: at most
 * max_points corners into points (3 floats each); *complete 0 when the path stops at the
 * polygon nearest to end that can be reached (or was cut at max_polys polygons). */
int wmrc_find_path(wmrc_navmesh *navmesh, const float start[3], const float end[3], const float half_extents[3],
                   unsigned short include_flags, int max_polys, float *points, int max_points, int *point_count,
                   int *complete, char *why);
/* Every polygon reachable from the polygon nearest to start through polygon links (breadth
 * first over dtLinks, not bounded by Detour's node pool): up to max_polys into polys;
 * *poly_count is how many there are (may exceed max_polys: call again with more room). */
int wmrc_reachable(wmrc_navmesh *navmesh, const float start[3], const float half_extents[3],
                   unsigned short include_flags, wmrc_poly_id *polys, int max_polys, int *poly_count, char *why);

/* Every polygon whose flags share a bit with include_flags, with its region: polygons joined
 * through links share one, numbered from 0 in the order met. Up to max_polys into polys and
 * regions; *poly_count is how many there are, *region_count how many regions. */
int wmrc_regions(wmrc_navmesh *navmesh, unsigned short include_flags, wmrc_poly_id *polys, int *regions,
                 int max_polys, int *poly_count, int *region_count, char *why);

/* The functions above, by name, for the loader: one table from one symbol. */
typedef struct wmrc_functions {
    int interface_version;
    int (*build_tile)(const wmrc_config *, const float *, int, const int *, const unsigned char *, int, wmrc_build **,
                      const wmrc_polymesh **, char *);
    void (*build_free)(wmrc_build *);
    int (*create_tile_data)(const wmrc_polymesh *, const wmrc_tile_params *, unsigned char **, int *, char *);
    void (*free_data)(void *);
    int (*navmesh_open)(const wmrc_navmesh_params *, int, wmrc_navmesh **, char *);
    int (*navmesh_add_tile)(wmrc_navmesh *, const unsigned char *, int, char *);
    void (*navmesh_close)(wmrc_navmesh *);
    int (*nearest_poly)(wmrc_navmesh *, const float *, const float *, unsigned short, int *, wmrc_poly_id *, float *,
                        char *);
    int (*find_path)(wmrc_navmesh *, const float *, const float *, const float *, unsigned short, int, float *, int,
                     int *, int *, char *);
    int (*reachable)(wmrc_navmesh *, const float *, const float *, unsigned short, wmrc_poly_id *, int, int *, char *);
    int (*regions)(wmrc_navmesh *, unsigned short, wmrc_poly_id *, int *, int, int *, int *, char *);
} wmrc_functions;

/* The module's one exported symbol. */
#define WMRC_ENTRY "wmrc_functions_v1"
typedef const wmrc_functions *(*wmrc_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
