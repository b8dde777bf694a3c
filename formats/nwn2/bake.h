/* The bake's public header lives in its folder; this name is kept for its callers. */
#include "nwn2/bake/bake.h"
