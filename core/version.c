#include "walkmesh.h"

const char *wm_version(void)
{
    return WALKMESH_VERSION;
}
