/* What the WMO writing tests share: a grid mesh and a fresh folder to write it into. */
#ifndef TEST_WMO_FIXTURE_H
#define TEST_WMO_FIXTURE_H

#include "test_support.h"

#include <stdio.h>

/* A flat grid of quads, optionally with every triangle on its own vertices. */
static inline void make_grid(wm_mesh *m, uint32_t cells, int shared)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh_init(m);
    assert_int_equal(wm_mesh_add_object(&ctx, m, "floor", NULL), WM_OK);
    for (uint32_t y = 0; y <= cells && shared; y++)
        for (uint32_t x = 0; x <= cells; x++)
            assert_int_equal(wm_mesh_add_vertex(&ctx, m, (float)x, (float)y, 0.01f * (float)(x % 7), NULL), WM_OK);
    for (uint32_t y = 0; y < cells; y++)
        for (uint32_t x = 0; x < cells; x++) {
            uint32_t v[4];
            for (int k = 0; k < 4; k++) {
                uint32_t vx = x + (k & 1), vy = y + (k >> 1);
                if (shared)
                    v[k] = vy * (cells + 1) + vx;
                else
                    assert_int_equal(wm_mesh_add_vertex(&ctx, m, (float)vx, (float)vy, 0.01f * (float)(vx % 7), &v[k]),
                                     WM_OK);
            }
            assert_int_equal(wm_mesh_add_triangle(&ctx, m, v[0], v[1], v[3], WM_SURF_COLLISION, 1), WM_OK);
            assert_int_equal(wm_mesh_add_triangle(&ctx, m, v[0], v[3], v[2], WM_SURF_COLLISION, 1), WM_OK);
        }
}

/* A fresh folder with output names "<stem>.wmo" / "<stem>_000.wmo", a
 * context, options and a grid mesh: the setting most writing tests share. */
typedef struct written_set {
    char *dir, *root, *group;
    wm_ctx ctx;
    wm_options opts;
    wm_mesh m;
} written_set;

static inline void set_open(written_set *s, const char *stem, uint32_t cells)
{
    char name[64];
    s->dir = wmt_make_temp_dir();
    snprintf(name, sizeof name, "%s.wmo", stem);
    s->root = wmt_join(s->dir, name);
    snprintf(name, sizeof name, "%s_000.wmo", stem);
    s->group = wmt_join(s->dir, name);
    wmt_ctx_init(&s->ctx);
    wm_options_init(&s->opts);
    make_grid(&s->m, cells, 1);
}

static inline void set_close(written_set *s)
{
    wm_mesh_free(&s->ctx, &s->m);
    free(s->root);
    free(s->group);
    wmt_remove_tree(s->dir);
    free(s->dir);
}

#endif
