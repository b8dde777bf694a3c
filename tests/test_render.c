/* `walkmesh render`: every corpus walkmesh in every view is valid SVG 1.1
 * (xmllint against Debian's DTD) and shows the facts its file holds,
 * counted here from the file itself: KotOR transitions (from the edge
 * table's bytes or the ASCII roomlinks), hooks and perimeter loops; NWN2
 * tiles and islands; a --path route that follows the file's next hops. */
#define _GNU_SOURCE
#include "test_support.h"
#include "svg_inspect.h"
#include "test_wmo_raw.h"
#include "nwn2/bake.h"
#include "nwn2/nwn2.h"
#include "nwn2/wm_nwn2_route.h"
#include "wm_picture.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* ------------------------------------------------------------ KotOR facts */

typedef struct kotor_facts {
    uint32_t transitions, hooks, loops;
    uint32_t rooms;         /* distinct rooms the transitions lead to */
    int32_t room[64];       /* the first 64 of them */
    int heights;            /* 1: lo/hi below hold the walkable faces' centre heights */
    float lo, hi;
} kotor_facts;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float lef32(const uint8_t *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void add_room(kotor_facts *f, int32_t room)
{
    for (uint32_t i = 0; i < f->rooms && i < 64; i++)
        if (f->room[i] == room)
            return;
    if (f->rooms < 64)
        f->room[f->rooms] = room;
    f->rooms++;
}

/* surfacemat.2da rows whose Walk column is 1, as shipped (FORMAT-NOTES section 1). */
static int walkable_row(uint32_t material)
{
    static const uint32_t rows[] = {1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i] == material)
            return 1;
    return 0;
}

/* Walkable faces' centre heights: vertex count/offset at 0x48/0x4C, face
 * count/offset at 0x50/0x54 (three u32 indices), materials at 0x58. */
static void binary_heights(const uint8_t *data, size_t size, kotor_facts *f)
{
    uint32_t nv = le32(data + 0x48), vo = le32(data + 0x4C), nf = le32(data + 0x50), fo = le32(data + 0x54);
    uint32_t mo = le32(data + 0x58);
    assert_true((uint64_t)vo + 12ull * nv <= size && (uint64_t)fo + 12ull * nf <= size && (uint64_t)mo + 4ull * nf <= size);
    f->lo = 1e30f;
    f->hi = -1e30f;
    for (uint32_t t = 0; t < nf; t++) {
        if (!walkable_row(le32(data + mo + 4 * (size_t)t)))
            continue;
        float z = 0;
        for (int k = 0; k < 3; k++) {
            uint32_t v = le32(data + fo + 12 * (size_t)t + 4 * (size_t)k);
            assert_true(v < nv);
            z += lef32(data + vo + 12 * (size_t)v + 8);
        }
        z /= 3.0f;
        f->lo = z < f->lo ? z : f->lo;
        f->hi = z > f->hi ? z : f->hi;
        f->heights = 1;
    }
}

/* From the bytes (FORMAT-NOTES section 1): type at 0x08, edge count/offset
 * at 0x78/0x7C (8-byte edges: code, transition), perimeter count at 0x80. */
static kotor_facts binary_facts(const char *path)
{
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    assert_true(size >= 136);
    kotor_facts f;
    memset(&f, 0, sizeof f);
    f.hooks = le32(data + 8) == 0 ? 2u : 0u;
    f.loops = le32(data + 0x80);
    uint32_t count = le32(data + 0x78), offset = le32(data + 0x7C);
    assert_true((uint64_t)offset + 8ull * count <= size);
    for (uint32_t e = 0; e < count; e++) {
        int32_t room = (int32_t)le32(data + offset + 8 * (size_t)e + 4);
        if (room != -1) {
            f.transitions++;
            add_room(&f, room);
        }
    }
    binary_heights(data, size, &f);
    free(data);
    return f;
}

