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

static void check_wmo(const char *path, const char *svg, int view)
{
    if (view != WM_VIEW_TOP) /* the legend is the same in every view */
        return;
    size_t n = strlen(path);
    int is_group = n > 8 && path[n - 8] == '_' && isdigit((unsigned char)path[n - 5]);
    if (is_group) {
        assert_int_equal(svgt_legend_group(svg, (uint32_t)atoi(path + n - 7)), raw_group_collision_file(path));
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
        uint32_t expected = raw_group_collision_file(group_path);
        assert_int_equal(svgt_legend_group(svg, g), expected ? (int64_t)expected : -1);
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
            snprintf(title, sizeof title, "<title>%s</title>", wm_path_file_name(files[i]));
            assert_non_null(strstr(svg, title));
            if (check)
                check(files[i], svg, v);
            size_t size = strlen(svg);
            if (size > largest_svg) {
                largest_svg = size;
                snprintf(largest_name, sizeof largest_name, "%s (%s)", wm_path_file_name(files[i]), views[v]);
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
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kotor_files),
        cmocka_unit_test(nwn2_files),
        cmocka_unit_test(nwn2_area_files),
        cmocka_unit_test(wmo_files),
        cmocka_unit_test(deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
