/* wm_parallel_for over the platform's threads (POSIX threads or Win32 threads). */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L
#endif
#include "wm_parallel.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#include <unistd.h>
#endif

#define WM_MAX_THREADS 256

typedef struct parallel_state {
    wm_parallel_fn fn;
    void *user;
    size_t count;
#ifdef _WIN32
    volatile LONG64 next;
#else
    size_t next;
    pthread_mutex_t lock;
#endif
} parallel_state;

static int take_index(parallel_state *st, size_t *out)
{
#ifdef _WIN32
    LONG64 i = InterlockedIncrement64(&st->next) - 1;
    *out = (size_t)i;
    return (size_t)i < st->count;
#else
    pthread_mutex_lock(&st->lock);
    size_t i = st->next < st->count ? st->next++ : st->count;
    pthread_mutex_unlock(&st->lock);
    *out = i;
    return i < st->count;
#endif
}

static void drain(parallel_state *st)
{
    size_t i;
    while (take_index(st, &i))
        st->fn(st->user, i);
}

#ifdef _WIN32
static DWORD WINAPI worker_main(LPVOID arg)
{
    drain(arg);
    return 0;
}
#else
static void *worker_main(void *arg)
{
    drain(arg);
    return NULL;
}
#endif

unsigned wm_processor_count(void)
{
#ifdef _WIN32
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwNumberOfProcessors ? (unsigned)info.dwNumberOfProcessors : 1u;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
#endif
}

void wm_parallel_for(unsigned jobs, size_t count, wm_parallel_fn fn, void *user)
{
    parallel_state st = {.fn = fn, .user = user, .count = count, .next = 0};
    if (jobs == 0)
        jobs = wm_processor_count();
    if (jobs > count)
        jobs = (unsigned)count;
    if (jobs > WM_MAX_THREADS)
        jobs = WM_MAX_THREADS;
    if (jobs <= 1) {
        for (size_t i = 0; i < count; i++)
            fn(user, i);
        return;
    }
#ifdef _WIN32
    HANDLE threads[WM_MAX_THREADS];
    unsigned started = 0;
    while (started + 1 < jobs) {
        HANDLE h = CreateThread(NULL, 0, worker_main, &st, 0, NULL);
        if (!h)
            break;
        threads[started++] = h;
    }
    drain(&st);
    for (unsigned i = 0; i < started; i++) {
        WaitForSingleObject(threads[i], INFINITE);
        CloseHandle(threads[i]);
    }
#else
    if (pthread_mutex_init(&st.lock, NULL) != 0) {
        for (size_t i = 0; i < count; i++)
            fn(user, i);
        return;
    }
    pthread_t threads[WM_MAX_THREADS];
    unsigned started = 0;
    while (started + 1 < jobs && pthread_create(&threads[started], NULL, worker_main, &st) == 0)
        started++;
    drain(&st);
    for (unsigned i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&st.lock);
#endif
}