/* ASCII: the rows of every `roomlinks N` block ("edge room"). */
static kotor_facts ascii_facts(const char *path)
{
    char *text = svgt_load(path);
    kotor_facts f;
    memset(&f, 0, sizeof f);
    uint32_t links = 0;
    for (char *line = text; line && *line;) {
        while (*line == ' ' || *line == '\t')
            line++;
        long edge, room;
        if (links && sscanf(line, "%ld %ld", &edge, &room) == 2) {
            add_room(&f, (int32_t)room);
            links--;
        } else if (strncasecmp(line, "roomlinks", 9) == 0) {
            links = (uint32_t)strtoul(line + 9, NULL, 10);
            f.transitions += links;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    free(text);
    return f;
}

/* The CSS declarations of class cls in the picture's stylesheet. */
static const char *css_of(const char *svg, const char *cls)
{
    char key[32];
    snprintf(key, sizeof key, "\n.%s{", cls);
    const char *at = strstr(svg, key);
    return at ? at + strlen(key) : NULL;
}

/* Projected area, in px², of the faces drawn in class cls. */
static double class_area(const char *svg, const char *cls)
{
    char key[48];
    snprintf(key, sizeof key, "<path class=\"%s\" d=\"", cls);
    double area = 0;
    for (const char *at = strstr(svg, key); at; at = strstr(at, key)) {
        at += strlen(key);
        double p[6];
        int used;
        while (sscanf(at, "M%lf %lfL%lf %lfL%lf %lfZ%n", &p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &used) == 6) {
            area += fabs((p[2] - p[0]) * (p[5] - p[1]) - (p[3] - p[1]) * (p[4] - p[0])) / 2;
            at += used;
        }
    }
    return area;
}

/* Every surface the legend lists is visible: its faces cover some area on
 * the page, or (walls seen edge-on) are outlined at least 1.5 px wide. */
static void check_listed_visible(const char *svg)
{
    const char *legend = strstr(svg, "top view, looking down");
    for (const char *at = legend ? strstr(legend, "<rect class=\"") : NULL; at; at = strstr(at + 1, "<rect class=\"")) {
        char cls[16];
        if (sscanf(at, "<rect class=\"%15[^\"]\"", cls) != 1 || (cls[0] != 'n' && cls[0] != 'w'))
            continue;
        char drawn[32];
        snprintf(drawn, sizeof drawn, "<path class=\"%s\"", cls);
        if (!strstr(svg, drawn) && cls[0] == 'w')
            continue; /* a height ramp swatch: a shade, not a category */
        assert_non_null(strstr(svg, drawn));
        const char *css = css_of(svg, cls);
        assert_non_null(css);
        if (class_area(svg, cls) < 0.5 && !strstr(css, "stroke-width:1.5"))
            fail_msg("legend class %s is listed but nothing of it is visible", cls);
    }
}

/* Shading by the file's own walkable heights: a range under 0.5 m is flat
 * (every walkable face in its surface's own colour, the legend's swatch);
 * otherwise the lowest face gets the darkest shade (class _0), the highest
 * the surface's own colour (_5), and the legend states the range as the
 * file has it. */
static void check_shading(const kotor_facts *f, const char *svg)
{
    char text[96];
    int flat = f->hi - f->lo < 0.5f;
    snprintf(text, sizeof text, flat ? ">height %.2f to %.2f m, flat: one shade<" : ">height %.2f to %.2f m<",
             (double)f->lo, (double)f->hi);
    if (!strstr(svg, text))
        fail_msg("no legend row '%s'", text);
    for (int band = 0; band < 5; band++) {
        snprintf(text, sizeof text, "_%d\" d=\"", band);
        if (flat || band == 0)
            assert_int_equal(strstr(svg, text) != NULL, !flat);
    }
    assert_non_null(strstr(svg, "_5\" d=\""));
}

/* One label per transition (a run of edges to one room): as many labels as
 * rooms the file's edges lead to, each room once. */
static void check_kotor(const char *path, const char *svg, int view)
{
    int ascii = ends_with(path, ".ascii");
    kotor_facts f = ascii ? ascii_facts(path) : binary_facts(path);
    assert_int_equal(svgt_count_in_group(svg, "trl", "text"), f.rooms);
    char *labels = svgt_texts_in_group(svg, "trl");
    for (uint32_t i = 0; i < f.rooms && i < 64; i++) {
        char label[32];
        snprintf(label, sizeof label, "room %d\n", f.room[i]);
        const char *at = strstr(labels, label);
        assert_non_null(at);
        assert_null(strstr(at + 1, label));
    }
    free(labels);
    assert_int_equal(svgt_count_in_group(svg, "tr", "path"), f.transitions);
    assert_int_equal(svgt_count_in_group(svg, "hk", "circle"), f.hooks);
    /* the legend lists only what is drawn */
    assert_int_equal(strstr(svg, ">transition to a room, labelled") != NULL, f.transitions > 0);
    assert_int_equal(strstr(svg, ">use hook (2)") != NULL, f.hooks > 0);
    if (!ascii)
        assert_int_equal(svgt_count_in_group(svg, "pm", "path"), f.loops);
    if (f.heights)
        check_shading(&f, svg);
    if (view == WM_VIEW_TOP)
        check_listed_visible(svg);
}

/* ------------------------------------------------------------- NWN2 facts */

/* A tile's width on the page: the picture is cropped to the triangles and
 * its longest side is 960 px (docs/render.md), 3 % padding each side. The
 * iso view's extent is not a plain span: it is measured as the top view's. */
static double nwn2_tile_pixels(const nwn2_aswm *a, int view)
{
    double lo[3] = {1e30, 1e30, 1e30}, hi[3] = {-1e30, -1e30, -1e30};
    for (uint32_t t = 0; t < a->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            if (a->triangles[t].v[k] < a->vertex_count)
                for (int c = 0; c < 3; c++) {
                    double x = a->vertices[3 * (size_t)a->triangles[t].v[k] + c];
                    lo[c] = x < lo[c] ? x : lo[c];
                    hi[c] = x > hi[c] ? x : hi[c];
                }
    int u = view == WM_VIEW_SIDE ? 1 : 0, v = view == WM_VIEW_FRONT || view == WM_VIEW_SIDE ? 2 : 1;
    double extent = fmax(hi[u] - lo[u], hi[v] - lo[v]);
    return a->tile_width * 960.0 / (extent * 1.06);
}

/* Top and iso: one label per tile; front and side see the tiles edge-on and
 * label each column (front, constant x) or row (side, constant y) of tiles.
 * Numbers and the island graph only where they are readable: a tile over
 * 40 px wide on the page (992 numbers covered a 32 x 31 area's rooms). A
 * number is never under an island dot: numbers are drawn after the dots. */
static void check_nwn2(const char *path, const char *svg, int view)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file file;
    assert_int_equal(nwn2_file_read(&ctx, path, &file), WM_OK);
    const nwn2_aswm *a = &file.aswm;
    uint32_t labels = view == WM_VIEW_FRONT  ? a->grid_width
                      : view == WM_VIEW_SIDE ? a->grid_height
                                              : a->grid_width * a->grid_height;
    double tile_pixels = nwn2_tile_pixels(a, view);
    /* page padding aside; iso spans more than the top view, so it is only ever less readable */
    int readable = view != WM_VIEW_ISO && tile_pixels >= 44, crowded = tile_pixels < 36;
    uint32_t numbers = svgt_count_in_group(svg, "tn", "text");
    if (readable)
        assert_int_equal(numbers, labels);
    if (crowded)
        assert_int_equal(numbers, 0);
    const char *dots = strstr(svg, "<g class=\"ic\">"), *first_number = strstr(svg, "<g class=\"tn\">");
    if (dots && first_number)
        assert_true(first_number > dots);
    /* islands that hold a walkable triangle */
    uint8_t *seen = calloc(a->island_count + 1, 1);
    uint32_t islands = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        uint16_t i = a->triangles[t].island;
        if ((a->triangles[t].flags & NWN2_TRI_WALKABLE) && i < a->island_count && !seen[i]++)
            islands++;
    }
    if (readable)
        assert_int_equal(svgt_count_in_group(svg, "ic", "circle"), islands);
    if (crowded)
        assert_int_equal(svgt_count_in_group(svg, "ic", "circle"), 0);
    free(seen);
    /* linked islands (the file's adjacency lists) never share a colour */
    const char *colours = strstr(svg, "island colours");
    assert_non_null(colours);
    colours += strlen("island colours");
    uint8_t *colour = calloc(a->island_count + 1, 1);
    for (uint32_t i = 0; i < a->island_count; i++)
        colour[i] = (uint8_t)strtoul(colours, (char **)&colours, 10);
    for (uint32_t i = 0; i < a->island_count; i++)
        for (uint32_t k = 0; k < a->islands[i].adjacent_count; k++)
            if (a->islands[i].adjacent[k] < a->island_count)
                assert_int_not_equal(colour[i], colour[a->islands[i].adjacent[k]]);
    free(colour);
    nwn2_file_free(&ctx, &file);
}

/* -------------------------------------------------------------- WMO facts */

/* Collision triangles of a group file by the server rule, counted from its
 * bytes (test_wmo_raw.h, FORMAT-NOTES section 3); 0 for groups the rule
 * skips (MOGP flags 0x80, 0x4000000) and LOD groups (no MOPY). */
static uint32_t group_collision(const char *path)
{
    size_t size, begin, end;
    uint8_t *data = wmt_read_file(path, &size);
    uint32_t count = 0;
    if (raw_group_range(data, size, &begin, &end) && !(raw_u32(data + begin - 68 + 8) & 0x4000080u))
        count = raw_server_collision_count(data, size);
    free(data);
    return count;
}

/* The legend row of group g ("group g: F floor, W wall..."): F + W, or -1 when absent. */
static int64_t legend_group(const char *svg, uint32_t g)
{
    char row[48];
    snprintf(row, sizeof row, ">group %u: ", g);
    const char *at = strstr(svg, row);
    unsigned floors, walls;
    if (!at || sscanf(at + strlen(row), "%u floor, %u wall", &floors, &walls) != 2)
        return -1;
    return (int64_t)floors + walls;
}

static void check_wmo(const char *path, const char *svg, int view)
{
    if (view != WM_VIEW_TOP) /* the legend is the same in every view */
        return;
    size_t n = strlen(path);
    int is_group = n > 8 && path[n - 8] == '_' && isdigit((unsigned char)path[n - 5]);
    if (is_group) {
        assert_int_equal(legend_group(svg, (uint32_t)atoi(path + n - 7)), group_collision(path));
        return;
    }
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    assert_true(size >= 24 && memcmp(data + 12, "DHOM", 4) == 0); /* MVER, then MOHD */
    uint32_t groups = le32(data + 20 + 4);
    free(data);
    for (uint32_t g = 0; g < groups; g++) {
        char *group_path = malloc(n + 8);
        snprintf(group_path, n + 8, "%.*s_%03u.wmo", (int)(n - 4), path, g);
        uint32_t expected = group_collision(group_path);
        assert_int_equal(legend_group(svg, g), expected ? (int64_t)expected : -1);
        free(group_path);
    }
}

/* ---------------------------------------------------- every file, every view */

static const char *const views[] = {"top", "front", "side", "iso"};

static size_t largest_svg;
static char largest_name[256];

static void render_folder(const char *folder, const char *const *suffixes,
                          void (*check)(const char *, const char *, int))
{
    svgt_need_validator();
    char **files;
    size_t count = wmt_corpus_list(folder, suffixes, &files);
    char *dir = wmt_make_temp_dir();
    uint32_t drawn = 0, refused = 0;
    for (size_t i = 0; i < count; i++) {
        char *paths[4];
        int ok = 1;
        for (int v = 0; v < 4 && ok; v++) {
            char name[16];
            snprintf(name, sizeof name, "%s.svg", views[v]);
            paths[v] = wmt_join(dir, name);
            wm_ctx ctx;
            wmt_ctx_init(&ctx);
            wm_options opts;
            wm_options_init(&opts);
            wm_option_set(&ctx, &opts, "view", views[v]);
            wm_result r = wm_render_file(&ctx, files[i], NULL, paths[v], &opts, 1);
            if (r != WM_OK) {
                /* only WMO LOD groups hold nothing to draw (no MOPY, no collision) */
                if (!strstr(files[i], "_lod") || r != WM_ERR_INVALID || !strstr(ctx.message, "nothing to draw"))
                    fail_msg("%s (%s view): %s", files[i], views[v], ctx.message);
                ok = 0;
                free(paths[v]);
                refused++;
            }
        }
        if (!ok)
            continue;
        assert_int_equal(svgt_validate((const char *const *)paths, 4), 0);
        for (int v = 0; v < 4; v++) {
            char *svg = svgt_load(paths[v]);
            char title[300];
            snprintf(title, sizeof title, "<title>%s</title>", base_name(files[i]));
            assert_non_null(strstr(svg, title));
            if (check)
                check(files[i], svg, v);
            size_t size = strlen(svg);
            if (size > largest_svg) {
                largest_svg = size;
                snprintf(largest_name, sizeof largest_name, "%s (%s)", base_name(files[i]), views[v]);
            }
            free(svg);
            free(paths[v]);
        }
        drawn++;
    }
    print_message("%s: %u files drawn in 4 views, %u LOD groups refused (nothing to draw)\n", folder, drawn, refused);
    print_message("largest picture so far: %s, %zu bytes\n", largest_name, largest_svg);
    /* opens quickly in a browser: a few MB at most */
    assert_true(largest_svg < 4u * 1024 * 1024);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(files, count);
}

static void kotor_files(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", ".pwk", ".dwk", ".ascii", NULL};
    render_folder("bwm", suffixes, check_kotor);
}

static void nwn2_files(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".trx", ".trn", NULL};
    render_folder("nwn2", suffixes, check_nwn2);
}

