/* The line reader of KotOR/NWN ASCII text (walkmeshes and models), and the
 * node transforms of a model: its nodes' parent chains, from ASCII text, and
 * the quaternion arithmetic the binary model reader shares. */
#ifndef WM_BWM_TEXT_H
#define WM_BWM_TEXT_H

#include "wm_context.h"

#include <stddef.h>
#include <stdint.h>

#define BWM_TEXT_MAX_LINE 1024
#define BWM_TEXT_MAX_FIELDS 16
#define BWM_TEXT_NAME 64

typedef struct bwm_text {
    const char *p, *end;
    const char *source;
    unsigned long line_no;
    char line[BWM_TEXT_MAX_LINE];
    char *field[BWM_TEXT_MAX_FIELDS];
    int fields;
    wm_ctx *ctx;
} bwm_text;

void bwm_text_init(bwm_text *t, wm_ctx *ctx, const char *text, size_t size, const char *source);
/* Next line split into whitespace-separated fields (comments after '#' dropped).
 * Returns 0 at the end of the text, -1 on a line too long. */
int bwm_text_line(bwm_text *t);
/* WM_ERR_CORRUPT naming the source and the line. */
wm_result bwm_text_error(bwm_text *t, const char *what);
int bwm_text_double(const char *s, double *out);  /* finite */
int bwm_text_coord(const char *s, double *out);   /* finite, within WM_COORD_LIMIT */
int bwm_text_long(const char *s, long *out);      /* a whole number within int32 */
/* A `keyword N` count, checked against the limit and the text left (every row
 * takes at least two bytes) before anything is allocated. */
wm_result bwm_text_count(bwm_text *t, uint32_t *out);

/* A rotation (unit quaternion x y z w) then a translation. */
typedef struct bwm_xform {
    double q[4];
    double t[3];
} bwm_xform;

extern const bwm_xform bwm_xform_identity;
void bwm_rotate(const double q[4], const double v[3], double out[3]);
/* out = parent after local (local's frame inside parent's). */
void bwm_xform_compose(const bwm_xform *parent, const bwm_xform *local, bwm_xform *out);
/* The quaternion of an ASCII `orientation x y z angle` (identity for a zero axis or angle). */
void bwm_axis_angle(const double axis_angle[4], double q[4]);

/* The geometry nodes of an ASCII model (animations left out): name, parent and
 * world transform through the parent chain, the root's own included. */
typedef struct bwm_model_node {
    char name[BWM_TEXT_NAME], parent[BWM_TEXT_NAME];
    bwm_xform local, world;
    int hidden; /* `render 0` or `bitmap NULL`: not drawn, or drawn invisible */
} bwm_model_node;

typedef struct bwm_model_nodes {
    bwm_model_node *nodes;
    bwm_model_node **sorted; /* by name, case-insensitive */
    uint32_t count;
} bwm_model_nodes;

/* Reads every node's placement; a parent chain that loops is WM_ERR_CORRUPT
 * naming the node. Linear in the text (names sorted once). */
wm_result bwm_model_nodes_read(wm_ctx *ctx, const char *text, size_t size, const char *source, bwm_model_nodes *out);
void bwm_model_nodes_free(wm_ctx *ctx, bwm_model_nodes *nodes);
/* The node named `name` (case-insensitive), or NULL. */
const bwm_model_node *bwm_model_node_find(const bwm_model_nodes *nodes, const char *name);
/* The world transform of the node named `name`; identity when none. */
const bwm_xform *bwm_model_node_world(const bwm_model_nodes *nodes, const char *name);

#endif
