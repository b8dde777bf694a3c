/* Layout text (.lyt): `beginlayout`, then `roomcount N`, `trackcount N`,
 * `obstaclecount N`, `doorhookcount N`, each followed by its N rows, then
 * `donelayout`. Real files indent with any mix of spaces and tabs, end
 * lines with CR LF or nothing; keywords are matched case-insensitively. */
#include "wm_geometry.h"
#include "wm_layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LYT_MAX_FIELDS 12
#define LYT_MAX_LINE 512

typedef struct lyt_reader {
    const char *p, *end, *source;
    unsigned long line_no;
    char line[LYT_MAX_LINE];
    char *field[LYT_MAX_FIELDS];
    int fields;
    wm_ctx *ctx;
} lyt_reader;

static wm_result lyt_error(lyt_reader *t, const char *what)
{
    return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: %s", t->source, t->line_no, what);
}

/* Whether line[0, n) holds more than NULs and blanks after its first NUL: a name cut there
 * would be read as another (a file padded with NULs at its end is still read). */
static int text_after_nul(const char *line, size_t n)
{
    for (size_t i = strlen(line); i < n; i++)
        if (line[i] && !isspace((unsigned char)line[i])) return 1;
    return 0;
}

/* Next non-empty line split into fields; 0 at the end of the text. */
static int next_fields(lyt_reader *t, wm_result *error)
{
    while (t->p < t->end) {
        const char *start = t->p, *nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
        const char *stop = nl ? nl : t->end;
        t->p = nl ? nl + 1 : t->end;
        t->line_no++;
        size_t n = (size_t)(stop - start);
        if (n >= LYT_MAX_LINE) {
            *error = lyt_error(t, "line too long");
            return 0;
        }
        memcpy(t->line, start, n);
        t->line[n] = 0;
        if (strlen(t->line) < n && text_after_nul(t->line, n)) {
            *error = wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: a NUL byte at column %zu, text after it",
                              t->source, t->line_no, strlen(t->line) + 1);
            return 0;
        }
        t->fields = 0;
        for (char *s = t->line; *s && t->fields < LYT_MAX_FIELDS;) {
            while (*s && isspace((unsigned char)*s)) *s++ = 0;
            if (!*s) break;
            t->field[t->fields++] = s;
            while (*s && !isspace((unsigned char)*s)) s++;
        }
        if (t->fields && t->field[0][0] != '#') return 1;
    }
    return 0;
}

static int to_float(const char *s, float *out)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    *out = (float)d;
    return end != s && *end == 0 && errno == 0 && isfinite(*out);
}

/* A position: beyond WM_COORD_LIMIT it is refused (the line named) like a bad number. */
static wm_result check_coords(lyt_reader *t, const float *xyz)
{
    for (int k = 0; k < 3; k++)
        if (!(fabsf(xyz[k]) <= WM_COORD_LIMIT))
            return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: coordinate %g is beyond %g", t->source, t->line_no,
                            (double)xyz[k], (double)WM_COORD_LIMIT);
    return WM_OK;
}

static int copy_name(char *dst, const char *src)
{
    size_t n = strlen(src);
    if (n >= WM_LAYOUT_NAME) return 0;
    memcpy(dst, src, n + 1);
    return 1;
}

/* A row's name longer than a layout holds is refused naming it, not as a malformed row. */
static wm_result check_name_length(lyt_reader *t, const char *name)
{
    size_t n = strlen(name);
    if (n < WM_LAYOUT_NAME) return WM_OK;
    char shown[25]; /* its start, unprintable bytes as '?' */
    for (size_t i = 0; i + 1 < sizeof shown; i++) shown[i] = isprint((unsigned char)name[i]) ? name[i] : '?';
    shown[sizeof shown - 1] = 0;
    return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: name \"%s...\" is %zu bytes, longer than the %d a layout "
                    "name may have", t->source, t->line_no, shown, n, WM_LAYOUT_NAME - 1);
}

/* `name x y z` rows. */
static wm_result read_places(lyt_reader *t, uint32_t n, wm_layout_place *out)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < n; i++) {
        if (!next_fields(t, &r)) return r ? r : lyt_error(t, "the text ends before the announced rows");
        if ((r = check_name_length(t, t->field[0]))) return r;
        if (t->fields != 4 || !copy_name(out[i].name, t->field[0]) || !to_float(t->field[1], &out[i].position[0]) ||
            !to_float(t->field[2], &out[i].position[1]) || !to_float(t->field[3], &out[i].position[2]))
            return lyt_error(t, "expected \"name x y z\"");
        if ((r = check_coords(t, out[i].position))) return r;
    }
    return WM_OK;
}

