/* The WMO format descriptor: probe, read (root with its groups, or one
 * group), write, info and validate. */
#include "wmo.h"
#include "base_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int wmo_probe(const wm_input *in)
{
    return wmo_probe_kind(in->data, in->size, NULL);
}

/* The input (a copy: the parsed file owns its bytes) as a root (MOHD) or a group (MOGP). */
static wm_result load_any(wm_ctx *ctx, const wm_input *in, int *is_root, wmo_root *root, wmo_group *group)
{
    memset(root, 0, sizeof *root);
    memset(group, 0, sizeof *group);
    *is_root = 0;
    if (!wmo_probe_kind(in->data, in->size, is_root))
        return wm_error(ctx, WM_ERR_NOT_FORMAT, "%s: offset 0x0: not a WMO (expected MVER then MOHD or MOGP)",
                        in->name);
    uint8_t *bytes = wm_alloc_array(ctx, in->size, 1);
    if (!bytes)
        return WM_ERR_NOMEM;
    memcpy(bytes, in->data, in->size);
    return *is_root ? wmo_root_parse(ctx, bytes, in->size, in->name, root)
                    : wmo_group_parse(ctx, bytes, in->size, in->name, group);
}

/* Group i of a root input, read from beside it, and its path (free with wm_free);
 * *out is always safe to free. */
static wm_result load_group(wm_ctx *ctx, const wm_input *in, uint32_t index, wmo_group *out, char **out_path)
{
    memset(out, 0, sizeof *out);
    *out_path = wmo_group_path(ctx, in->path ? in->path : in->name, index);
    if (!*out_path)
        return WM_ERR_NOMEM;
    uint8_t *bytes = NULL;
    size_t size = 0;
    wm_result r = wm_input_beside(ctx, in, wm_path_file_name(*out_path), NULL, &bytes, &size);
    return r ? r : wmo_group_parse(ctx, bytes, size, *out_path, out);
}

/* "dir/X_003.wmo" -> "X_003". */
static void file_stem(const char *path, char *out, size_t cap)
{
    const char *base = wm_path_file_name(path);
    size_t len = strlen(base);
    if (len >= 4 && strcasecmp(base + len - 4, ".wmo") == 0)
        len -= 4;
    snprintf(out, cap, "%.*s", (int)len, base);
}

/* A group file's root, when it sits beside it as "X.wmo" for "X_NNN.wmo". */
static int sibling_root(wm_ctx *ctx, const wm_input *group, wmo_root *root)
{
    memset(root, 0, sizeof *root);
    const char *name = group->path ? wm_path_file_name(group->path) : NULL;
    size_t len = name ? strlen(name) : 0;
    if (len < 9 || strcasecmp(name + len - 4, ".wmo") != 0 || name[len - 8] != '_')
        return 0;
    for (size_t i = len - 7; i < len - 4; i++)
        if (name[i] < '0' || name[i] > '9')
            return 0;
    char root_name[512];
    snprintf(root_name, sizeof root_name, "%.*s.wmo", (int)(len - 8), name);
    wm_ctx quiet = *ctx; /* a missing or broken sibling is not this file's error */
    quiet.warn = NULL;
    char *path = NULL;
    uint8_t *bytes = NULL;
    size_t size = 0;
    int found = wm_input_beside(&quiet, group, root_name, &path, &bytes, &size) == WM_OK &&
                wmo_root_parse(&quiet, bytes, size, path, root) == WM_OK;
    wm_free(ctx, path);
    if (!found) {
        if (!root->bytes)
            wm_free(ctx, bytes);
        wmo_root_free(ctx, root);
    }
    return found;
}

static wm_result parse_number(wm_ctx *ctx, const wm_options *opts, const char *name, uint32_t max, uint32_t *out)
{
    const char *text = opts ? wm_option_get(opts, name) : NULL;
    if (!text)
        return WM_OK;
    char *end = NULL;
    unsigned long v = strtoul(text, &end, 10);
    if (!*text || *end || v == 0 || v > max)
        return wm_error(ctx, WM_ERR_OPTION, "--%s %s: expected a whole number from 1 to %u", name, text, max);
    *out = (uint32_t)v;
    return WM_OK;
}

