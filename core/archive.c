/* The archive object: its member table checked once, members' bytes lent as inputs, companions
 * of a member found in the same archive, a key's BIFs found as the key names them. Which
 * container reads a file, and paths into archives, are in formats/containers.c. */
#include "archive_internal.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <stdlib.h>
#include <string.h>

wm_result wm_archive_create(wm_ctx *ctx, const char *path, const wm_input *borrowed, wm_archive **out)
{
    *out = NULL;
    wm_archive *archive = wm_alloc_array(ctx, 1, sizeof *archive);
    if (!archive)
        return WM_ERR_NOMEM;
    archive->fd = -1;
    archive->path = wm_strdup(ctx, borrowed ? borrowed->name : path);
    wm_result r = archive->path ? WM_OK : WM_ERR_NOMEM;
    if (!r && borrowed) {
        wm_input_borrow(&archive->bytes, borrowed->data, borrowed->size, NULL);
    } else if (!r) {
        r = wm_input_load_archive(ctx, path, &archive->bytes);
        archive->on_disk = 1;
    }
    if (r) {
        wm_archive_close(ctx, archive);
        return r;
    }
    archive->bytes.name = archive->path;
    archive->bytes.path = archive->on_disk ? archive->path : NULL;
    if (archive->bytes.mapped)
        archive->fd = wm_platform_open_read(path); /* -1: members are read from the mapping */
    *out = archive;
    return WM_OK;
}

void wm_archive_close(wm_ctx *ctx, wm_archive *archive)
{
    if (!archive)
        return;
    if (archive->kind && archive->kind->close)
        archive->kind->close(ctx, archive);
    for (uint32_t i = 0; i < archive->part_count; i++) {
        wm_free(ctx, archive->part_names[i]);
        wm_input_free(ctx, &archive->parts[i]);
        if (archive->part_fds[i] >= 0)
            wm_platform_close(archive->part_fds[i]);
    }
    if (archive->fd >= 0)
        wm_platform_close(archive->fd);
    wm_free(ctx, archive->part_fds);
    wm_free(ctx, archive->part_names);
    wm_free(ctx, archive->parts);
    wm_input_free(ctx, &archive->bytes);
    wm_name_index_free(ctx, &archive->index);
    wm_free(ctx, archive->members);
    wm_free(ctx, archive->names);
    wm_free(ctx, archive->name_offsets);
    wm_free(ctx, archive->input_name);
    wm_free(ctx, archive->path);
    wm_free(ctx, archive);
}

const wm_container *wm_archive_kind(const wm_archive *archive) { return archive->kind; }
const char *wm_archive_path(const wm_archive *archive) { return archive->path; }
const wm_input *wm_archive_bytes(const wm_archive *archive) { return &archive->bytes; }
uint32_t wm_archive_member_count(const wm_archive *archive) { return archive->count; }
void *wm_archive_state(const wm_archive *archive) { return archive->state; }
void wm_archive_set_state(wm_archive *archive, void *state) { archive->state = state; }
int wm_archive_on_disk(const wm_archive *archive) { return archive->on_disk; }

const wm_archive_member *wm_archive_member_at(const wm_archive *archive, uint32_t index)
{
    return index < archive->count ? &archive->members[index] : NULL;
}

wm_result wm_archive_reserve(wm_ctx *ctx, wm_archive *archive, uint32_t members, uint32_t parts)
{
    archive->members = wm_alloc_array(ctx, members, sizeof *archive->members);
    archive->name_offsets = wm_alloc_array(ctx, members, sizeof *archive->name_offsets);
    archive->part_names = wm_alloc_array(ctx, parts, sizeof *archive->part_names);
    archive->parts = wm_alloc_array(ctx, parts, sizeof *archive->parts);
    archive->part_fds = wm_alloc_array(ctx, parts, sizeof *archive->part_fds);
    if (!archive->members || !archive->name_offsets || !archive->part_names || !archive->parts || !archive->part_fds)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < parts; i++)
        archive->part_fds[i] = -1;
    archive->capacity = members;
    archive->part_capacity = parts;
    return WM_OK;
}