/* `room door 0 x y z q1 q2 q3 q4` rows. */
static wm_result read_doorhooks(lyt_reader *t, uint32_t n, wm_layout_doorhook *out)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < n; i++) {
        wm_layout_doorhook *d = &out[i];
        float unknown;
        if (!next_fields(t, &r)) return r ? r : lyt_error(t, "the text ends before the announced rows");
        if ((r = check_name_length(t, t->field[0])) || (t->fields > 1 && (r = check_name_length(t, t->field[1]))))
            return r;
        int ok = t->fields == 10 && copy_name(d->room, t->field[0]) && copy_name(d->door, t->field[1]) &&
                 to_float(t->field[2], &unknown) && unknown == floorf(unknown) && fabsf(unknown) < 1e9f;
        for (int k = 0; ok && k < 3; k++) ok = to_float(t->field[3 + k], &d->position[k]);
        for (int k = 0; ok && k < 4; k++) ok = to_float(t->field[6 + k], &d->orientation[k]);
        if (!ok) return lyt_error(t, "expected \"room door 0 x y z q1 q2 q3 q4\"");
        if ((r = check_coords(t, d->position))) return r;
        d->unknown = (int32_t)unknown;
    }
    return WM_OK;
}

/* `keyword N`: N checked against the text left (a row takes at least 8 bytes). */
static wm_result read_count(lyt_reader *t, size_t elem_size, void **array, uint32_t *count)
{
    char *end;
    errno = 0;
    unsigned long n = t->fields == 2 ? strtoul(t->field[1], &end, 10) : 0;
    if (t->fields != 2 || *end || errno || t->field[1][0] == '-') return lyt_error(t, "bad count");
    if (*array) return lyt_error(t, "second list of the same kind");
    if ((uint64_t)n * 8 > (uint64_t)(t->end - t->p) || n > t->ctx->limits.max_triangles)
        return wm_error(t->ctx, WM_ERR_TRUNCATED, "%s: line %lu: %lu rows announced, the text ends before", t->source,
                        t->line_no, n);
    *array = wm_alloc_array(t->ctx, (size_t)n + 1, elem_size);
    if (!*array) return WM_ERR_NOMEM;
    *count = (uint32_t)n;
    return WM_OK;
}

static wm_result read_layout_body(lyt_reader *t, wm_layout *out)
{
    wm_result r = WM_OK;
    while (next_fields(t, &r)) {
        const char *key = t->field[0];
        if (strcasecmp(key, "donelayout") == 0) return WM_OK;
        if (strcasecmp(key, "roomcount") == 0) {
            r = read_count(t, sizeof *out->rooms, (void **)&out->rooms, &out->room_count);
            if (!r) r = read_places(t, out->room_count, out->rooms);
        } else if (strcasecmp(key, "trackcount") == 0) {
            r = read_count(t, sizeof *out->tracks, (void **)&out->tracks, &out->track_count);
            if (!r) r = read_places(t, out->track_count, out->tracks);
        } else if (strcasecmp(key, "obstaclecount") == 0) {
            r = read_count(t, sizeof *out->obstacles, (void **)&out->obstacles, &out->obstacle_count);
            if (!r) r = read_places(t, out->obstacle_count, out->obstacles);
        } else if (strcasecmp(key, "doorhookcount") == 0) {
            r = read_count(t, sizeof *out->doorhooks, (void **)&out->doorhooks, &out->doorhook_count);
            if (!r) r = read_doorhooks(t, out->doorhook_count, out->doorhooks);
        } else {
            return lyt_error(t, "unknown keyword in the layout");
        }
        if (r) return r;
    }
    return r ? r : lyt_error(t, "no donelayout");
}

wm_result wm_layout_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, wm_layout *out)
{
    lyt_reader t;
    memset(&t, 0, sizeof t);
    t.p = (const char *)data, t.end = (const char *)data + size, t.ctx = ctx;
    t.source = name ? name : "<memory>";
    wm_layout_init(out);
    wm_result r = WM_OK;
    int begun = 0;
    while (!begun && next_fields(&t, &r)) {
        if (strcasecmp(t.field[0], "filedependancy") == 0 && t.fields >= 2)
            snprintf(out->dependency, sizeof out->dependency, "%s", t.field[1]);
        else if (strcasecmp(t.field[0], "beginlayout") == 0)
            begun = 1;
        else
            r = lyt_error(&t, "expected beginlayout");
        if (r) break;
    }
    if (!r && !begun) r = wm_error(ctx, WM_ERR_CORRUPT, "%s: no beginlayout: not a layout", t.source);
    if (!r) r = read_layout_body(&t, out);
    if (r) wm_layout_free(ctx, out);
    return r;
}