static wm_result extract_options(wm_ctx *ctx, const wm_options *opts, wmo_extract_options *out)
{
    out->rule = WMO_RULE_SERVER;
    out->liquids = opts ? wm_option_flag(opts, "liquids") : 0;
    out->walkable_slope = (opts && opts->walkable_slope >= 0.0f) ? opts->walkable_slope : WMO_DEFAULT_WALKABLE_SLOPE;
    out->origins = NULL;
    return wmo_rule_parse(ctx, opts ? wm_option_get(opts, "collision-rule") : NULL, &out->rule);
}

static wm_result read_group_into(wm_ctx *ctx, const char *path, const wmo_group *g, const wmo_root *root,
                                 const wmo_extract_options *x, wm_mesh *out)
{
    char stem[128], group_name[128] = "";
    file_stem(path, stem, sizeof stem);
    if (root)
        wmo_root_group_name(root, g->header.name_offset, group_name, sizeof group_name);
    return wmo_group_extract(ctx, g, stem, root ? group_name : NULL, x, out);
}

static wm_result wmo_facts(wm_ctx *ctx, const wm_input *in, wm_report *rep);

static wm_result wmo_read(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts)
{
    return wmo_read_mesh(ctx, in, opts, out, facts, NULL);
}

wm_result wmo_read_mesh(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts,
                        wm_buffer *origins)
{
    wmo_extract_options x;
    wm_mesh_init(out);
    wm_result r = extract_options(ctx, opts, &x);
    x.origins = origins;
    if (r)
        return r;
    int is_root = 0;
    wmo_root root;
    wmo_group group;
    r = load_any(ctx, in, &is_root, &root, &group);
    if (!r && !is_root) {
        wmo_root sibling;
        int has_root = sibling_root(ctx, in, &sibling);
        r = read_group_into(ctx, in->name, &group, has_root ? &sibling : NULL, &x, out);
        if (has_root)
            wmo_root_free(ctx, &sibling);
    }
    for (uint32_t i = 0; !r && is_root && i < root.group_info_count; i++) {
        wmo_group g;
        char *group_path = NULL;
        r = load_group(ctx, in, i, &g, &group_path);
        if (r)
            wm_error_prefix(ctx, in->name); /* "root.wmo: root_000.wmo: ..." */
        r = r ? r : read_group_into(ctx, group_path, &g, &root, &x, out);
        wmo_group_free(ctx, &g);
        wm_free(ctx, group_path);
    }
    if (!r)
        file_stem(in->name, out->name, sizeof out->name);
    wmo_root_free(ctx, &root);
    wmo_group_free(ctx, &group);
    if (!r && facts)
        r = wmo_facts(ctx, in, facts);
    if (r)
        wm_mesh_free(ctx, out);
    return r;
}

static wm_result wmo_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    wmo_write_options w;
    memset(&w, 0, sizeof w);
    w.max_group_triangles = WMO_MAX_GROUP_ELEMENTS;
    w.leaf_size = WMO_DEFAULT_LEAF_SIZE;
    w.group_flags = (opts && wm_option_flag(opts, "indoor")) ? WMO_GROUP_INDOOR : WMO_GROUP_OUTDOOR;
    w.base_path = opts ? opts->base_path : NULL;
    wm_result r = parse_number(ctx, opts, "max-group-triangles", WMO_MAX_GROUP_ELEMENTS, &w.max_group_triangles);
    r = r ? r : parse_number(ctx, opts, "leaf-size", WMO_MAX_GROUP_ELEMENTS, &w.leaf_size);
    if (r || !w.base_path)
        return r ? r : wmo_write_mesh(ctx, mesh, sink, &w);
    wm_input base; /* the content decides, before any work; the writer parses these same bytes */
    if ((r = wm_base_load(ctx, w.base_path, &wm_format_wmo, &base)))
        return r;
    w.base_bytes = base.data;
    w.base_size = base.size;
    r = wmo_write_mesh(ctx, mesh, sink, &w);
    wm_input_free(ctx, &base);
    return r;
}

/* ---- info ---------------------------------------------------------- */