/* Appends text[0, length) and a NUL to the names block. */
static wm_result append_name(wm_ctx *ctx, wm_archive *archive, const char *text, size_t length)
{
    if (archive->names_size + length + 1 > archive->names_capacity) {
        size_t capacity = archive->names_capacity ? 2 * archive->names_capacity : 4096;
        while (capacity < archive->names_size + length + 1)
            capacity *= 2;
        char *grown = wm_realloc_array(ctx, archive->names, capacity, 1);
        if (!grown)
            return WM_ERR_NOMEM;
        archive->names = grown;
        archive->names_capacity = capacity;
    }
    memcpy(archive->names + archive->names_size, text, length);
    archive->names[archive->names_size + length] = '\0';
    archive->names_size += length + 1;
    return WM_OK;
}

wm_result wm_archive_add_member(wm_ctx *ctx, wm_archive *archive, uint32_t index, const char *name, size_t length,
                                const char *extension, const wm_archive_member *where)
{
    if (archive->count == archive->capacity)
        return wm_error(ctx, WM_ERR_CORRUPT, "member %u: more members than the table announced", index);
    size_t start = archive->names_size;
    wm_result r = append_name(ctx, archive, name, length);
    if (!r && extension) { /* the NUL becomes the dot: "name.ext" */
        archive->names[--archive->names_size] = '.';
        archive->names_size++;
        r = append_name(ctx, archive, extension, strlen(extension));
    }
    if (r)
        return r;
    /* the whole name is checked: a resource name may end in a space ("ir_dis_trap " in NWN1's
     * key), which its extension follows */
    char what[48];
    snprintf(what, sizeof what, "member %u's name", index);
    if ((r = wm_name_check(ctx, archive->names + start, archive->names_size - 1 - start,
                           extension ? WM_NAME_COMPONENT : WM_NAME_RELATIVE, what)) != WM_OK)
        return r;
    archive->members[archive->count] = *where;
    archive->name_offsets[archive->count++] = start;
    return WM_OK;
}

wm_result wm_archive_add_part(wm_ctx *ctx, wm_archive *archive, uint32_t index, const char *name, size_t length)
{
    char what[48];
    snprintf(what, sizeof what, "BIF %u's name", index);
    wm_result r = wm_name_check(ctx, name, length, WM_NAME_RELATIVE, what);
    if (r)
        return r;
    if (archive->part_count == archive->part_capacity)
        return wm_error(ctx, WM_ERR_CORRUPT, "BIF %u: more files than the table announced", index);
    char *copy = wm_alloc_array(ctx, length + 1, 1);
    if (!copy)
        return WM_ERR_NOMEM;
    memcpy(copy, name, length);
    archive->part_names[archive->part_count++] = copy;
    return WM_OK;
}

static const char *member_name_of(const void *user, uint32_t item, size_t *out_length)
{
    const wm_archive *archive = user;
    *out_length = strlen(archive->members[item].name);
    return archive->members[item].name;
}

typedef struct extent {
    uint64_t offset, size;
    uint32_t member;
} extent;

static int by_offset(const void *a, const void *b)
{
    const extent *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->size < y->size ? -1 : x->size > y->size;
}

/* Members stored in the archive itself: inside it, and none sharing a byte with another (a
 * hostile table could make one byte count for many members, and a writer replacing one would
 * change another). Sorted once: O(n log n). */
