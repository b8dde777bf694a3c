/* The guard for names from files that become paths, and name comparison as the games do it. */
#include "wm_names.h"

#include <stdio.h>
#include <string.h>

static unsigned char fold(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return (unsigned char)(c - 'A' + 'a');
    return c == '\\' ? '/' : c;
}

static int is_separator(unsigned char c) { return c == '/' || c == '\\'; }

/* Characters no Windows file name may hold (besides separators and control bytes): a name
 * that holds one names no file there, and ':' also opens drive letters and NTFS streams. */
static int windows_refuses(unsigned char c) { return c != 0 && strchr("<>:\"|?*", c) != NULL; }

/* Shows a name in a message: printable bytes as they are, others as \xNN, cut after 80. */
static void quote_name(char *out, size_t size, const char *name, size_t length)
{
    size_t used = 0;
    for (size_t i = 0; i < length && used + 8 < size; i++) {
        unsigned char c = (unsigned char)name[i];
        if (i == 80) {
            used += (size_t)snprintf(out + used, size - used, "...");
            break;
        }
        if (c < 0x20 || c == 0x7f) used += (size_t)snprintf(out + used, size - used, "\\x%02x", c);
        else out[used++] = (char)c;
    }
    out[used] = '\0';
}

static int is_device_name(const char *component, size_t length)
{
    static const char *const devices[] = {"con", "prn", "aux", "nul", "conin$", "conout$"};
    size_t stem = 0;
    while (stem < length && component[stem] != '.') stem++; /* "con.wok" is the device too */
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++)
        if (wm_name_compare_n(component, stem, devices[i], strlen(devices[i])) == 0) return 1;
    if (stem == 4 && component[3] >= '0' && component[3] <= '9' &&
        (wm_name_compare_n(component, 3, "com", 3) == 0 || wm_name_compare_n(component, 3, "lpt", 3) == 0))
        return 1;
    return 0;
}

/* Why one component is unsafe, or NULL. */
static const char *component_problem(const char *component, size_t length)
{
    if (length == 0) return "it has an empty path component";
    if (length > WM_NAME_MAX_COMPONENT) return "a component is longer than 255 bytes";
    if ((length == 1 && component[0] == '.') || (length == 2 && component[0] == '.' && component[1] == '.'))
        return "it has a '.' or '..' component, which would leave its folder";
    if (component[length - 1] == '.' || component[length - 1] == ' ')
        return "a component ends in '.' or ' ', which Windows drops (two names would be one file)";
    if (is_device_name(component, length)) return "it is a Windows device name";
    return NULL;
}

static const char *name_problem(const char *name, size_t length, wm_name_rule rule)
{
    if (length == 0) return "it is empty";
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c == 0) return "it holds a NUL byte";
        if (c < 0x20 || c == 0x7f) return "it holds a control byte";
        if (c == ':') return "it holds ':' (a drive letter or a stream)";
        if (windows_refuses(c)) return "it holds a character that no Windows file name may hold";
        if (is_separator(c) && rule == WM_NAME_COMPONENT) return "it holds a path separator";
    }
    if (is_separator((unsigned char)name[0])) return "it is an absolute path";
    size_t start = 0;
    for (size_t i = 0; i <= length; i++) {
        if (i < length && !is_separator((unsigned char)name[i])) continue;
        const char *problem = component_problem(name + start, i - start);
        if (problem) return problem;
        start = i + 1;
    }
    return NULL;
}

wm_result wm_name_check(wm_ctx *ctx, const char *name, size_t length, wm_name_rule rule, const char *what)
{
    if (!name) return wm_error(ctx, WM_ERR_INVALID, "%s: no name given", what ? what : "name");
    const char *problem = name_problem(name, length, rule);
    if (!problem) return WM_OK;
    char shown[400];
    quote_name(shown, sizeof shown, name, length);
    return wm_error(ctx, WM_ERR_CORRUPT, "%s: unsafe name \"%s\": %s", what ? what : "name", shown, problem);
}

