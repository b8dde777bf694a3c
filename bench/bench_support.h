/* Timing and memory measurement for the benchmarks. */
#ifndef WM_BENCH_SUPPORT_H
#define WM_BENCH_SUPPORT_H

double bench_now(void);       /* monotonic seconds */
long bench_peak_rss_kb(void); /* peak resident set size of this process, KiB */
/* minor page faults of this process so far: fresh memory touched, in 4 KiB pages (or huge pages) */
long bench_minor_faults(void);

#endif
