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

uint16_t wm_surface_named(const wm_surface_table *table, const char *name)
{
    for (uint32_t i = 0; i < table->count; i++)
        if (strcmp(table->entries[i].name, name) == 0)
            return (uint16_t)i;
    return WM_SURFACE_NONE;
}

int wm_surface_code_of(const wm_surface_table *table, uint16_t surface, const char *scheme, int64_t *out)
{
    if (surface >= table->count)
        return 0;
    const wm_surface *s = &table->entries[surface];
    for (unsigned k = 0; k < s->code_count; k++)
        if (strcmp(s->codes[k].scheme, scheme) == 0) {
            *out = s->codes[k].value;
            return 1;
        }
    return 0;
}

uint16_t wm_surface_by_code(const wm_surface_table *table, const char *scheme, int64_t value)
{
    for (uint32_t i = 0; i < table->count; i++) {
        int64_t code;
        if (table->entries[i].code_count && wm_surface_code_of(table, (uint16_t)i, scheme, &code) && code == value &&
            value != WM_SURFACE_CODE_NONE)
            return (uint16_t)i;
    }
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
    /* Numeric forms: "12", "mat_12", "Surface12", "wok_12" are surface ids (rows). */
    size_t digits_at = strlen(key);
    while (digits_at > 0 && isdigit((unsigned char)key[digits_at - 1]))
        digits_at--;
    if (key[digits_at] && strlen(key + digits_at) <= 5) {
        int known_prefix = digits_at == 0;
        for (int p = 0; prefixes[p] && !known_prefix; p++)
            known_prefix = strlen(prefixes[p]) == digits_at && strncmp(key, prefixes[p], digits_at) == 0;
        int id = atoi(key + digits_at);
        if (known_prefix && id < (int)table->count)
            return (uint16_t)id;
    }
    return WM_SURFACE_NONE;
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

static wm_result add_code(wm_ctx *ctx, wm_surface *s, const char *scheme, size_t scheme_len, int64_t value,
                          const char *source, unsigned line_no)
{
    if (s->code_count == WM_SURFACE_MAX_CODES || scheme_len == 0 || scheme_len >= sizeof s->codes[0].scheme)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: at most %d codes, each scheme=value with a scheme of 1 to "
                        "15 characters", source, line_no, WM_SURFACE_MAX_CODES);
    wm_surface_code *c = &s->codes[s->code_count++];
    for (size_t i = 0; i < scheme_len; i++)
        c->scheme[i] = (char)tolower((unsigned char)scheme[i]);
    c->value = value;
    return WM_OK;
}

/* "kotor=4", "nwn2=0x20", "kotor=none". */
static wm_result parse_code(wm_ctx *ctx, wm_surface *s, const char *field, const char *source, unsigned line_no)
{
    const char *eq = strchr(field, '=');
    long value = WM_SURFACE_CODE_NONE;
    if (strcmp(eq + 1, "none") != 0 && (!parse_int(eq + 1, &value) || value < 0 || value > 0x7FFFFFFFL))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: bad code '%s' (scheme=number or scheme=none)", source,
                        line_no, field);
    return add_code(ctx, s, field, (size_t)(eq - field), value, source, line_no);
}

/* The older six columns: name walkable kotor-id nwn2-flag colour aliases. */
static wm_result parse_legacy_codes(wm_ctx *ctx, wm_surface *s, char **fields, const char *source, unsigned line_no)
{
    long kotor, nwn2;
    if (!parse_int(fields[2], &kotor) || kotor < -1 || kotor > 65535)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: bad KotOR id '%s'", source, line_no, fields[2]);
    if (!parse_int(fields[3], &nwn2) || nwn2 < 0 || nwn2 > 0xFFFF)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: bad NWN2 flag '%s'", source, line_no, fields[3]);
    wm_result r = add_code(ctx, s, "kotor", 5, kotor, source, line_no);
    return r ? r : add_code(ctx, s, "nwn2", 4, nwn2 ? nwn2 : WM_SURFACE_CODE_NONE, source, line_no);
}

