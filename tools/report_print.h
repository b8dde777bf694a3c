/* Reports and JSON for the commands, as text appended to a buffer (a batch unit prints its
 * buffer when it is its turn). */
#ifndef WM_REPORT_PRINT_H
#define WM_REPORT_PRINT_H

#include "walkmesh.h"

/* A number as JSON; null when infinite or NaN (JSON has neither). */
void json_number(wm_buffer *out, double v);
void json_float(wm_buffer *out, float v);
/* A report value as JSON: a number when the whole text is one, an array
 * when it is several separated by spaces (a vector), null for infinite or
 * NaN values, else a string. */
void json_value(wm_buffer *out, const char *s);
/* "key: value" lines for facts; "severity: location: message" for findings. */
void report_print_text(wm_buffer *out, const wm_report *report, const char *indent);
/* {"key": value, ...} of the facts. */
void report_print_facts_json(wm_buffer *out, const wm_report *report);
/* [{"severity":..., "location":..., "message":...}, ...] of the findings. */
void report_print_findings_json(wm_buffer *out, const wm_report *report);

#endif
