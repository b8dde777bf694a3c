/* Shared helpers for the cmocka tests: where the real corpus and the
 * project's own samples are, file loading, temporary folders and running
 * the CLI. Include after <stdarg.h>, <stddef.h>, <setjmp.h>. */
#ifndef WM_TEST_SUPPORT_H
#define WM_TEST_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "walkmesh.h"

/* Path of a file in the shared real-file corpus (WALKMESH_CORPUS_DIR), e.g.
 * "bwm/pykotor-tests-test.wok"; NULL when the corpus or the file is absent.
 * The string is malloc'ed: free it. */
char *wmt_corpus_path(const char *relative);
/* Same, but calls cmocka's skip() when absent. */
char *wmt_corpus_path_or_skip(const char *relative);
/* Calls skip() when walkmesh was built without Recast/Detour (no navmesh module); a build
 * with them whose module cannot be loaded fails the test instead. */
void wmt_require_recast(void);
/* Skips the test unless every path (from wmt_corpus_path) is there; the ones that
 * are get freed first, so nothing leaks on the skip path. */
void wmt_require_all(char **paths, size_t count);
/* Lists the corpus files of a subfolder whose names end with one of the
 * NULL-terminated suffixes (case-insensitive), sorted. Returns the count;
 * *out is a malloc'ed array of malloc'ed paths (free with wmt_free_list).
 * Calls skip() when the corpus folder is absent. */
size_t wmt_corpus_list(const char *subfolder, const char *const *suffixes, char ***out);
void wmt_free_list(char **list, size_t count);

/* Path of a project sample in corpus/ (WALKMESH_SAMPLES) or tests/data/ (WALKMESH_TEST_DATA). */
char *wmt_sample_path(const char *relative);
char *wmt_test_data_path(const char *relative);

/* Whole file into malloc'ed memory; fails the test when unreadable. */
uint8_t *wmt_read_file(const char *path, size_t *out_size);
void wmt_write_file(const char *path, const void *data, size_t size);

/* A fresh empty folder in the build tree's scratch folder (removed by wmt_remove_tree,
 * or when the program ends). */
char *wmt_make_temp_dir(void);
void wmt_remove_tree(const char *path);
char *wmt_join(const char *dir, const char *name);

/* Full path of an executable named name on PATH (malloc'ed), or NULL. */
char *wmt_find_program(const char *name);
/* Full path of a program (a path, or a name looked up on PATH) that starts: run with the
 * one argument probe (say "--version"), output discarded, it is not killed and does not exit
 * 126 or 127 (the shell's and the loader's codes for "cannot run": not executable, a library
 * missing). Else NULL, and *why (when not NULL) says which in a few words. */
char *wmt_find_working_program(const char *program, const char *probe, const char **why);
/* The same, but prints one line naming the program and why, then calls skip(), when it cannot run. */
char *wmt_working_program_or_skip(const char *program, const char *probe);

/* Runs the CLI (WALKMESH_CLI) with the arguments, capturing stdout and
 * stderr (each malloc'ed, NUL-terminated; pass NULL to discard). Returns
 * the exit code, or -1 when it did not exit normally (a crash). */
int wmt_run_cli(char **out_stdout, char **out_stderr, const char *const *argv);

/* Even-odd rule: whether (x, y) lies inside the polygon of `count` x/y
 * pairs (an independent test for cutter results). */
int wmt_inside_polygon(const float *points, uint32_t count, double x, double y);

/* Classes of the walkable faces of m joined through shared edges, computed here apart from
 * the library: per face the class (a face of it), UINT32_MAX for blocking faces; entry
 * triangle_count is 1 when some edge has three walkable faces or more. by_position: an
 * edge's ends are positions (vertices at one position are one), else vertex indices. */
uint32_t *wmt_walkable_classes(const wm_mesh *m, int by_position);

/* A context with a warning collector: warnings are appended to
 * wmt_warnings (newline-separated) for assertions. */
void wmt_ctx_init(wm_ctx *ctx);
extern char wmt_warnings[8192];

#endif
