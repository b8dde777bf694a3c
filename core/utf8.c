/* UTF-8 well-formedness, for writers of text formats (JSON, SVG) whose
 * strings come from files in any encoding. */
#include "wm_io.h"

int wm_utf8_length(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    unsigned char c = s[0];
    int n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    for (int k = 1; k < n; k++) /* stops at the terminating NUL: it is no continuation byte */
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((n == 2 && c < 0xC2) || (n == 3 && c == 0xE0 && s[1] < 0xA0) || (n == 3 && c == 0xED && s[1] >= 0xA0) ||
        (n == 4 && c == 0xF0 && s[1] < 0x90) || (n == 4 && (c > 0xF4 || (c == 0xF4 && s[1] >= 0x90))))
        return 0; /* overlong, surrogate or past U+10FFFF */
    return n;
}

/* Invalid bytes become U+FFFD written as UTF-8, so the text stays valid JSON
 * and readable where a name came from Latin-1. */
void wm_put_json_string(wm_buffer *buf, const char *text)
{
    wm_put_u8(buf, '"');
    while (*text) {
        int len = wm_utf8_length(text);
        unsigned char c = (unsigned char)*text;
        if (len == 0)
            wm_put_bytes(buf, "\xef\xbf\xbd", 3);
        else if (c == '"' || c == '\\')
            wm_put_text(buf, "\\%c", c);
        else if (c == '\n')
            wm_put_bytes(buf, "\\n", 2);
        else if (c < 0x20)
            wm_put_text(buf, "\\u%04x", c);
        else
            wm_put_bytes(buf, text, (size_t)len);
        text += len ? len : 1;
    }
    wm_put_u8(buf, '"');
}