static void nwn2_area_files(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".trx", ".trn", NULL};
    render_folder("nwn2-areas", suffixes, check_nwn2);
}

static void wmo_files(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wmo", NULL};
    render_folder("wmo", suffixes, check_wmo);
}

/* Same file, same options: the same bytes. */
static void deterministic(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    char *dir = wmt_make_temp_dir();
    char *a = wmt_join(dir, "a.svg"), *b = wmt_join(dir, "b.svg");
    for (int v = 0; v < 4; v++) {
        const char *args_a[] = {"render", trx, "-o", a, "--view", views[v], "--force", NULL};
        const char *args_b[] = {"render", trx, "-o", b, "--view", views[v], "--force", NULL};
        assert_int_equal(wmt_run_cli(NULL, NULL, args_a), 0);
        assert_int_equal(wmt_run_cli(NULL, NULL, args_b), 0);
        char *x = svgt_load(a), *y = svgt_load(b);
        assert_string_equal(x, y);
        free(x);
        free(y);
    }
    free(a);
    free(b);
    wmt_remove_tree(dir);
    free(dir);
    free(trx);
}

/* ---------------------------------------------------------------- routes */

static void centroid(const nwn2_aswm *a, uint32_t t, float out[2])
{
    for (int c = 0; c < 2; c++)
        out[c] = (a->vertices[3 * (size_t)a->triangles[t].v[0] + c] + a->vertices[3 * (size_t)a->triangles[t].v[1] + c] +
                  a->vertices[3 * (size_t)a->triangles[t].v[2] + c]) / 3.0f;
}