static wm_result check_extents(wm_ctx *ctx, const wm_archive *archive)
{
    extent *extents = wm_alloc_array(ctx, archive->count, sizeof *extents);
    if (!extents)
        return WM_ERR_NOMEM;
    uint32_t n = 0;
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < archive->count && !r; i++) {
        const wm_archive_member *m = &archive->members[i];
        if (m->part != 0)
            continue;
        if (m->offset > archive->bytes.size || m->size > archive->bytes.size - m->offset)
            r = wm_error(ctx, WM_ERR_CORRUPT, "member %u (%s): bytes %llu to %llu lie past the end (%zu bytes)", i,
                         m->name, (unsigned long long)m->offset, (unsigned long long)(m->offset + m->size),
                         archive->bytes.size);
        extents[n++] = (extent){m->offset, m->size, i};
    }
    if (!r)
        qsort(extents, n, sizeof *extents, by_offset);
    for (uint32_t k = 1; k < n && !r; k++) {
        const extent *a = &extents[k - 1], *b = &extents[k];
        if (a->size && b->size && a->offset + a->size > b->offset)
            r = wm_error(ctx, WM_ERR_CORRUPT, "member %u (%s) overlaps member %u (%s) at byte %llu", b->member,
                         archive->members[b->member].name, a->member, archive->members[a->member].name,
                         (unsigned long long)b->offset);
    }
    wm_free(ctx, extents);
    return r;
}

wm_result wm_archive_finish(wm_ctx *ctx, wm_archive *archive)
{
    for (uint32_t i = 0; i < archive->count; i++)
        archive->members[i].name = archive->names + archive->name_offsets[i];
    uint32_t duplicate[2];
    wm_result r = wm_name_index_build(ctx, &archive->index, archive->count, member_name_of, archive, duplicate);
    if (!r && duplicate[0] != UINT32_MAX)
        r = wm_error(ctx, WM_ERR_CORRUPT, "members %u and %u are both named '%s'", duplicate[0], duplicate[1],
                     archive->members[duplicate[1]].name);
    if (!r)
        r = check_extents(ctx, archive);
    if (r)
        wm_error_prefix(ctx, archive->path);
    return r;
}

uint32_t wm_archive_find(const wm_archive *archive, const char *name, size_t length)
{
    return wm_name_index_find(&archive->index, name, length);
}

static int same_name(const char *a, const char *b) { return wm_name_compare(a, b); }

/* The file a part's name gives, relative to the archive's folder, each component found
 * without regard to case (data\Models.bif names data/models.bif). */
static wm_result find_part_file(wm_ctx *ctx, const wm_archive *archive, uint32_t part, char **out_path)
{
    const char *name = archive->part_names[part];
    if (!archive->on_disk)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: BIF %u '%s': a key in memory has no folder to find it in",
                        archive->path, part, name);
    size_t folder_length = (size_t)(wm_path_file_name(archive->path) - archive->path);
    char *path = wm_alloc_array(ctx, folder_length + strlen(name) + 2, 1);
    if (!path)
        return WM_ERR_NOMEM;
    memcpy(path, archive->path, folder_length);
    size_t used = folder_length;
    for (const char *component = name; *component;) {
        size_t length = strcspn(component, "/\\");
        char wanted[WM_NAME_MAX_COMPONENT + 1];
        memcpy(wanted, component, length); /* wm_name_check bounded each component */
        wanted[length] = '\0';
        path[used] = '\0';
        char *entry = wm_platform_folder_entry(path, wanted, same_name);
        if (!entry) {
            wm_error(ctx, WM_ERR_IO, "%s: BIF %u '%s' is not there (no %s in '%s')", archive->path, part, name, wanted,
                     path[0] ? path : ".");
            wm_free(ctx, path);
            return WM_ERR_IO;
        }
        memcpy(path + used, entry, length); /* the same length: only the case can differ */
        free(entry);
        used += length;
        component += length;
        if (*component) {
            path[used++] = '/';
            component++;
        }
    }
    path[used] = '\0';
    *out_path = path;
    return WM_OK;
}

static wm_result load_part(wm_ctx *ctx, wm_archive *archive, uint32_t part)
{
    if (archive->parts[part].data)
        return WM_OK;
    char *path = NULL;
    wm_result r = find_part_file(ctx, archive, part, &path);
    if (!r)
        r = wm_input_load_archive(ctx, path, &archive->parts[part]);
    if (!r && archive->parts[part].mapped)
        archive->part_fds[part] = wm_platform_open_read(path);
    wm_free(ctx, path);
    archive->parts[part].name = archive->part_names[part];
    archive->parts[part].path = NULL;
    return r;
}

