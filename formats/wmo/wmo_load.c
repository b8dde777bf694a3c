/* A WMO file of either kind from its path: the root or group parser, chosen by the first
 * chunks. Above the parsers (they never call back here). */
#include "wmo.h"

#include <string.h>

wm_result wmo_load(wm_ctx *ctx, const char *path, wmo_root *root, wmo_group *group)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (root)
        memset(root, 0, sizeof *root);
    if (group)
        memset(group, 0, sizeof *group);
    wm_result r = wm_file_read(ctx, path, &bytes, &size);
    if (r)
        return r;
    int is_root = 0;
    if (!root || !group)
        is_root = root != NULL;
    else if (!wmo_probe_kind(bytes, size, &is_root)) {
        wm_free(ctx, bytes);
        return wm_error(ctx, WM_ERR_NOT_FORMAT, "%s: offset 0x0: not a WMO (expected MVER then MOHD or MOGP)", path);
    }
    return is_root ? wmo_root_parse(ctx, bytes, size, path, root) : wmo_group_parse(ctx, bytes, size, path, group);
}