static int contains(const nwn2_aswm *a, uint32_t t, const float p[2])
{
    double s[3];
    for (int k = 0; k < 3; k++) {
        const float *u = a->vertices + 3 * (size_t)a->triangles[t].v[k];
        const float *w = a->vertices + 3 * (size_t)a->triangles[t].v[(k + 1) % 3];
        s[k] = ((double)w[0] - u[0]) * ((double)p[1] - u[1]) - ((double)w[1] - u[1]) * ((double)p[0] - u[0]);
    }
    return (s[0] >= -1e-6 && s[1] >= -1e-6 && s[2] >= -1e-6) || (s[0] <= 1e-6 && s[1] <= 1e-6 && s[2] <= 1e-6);
}

/* Corners two triangles have in common, by position (a TRX may repeat a
 * vertex on both sides of a tile line). */
static uint32_t shared_vertices(const nwn2_aswm *a, uint32_t x, uint32_t y)
{
    uint32_t n = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            n += memcmp(a->vertices + 3 * (size_t)a->triangles[x].v[i], a->vertices + 3 * (size_t)a->triangles[y].v[j],
                        3 * sizeof(float)) == 0;
    return n;
}

static uint32_t tile_of(const nwn2_aswm *a, uint32_t t)
{
    for (uint32_t i = 0; i < a->grid_width * a->grid_height; i++)
        if (t >= a->tiles[i].triangle_offset && t - a->tiles[i].triangle_offset < a->tiles[i].triangle_count)
            return i;
    fail_msg("triangle %u is in no tile", t);
    return 0;
}

