#include "report_print.h"

#include <math.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x80) { /* JSON is UTF-8: other bytes (Latin-1 names...) become U+FFFD */
            int n = wm_utf8_length(s);
            if (n == 0) {
                fputs("\\ufffd", out);
            } else {
                fwrite(s, 1, (size_t)n, out);
                s += n - 1;
            }
        } else if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Shortest text that reads back as the same double (or float). */
static void print_shortest(FILE *out, double v, int as_float)
{
    if (!isfinite(v)) {
        fputs("null", out); /* JSON has no infinity or NaN */
        return;
    }
    char text[32];
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (as_float ? strtof(text, NULL) == (float)v : strtod(text, NULL) == v)
            break;
    }
    fputs(text, out);
}

void json_number(FILE *out, double v)
{
    print_shortest(out, v, 0);
}

void json_float(FILE *out, float v)
{
    print_shortest(out, v, 1);
}

/* One whitespace-free token of s as a number: 1 = finite (value set),
 * 2 = inf/nan spelled out, 0 = not a number. *next is past the token. */
static int number_token(const char *s, double *value, const char **next)
{
    size_t len = strcspn(s, " \t");
    char token[64];
    if (len == 0 || len >= sizeof token)
        return 0;
    memcpy(token, s, len);
    token[len] = '\0';
    *next = s + len;
    char *end;
    *value = strtod(token, &end);
    if (*end != '\0')
        return 0;
    if (strspn(token, "0123456789+-.eE") == len)
        return 1;
    const char *word = token + (token[0] == '-' || token[0] == '+');
    return strcasecmp(word, "inf") == 0 || strcasecmp(word, "infinity") == 0 || strcasecmp(word, "nan") == 0 ? 2 : 0;
}

void json_value(FILE *out, const char *s)
{
    /* Count the space-separated numbers first: one is a number, several a vector. */
    double values[16];
    int kinds[16], count = 0;
    const char *p = s;
    while (*p && count < 16) {
        const char *next;
        int kind = number_token(p, &values[count], &next);
        if (!kind)
            break;
        kinds[count++] = kind;
        p = next + strspn(next, " \t");
    }
    if (count == 0 || *p) {
        json_string(out, s);
        return;
    }
    if (count > 1)
        fputc('[', out);
    for (int i = 0; i < count; i++) {
        fputs(i ? ", " : "", out);
        if (kinds[i] == 1)
            json_number(out, values[i]);
        else
            fputs("null", out);
    }
    if (count > 1)
        fputc(']', out);
}

static const char *severity_name(wm_severity s)
{
    return s == WM_SEV_ERROR ? "error" : s == WM_SEV_WARNING ? "warning" : "info";
}

void report_print_text(FILE *out, const wm_report *report, const char *indent)
{
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *item = &report->items[i];
        if (item->severity == WM_SEV_INFO)
            fprintf(out, "%s%s: %s\n", indent, item->key, item->value);
        else
            fprintf(out, "%s%s: %s: %s\n", indent, severity_name(item->severity), item->key, item->value);
    }
}

void report_print_facts_json(FILE *out, const wm_report *report)
{
    int first = 1;
    fputc('{', out);
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *item = &report->items[i];
        if (item->severity != WM_SEV_INFO)
            continue;
        fputs(first ? "" : ", ", out);
        json_string(out, item->key);
        fputs(": ", out);
        json_value(out, item->value);
        first = 0;
    }
    fputc('}', out);
}

void report_print_findings_json(FILE *out, const wm_report *report)
{
    int first = 1;
    fputc('[', out);
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *item = &report->items[i];
        if (item->severity == WM_SEV_INFO)
            continue;
        fprintf(out, "%s{\"severity\": \"%s\", \"location\": ", first ? "" : ", ", severity_name(item->severity));
        json_string(out, item->key);
        fputs(", \"message\": ", out);
        json_string(out, item->value);
        fputc('}', out);
        first = 0;
    }
    fputc(']', out);
}
