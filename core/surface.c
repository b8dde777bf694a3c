#include "wm_surface.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char wm_default_surface_text[];

static wm_surface_table default_table;
static wm_once default_once = WM_ONCE_INIT;

static void load_default(void)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_surface_table empty = {0};
    /* The built-in text is part of the program: a parse failure is a build bug, caught by the tests. */
    if (wm_surface_table_parse(&ctx, &empty, wm_default_surface_text, strlen(wm_default_surface_text),
                               "built-in surface table", &default_table) != WM_OK)
        memset(&default_table, 0, sizeof default_table);
}

const wm_surface_table *wm_surfaces_default(void)
{
    wm_platform_once(&default_once, load_default);
    return &default_table;
}

const wm_surface_table *wm_surfaces(const wm_ctx *ctx)
{
    return ctx && ctx->surfaces ? ctx->surfaces : wm_surfaces_default();
}

/* Lower-case letters and digits only: "Bottomless Pit", "bottomless_pit"
 * and "BottomlessPit" all become "bottomlesspit". */
static void normalise(const char *in, char *out, size_t out_size)
{
    size_t n = 0;
    for (; *in && n + 1 < out_size; in++)
        if (isalnum((unsigned char)*in))
            out[n++] = (char)tolower((unsigned char)*in);
    out[n] = '\0';
}

static int find_by_normalised(const wm_surface_table *table, const char *key)
{
    char buf[64];
    for (uint32_t i = 0; i < table->count; i++) {
        normalise(table->entries[i].name, buf, sizeof buf);
        if (strcmp(buf, key) == 0)
            return (int)i;
        for (unsigned a = 0; a < table->entries[i].alias_count; a++) {
            normalise(table->entries[i].aliases[a], buf, sizeof buf);
            if (strcmp(buf, key) == 0)
                return (int)i;
        }
    }
    return -1;
}

uint16_t wm_surface_from_kotor(const wm_surface_table *table, int32_t kotor_id)
{
    for (uint32_t i = 0; i < table->count; i++)
        if (table->entries[i].kotor_id == kotor_id && kotor_id >= 0)
            return (uint16_t)i;
    return WM_SURFACE_NONE;
}

void wm_material_base_name(const char *name, char *out, size_t out_size)
{
    size_t len = strlen(name);
    if (len >= out_size)
        len = out_size - 1;
    memcpy(out, name, len);
    out[len] = '\0';
    char *dot = strrchr(out, '.');
    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        *dot = '\0';
}

uint16_t wm_surface_from_name(const wm_surface_table *table, const char *name)
{
    char raw[128];
    wm_material_base_name(name, raw, sizeof raw);
    char key[128];
    normalise(raw, key, sizeof key);
    if (!key[0])
        return WM_SURFACE_NONE;
    int found = find_by_normalised(table, key);
    if (found >= 0)
        return (uint16_t)found;
    static const char *const prefixes[] = {"wok", "material", "mat", "surface", "surf", "walkmesh", "id", NULL};
    for (int p = 0; prefixes[p]; p++) {
        size_t plen = strlen(prefixes[p]);
        if (strncmp(key, prefixes[p], plen) != 0 || !key[plen])
            continue;
        found = find_by_normalised(table, key + plen);
        if (found >= 0)
            return (uint16_t)found;
    }
    /* Numeric forms: "12", "mat_12", "Surface12", "wok_12" are KotOR ids. */
    size_t digits_at = strlen(key);
    while (digits_at > 0 && isdigit((unsigned char)key[digits_at - 1]))
        digits_at--;
    if (key[digits_at] && strlen(key + digits_at) <= 5) {
        int known_prefix = digits_at == 0;
        for (int p = 0; prefixes[p] && !known_prefix; p++)
            known_prefix = strlen(prefixes[p]) == digits_at && strncmp(key, prefixes[p], digits_at) == 0;
        if (known_prefix)
            return wm_surface_from_kotor(table, atoi(key + digits_at));
    }
    return WM_SURFACE_NONE;
}

uint16_t wm_surface_from_nwn2_flags(const wm_surface_table *table, uint32_t flags)
{
    for (uint32_t i = 0; i < table->count; i++)
        if (table->entries[i].nwn2_flag && (flags & table->entries[i].nwn2_flag))
            return (uint16_t)i;
    return WM_SURFACE_NONE;
}

int32_t wm_surface_kotor_id(const wm_surface_table *table, uint16_t surface)
{
    return surface < table->count ? table->entries[surface].kotor_id : -1;
}

uint32_t wm_surface_nwn2_flag(const wm_surface_table *table, uint16_t surface)
{
    return surface < table->count ? table->entries[surface].nwn2_flag : 0;
}

const char *wm_surface_name(const wm_surface_table *table, uint16_t surface)
{
    return surface < table->count ? table->entries[surface].name : "unknown";
}

int wm_surface_walkable(const wm_surface_table *table, uint16_t surface)
{
    return surface < table->count ? table->entries[surface].walkable : 0;
}

void wm_surface_table_free(const wm_ctx *ctx, wm_surface_table *table)
{
    wm_free(ctx, table->entries);
    memset(table, 0, sizeof *table);
}

static int parse_int(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 0);
    if (*s == '\0' || *end != '\0')
        return 0;
    *out = v;
    return 1;
}

