#include "wm_version.h"

const char *wm_version(void)
{
    return WALKMESH_VERSION;
}
