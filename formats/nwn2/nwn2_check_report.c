/* The findings sink of the TRN/TRX validator: caps the listed findings so a
 * broken file cannot flood the report; the driver reports how many were dropped. */
#include "nwn2_check.h"

#include <stdarg.h>
#include <stdio.h>

void nwn2_check_add(nwn2_check_state *v, wm_severity sev, const char *where, const char *fmt, ...)
{
    if (v->listed >= NWN2_CHECK_MAX_LISTED) {
        v->dropped[sev]++;
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wm_report_finding(v->rep, sev, where, "%s", msg);
    v->listed++;
}

const char *nwn2_check_where(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return buf;
}
