/* The line reader of ASCII walkmesh and model text. */
#include "bwm/bwm_text.h"
#include "wm_geometry.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void bwm_text_init(bwm_text *t, wm_ctx *ctx, const char *text, size_t size, const char *source)
{
    memset(t, 0, sizeof *t);
    t->p = text;
    t->end = text + size;
    t->source = source ? source : "<memory>";
    t->ctx = ctx;
}

int bwm_text_line(bwm_text *t)
{
    if (t->p >= t->end) return 0;
    const char *start = t->p, *nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
    const char *stop = nl ? nl : t->end;
    t->p = nl ? nl + 1 : t->end;
    t->line_no++;
    size_t n = (size_t)(stop - start);
    if (n >= BWM_TEXT_MAX_LINE) return -1;
    memcpy(t->line, start, n);
    t->line[n] = 0;
    char *hash = strchr(t->line, '#');
    if (hash) *hash = 0;
    t->fields = 0;
    for (char *s = t->line; *s && t->fields < BWM_TEXT_MAX_FIELDS;) {
        while (*s && isspace((unsigned char)*s)) *s++ = 0;
        if (!*s) break;
        t->field[t->fields++] = s;
        while (*s && !isspace((unsigned char)*s)) s++;
    }
    return 1;
}

wm_result bwm_text_error(bwm_text *t, const char *what)
{
    return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: %s", t->source, t->line_no, what);
}

int bwm_text_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == 0 && errno == 0 && isfinite(*out);
}

int bwm_text_coord(const char *s, double *out)
{
    return bwm_text_double(s, out) && fabs(*out) <= WM_COORD_LIMIT;
}

int bwm_text_long(const char *s, long *out)
{
    double d;
    if (!bwm_text_double(s, &d) || d != floor(d) || fabs(d) > 2147483647.0) return 0;
    *out = (long)d;
    return 1;
}

wm_result bwm_text_count(bwm_text *t, uint32_t *out)
{
    long n;
    if (t->fields < 2 || !bwm_text_long(t->field[1], &n) || n < 0) return bwm_text_error(t, "bad count");
    if ((uint64_t)n > t->ctx->limits.max_triangles)
        return wm_error(t->ctx, WM_ERR_LIMIT, "%s: line %lu: count %ld over the limit", t->source, t->line_no, n);
    if ((uint64_t)n * 2 > (uint64_t)(t->end - t->p))
        return wm_error(t->ctx, WM_ERR_TRUNCATED, "%s: line %lu: %ld rows announced, the text ends before",
                        t->source, t->line_no, n);
    *out = (uint32_t)n;
    return WM_OK;
}
