/* Reading facts back out of our SVG pictures, and the external checkers
 * (xmllint with Debian's SVG 1.1 DTD, rsvg-convert). Header-only: shared by
 * test_svg.c and test_render*.c. Include after test_support.h. */
#ifndef WM_SVG_INSPECT_H
#define WM_SVG_INSPECT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Shipped by Debian's w3c-sgml-lib. */
#define SVGT_DTD "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"

static inline char *svgt_load(const char *path)
{
    size_t size;
    char *text = (char *)wmt_read_file(path, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    return text;
}

static inline size_t svgt_count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* Elements `<element` inside every `<g class="cls">` ... `</g>`. */
static inline size_t svgt_count_in_group(const char *text, const char *cls, const char *element)
{
    char open[64], tag[32];
    snprintf(open, sizeof open, "<g class=\"%s\">", cls);
    snprintf(tag, sizeof tag, "<%s", element);
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, open)) != NULL;) {
        const char *end = strstr(p, "</g>");
        assert_non_null(end);
        for (const char *q = p; (q = strstr(q, tag)) != NULL && q < end; q++)
            n++;
        p = end;
    }
    return n;
}

/* The texts of the <text> elements in groups of class cls, one per line (malloc'ed). */
static inline char *svgt_texts_in_group(const char *text, const char *cls)
{
    char open[64];
    snprintf(open, sizeof open, "<g class=\"%s\">", cls);
    size_t cap = strlen(text) + 1, used = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    for (const char *p = text; (p = strstr(p, open)) != NULL;) {
        const char *end = strstr(p, "</g>");
        for (const char *q = p; (q = strstr(q, "<text")) != NULL && q < end; q++) {
            const char *start = strchr(q, '>') + 1, *stop = strstr(start, "</text>");
            used += (size_t)snprintf(out + used, cap - used, "%.*s\n", (int)(stop - start), start);
        }
        p = end;
    }
    return out;
}

/* Whether the tool is installed and starts (see wmt_find_working_program); prints why not. */
static inline int svgt_have(const char *tool)
{
    const char *why = NULL;
    char *path = wmt_find_working_program(tool, "--version", &why);
    if (!path)
        print_message("%s %s\n", tool, why);
    free(path);
    return path != NULL;
}

/* xmllint: well-formed and valid against the SVG 1.1 DTD. Returns the exit status. */
static inline int svgt_validate(const char *const *paths, size_t count)
{
    size_t cap = 256;
    for (size_t i = 0; i < count; i++)
        cap += strlen(paths[i]) + 3;
    char *command = malloc(cap);
    size_t used = (size_t)snprintf(command, cap, "xmllint --noout --nonet --dtdvalid %s", SVGT_DTD);
    for (size_t i = 0; i < count; i++)
        used += (size_t)snprintf(command + used, cap - used, " '%s'", paths[i]);
    int status = system(command);
    free(command);
    return status;
}

/* Skips unless xmllint and the DTD are there (CI installs them: .ci/run). */
static inline void svgt_need_validator(void)
{
    FILE *dtd = fopen(SVGT_DTD, "r");
    if (!dtd || !svgt_have("xmllint")) {
        if (dtd)
            fclose(dtd);
        print_message("xmllint (libxml2-utils) or the SVG 1.1 DTD (w3c-sgml-lib) missing: skipped\n");
        skip();
    }
    fclose(dtd);
}

/* The legend row of WMO group g ("group g: F floor, W wall..."): F + W, or -1 when absent. */
static inline int64_t svgt_legend_group(const char *svg, uint32_t g)
{
    char row[48];
    snprintf(row, sizeof row, ">group %u: ", g);
    const char *at = strstr(svg, row);
    unsigned floors, walls;
    if (!at || sscanf(at + strlen(row), "%u floor, %u wall", &floors, &walls) != 2)
        return -1;
    return (int64_t)floors + walls;
}

/* Faces drawn in class cls: one "M" per triangle in its <path> elements. */
static inline uint32_t svgt_class_faces(const char *svg, const char *cls)
{
    char open[48];
    snprintf(open, sizeof open, "<path class=\"%s\" d=\"", cls);
    uint32_t n = 0;
    for (const char *at = strstr(svg, open); at; at = strstr(at, open))
        for (at += strlen(open); *at && *at != '"'; at++)
            n += *at == 'M';
    return n;
}

#endif
