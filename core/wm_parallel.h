/* Work spread over threads: the one thread primitive of the library and its clients
 * (threads live in core/platform.c, like every other OS call). */
#ifndef WM_PARALLEL_H
#define WM_PARALLEL_H

#include "wm_api.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One unit of work; index runs over 0..count-1, each value given to exactly one call. */
typedef void (*wm_parallel_fn)(void *user, size_t index);

/* The processors online (at least 1). */
WM_API unsigned wm_processor_count(void);

/* Calls fn(user, i) for every i < count on up to `jobs` threads (0: wm_processor_count()),
 * taking indices in increasing order from a shared counter, and returns when all calls have
 * returned. jobs == 1, count <= 1, or a thread that cannot be started: the remaining work runs
 * on the calling thread, so the result never depends on the thread count. */
WM_API void wm_parallel_for(unsigned jobs, size_t count, wm_parallel_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
