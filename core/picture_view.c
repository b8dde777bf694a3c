/* Views (projections of world points), round grid steps, and the text
 * helpers every part of the picture shares. */
#include "picture.h"

#include <math.h>
#include <stdio.h>

void wm_pic_project(wm_view view, const float p[3], double out[3])
{
    double x = p[0], y = p[1], z = p[2];
    switch (view) {
    case WM_VIEW_FRONT: /* viewer at -Y looking +Y */
        out[0] = x, out[1] = z, out[2] = y;
        break;
    case WM_VIEW_SIDE: /* viewer at +X looking -X: +Y to the right */
        out[0] = y, out[1] = z, out[2] = -x;
        break;
    case WM_VIEW_ISO: {
        /* Orthographic isometric: looking along (1,1,-1)/sqrt3, right = (1,-1,0)/sqrt2,
         * up = (1,1,2)/sqrt6. Fixed, so stairs and stacked floors read the same in every file. */
        out[0] = (x - y) / sqrt(2.0);
        out[1] = (x + y + 2.0 * z) / sqrt(6.0);
        out[2] = (x + y - z) / sqrt(3.0);
        break;
    }
    case WM_VIEW_TOP:
    default: /* viewer above looking down */
        out[0] = x, out[1] = y, out[2] = -z;
        break;
    }
}

double wm_pic_nice_step(double range, int parts)
{
    if (!(range > 0) || !isfinite(range))
        return 1.0;
    double raw = range / parts, power = pow(10.0, floor(log10(raw))), step = power;
    if (raw / power >= 5.0)
        step = 5.0 * power;
    else if (raw / power >= 2.0)
        step = 2.0 * power;
    return step;
}

void wm_pic_put_number(wm_buffer *out, double v)
{
    if (!isfinite(v))
        v = 0;
    if (fabs(v) >= 1e15) { /* hundredths would not fit a long long (and are noise at this size) */
        wm_put_text(out, "%.0f", v);
        return;
    }
    long long hundredths = llround(v * 100.0);
    const char *sign = hundredths < 0 ? "-" : "";
    unsigned long long a = (unsigned long long)(hundredths < 0 ? -hundredths : hundredths);
    unsigned long long whole = a / 100, frac = a % 100;
    if (frac == 0)
        wm_put_text(out, "%s%llu", sign, whole);
    else if (frac % 10 == 0)
        wm_put_text(out, "%s%llu.%llu", sign, whole, frac / 10);
    else
        wm_put_text(out, "%s%llu.%02llu", sign, whole, frac);
}

void wm_pic_put_escaped(wm_buffer *out, const char *s, size_t max_chars)
{
    size_t chars = 0;
    for (; *s; s++) {
        if (chars++ == max_chars) {
            wm_put_text(out, "&#x2026;");
            return;
        }
        if (*s == '<')
            wm_put_text(out, "&lt;");
        else if (*s == '>')
            wm_put_text(out, "&gt;");
        else if (*s == '&')
            wm_put_text(out, "&amp;");
        else if (*s == '"')
            wm_put_text(out, "&quot;");
        else if (*s == '\n')
            wm_put_u8(out, '\n');
        else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x80) {
            /* XML is UTF-8 here and forbids control characters: anything else becomes U+FFFD */
            int n = (unsigned char)*s >= 0x80 ? wm_utf8_length(s) : 0;
            if (n == 0)
                wm_put_text(out, "&#xFFFD;");
            for (int k = 0; k < n; k++)
                wm_put_u8(out, (uint8_t)s[k]);
            s += n > 0 ? n - 1 : 0;
        } else
            wm_put_u8(out, (uint8_t)*s);
    }
}
