/* The archive object behind wm_archive.h, shared by core/archive.c (members, parts, member
 * inputs) and formats/containers.c (which container, and paths into archives). Internal. */
#ifndef WM_ARCHIVE_INTERNAL_H
#define WM_ARCHIVE_INTERNAL_H

#include "wm_archive.h"

struct wm_archive {
    wm_input_source source;  /* first: a member input's source is its archive */
    const wm_container *kind;
    void *state;             /* the container's own (a library's handle), freed by its close */
    char *path;              /* the archive file (in memory: the caller's name for it) */
    int on_disk;             /* a file: a key's BIFs can be found beside it */
    wm_input bytes;          /* its bytes, mapped when large */
    int fd;                  /* a mapped archive's file, its members read from it (-1: none) */
    wm_archive_member *members;
    uint32_t count, capacity;
    char *names;             /* every member's name, NUL-terminated, one after another */
    size_t names_size, names_capacity;
    wm_name_index index;
    char **part_names;       /* a key's BIFs, relative to the key's folder */
    wm_input *parts;         /* read when a member in them is first read */
    int *part_fds;           /* a mapped part's file (-1: none) */
    uint32_t part_count, part_capacity;
    size_t *name_offsets;    /* while listing: where each member's name starts in names */
    wm_input_source lent;
    char *input_name;        /* the name of the member input that owns the archive */    /* the source of member inputs the caller's open archive lends */
};

/* An archive over the file at path (its bytes loaded), or over bytes the caller lends
 * (borrowed; path NULL), members not yet listed. */
wm_result wm_archive_create(wm_ctx *ctx, const char *path, const wm_input *borrowed, wm_archive **out);
/* After the container's list: the members' names indexed (a duplicate refused), every member of
 * the archive itself inside it and none overlapping another. */
wm_result wm_archive_finish(wm_ctx *ctx, wm_archive *archive);

/* A member input made by wm_archive_member_input takes the archive: named "<archive>/<member>",
 * and freeing it closes the archive (wm_input_load of a path into an archive). */
wm_result wm_archive_give_to_input(wm_ctx *ctx, wm_archive *archive, wm_input *in);

#endif
