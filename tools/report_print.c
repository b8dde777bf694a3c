#include "report_print.h"

#include <stdlib.h>
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

void json_value(FILE *out, const char *s)
{
    char *end;
    if (*s && strspn(s, "0123456789+-.eE") == strlen(s)) {
        strtod(s, &end);
        if (*end == '\0' && strcmp(s, "-") != 0) {
            fputs(s, out);
            return;
        }
    }
    json_string(out, s);
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