static wm_result parse_aliases(wm_ctx *ctx, wm_surface *s, char *list, const char *source, unsigned line_no)
{
    if (strcmp(list, "-") == 0)
        return WM_OK;
    /* comma-separated; empty items are skipped */
    for (char *a = list, *next; *a; a = next) {
        size_t len = strcspn(a, ",");
        next = a[len] ? a + len + 1 : a + len;
        a[len] = '\0';
        if (len == 0)
            continue;
        if (s->alias_count == WM_SURFACE_MAX_ALIASES || strlen(a) >= sizeof s->aliases[0])
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: at most %d aliases of at most 31 characters", source,
                            line_no, WM_SURFACE_MAX_ALIASES);
        strcpy(s->aliases[s->alias_count++], a);
    }
    return WM_OK;
}

static wm_result parse_fallback(wm_ctx *ctx, wm_surface_table *t, char **fields, int n, const char *source,
                                unsigned line_no)
{
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

static wm_result store(wm_ctx *ctx, wm_surface_table *t, const wm_surface *s, const char *source, unsigned line_no)
{
    for (uint32_t i = 0; i < t->count; i++)
        if (strcmp(t->entries[i].name, s->name) == 0) {
            t->entries[i] = *s;
            return WM_OK;
        }
    if (t->count >= 0xFFFE)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: line %u: too many surfaces", source, line_no);
    wm_surface *entries = wm_realloc_array(ctx, t->entries, t->count + 1, sizeof *entries);
    if (!entries)
        return WM_ERR_NOMEM;
    t->entries = entries;
    t->entries[t->count++] = *s;
    return WM_OK;
}

#define MAX_FIELDS (4 + WM_SURFACE_MAX_CODES + 1)

static wm_result parse_line(wm_ctx *ctx, wm_surface_table *t, char *line, const char *source, unsigned line_no)
{
    char *fields[MAX_FIELDS], *codes[MAX_FIELDS];
    int n = 0, n_codes = 0;
    for (char *tok = strtok(line, " \t\r"); tok && n + n_codes < MAX_FIELDS; tok = strtok(NULL, " \t\r")) {
        if (strchr(tok, '=') && n >= 3)
            codes[n_codes++] = tok;
        else
            fields[n++] = tok;
    }
    if (n == 0)
        return WM_OK;
    if (strcmp(fields[0], "fallback") == 0)
        return parse_fallback(ctx, t, fields, n, source, line_no);
    int legacy = n >= 5;
    if (n < 3 || n > 6 || (legacy && n_codes))
        return wm_error(ctx, WM_ERR_CORRUPT,
                        "%s: line %u: expected 'name walkable rrggbb [aliases] [scheme=code...]', got %d fields",
                        source, line_no, n + n_codes);
    wm_surface s;
    memset(&s, 0, sizeof s);
    if (strlen(fields[0]) >= sizeof s.name)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: surface name '%s' is longer than %zu characters", source,
                        line_no, fields[0], sizeof s.name - 1);
    for (size_t i = 0; fields[0][i]; i++)
        s.name[i] = (char)tolower((unsigned char)fields[0][i]);
    long walkable, colour;
    if (!parse_int(fields[1], &walkable) || (walkable != 0 && walkable != 1))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: walkable must be 0 or 1, got '%s'", source, line_no, fields[1]);
    const char *colour_field = fields[legacy ? 4 : 2];
    char hex[16];
    snprintf(hex, sizeof hex, "0x%s", colour_field);
    if (strlen(colour_field) != 6 || !parse_int(hex, &colour))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %u: colour must be rrggbb, got '%s'", source, line_no,
                        colour_field);
    s.walkable = (int)walkable;
    s.color[0] = (uint8_t)(colour >> 16);
    s.color[1] = (uint8_t)(colour >> 8);
    s.color[2] = (uint8_t)colour;
    wm_result r = legacy ? parse_legacy_codes(ctx, &s, fields, source, line_no) : WM_OK;
    for (int c = 0; !r && c < n_codes; c++)
        r = parse_code(ctx, &s, codes[c], source, line_no);
    int alias_field = legacy ? 5 : 3;
    if (!r && n > alias_field)
        r = parse_aliases(ctx, &s, fields[alias_field], source, line_no);
    return r ? r : store(ctx, t, &s, source, line_no);
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
