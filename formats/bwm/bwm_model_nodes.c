/* Node transforms of KotOR models: quaternion arithmetic (shared with the
 * binary model reader) and the parent chains of an ASCII model's nodes. */
#include "bwm/bwm_text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const bwm_xform bwm_xform_identity = {{0, 0, 0, 1}, {0, 0, 0}};

void bwm_rotate(const double q[4], const double v[3], double out[3])
{
    /* v + 2w(u x v) + 2u x (u x v), u = (x,y,z) */
    double u[3] = {q[0], q[1], q[2]}, w = q[3];
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double cc[3] = {u[1] * c[2] - u[2] * c[1], u[2] * c[0] - u[0] * c[2], u[0] * c[1] - u[1] * c[0]};
    for (int k = 0; k < 3; k++) out[k] = v[k] + 2 * w * c[k] + 2 * cc[k];
}

void bwm_xform_compose(const bwm_xform *parent, const bwm_xform *local, bwm_xform *out)
{
    double t[3];
    bwm_rotate(parent->q, local->t, t);
    for (int k = 0; k < 3; k++) out->t[k] = parent->t[k] + t[k];
    const double *a = parent->q, *b = local->q;
    double q[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out->q, q, sizeof q);
}

void bwm_axis_angle(const double axis_angle[4], double q[4])
{
    const double *a = axis_angle;
    double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), s = sin(a[3] / 2);
    if (len == 0.0 || a[3] == 0.0) {
        memcpy(q, bwm_xform_identity.q, sizeof bwm_xform_identity.q);
        return;
    }
    for (int k = 0; k < 3; k++) q[k] = a[k] / len * s;
    q[3] = cos(a[3] / 2);
}

/* One node body up to `endnode`: its parent, position and orientation. */
static wm_result read_node(bwm_text *t, bwm_model_node *n)
{
    int status;
    double aa[4];
    while ((status = bwm_text_line(t)) == 1) {
        if (t->fields == 0) continue;
        const char *key = t->field[0];
        if (strcasecmp(key, "endnode") == 0) return WM_OK;
        if (strcasecmp(key, "parent") == 0 && t->fields >= 2) {
            snprintf(n->parent, sizeof n->parent, "%s", t->field[1]);
        } else if (strcasecmp(key, "position") == 0 && t->fields >= 4) {
            for (int k = 0; k < 3; k++)
                if (!bwm_text_coord(t->field[1 + k], &n->local.t[k]))
                    return bwm_text_error(t, "bad position (a finite number within the coordinate limit, 1e7)");
        } else if ((strcasecmp(key, "render") == 0 || strcasecmp(key, "bitmap") == 0) && t->fields >= 2) {
            n->hidden |= strcasecmp(t->field[1], tolower((unsigned char)key[0]) == 'r' ? "0" : "NULL") == 0;
        } else if (strcasecmp(key, "orientation") == 0 && t->fields >= 5) {
            for (int k = 0; k < 4; k++)
                if (!bwm_text_coord(t->field[1 + k], &aa[k])) return bwm_text_error(t, "bad orientation");
            bwm_axis_angle(aa, n->local.q);
        }
    }
    return bwm_text_error(t, status < 0 ? "line too long" : "node without endnode");
}

static int by_name(const void *a, const void *b)
{
    const bwm_model_node *const *x = a, *const *y = b;
    return strcasecmp((*x)->name, (*y)->name);
}

static bwm_model_node *find(bwm_model_node *const *sorted, uint32_t count, const char *name)
{
    bwm_model_node key, *k = &key, **hit;
    snprintf(key.name, sizeof key.name, "%s", name);
    hit = bsearch(&k, sorted, count, sizeof *sorted, by_name);
    return hit ? *hit : NULL;
}

/* World transforms through the parent chains, each node once: a chain is walked
 * up to a node already placed, then placed on the way down. */