int wm_name_compare_n(const char *a, size_t a_length, const char *b, size_t b_length)
{
    size_t n = a_length < b_length ? a_length : b_length;
    for (size_t i = 0; i < n; i++) {
        unsigned char x = fold((unsigned char)a[i]), y = fold((unsigned char)b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return a_length == b_length ? 0 : a_length < b_length ? -1 : 1;
}

int wm_name_compare(const char *a, const char *b) { return wm_name_compare_n(a, strlen(a), b, strlen(b)); }

uint64_t wm_name_hash(const char *name, size_t length)
{
    uint64_t hash = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < length; i++) hash = (hash ^ fold((unsigned char)name[i])) * 1099511628211ull;
    return hash;
}

wm_result wm_name_sanitise(wm_ctx *ctx, const char *name, size_t length, const char *what, char **out)
{
    *out = NULL;
    char *safe = wm_alloc_array(ctx, length + 1, 1);
    if (!safe) return WM_ERR_NOMEM;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)name[i];
        safe[i] = (c < 0x20 || c == 0x7f || is_separator(c) || windows_refuses(c)) ? '_' : (char)c;
    }
    safe[length] = '\0';
    wm_result r = wm_name_check(ctx, safe, length, WM_NAME_COMPONENT, what);
    if (r != WM_OK) {
        wm_free(ctx, safe);
        return r;
    }
    *out = safe;
    return WM_OK;
}

wm_result wm_path_join(wm_ctx *ctx, const char *folder, const char *name, const char *extension, char **out)
{
    *out = NULL;
    size_t folder_length = folder ? strlen(folder) : 0, name_length = strlen(name);
    size_t extension_length = extension ? strlen(extension) + 1 : 0;
    int slash = folder_length > 0 && !is_separator((unsigned char)folder[folder_length - 1]);
    if (name_length > SIZE_MAX / 2 || folder_length > SIZE_MAX / 4)
        return wm_error(ctx, WM_ERR_LIMIT, "path too long");
    char *path = wm_alloc_array(ctx, folder_length + (size_t)slash + name_length + extension_length + 1, 1);
    if (!path) return WM_ERR_NOMEM;
    char *at = path;
    if (folder_length) memcpy(at, folder, folder_length), at += folder_length;
    if (slash) *at++ = '/';
    memcpy(at, name, name_length), at += name_length;
    if (extension) {
        *at++ = '.';
        memcpy(at, extension, extension_length - 1), at += extension_length - 1;
    }
    *at = '\0';
    *out = path;
    return WM_OK;
}

wm_result wm_name_index_build(wm_ctx *ctx, wm_name_index *index, uint32_t count, wm_name_of_fn name_of,
                              const void *user, uint32_t out_duplicate[2])
{
    memset(index, 0, sizeof *index);
    if (out_duplicate) out_duplicate[0] = out_duplicate[1] = UINT32_MAX;
    if (count > (UINT32_MAX >> 2)) return wm_error(ctx, WM_ERR_LIMIT, "%u names are too many to index", count);
    uint32_t slots = 16;
    while (slots < 2u * count) slots <<= 1;
    index->slots = wm_alloc_array(ctx, slots, sizeof *index->slots);
    if (!index->slots) return WM_ERR_NOMEM;
    index->mask = slots - 1;
    index->name_of = name_of;
    index->user = user;
    for (uint32_t item = 0; item < count; item++) {
        size_t length;
        const char *name = name_of(user, item, &length);
        uint32_t slot = (uint32_t)wm_name_hash(name, length) & index->mask;
        for (;; slot = (slot + 1) & index->mask) {
            uint32_t held = index->slots[slot];
            if (held == 0) {
                index->slots[slot] = item + 1;
                break;
            }
            size_t held_length;
            const char *held_name = name_of(user, held - 1, &held_length);
            if (wm_name_compare_n(name, length, held_name, held_length) == 0) {
                if (out_duplicate && out_duplicate[0] == UINT32_MAX) {
                    out_duplicate[0] = held - 1;
                    out_duplicate[1] = item;
                }
                break;
            }
        }
    }
    return WM_OK;
}

uint32_t wm_name_index_find(const wm_name_index *index, const char *name, size_t length)
{
    if (!index->slots) return UINT32_MAX;
    for (uint32_t slot = (uint32_t)wm_name_hash(name, length) & index->mask;; slot = (slot + 1) & index->mask) {
        uint32_t held = index->slots[slot];
        if (held == 0) return UINT32_MAX;
        size_t held_length;
        const char *held_name = index->name_of(index->user, held - 1, &held_length);
        if (wm_name_compare_n(name, length, held_name, held_length) == 0) return held - 1;
    }
}

void wm_name_index_free(const wm_ctx *ctx, wm_name_index *index)
{
    wm_free(ctx, index->slots);
    memset(index, 0, sizeof *index);
}
