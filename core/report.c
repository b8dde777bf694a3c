#include "wm_format.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void wm_report_init(wm_report *report, wm_ctx *ctx)
{
    memset(report, 0, sizeof *report);
    report->ctx = ctx;
}

void wm_report_free(wm_report *report)
{
    for (uint32_t i = 0; i < report->count; i++) {
        wm_free(report->ctx, report->items[i].key);
        wm_free(report->ctx, report->items[i].value);
    }
    wm_free(report->ctx, report->items);
    report->items = NULL;
    report->count = report->capacity = 0;
}

static void add_item(wm_report *report, wm_severity severity, const char *key, const char *fmt, va_list args)
{
    if (report->status)
        return;
    if (report->count == report->capacity) {
        uint32_t capacity = report->capacity ? report->capacity * 2 : 32;
        wm_report_item *items = wm_realloc_array(report->ctx, report->items, capacity, sizeof *items);
        if (!items) {
            report->status = WM_ERR_NOMEM;
            return;
        }
        report->items = items;
        report->capacity = capacity;
    }
    char value[1024];
    vsnprintf(value, sizeof value, fmt, args);
    wm_report_item *item = &report->items[report->count];
    item->severity = severity;
    item->key = wm_strdup(report->ctx, key);
    item->value = wm_strdup(report->ctx, value);
    if (!item->key || !item->value) {
        wm_free(report->ctx, item->key);
        wm_free(report->ctx, item->value);
        report->status = WM_ERR_NOMEM;
        return;
    }
    report->count++;
    if (severity == WM_SEV_ERROR)
        report->errors++;
    else if (severity == WM_SEV_WARNING)
        report->warnings++;
}

void wm_report_fact(wm_report *report, const char *key, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    add_item(report, WM_SEV_INFO, key, fmt, args);
    va_end(args);
}

void wm_report_finding(wm_report *report, wm_severity severity, const char *location, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    add_item(report, severity, location, fmt, args);
    va_end(args);
}
