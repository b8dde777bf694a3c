/* Printing reports and JSON for info and validate. */
#ifndef WM_REPORT_PRINT_H
#define WM_REPORT_PRINT_H

#include <stdio.h>

#include "walkmesh.h"

void json_string(FILE *out, const char *s);
/* A report value as JSON: a number when the whole text is one, else a string. */
void json_value(FILE *out, const char *s);
/* "key: value" lines for facts; "severity: location: message" for findings. */
void report_print_text(FILE *out, const wm_report *report, const char *indent);
/* {"key": value, ...} of the facts. */
void report_print_facts_json(FILE *out, const wm_report *report);
/* [{"severity":..., "location":..., "message":...}, ...] of the findings. */
void report_print_findings_json(FILE *out, const wm_report *report);

#endif
