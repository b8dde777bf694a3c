#include "assimp_module.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next blank-separated token of [p, end) into buf; returns where it
 * ends, or NULL when there is none. A token too long for buf comes back
 * empty, which no number parses. */
static const char *next_token(const char *p, const char *end, char *buf, size_t size)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end)
        return NULL;
    size_t len = 0;
    for (; p < end && *p != ' ' && *p != '\t'; p++)
        if (len + 1 < size)
            buf[len++] = *p;
        else
            len = size; /* too long: remembered until the end of the token */
    buf[len < size ? len : 0] = '\0';
    return p;
}

/* Numbers on a vertex line: -1 for a token that is none, -2 (token in
 * bad) for a coordinate that is infinite, NaN or beyond float range. */
static int count_numbers(const char *p, const char *end, char *bad, size_t bad_size)
{
    int n = 0;
    char buf[64];
    while ((p = next_token(p, end, buf, sizeof buf)) != NULL) {
        char *stop;
        /* as a float, as the reader keeps it: FLT_MAX printed to 8 digits (3.4028235e38) lies
         * above FLT_MAX but rounds to it, and only what rounds past it is infinite */
        float v = strtof(buf, &stop);
        if (stop == buf || *stop != '\0')
            return -1;
        if (n < 3 && !isfinite(v)) {
            snprintf(bad, bad_size, "%s", buf);
            return -2;
        }
        n++;
    }
    return n;
}

/* Checks every reference "v", "v/t", "v//n", "v/t/n" of a face line;
 * returns the number of references, or -1 with *bad set to the bad index. */
static long check_face(const char *p, const char *end, long vertex_count, long *bad)
{
    long refs = 0;
    char buf[64];
    while ((p = next_token(p, end, buf, sizeof buf)) != NULL) {
        char *stop;
        long index = strtol(buf, &stop, 10);
        if (stop == buf || (*stop != '\0' && *stop != '/')) {
            *bad = 0;
            return -1;
        }
        long resolved = index < 0 ? vertex_count + index + 1 : index;
        if (index == 0 || resolved < 1 || resolved > vertex_count) {
            *bad = index;
            return -1;
        }
        refs++;
    }
    return refs;
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

wm_result wm_obj_check_line(wm_ctx *ctx, const char *path, unsigned long line_no, const char *line, const char *end,
                            long *vertices, long *faces)
{
    for (const char *c = line; c < end; c++)
        if ((unsigned char)*c < 0x20 && *c != '\t')
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %lu: control character 0x%02x: not a text OBJ file", path,
                            line_no, (unsigned char)*c);
    if (end - line >= 2 && line[0] == 'v' && blank(line[1])) {
        char bad[64];
        int n = count_numbers(line + 2, end, bad, sizeof bad);
        if (n == -2)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %lu: coordinate '%s' is not a finite number", path, line_no,
                            bad);
        if (n < 3)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %lu: vertex needs 3 coordinates, found %s (file truncated?)",
                            path, line_no, n < 0 ? "a non-number" : n == 0 ? "none" : n == 1 ? "1" : "2");
        (*vertices)++;
    } else if (end - line >= 2 && line[0] == 'f' && blank(line[1])) {
        long bad = 0;
        long refs = check_face(line + 2, end, *vertices, &bad);
        if (refs < 0)
            return bad ? wm_error(ctx, WM_ERR_CORRUPT, "%s: line %lu: face refers to vertex %ld but only %ld are defined",
                                  path, line_no, bad, *vertices)
                       : wm_error(ctx, WM_ERR_CORRUPT, "%s: line %lu: malformed face reference", path, line_no);
        if (refs < 3)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: line %lu: face has %ld vertices, needs 3 (file truncated?)", path,
                            line_no, refs);
        (*faces)++;
    }
    return WM_OK;
}

wm_result wm_obj_no_faces(wm_ctx *ctx, const char *path, long vertices, unsigned long lines)
{
    return wm_error(ctx, WM_ERR_CORRUPT, "%s: no faces (%ld vertices, %lu lines)", path, vertices, lines);
}

wm_result wm_obj_check(wm_ctx *ctx, const char *path, const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: not a text OBJ file (contains NUL bytes)", path);
    long vertices = 0, faces = 0;
    size_t pos = 0;
    unsigned long line_no = 0;
    while (pos < size) {
        const char *line = (const char *)data + pos;
        const char *nl = memchr(line, '\n', size - pos);
        const char *end = nl ? nl : (const char *)data + size;
        pos = (size_t)(end - (const char *)data) + 1;
        line_no++;
        while (end > line && (end[-1] == '\r' || blank(end[-1])))
            end--;
        while (line < end && blank(*line))
            line++;
        if (line >= end || *line == '#')
            continue;
        wm_result r = wm_obj_check_line(ctx, path, line_no, line, end, &vertices, &faces);
        if (r)
            return r;
    }
    return faces ? WM_OK : wm_obj_no_faces(ctx, path, vertices, line_no);
}