/* The file's next hop inside a tile from triangle `from` toward `to`. */
static uint32_t tile_next_hop(const nwn2_aswm *a, uint32_t from, uint32_t to)
{
    const nwn2_tile *tile = &a->tiles[tile_of(a, from)];
    uint8_t f = tile->local_to_node[from - tile->triangle_offset], g = tile->local_to_node[to - tile->triangle_offset];
    assert_true(f < tile->node_count && g < tile->node_count);
    uint8_t hop = tile->nodes[(size_t)f * tile->node_count + g];
    assert_int_not_equal(hop, 0xFF);
    return tile->triangle_offset + tile->node_to_local[hop & 0x7F];
}

/* Reads "route triangles ..." back and checks every step against the file. */
static uint32_t check_route(const nwn2_aswm *a, const char *svg, const float from[2], const float to[2], int reachable)
{
    const char *line = strstr(svg, "route start ");
    assert_non_null(line);
    unsigned start, goal;
    assert_int_equal(sscanf(line, "route start %u goal %u", &start, &goal), 2);
    assert_true(contains(a, start, from) && contains(a, goal, to));
    uint32_t steps[4096], n = 0;
    const char *p = strstr(svg, "route triangles ");
    assert_non_null(p);
    p += strlen("route triangles ");
    while (n < 4096 && isdigit((unsigned char)*p)) {
        steps[n++] = (uint32_t)strtoul(p, (char **)&p, 10);
        if (*p == ' ')
            p++;
    }
    assert_true(n >= 1 && steps[0] == start);
    uint32_t goal_island = a->triangles[goal].island;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = steps[i - 1], y = steps[i];
        if (shared_vertices(a, x, y) != 2) /* adjacent: they share an edge */
            fail_msg("route steps %u -> %u (triangles %u, %u) share %u corners", i - 1, i, x, y, shared_vertices(a, x, y));
        if (tile_of(a, x) == tile_of(a, y)) {
            uint32_t end = i; /* the last triangle of this run inside the tile */
            while (end + 1 < n && tile_of(a, steps[end + 1]) == tile_of(a, x))
                end++;
            assert_int_equal(y, tile_next_hop(a, x, steps[end]));
        } else {
            uint16_t next = a->island_paths[(size_t)a->triangles[x].island * a->island_count + goal_island].next;
            assert_int_equal(a->triangles[y].island, next);
        }
    }
    if (reachable) {
        assert_non_null(strstr(svg, "route reaches the goal"));
        assert_int_equal(steps[n - 1], goal);
        assert_int_equal(svgt_count_in_group(svg, "rt", "path"), 1);
    } else {
        assert_null(strstr(svg, "route reaches the goal"));
        assert_int_equal(svgt_count_in_group(svg, "re", "path"), 1); /* the goal crossed out */
    }
    return n;
}

static void route_case(const char *path, const nwn2_aswm *a, uint32_t s, uint32_t g, const char *dir, int reachable)
{
    float from[2], to[2];
    centroid(a, s, from);
    centroid(a, g, to);
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "%.9g,%.9g", (double)from[0], (double)from[1]);
    snprintf(p2, sizeof p2, "%.9g,%.9g", (double)to[0], (double)to[1]);
    char *out = wmt_join(dir, "route.svg");
    const char *args[] = {"render", path, "-o", out, "--path", p1, p2, "--force", NULL};
    char *err = NULL;
    int code = wmt_run_cli(NULL, &err, args);
    if (code != 0)
        fail_msg("%s: %s", path, err);
    free(err);
    char *svg = svgt_load(out);
    /* the renderer may pick another triangle under the point (stacked floors):
     * reachability is taken from the table for the triangles it reports */
    unsigned start, goal;
    assert_int_equal(sscanf(strstr(svg, "route start "), "route start %u goal %u", &start, &goal), 2);
    uint16_t is = a->triangles[start].island, ig = a->triangles[goal].island;
    int table_says = is == ig || a->island_paths[(size_t)is * a->island_count + ig].next < a->island_count;
    if (start == s && goal == g)
        assert_int_equal(table_says, reachable);
    uint32_t n = check_route(a, svg, from, to, table_says);
    /* the public route API gives the picture's route */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_nwn2_route route;
    assert_int_equal(wm_nwn2_route_find_file(&ctx, path, from, to, &route), WM_OK);
    assert_int_equal(route.start, start);
    assert_int_equal(route.goal, goal);
    assert_int_equal(route.reached, table_says);
    const char *list = strstr(svg, "route triangles ") + strlen("route triangles ");
    for (uint32_t i = 0; i < route.count; i++)
        assert_int_equal(strtoul(list, (char **)&list, 10), route.triangles[i]);
    wm_nwn2_route_free(&ctx, &route);
    print_message("%s: route over %u triangles, %s\n", base_name(path), n, table_says ? "reached" : "no route");
    free(svg);
    free(out);
}

