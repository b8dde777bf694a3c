#include "wm_format.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wm_file_exists(const char *path)
{
    return path && wm_platform_path_kind(path) != WM_PATH_MISSING;
}