/* Where a member's bytes are: the file holding them (the archive or its part), the offset and
 * size there, checked against it and against the input limit. */
typedef struct member_place {
    const wm_input *holder;
    int fd;
    uint64_t offset, size;
} member_place;

static wm_result locate_member(wm_ctx *ctx, wm_archive *archive, uint32_t index, member_place *out)
{
    const wm_archive_member *m = &archive->members[index];
    *out = (member_place){&archive->bytes, archive->fd, m->offset, m->size};
    if (m->part) {
        wm_result r = load_part(ctx, archive, m->part - 1);
        if (r)
            return r;
        out->holder = &archive->parts[m->part - 1];
        out->fd = archive->part_fds[m->part - 1];
        if (archive->kind->locate &&
            (r = archive->kind->locate(ctx, archive, index, out->holder, &out->offset, &out->size)))
            return r;
        if (out->offset > out->holder->size || out->size > out->holder->size - out->offset)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: member %s: bytes %llu to %llu lie past the end of %s", archive->path,
                            m->name, (unsigned long long)out->offset, (unsigned long long)(out->offset + out->size),
                            out->holder->name);
    }
    if (out->size > ctx->limits.max_bytes)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: member %s: %llu bytes is over the limit of %llu bytes", archive->path,
                        m->name, (unsigned long long)out->size, (unsigned long long)ctx->limits.max_bytes);
    return WM_OK;
}

/* A packed member unpacked by its container, its size bounded by the input limit first. */
static wm_result unpack_member(wm_ctx *ctx, wm_archive *archive, uint32_t index, const uint8_t **data, size_t *size,
                               uint8_t **owned)
{
    const wm_archive_member *m = &archive->members[index];
    if (m->unpacked_size > ctx->limits.max_bytes)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: member %s: %llu bytes unpacked is over the limit of %llu bytes",
                        archive->path, m->name, (unsigned long long)m->unpacked_size,
                        (unsigned long long)ctx->limits.max_bytes);
    wm_result r = archive->kind->read_member(ctx, archive, index, owned, size);
    if (r && strncmp(ctx->message, archive->path, strlen(archive->path)) != 0)
        wm_error_prefix(ctx, archive->path);
    *data = *owned;
    return r;
}

/* The member's bytes: a view into an archive in memory; from a mapped (large) archive, read with
 * one pread into memory of the member's own (*owned, freed by the caller): the page tables of a
 * mapping touched once cost more than the copy (bench_archive: 3.4x the CPU of read()). */
static wm_result member_bytes(wm_ctx *ctx, wm_archive *archive, uint32_t index, const uint8_t **data, size_t *size,
                              uint8_t **owned)
{
    member_place place;
    *owned = NULL;
    if (archive->kind->read_member)
        return unpack_member(ctx, archive, index, data, size, owned);
    wm_result r = locate_member(ctx, archive, index, &place);
    if (r)
        return r;
    *size = (size_t)place.size;
    *data = place.holder->data + place.offset;
    if (place.fd < 0)
        return WM_OK;
    uint8_t *copy = wm_realloc_array(ctx, NULL, *size ? *size : 1, 1); /* not zeroed: every byte is read */
    if (!copy)
        return WM_ERR_NOMEM;
    for (size_t got = 0; got < *size;) {
        ptrdiff_t n = wm_platform_read_at(place.fd, copy + got, *size - got, place.offset + got);
        if (n <= 0) {
            wm_free(ctx, copy);
            return wm_error(ctx, WM_ERR_IO, "%s: member %s: read failed at byte %zu", archive->path,
                            archive->members[index].name, got);
        }
        got += (size_t)n;
    }
    *data = *owned = copy;
    return WM_OK;
}