static void routes_follow_the_files_tables(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".trx", NULL};
    char **files;
    size_t count = wmt_corpus_list("nwn2", suffixes, &files);
    char *dir = wmt_make_temp_dir();
    uint32_t reached = 0, refused = 0;
    for (size_t f = 0; f < count; f++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        nwn2_file file;
        assert_int_equal(nwn2_file_read(&ctx, files[f], &file), WM_OK);
        const nwn2_aswm *a = &file.aswm;
        uint32_t n = a->island_count, first = UINT32_MAX;
        for (uint32_t t = 0; t < a->triangle_count && first == UINT32_MAX; t++)
            if ((a->triangles[t].flags & NWN2_TRI_WALKABLE) && a->triangles[t].island < n)
                first = t;
        if (first == UINT32_MAX) {
            nwn2_file_free(&ctx, &file);
            continue;
        }
        /* the reachable island with the highest number, and one the table cannot reach */
        uint32_t from = a->triangles[first].island, far = UINT32_MAX, cut = UINT32_MAX;
        for (uint32_t j = 0; j < n; j++) {
            if (j != from && a->island_paths[(size_t)from * n + j].next < n)
                far = j;
            if (j != from && a->island_paths[(size_t)from * n + j].next >= n && cut == UINT32_MAX)
                cut = j;
        }
        for (int pass = 0; pass < 2; pass++) {
            uint32_t target = pass ? cut : far;
            if (target == UINT32_MAX)
                continue;
            uint32_t goal = UINT32_MAX;
            for (uint32_t t = 0; t < a->triangle_count && goal == UINT32_MAX; t++)
                if ((a->triangles[t].flags & NWN2_TRI_WALKABLE) && a->triangles[t].island == target)
                    goal = t;
            if (goal == UINT32_MAX)
                continue;
            route_case(files[f], a, first, goal, dir, !pass);
            pass ? refused++ : reached++;
        }
        nwn2_file_free(&ctx, &file);
    }
    print_message("routes: %u reachable and %u unreachable island pairs checked\n", reached, refused);
    assert_true(reached > 0);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(files, count);
}

/* ------------------------------------------------------------ the options */

static char *render_ok(const char *dir, const char *const *extra)
{
    char *out = wmt_join(dir, "opt.svg");
    const char *args[16] = {"render"};
    int n = 1;
    for (; extra[n - 1]; n++)
        args[n] = extra[n - 1];
    args[n++] = "-o";
    args[n++] = out;
    args[n++] = "--force";
    args[n] = NULL;
    char *err = NULL;
    int code = wmt_run_cli(NULL, &err, args);
    if (code != 0)
        fail_msg("render failed (%d): %s", code, err);
    free(err);
    char *svg = svgt_load(out);
    free(out);
    return svg;
}

/* Triangles drawn in class cls (one "M" each). */
static uint32_t class_triangles(const char *svg, const char *cls)
{
    char key[48];
    snprintf(key, sizeof key, "<path class=\"%s\" d=\"", cls);
    uint32_t n = 0;
    for (const char *at = strstr(svg, key); at; at = strstr(at, key))
        for (at += strlen(key); *at && *at != '"'; at++)
            n += *at == 'M';
    return n;
}

/* A WMO's roofs over floors are cut away (outlined) from above, so the
 * interior's plan shows; every floor is still drawn, as floor or outline.
 * The lumber mill has a roof over its floor; --roofs fills them again. */
static void wmo_roofs_cut_away(void **state)
{
    (void)state;
    char *wmo = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill.wmo");
    char *dir = wmt_make_temp_dir();
    const char *cut[] = {wmo, NULL}, *roofs[] = {wmo, "--roofs", NULL}, *front[] = {wmo, "--view", "front", NULL};
    char *a = render_ok(dir, cut), *b = render_ok(dir, roofs), *c = render_ok(dir, front);
    uint32_t outlined = class_triangles(a, "rf");
    assert_true(outlined > 0);
    assert_non_null(strstr(a, ">roof over a floor, cut away ("));
    assert_int_equal(class_triangles(a, "gf0") + outlined, class_triangles(b, "gf0"));
    assert_int_equal(class_triangles(b, "rf"), 0);
    assert_int_equal(class_triangles(c, "rf"), 0); /* from the side nothing hides the floors */
    print_message("lumber mill: %u of %u floor triangles are roofs, cut away from above\n", outlined,
                  class_triangles(b, "gf0"));
    free(a);
    free(b);
    free(c);
    wmt_remove_tree(dir);
    free(dir);
    free(wmo);
}