static void describe_group_flags(uint32_t flags, char *out, size_t cap)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {{WMO_GROUP_HAS_BSP, "bsp"},         {WMO_GROUP_HAS_VERTEX_COLORS, "vertex-colors"},
                 {WMO_GROUP_OUTDOOR, "outdoor"},      {WMO_GROUP_UNREACHABLE, "unreachable"},
                 {WMO_GROUP_HAS_LIGHTS, "lights"},    {WMO_GROUP_HAS_DOODADS, "doodads"},
                 {WMO_GROUP_HAS_WATER, "liquid"},     {WMO_GROUP_INDOOR, "indoor"},
                 {WMO_GROUP_ANTIPORTAL, "antiportal"}};
    size_t n = (size_t)snprintf(out, cap, "0x%x", flags);
    for (size_t i = 0; i < sizeof names / sizeof names[0] && n < cap; i++)
        if (flags & names[i].bit)
            n += (size_t)snprintf(out + n, cap - n, " %s", names[i].name);
}

static wm_result group_facts(wm_ctx *ctx, wm_report *rep, const char *prefix, const wmo_group *g,
                             const char *group_name)
{
    char key[128], text[256];
#define FACT(name, ...)                                                                                                \
    do {                                                                                                               \
        snprintf(key, sizeof key, "%s%s", prefix, name);                                                               \
        wm_report_fact(rep, key, __VA_ARGS__);                                                                         \
    } while (0)
    if (group_name)
        FACT("name", "%s", group_name);
    describe_group_flags(g->header.flags, text, sizeof text);
    FACT("flags", "%s", text);
    FACT("kind", "%s", wmo_group_is_lod(g) ? "LOD group (no MOPY, no collision)" : "group");
    FACT("vertices", "%u", g->vertex_count);
    FACT("triangles", "%u", g->triangle_count);
    FACT("indices", "%s", g->uses_movx ? "MOVX (u32)" : "MOVI (u16)");
    for (unsigned rule = 0; rule < WMO_RULE_COUNT; rule++) {
        char name[64];
        snprintf(name, sizeof name, "collision %s", wmo_rule_name((wmo_rule)rule));
        int skipped = !wmo_group_is_lod(g) && wmo_group_skipped((wmo_rule)rule, g->header.flags, group_name);
        FACT(name, "%u%s", skipped ? 0u : wmo_group_count_collision(g, (wmo_rule)rule),
             skipped ? " (group skipped)" : "");
    }
    if (g->has_liquid) {
        uint32_t wet = 0;
        for (size_t i = 0; i < (size_t)g->liquid.xtiles * (size_t)g->liquid.ytiles; i++)
            wet += (g->liquid.tiles[i] & 0x0F) != 0x0F;
        FACT("liquid", "%d x %d vertices, %d x %d tiles, %u with liquid, material %u", g->liquid.xverts,
             g->liquid.yverts, g->liquid.xtiles, g->liquid.ytiles, wet, g->liquid.material);
    }
    if (g->node_count) {
        wmo_bsp_stats s;
        wm_result r = wmo_bsp_stats_compute(ctx, g->nodes, g->node_count, g->triangle_count, g->refs, g->ref_count, &s);
        if (r)
            return r;
        FACT("bsp nodes", "%u (%u leaves, depth %u)", s.nodes, s.leaves, s.depth);
        FACT("bsp leaf size", "min %u, average %.1f, max %u", s.min_leaf, s.average_leaf, s.max_leaf);
        FACT("bsp references", "%u (%.2f per triangle, %u triangles in no leaf)", s.refs,
             g->triangle_count ? (double)s.refs / g->triangle_count : 0.0, s.unreferenced);
    } else {
        FACT("bsp nodes", "0");
    }
    char chunks[512];
    size_t n = 0;
    chunks[0] = '\0';
    for (uint32_t i = 0; i < g->sub_count && n + 6 < sizeof chunks; i++) {
        char name[5];
        wmo_chunk_name(g->sub[i].id, name);
        n += (size_t)snprintf(chunks + n, sizeof chunks - n, "%s%s", i ? " " : "", name);
    }
    FACT("chunks", "%s", chunks);
#undef FACT
    return rep->status;
}