static wm_result parse_line(wm_ctx *ctx, wm_surface_table *t, char *line, const char *source, unsigned line_no)
{
    char *fields[7];
    int n = 0;
    for (char *tok = strtok(line, " \t\r"); tok && n < 7; tok = strtok(NULL, " \t\r"))
        fields[n++] = tok;
    if (n == 0)
        return WM_OK;
    if (strcmp(fields[0], "fallback") == 0) {
        if (n != 2)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: 'fallback' takes one surface name", source, line_no);
        char key[64];
        normalise(fields[1], key, sizeof key);
        int found = find_by_normalised(t, key);
        if (found < 0)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: fallback surface '%s' is not in the table", source,
                            line_no, fields[1]);
        t->fallback = (uint16_t)found;
        return WM_OK;
    }
    if (n < 5 || n > 6)
        return wm_error(ctx, WM_ERR_CORRUPT,
                        "%s: line %u: expected 'name walkable kotor-id nwn2-flag colour [aliases]', got %d fields",
                        source, line_no, n);
    wm_surface s;
    memset(&s, 0, sizeof s);
    if (strlen(fields[0]) >= sizeof s.name)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: surface name '%s' is longer than %zu characters", source,
                        line_no, fields[0], sizeof s.name - 1);
    for (size_t i = 0; fields[0][i]; i++)
        s.name[i] = (char)tolower((unsigned char)fields[0][i]);
    long walkable, kotor, nwn2, colour;
    if (!parse_int(fields[1], &walkable) || (walkable != 0 && walkable != 1))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: walkable must be 0 or 1, got '%s'", source, line_no, fields[1]);
    if (!parse_int(fields[2], &kotor) || kotor < -1 || kotor > 65535)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: bad KotOR id '%s'", source, line_no, fields[2]);
    if (!parse_int(fields[3], &nwn2) || nwn2 < 0 || nwn2 > 0xFFFF)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: bad NWN2 flag '%s'", source, line_no, fields[3]);
    char hex[16];
    snprintf(hex, sizeof hex, "0x%s", fields[4]);
    if (strlen(fields[4]) != 6 || !parse_int(hex, &colour))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: colour must be rrggbb, got '%s'", source, line_no, fields[4]);
    s.walkable = (int)walkable;
    s.kotor_id = (int32_t)kotor;
    s.nwn2_flag = (uint32_t)nwn2;
    s.color[0] = (uint8_t)(colour >> 16);
    s.color[1] = (uint8_t)(colour >> 8);
    s.color[2] = (uint8_t)colour;
    if (n == 6 && strcmp(fields[5], "-") != 0) {
        /* comma-separated; empty items are skipped */
        for (char *a = fields[5], *next; *a; a = next) {
            size_t len = strcspn(a, ",");
            next = a[len] ? a + len + 1 : a + len;
            a[len] = '\0';
            if (len == 0)
                continue;
            if (s.alias_count == WM_SURFACE_MAX_ALIASES || strlen(a) >= sizeof s.aliases[0])
                return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: at most %d aliases of at most 31 characters",
                                source, line_no, WM_SURFACE_MAX_ALIASES);
            strcpy(s.aliases[s.alias_count++], a);
        }
    }
    for (uint32_t i = 0; i < t->count; i++)
        if (strcmp(t->entries[i].name, s.name) == 0) {
            t->entries[i] = s;
            return WM_OK;
        }
    if (t->count >= 0xFFFE)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: line %u: too many surfaces", source, line_no);
    wm_surface *entries = wm_realloc_array(ctx, t->entries, t->count + 1, sizeof *entries);
    if (!entries)
        return WM_ERR_NOMEM;
    t->entries = entries;
    t->entries[t->count++] = s;
    return WM_OK;
}

wm_result wm_surface_table_parse(wm_ctx *ctx, const wm_surface_table *base, const char *text, size_t length,
                                 const char *source_name, wm_surface_table *out)
{
    memset(out, 0, sizeof *out);
    if (base && base->count) {
        out->entries = wm_alloc_array(ctx, base->count, sizeof *out->entries);
        if (!out->entries)
            return WM_ERR_NOMEM;
        memcpy(out->entries, base->entries, base->count * sizeof *out->entries);
        out->count = base->count;
        out->fallback = base->fallback;
    }
    size_t pos = 0;
    unsigned line_no = 0;
    while (pos < length) {
        size_t end = pos;
        while (end < length && text[end] != '\n')
            end++;
        line_no++;
        char line[512];
        size_t n = end - pos;
        if (n >= sizeof line) {
            wm_surface_table_free(ctx, out);
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u is longer than %zu characters", source_name, line_no,
                            sizeof line - 1);
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        if (strlen(line) != n) {
            wm_surface_table_free(ctx, out);
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u contains a NUL byte", source_name, line_no);
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        wm_result r = parse_line(ctx, out, line, source_name, line_no);
        if (r) {
            wm_surface_table_free(ctx, out);
            return r;
        }
        pos = end + 1;
    }
    if (out->count == 0) {
        wm_surface_table_free(ctx, out);
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: no surfaces defined", source_name);
    }
    return WM_OK;
}

wm_result wm_surface_table_load(wm_ctx *ctx, const char *path, wm_surface_table *out)
{
    uint8_t *data;
    size_t size;
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (r)
        return r;
    r = wm_surface_table_parse(ctx, wm_surfaces(ctx), (const char *)data, size, path, out);
    wm_free(ctx, data);
    return r;
}
