/* Archives as folders: containers (ERF/MOD/HAK/SAV, RIM, KEY with its BIFs) described like
 * formats, and members read as inputs. "modules/tar_m02aa.mod/m02aa_01a.wok" names a member:
 * wm_input_load reads it (the archive mapped, the member's bytes a view into it), and the
 * member's companions (wm_input_beside: a model's .mdx, a layout's rooms) come from the same
 * archive, so that no format module knows about archives. Each container is one folder under
 * formats/ with one const wm_container, listed in formats/containers.c. */
#ifndef WM_ARCHIVE_H
#define WM_ARCHIVE_H

#include "wm_api.h"

#include "wm_format.h"
#include "wm_names.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One member: where its bytes are and what it is. */
typedef struct wm_archive_member {
    const char *name; /* "m02aa_01a.wok": the resource name and its type's extension (in names) */
    uint32_t type;    /* the game's resource type id */
    uint32_t part;    /* the file holding the bytes: 0 the archive itself, k the key's BIF k - 1 */
    uint64_t offset;  /* within the part (a key's members: the index within the BIF until read) */
    uint64_t size;
    /* A packed member (zip, MPQ): its size once read, which the input limit bounds before the
     * container's read_member unpacks it. 0 for members stored as they are (size says). */
    uint64_t unpacked_size;
} wm_archive_member;

typedef struct wm_archive wm_archive;

/* A member added or replaced when an archive is written (wm_container.write). */
typedef struct wm_archive_change {
    uint32_t replaced;   /* the member replaced, or UINT32_MAX: a member added at the end */
    const char *name;    /* "room.wok": the member's name with its type's extension */
    const uint8_t *data; /* its new bytes */
    size_t size;
} wm_archive_change;

/* A container kind, beside the format descriptor: designated initializers, NULL where the
 * container does not offer the operation. */
typedef struct wm_container {
    const char *name;               /* "erf", "rim", "key" */
    const char *description;
    const char *const *extensions;  /* NULL-terminated, lower case, no dot */
    /* 0..100: how sure the container is that the bytes (its first bytes are enough) are its. */
    int (*probe)(const wm_input *in);
    /* Fills the member table from the archive's bytes (wm_archive_add_member, wm_archive_add_part);
     * every offset, size and count checked against the bytes first. */
    wm_result (*list)(wm_ctx *ctx, wm_archive *archive);
    /* A member whose bytes sit in another part (a key's BIF): its offset and size there, from
     * the part's own table. NULL: the offsets from list are final. */
    wm_result (*locate)(wm_ctx *ctx, const wm_archive *archive, uint32_t member, const wm_input *part,
                        uint64_t *out_offset, uint64_t *out_size);
    /* Writes the whole archive into sink with the change made, every other member's bytes and
     * entry as they were. NULL: walkmesh does not write this container. */
    wm_result (*write)(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);
    /* A container whose members are packed (zip's deflate, MPQ's sectors): the member's bytes
     * unpacked into memory of their own (*out_data, freed with wm_free), never more than its
     * unpacked_size. NULL: a member's bytes are the stored ones (offset, size). */
    wm_result (*read_member)(wm_ctx *ctx, wm_archive *archive, uint32_t member, uint8_t **out_data,
                             size_t *out_size);
    /* Frees what list kept in the archive's state (wm_archive_set_state). NULL: nothing kept. */
    void (*close)(wm_ctx *ctx, wm_archive *archive);
} wm_container;

/* The containers walkmesh knows (formats/containers.c). */
WM_API const wm_container *const *wm_containers(size_t *out_count);
/* The container of the bytes (their first bytes decide), or NULL. */
WM_API const wm_container *wm_container_detect(const wm_input *in);

/* Opens the archive file at path: its tables read and checked (names through wm_name_check,
 * duplicates, members past the end or overlapping refused, naming the archive and the member).
 * The file is mapped when large: memory follows the members read, not the archive. */
WM_API wm_result wm_archive_open(wm_ctx *ctx, const char *path, wm_archive **out);
/* The same over bytes the caller keeps valid while the archive is open (name for messages);
 * a key's BIFs cannot be found from memory. */
WM_API wm_result wm_archive_open_memory(wm_ctx *ctx, const void *data, size_t size, const char *name,
                                        wm_archive **out);
