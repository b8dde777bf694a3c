/* Inside the binary model reader: the cursor over one model and the node
 * being read, shared by the walkmesh node's reader (mdl_read.c) and the
 * render meshes' (mdl_render.c). */
#ifndef WM_MDL_READER_H
#define WM_MDL_READER_H

#include "mdl/mdl.h"
#include "bwm/bwm_text.h"

#define MDL_K1_MESH_HEADER 332u
#define MDL_K2_MESH_HEADER 340u /* KotOR II adds 8 bytes of dirt/hologram fields before the area */
#define MDL_NODE_SABER 0x800u   /* lightsaber blades: their own vertex layout, never room geometry */

typedef struct mdl_reader {
    wm_cursor cur;
    wm_ctx *ctx;
    mdl_walkmesh *out;
    mdl_render *render; /* NULL: the walkmesh node is read */
    uint32_t names_offset, name_count;
    uint32_t visits, max_visits;
    char node[33]; /* name of the node being read, for messages */
} mdl_reader;

/* To a model offset (counted from byte 12), naming the node and `what` when past the end. */
wm_result mdl_seek(mdl_reader *r, uint32_t offset, const char *what);
/* n floats, each finite and within WM_COORD_LIMIT, else an error naming the node. */
wm_result mdl_read_f32s(mdl_reader *r, double *out, int n, const char *what);
/* The mesh node at `node` as one object of r->render->mesh, placed by world
 * (and the room offset); a node that does not render is counted and left out. */
wm_result mdl_read_render_mesh(mdl_reader *r, uint32_t node, const bwm_xform *world);

#endif