void wm_archive_release(wm_archive *archive, uint32_t index)
{
    wm_ctx quiet;
    wm_ctx_init(&quiet);
    member_place place;
    if (index < archive->count && locate_member(&quiet, archive, index, &place) == WM_OK && place.holder->mapped)
        wm_platform_release_pages(place.holder->data + place.offset, (size_t)place.size);
}

/* "<archive>/<member>", allocated. */
static char *member_path(wm_ctx *ctx, const wm_archive *archive, const char *member)
{
    size_t a = strlen(archive->path), b = strlen(member);
    char *path = wm_alloc_array(ctx, a + b + 2, 1);
    if (path) {
        memcpy(path, archive->path, a);
        path[a] = '/';
        memcpy(path + a + 1, member, b + 1);
    }
    return path;
}

static wm_archive *archive_of(wm_input_source *source)
{
    if (source->release)
        return (wm_archive *)source; /* the first member: an archive owned by its input */
    return (wm_archive *)((char *)source - offsetof(wm_archive, lent));
}

static wm_result beside_in_archive(wm_ctx *ctx, wm_input_source *source, const char *file_name, char **out_path,
                                   uint8_t **out_data, size_t *out_size)
{
    wm_archive *archive = archive_of(source);
    uint32_t index = wm_archive_find(archive, file_name, strlen(file_name));
    if (index == UINT32_MAX)
        return wm_error(ctx, WM_ERR_IO, "%s/%s: no such member", archive->path, file_name);
    const uint8_t *data = NULL;
    uint8_t *copy = NULL;
    size_t size = 0;
    wm_result r = member_bytes(ctx, archive, index, &data, &size, &copy);
    if (r)
        return r;
    if (!copy && (copy = wm_alloc_array(ctx, size ? size : 1, 1)) != NULL) /* a view: the caller frees a copy */
        memcpy(copy, data, size);
    char *path = out_path ? member_path(ctx, archive, archive->members[index].name) : NULL;
    if (!copy || (out_path && !path)) {
        wm_free(ctx, copy);
        wm_free(ctx, path);
        return WM_ERR_NOMEM;
    }
    *out_data = copy;
    *out_size = size;
    if (out_path)
        *out_path = path;
    return WM_OK;
}

static const char *member_name_at(wm_input_source *source, uint32_t index)
{
    const wm_archive *archive = archive_of(source);
    return index < archive->count ? archive->members[index].name : NULL;
}

/* The member input owns its archive (wm_input_load of a member path): freeing it closes it. */
static void release_archive(wm_ctx *ctx, wm_input_source *source)
{
    wm_archive_close(ctx, archive_of(source));
}

wm_result wm_archive_member_input(wm_ctx *ctx, wm_archive *archive, uint32_t index, wm_input *out)
{
    memset(out, 0, sizeof *out);
    if (index >= archive->count)
        return wm_error(ctx, WM_ERR_INVALID, "%s: no member %u", archive->path, index);
    const uint8_t *data = NULL;
    uint8_t *owned = NULL;
    size_t size = 0;
    wm_result r = member_bytes(ctx, archive, index, &data, &size, &owned);
    if (r)
        return r;
    out->owned = owned; /* a member read from a large archive: its own bytes, freed with the input */
    archive->lent.beside = beside_in_archive;
    archive->lent.release = NULL;
    archive->lent.name_at = member_name_at;
    out->data = data;
    out->size = size;
    out->name = archive->members[index].name;
    out->source = &archive->lent;
    return WM_OK;
}

wm_result wm_archive_give_to_input(wm_ctx *ctx, wm_archive *archive, wm_input *in)
{
    const char *member = in->name;
    archive->input_name = member_path(ctx, archive, member);
    if (!archive->input_name)
        return WM_ERR_NOMEM;
    archive->source.beside = beside_in_archive;
    archive->source.release = release_archive;
    archive->source.name_at = member_name_at;
    in->source = &archive->source;
    in->name = archive->input_name;
    return WM_OK;
}