WM_API void wm_archive_close(wm_ctx *ctx, wm_archive *archive);
WM_API const wm_container *wm_archive_kind(const wm_archive *archive);
WM_API const char *wm_archive_path(const wm_archive *archive);
WM_API uint32_t wm_archive_member_count(const wm_archive *archive);
WM_API const wm_archive_member *wm_archive_member_at(const wm_archive *archive, uint32_t index);
/* The member of that name (ASCII case and '/' or '\\' ignored), or UINT32_MAX. */
WM_API uint32_t wm_archive_find(const wm_archive *archive, const char *name, size_t length);
/* The member's bytes as an input that borrows them from the archive (valid while the archive
 * is open); its name is "<archive>/<member>". */
WM_API wm_result wm_archive_member_input(wm_ctx *ctx, wm_archive *archive, uint32_t index, wm_input *out);

/* The member has been read: its pages of a mapped archive (or BIF) may leave memory now (they
 * come back from the file when read again). Reading every member of a large archive this way
 * keeps memory to the member being read. */
WM_API void wm_archive_release(wm_archive *archive, uint32_t index);

/* Where a path goes into an archive: "a/b.mod/c.wok" when a/b.mod is a file and a/b.mod/c.wok
 * is not gives archive_length 7 and the member after it. 0 when the path names no member (a
 * file, or nothing). */
WM_API size_t wm_archive_split_path(const char *path, const char **out_member);
/* Whether path names a file, or goes into an archive file that exists (whether the member is
 * there is for reading it to say). */
WM_API int wm_input_exists(const char *path);

/* A bare resource name ("m02aa_01a.wok") found in a game folder as the game finds it: game/override
 * first, then the module (module not NULL: modules/MODULE.mod, else MODULE.rim and MODULE_s.rim),
 * then game/chitin.key's BIFs, then the archives of game/Data (NWN2's zips, WoW's MPQs, the last
 * patch first); a name with folders ("World\\wmo\\X.wmo") only in Data. Folder and file names in any case. *out_path (freed with wm_free)
 * is a path wm_input_load reads: the file, or "archive/member". WM_ERR_IO when none holds it. */
WM_API wm_result wm_game_find(wm_ctx *ctx, const char *game, const char *module, const char *name,
                              char **out_path);

/* The extension of a BioWare resource type id ("wok" for 2016); nwn2 selects NWN2's meanings of
 * the ids it reuses (3000 osc, not lyt). NULL for an id walkmesh does not name. */
WM_API const char *wm_resource_type_extension(uint32_t type, int nwn2);
/* The type id of an extension (case ignored), the reverse of the above; UINT32_MAX when walkmesh
 * knows none (a number as the extension is that number). */
WM_API uint32_t wm_resource_type_id(const char *extension, int nwn2);
/* A change's member name split for a BioWare table: the resource name (at most field_size bytes)
 * and its type id from the extension. Refuses a name without a known extension or too long. */
WM_API wm_result wm_archive_change_resource(wm_ctx *ctx, const wm_archive_change *change, size_t field_size,
                                            int nwn2, size_t *out_length, uint32_t *out_type);

/* ---- for container modules (formats/<container>/) */

/* The archive's own bytes and path. */
WM_API const wm_input *wm_archive_bytes(const wm_archive *archive);
/* Adds a member named name[0, length) plus "." extension (the extension may be NULL when the
 * name carries its own), after wm_name_check; `index` names it in messages. */
WM_API wm_result wm_archive_add_member(wm_ctx *ctx, wm_archive *archive, uint32_t index, const char *name,
                                       size_t length, const char *extension, const wm_archive_member *where);
/* Adds a part (a key's BIF) named relative to the archive's folder, after wm_name_check with
 * WM_NAME_RELATIVE; found case-insensitively when read. */
WM_API wm_result wm_archive_add_part(wm_ctx *ctx, wm_archive *archive, uint32_t index, const char *name,
                                     size_t length);
/* A BioWare resource: its 16- or 32-byte name field (NUL-padded) and type id become the member
 * "name.ext" (the id itself when walkmesh does not name it). */
WM_API wm_result wm_archive_add_resource(wm_ctx *ctx, wm_archive *archive, uint32_t index, const uint8_t *field,
                                         size_t field_size, int nwn2, const wm_archive_member *where);
/* What a container keeps while the archive is open (a library's handle), freed by its close. */
WM_API void *wm_archive_state(const wm_archive *archive);
WM_API void wm_archive_set_state(wm_archive *archive, void *state);
/* Whether the archive is a file on disk (a library that opens files by name can open it). */
WM_API int wm_archive_on_disk(const wm_archive *archive);
/* Members and parts announced by the table, for sizing its arrays before adding. */
WM_API wm_result wm_archive_reserve(wm_ctx *ctx, wm_archive *archive, uint32_t members, uint32_t parts);

#ifdef __cplusplus
}
#endif
#endif