static void options(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    char *wok = wmt_corpus_path_or_skip("bwm/k1cp-m10ac_30a.wok");
    char *wmo = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill.wmo");
    char *trn = wmt_corpus_path_or_skip("nwn2/CSLMordMansion.TRN");
    char *git = wmt_corpus_path_or_skip("nwn2/CSLMordMansion.GIT");
    char *dir = wmt_make_temp_dir();

    /* an NWN2 tile range: exactly those tile numbers */
    const char *tiles[] = {trx, "--select", "100-123", NULL};
    char *svg = render_ok(dir, tiles);
    char *labels = svgt_texts_in_group(svg, "tn");
    char expected[512] = "";
    for (int t = 100; t <= 123; t++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%d\n", t);
    assert_string_equal(labels, expected);
    free(labels);
    free(svg);

    /* a KotOR surface: only metal faces (39 in the file, `walkmesh info`), no blocking ones */
    const char *metal[] = {wok, "--select", "metal", NULL};
    svg = render_ok(dir, metal);
    assert_non_null(strstr(svg, "metal (39)"));
    assert_null(strstr(svg, "blocking"));
    free(svg);

    /* WMO floors: no wall faces; walls without it */
    const char *all[] = {wmo, NULL}, *floors[] = {wmo, "--floors", NULL};
    svg = render_ok(dir, all);
    assert_non_null(strstr(svg, "<path class=\"gw0\""));
    free(svg);
    svg = render_ok(dir, floors);
    assert_null(strstr(svg, "<path class=\"gw0\""));
    assert_non_null(strstr(svg, "<path class=\"gf0\""));
    free(svg);

    /* cutters of a GIT: one outline per walkmesh cutter the GIT holds */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    assert_int_equal(nwn2_bake_read_git(&ctx, git, &set), WM_OK);
    const char *cut[] = {trn, "--git", git, NULL};
    svg = render_ok(dir, cut);
    assert_int_equal(svgt_count_in_group(svg, "ct", "path"), set.count);
    print_message("CSLMordMansion.GIT: %u walkmesh cutters drawn\n", set.count);
    nwn2_cutter_set_free(&ctx, &set);
    free(svg);

    /* refusals: an option for another format, a bad view, an existing output */
    char *out = wmt_join(dir, "x.svg");
    const char *wrong[] = {"render", wok, "-o", out, "--path", "1,2", "3,4", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, wrong), 1);
    assert_non_null(strstr(err, "--path applies to nwn2 files only"));
    free(err);
    const char *view[] = {"render", wok, "-o", out, "--view", "below", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, view), 1);
    assert_false(wm_file_exists(out));
    const char *first[] = {"render", wok, "-o", out, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, first), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, first), 3);
    const char *help[] = {"render", "--help", NULL};
    char *text = NULL;
    assert_int_equal(wmt_run_cli(&text, NULL, help), 0);
    assert_non_null(strstr(text, "--view"));
    free(text);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(trx);
    free(wok);
    free(wmo);
    free(trn);
    free(git);
}

/* Draws INPUT in every view (with the --path ROUTE when given and a walkable
 * triangle lies under both points) and checks every picture is valid SVG. */
static void render_every_view_valid(wm_ctx *ctx, const char *dir, const char *input, const char *route)
{
    char *paths[4];
    for (int v = 0; v < 4; v++) {
        char name[16];
        snprintf(name, sizeof name, "%d.svg", v);
        paths[v] = wmt_join(dir, name);
        wm_options opts;
        wm_options_init(&opts);
        wm_option_set(ctx, &opts, "view", views[v]);
        if (route)
            wm_option_set(ctx, &opts, "path", route);
        wm_result r = wm_render_file(ctx, input, NULL, paths[v], &opts, 1);
        if (route && r == WM_ERR_OPTION) { /* no walkable triangle under a point: draw without the route */
            wm_options_init(&opts);
            wm_option_set(ctx, &opts, "view", views[v]);
            r = wm_render_file(ctx, input, NULL, paths[v], &opts, 1);
        }
        assert_int_equal(r, WM_OK);
    }
    assert_int_equal(svgt_validate((const char *const *)paths, 4), 0);
    for (int v = 0; v < 4; v++)
        free(paths[v]);
}

/* Corrupt input: a truncated file is a clean error and leaves no picture;
 * infinite and NaN coordinates still give a valid picture, quickly. */
static void corrupt_files(void **state)
{
    (void)state;
    svgt_need_validator();
    char *wok = wmt_corpus_path_or_skip("bwm/k1cp-m10ac_30a.wok");
    char *dir = wmt_make_temp_dir();
    size_t size;
    uint8_t *data = wmt_read_file(wok, &size);
    char *cut = wmt_join(dir, "cut.wok"), *odd = wmt_join(dir, "odd.wok"), *out = wmt_join(dir, "out.svg");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    for (size_t length = 0; length < size; length += size / 16 + 1) {
        wmt_write_file(cut, data, length);
        assert_int_not_equal(wm_render_file(&ctx, cut, NULL, out, NULL, 1), WM_OK);
        assert_false(wm_file_exists(out));
    }
    uint32_t vertices = le32(data + 0x4C);
    const uint8_t inf[4] = {0x00, 0x00, 0x80, 0x7f}, nan[4] = {0x00, 0x00, 0xc0, 0x7f};
    memcpy(data + vertices, inf, 4);     /* vertex 0 x */
    memcpy(data + vertices + 16, nan, 4); /* vertex 1 y */
    wmt_write_file(odd, data, size);
    render_every_view_valid(&ctx, dir, odd, NULL);
    free(data);
    free(cut);
    free(odd);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(wok);
}

/* A TRX whose tables point nowhere (tile ranges past the triangles, vertex,
 * island and adjacency indices out of range) still draws, in every view. */
static void corrupt_nwn2(void **state)
{
    (void)state;
    svgt_need_validator();
    char *trx = wmt_corpus_path_or_skip("nwn2/castle_krag_tower.trx");
    char *dir = wmt_make_temp_dir();
    char *odd = wmt_join(dir, "odd.trx");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file file;
    assert_int_equal(nwn2_file_read(&ctx, trx, &file), WM_OK);
    nwn2_aswm *a = &file.aswm;
    a->tiles[0].triangle_count = UINT32_MAX;
    a->tiles[1].triangle_offset = UINT32_MAX - 5;
    a->triangles[0].v[0] = 0xFFFFFFF0u;
    a->triangles[1].island = 60000;
    a->triangles[2].neighbour[0] = 0xFFFFFF00u;
    for (uint32_t i = 0; i < a->island_count; i++)
        if (a->islands[i].adjacent_count) {
            a->islands[i].adjacent[0] = 99999;
            a->islands[i].exit[0] = 0xFFFFFFF0u;
        }
    assert_int_equal(nwn2_file_write(&ctx, &file, odd, 1), WM_OK);
    nwn2_file_free(&ctx, &file);
    render_every_view_valid(&ctx, dir, odd, "3,3 60,60");
    free(odd);
    wmt_remove_tree(dir);
    free(dir);
    free(trx);
}

