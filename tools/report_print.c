#include "report_print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

static void put_string(wm_buffer *out, const char *s)
{
    wm_put_bytes(out, s, strlen(s));
}

/* Shortest text that reads back as the same double (or float). */
static void print_shortest(wm_buffer *out, double v, int as_float)
{
    if (!isfinite(v)) {
        put_string(out, "null"); /* JSON has no infinity or NaN */
        return;
    }
    char text[32];
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (as_float ? strtof(text, NULL) == (float)v : strtod(text, NULL) == v)
            break;
    }
    put_string(out, text);
}

void json_number(wm_buffer *out, double v)
{
    print_shortest(out, v, 0);
}

void json_float(wm_buffer *out, float v)
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

void json_value(wm_buffer *out, const char *s)
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
        wm_put_json_string(out, s);
        return;
    }
    if (count > 1)
        wm_put_u8(out, '[');
    for (int i = 0; i < count; i++) {
        put_string(out, i ? ", " : "");
        if (kinds[i] == 1)
            json_number(out, values[i]);
        else
            put_string(out, "null");
    }
    if (count > 1)
        wm_put_u8(out, ']');
}

static const char *severity_name(wm_severity s)
{
    return s == WM_SEV_ERROR ? "error" : s == WM_SEV_WARNING ? "warning" : "info";
}

void report_print_text(wm_buffer *out, const wm_report *report, const char *indent)
{
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *item = &report->items[i];
        if (item->severity == WM_SEV_INFO)
            wm_put_text(out, "%s%s: %s\n", indent, item->key, item->value);
        else
            wm_put_text(out, "%s%s: %s: %s\n", indent, severity_name(item->severity), item->key, item->value);
    }
}

void report_print_facts_json(wm_buffer *out, const wm_report *report)
{
    int first = 1;
    wm_put_u8(out, '{');
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *item = &report->items[i];
        if (item->severity != WM_SEV_INFO)
            continue;
        put_string(out, first ? "" : ", ");
        wm_put_json_string(out, item->key);
        put_string(out, ": ");
        json_value(out, item->value);
        first = 0;
    }
    wm_put_u8(out, '}');
}

void report_print_findings_json(wm_buffer *out, const wm_report *report)
{
    int first = 1;
    wm_put_u8(out, '[');
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *item = &report->items[i];
        if (item->severity == WM_SEV_INFO)
            continue;
        wm_put_text(out, "%s{\"severity\": \"%s\", \"location\": ", first ? "" : ", ", severity_name(item->severity));
        wm_put_json_string(out, item->key);
        put_string(out, ", \"message\": ");
        wm_put_json_string(out, item->value);
        wm_put_u8(out, '}');
        first = 0;
    }
    wm_put_u8(out, ']');
}