static wm_result place_all(wm_ctx *ctx, bwm_model_nodes *m, const char *source)
{
    uint32_t *chain = wm_alloc_array(ctx, (size_t)m->count + 1, sizeof *chain);
    uint8_t *state = wm_alloc_array(ctx, (size_t)m->count + 1, 1); /* 0 new, 1 on the chain, 2 placed */
    wm_result r = chain && state ? WM_OK : WM_ERR_NOMEM;
    if (!r) memset(state, 0, m->count);
    for (uint32_t i = 0; !r && i < m->count; i++) {
        uint32_t depth = 0;
        const bwm_model_node *top = NULL;
        for (uint32_t at = i; !r && state[at] != 2;) {
            if (state[at] == 1) {
                r = wm_error(ctx, WM_ERR_CORRUPT, "%s: node %s: its parent chain loops", source, m->nodes[at].name);
                break;
            }
            state[at] = 1;
            chain[depth++] = at;
            top = find(m->sorted, m->count, m->nodes[at].parent);
            if (!top) break;
            at = (uint32_t)(top - m->nodes);
            top = state[at] == 2 ? top : NULL;
            if (top) break;
        }
        while (!r && depth > 0) {
            bwm_model_node *n = &m->nodes[chain[--depth]];
            bwm_xform_compose(top ? &top->world : &bwm_xform_identity, &n->local, &n->world);
            state[chain[depth]] = 2;
            top = n;
        }
    }
    wm_free(ctx, chain);
    wm_free(ctx, state);
    return r;
}

wm_result bwm_model_nodes_read(wm_ctx *ctx, const char *text, size_t size, const char *source, bwm_model_nodes *out)
{
    bwm_text t;
    uint32_t capacity = 0;
    int status, animation = 0;
    wm_result r = WM_OK;
    memset(out, 0, sizeof *out);
    bwm_text_init(&t, ctx, text, size, source);
    while (!r && (status = bwm_text_line(&t)) != 0) {
        if (status < 0) {
            r = bwm_text_error(&t, "line too long");
            break;
        }
        if (t.fields < 1) continue;
        if (strcasecmp(t.field[0], "newanim") == 0) animation = 1; /* animations' nodes are keys, not placements */
        if (strcasecmp(t.field[0], "doneanim") == 0) animation = 0;
        if (animation || t.fields < 3 || strcasecmp(t.field[0], "node") != 0) continue;
        if (out->count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            bwm_model_node *grown = wm_realloc_array(ctx, out->nodes, capacity, sizeof *grown);
            if (!grown) r = WM_ERR_NOMEM;
            else out->nodes = grown;
            if (r) break;
        }
        bwm_model_node *n = &out->nodes[out->count++];
        memset(n, 0, sizeof *n);
        n->local = bwm_xform_identity;
        snprintf(n->name, sizeof n->name, "%s", t.field[2]);
        r = read_node(&t, n);
    }
    if (!r && !(out->sorted = wm_alloc_array(ctx, (size_t)out->count + 1, sizeof *out->sorted))) r = WM_ERR_NOMEM;
    for (uint32_t i = 0; !r && i < out->count; i++) out->sorted[i] = &out->nodes[i];
    if (!r) qsort(out->sorted, out->count, sizeof *out->sorted, by_name);
    if (!r) r = place_all(ctx, out, t.source);
    if (r) bwm_model_nodes_free(ctx, out);
    return r;
}

void bwm_model_nodes_free(wm_ctx *ctx, bwm_model_nodes *nodes)
{
    wm_free(ctx, nodes->nodes);
    wm_free(ctx, nodes->sorted);
    memset(nodes, 0, sizeof *nodes);
}

const bwm_model_node *bwm_model_node_find(const bwm_model_nodes *nodes, const char *name)
{
    return name && nodes->count ? find(nodes->sorted, nodes->count, name) : NULL;
}

const bwm_xform *bwm_model_node_world(const bwm_model_nodes *nodes, const char *name)
{
    const bwm_model_node *n = bwm_model_node_find(nodes, name);
    return n ? &n->world : &bwm_xform_identity;
}