/* --select on a WMO root: that group only. */
static void wmo_group_selection(void **state)
{
    (void)state;
    char *root = wmt_corpus_path_or_skip("wmo/warcraftnet__prisonHQ_Redridge.wmo");
    char *dir = wmt_make_temp_dir();
    const char *one[] = {root, "--select", "1", NULL};
    char *svg = render_ok(dir, one);
    assert_int_equal(legend_group(svg, 0), -1);
    assert_int_equal(legend_group(svg, 2), -1);
    size_t n = strlen(root);
    char *group_path = malloc(n + 8);
    snprintf(group_path, n + 8, "%.*s_001.wmo", (int)(n - 4), root);
    assert_int_equal(legend_group(svg, 1), group_collision(group_path));
    assert_null(strstr(svg, "class=\"gf0\""));
    free(group_path);
    free(svg);
    const char *none[] = {"render", root, "-o", "unused.svg", "--select", "7", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, none), 1);
    assert_non_null(strstr(err, "--select 7"));
    free(err);
    wmt_remove_tree(dir);
    free(dir);
    free(root);
}

/* Faces drawn in class cls: one "M" per triangle in its <path> elements. */
static size_t faces_of_class(const char *svg, const char *cls)
{
    char open[32];
    snprintf(open, sizeof open, "<path class=\"%s\" d=\"", cls);
    size_t n = 0;
    for (const char *p = svg; (p = strstr(p, open)) != NULL; p++)
        for (const char *q = p + strlen(open); *q != '"'; q++)
            n += *q == 'M';
    return n;
}

/* --liquids: a real group given a 2 x 2 tile MLIQ (FORMAT-NOTES section 3),
 * one tile dry (low nibble 0x0F): 3 wet tiles, 2 triangles each. */
static void wmo_liquids(void **state)
{
    (void)state;
    char *source = wmt_corpus_path_or_skip("wmo/blizzardry__trolltent_000.wmo");
    size_t size, off;
    uint32_t mogp_size;
    uint8_t *data = wmt_read_file(source, &size);
    assert_true(raw_find(data, 0, size, "MOGP", &off, &mogp_size));
    uint8_t mliq[8 + 30 + 9 * 8 + 4];
    memset(mliq, 0, sizeof mliq);
    memcpy(mliq, "QILM", 4);
    const uint32_t header[4] = {3, 3, 2, 2}; /* x/y vertices, x/y tiles */
    const float corner[3] = {0.0f, 0.0f, 10.0f}, height = 10.0f;
    uint32_t payload = sizeof mliq - 8;
    memcpy(mliq + 4, &payload, 4);
    memcpy(mliq + 8, header, sizeof header);
    memcpy(mliq + 24, corner, sizeof corner);
    for (int v = 0; v < 9; v++)
        memcpy(mliq + 38 + 8 * v + 4, &height, 4);
    const uint8_t tiles[4] = {0x00, 0x0F, 0x05, 0x01};
    memcpy(mliq + 38 + 72, tiles, 4);
    size_t end = off + mogp_size, patched_size = size + sizeof mliq;
    uint8_t *patched = malloc(patched_size);
    memcpy(patched, data, end);
    memcpy(patched + end, mliq, sizeof mliq);
    memcpy(patched + end + sizeof mliq, data + end, size - end);
    uint32_t grown = mogp_size + (uint32_t)sizeof mliq, flags = raw_u32(patched + off + 8) | 0x1000u;
    memcpy(patched + off - 4, &grown, 4);
    memcpy(patched + off + 8, &flags, 4);
    char *dir = wmt_make_temp_dir();
    char *pool = wmt_join(dir, "pool_000.wmo");
    wmt_write_file(pool, patched, patched_size);
    const char *wet[] = {pool, "--liquids", NULL}, *dry[] = {pool, NULL};
    char *svg = render_ok(dir, wet);
    assert_non_null(strstr(svg, ">liquid, MLIQ (6)<"));
    assert_int_equal(faces_of_class(svg, "lq"), 6);
    free(svg);
    svg = render_ok(dir, dry);
    assert_null(strstr(svg, "MLIQ"));
    assert_int_equal(faces_of_class(svg, "lq"), 0);
    free(svg);
    free(pool);
    wmt_remove_tree(dir);
    free(dir);
    free(patched);
    free(data);
    free(source);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kotor_files),
        cmocka_unit_test(nwn2_files),
        cmocka_unit_test(nwn2_area_files),
        cmocka_unit_test(wmo_files),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(routes_follow_the_files_tables),
        cmocka_unit_test(options),
        cmocka_unit_test(corrupt_files),
        cmocka_unit_test(corrupt_nwn2),
        cmocka_unit_test(wmo_group_selection),
        cmocka_unit_test(wmo_liquids),
        cmocka_unit_test(wmo_roofs_cut_away),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