static wm_result wmo_facts(wm_ctx *ctx, const wm_input *in, wm_report *rep)
{
    int is_root = 0;
    wmo_root root;
    wmo_group group;
    wm_result r = load_any(ctx, in, &is_root, &root, &group);
    if (!r && !is_root) {
        wmo_root sibling;
        int has_root = sibling_root(ctx, in, &sibling);
        char name[128] = "";
        if (has_root)
            wmo_root_group_name(&sibling, group.header.name_offset, name, sizeof name);
        wm_report_fact(rep, "file", "WMO v%u group", group.version);
        r = group_facts(ctx, rep, "", &group, has_root ? name : NULL);
        if (has_root)
            wmo_root_free(ctx, &sibling);
    } else if (!r) {
        wm_report_fact(rep, "file", "WMO v%u root", root.version);
        wm_report_fact(rep, "groups", "%u (MOGI %u)", root.group_count, root.group_info_count);
        wm_report_fact(rep, "materials", "%u", root.material_count);
        wm_report_fact(rep, "portals", "%u", root.portal_count);
        wm_report_fact(rep, "lights", "%u", root.light_count);
        wm_report_fact(rep, "doodads", "%u in %u sets", root.doodad_count, root.set_count);
        wm_report_fact(rep, "bounds", "(%g, %g, %g) - (%g, %g, %g)", root.bbox_min[0], root.bbox_min[1],
                       root.bbox_min[2], root.bbox_max[0], root.bbox_max[1], root.bbox_max[2]);
        if (root.file_ids)
            wm_report_fact(rep, "group file ids", "%u (GFID)", root.file_id_count);
        for (uint32_t i = 0; i < root.group_info_count && !r; i++) {
            char prefix[32], *group_path = NULL;
            snprintf(prefix, sizeof prefix, "group %u ", i);
            wmo_group g;
            wm_result loaded = load_group(ctx, in, i, &g, &group_path);
            if (!group_path) {
                r = WM_ERR_NOMEM;
                break;
            }
            if (loaded == WM_OK) {
                char name[128];
                wmo_root_group_name(&root, g.header.name_offset, name, sizeof name);
                r = group_facts(ctx, rep, prefix, &g, name);
            } else {
                char key[64];
                snprintf(key, sizeof key, "group %u", i);
                wm_report_fact(rep, key, "unreadable: %s", wm_ctx_message(ctx));
            }
            wmo_group_free(ctx, &g);
            wm_free(ctx, group_path);
        }
    }
    wmo_root_free(ctx, &root);
    wmo_group_free(ctx, &group);
    return r ? r : rep->status;
}

/* ---- validate ------------------------------------------------------ */

static wm_result validate_group(wm_ctx *ctx, const wmo_group *g, wm_report *rep)
{
    if (wmo_group_is_lod(g))
        wm_report_finding(rep, WM_SEV_INFO, "MOGP", "LOD group: no MOPY, so no collision triangles");
    int has_bsp_flag = (g->header.flags & WMO_GROUP_HAS_BSP) != 0;
    if (has_bsp_flag && g->node_chunk < 0)
        wm_report_finding(rep, WM_SEV_ERROR, "MOGP flags", "0x1 (BSP) set but there is no MOBN chunk");
    if (!has_bsp_flag && g->node_chunk >= 0)
        wm_report_finding(rep, WM_SEV_WARNING, "MOGP flags", "MOBN present but flag 0x1 is not set");
    if (((g->header.flags & WMO_GROUP_HAS_WATER) != 0) != (g->has_liquid != 0))
        wm_report_finding(rep, WM_SEV_WARNING, "MOGP flags", "flag 0x1000 (liquid) %s but MLIQ is %s",
                          (g->header.flags & WMO_GROUP_HAS_WATER) ? "set" : "clear",
                          g->has_liquid ? "present" : "absent");
    if (!wmo_group_is_lod(g) && g->node_chunk >= 0) {
        wmo_bsp_view v = {g->nodes, g->node_count, g->refs, g->ref_count, g->positions, g->indices, g->triangle_count};
        uint32_t problems = 0;
        wm_result r = wmo_bsp_check(ctx, &v, NULL, rep, &problems);
        if (r)
            return r;
    } else if (!wmo_group_is_lod(g) && wmo_group_count_collision(g, WMO_RULE_SERVER) > 0) {
        wm_report_finding(rep, WM_SEV_ERROR, "MOBN", "%u collision triangles but no BSP: the client ignores them",
                          wmo_group_count_collision(g, WMO_RULE_SERVER));
    }
    for (uint32_t i = 0; i < g->vertex_count; i++)
        for (int k = 0; k < 3; k++) {
            float v = g->positions[3 * (size_t)i + k];
            if (v < g->header.bbox_min[k] - 0.01f || v > g->header.bbox_max[k] + 0.01f) {
                char where[48];
                snprintf(where, sizeof where, "vertex %u", i);
                wm_report_finding(rep, WM_SEV_WARNING, where, "outside the MOGP bounding box on axis %d", k);
                return rep->status;
            }
        }
    return rep->status;
}

static wm_result validate_root_groups(wm_ctx *ctx, const wm_input *in, const wmo_root *root, wm_report *rep)
{
    if (root->group_count != root->group_info_count)
        wm_report_finding(rep, WM_SEV_ERROR, "MOHD", "announces %u groups but MOGI lists %u", root->group_count,
                          root->group_info_count);
    for (uint32_t i = 0; i < root->group_info_count; i++) {
        char where[48];
        snprintf(where, sizeof where, "MOGI entry %u", i);
        int32_t off = root->groups[i].name_offset;
        if (off != -1 && (off < 0 || (uint32_t)off >= root->names_size))
            wm_report_finding(rep, WM_SEV_ERROR, where, "name offset %d outside MOGN (%u bytes)", off,
                              root->names_size);
        char *group_path = NULL;
        wmo_group g;
        wm_result r = load_group(ctx, in, i, &g, &group_path);
        if (!group_path)
            return WM_ERR_NOMEM;
        snprintf(where, sizeof where, "group %u", i);
        if (r) {
            wm_report_finding(rep, WM_SEV_ERROR, where, "%s", wm_ctx_message(ctx));
        } else {
            wm_report sub;
            wm_report_init(&sub, ctx);
            r = validate_group(ctx, &g, &sub);
            for (uint32_t k = 0; k < sub.count; k++) {
                char key[160];
                snprintf(key, sizeof key, "group %u %s", i, sub.items[k].key ? sub.items[k].key : "");
                wm_report_finding(rep, sub.items[k].severity, key, "%s", sub.items[k].value ? sub.items[k].value : "");
            }
            wm_report_free(&sub);
        }
        wmo_group_free(ctx, &g);
        wm_free(ctx, group_path);
        if (r && r != WM_ERR_IO && r != WM_ERR_TRUNCATED && r != WM_ERR_CORRUPT && r != WM_ERR_UNSUPPORTED)
            return r;
    }
    return rep->status;
}

static wm_result wmo_validate(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_report *rep)
{
    (void)opts;
    int is_root = 0;
    wmo_root root;
    wmo_group group;
    wm_result r = load_any(ctx, in, &is_root, &root, &group);
    if (!r)
        r = is_root ? validate_root_groups(ctx, in, &root, rep) : validate_group(ctx, &group, rep);
    wmo_root_free(ctx, &root);
    wmo_group_free(ctx, &group);
    return r;
}

/* Pictures read the collision here and leave the drawing to wmo_picture.c. */
static wm_result wmo_picture_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, struct wm_picture *picture)
{
    wm_mesh mesh;
    wm_result r = wmo_read(ctx, in, opts, &mesh, NULL);
    if (r)
        return r;
    r = wmo_picture(ctx, &mesh, in->path, opts, picture);
    wm_mesh_free(ctx, &mesh);
    return r;
}

static const char *const wmo_extensions[] = {"wmo", NULL};

static const wm_option_desc wmo_options[] = {
    {"collision-rule", "RULE",
     "WMO: server (default), azerothcore, collision-flag, material-ff or all (see docs/wmo.md)"},
    {"liquids", NULL, "WMO: also export MLIQ liquid tiles (surface liquid, object <group>_liquid)"},
    {"max-group-triangles", "N", "WMO writing: split groups above N triangles (default and maximum 65535)"},
    {"leaf-size", "N", "WMO writing: BSP leaf size to aim for (default 32)"},
    {"indoor", NULL, "WMO writing: flag written groups indoor (0x2000) instead of outdoor (0x8)"},
    {"floors", NULL, "render, WMO: only upward-facing (walkable by slope) collision"},
    {"roofs", NULL, "render, WMO top view: draw roofs over the floors under them (default: cut away)"},
    {NULL, NULL, NULL}};

const wm_format wm_format_wmo = {
    .name = "wmo",
    .description = "World of Warcraft WMO v17 (root + group files; group collision)",
    .extensions = wmo_extensions,
    .probe = wmo_probe,
    .read = wmo_read,
    .write = wmo_write,
    .validate = wmo_validate,
    .options = wmo_options,
    .picture = wmo_picture_hook,
};
