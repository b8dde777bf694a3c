/* Hostile MPQs built here from the format's public description (header, encrypted hash and
 * block tables; the hashing and encryption every MPQ tool documents): a hash table whose entries
 * are all taken (a lookup that never meets an empty slot must still end), a list file past the
 * end, a member past the end, a member declaring 4 GiB. StormLib reads the tables; walkmesh bounds
 * what it asks of it, and every refusal names the archive and the member. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crypt_table[0x500];

static void make_crypt_table(void)
{
    uint32_t seed = 0x00100001;
    for (uint32_t i = 0; i < 0x100; i++)
        for (uint32_t j = 0; j < 5; j++) {
            seed = (seed * 125 + 3) % 0x2AAAAB;
            uint32_t high = (seed & 0xFFFF) << 16;
            seed = (seed * 125 + 3) % 0x2AAAAB;
            crypt_table[i + j * 0x100] = high | (seed & 0xFFFF);
        }
}

static uint32_t hash_string(const char *s, uint32_t type)
{
    uint32_t seed1 = 0x7FED7FED, seed2 = 0xEEEEEEEE;
    for (; *s; s++) {
        uint32_t c = (uint32_t)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s == '/' ? '\\' : *s);
        seed1 = crypt_table[type * 0x100 + c] ^ (seed1 + seed2);
        seed2 = c + seed1 + seed2 + (seed2 << 5) + 3;
    }
    return seed1;
}

static void encrypt(uint32_t *words, size_t count, uint32_t key)
{
    uint32_t seed = 0xEEEEEEEE;
    for (size_t i = 0; i < count; i++) {
        seed += crypt_table[0x400 + (key & 0xFF)];
        uint32_t plain = words[i];
        words[i] = plain ^ (key + seed);
        key = ((~key << 21) + 0x11111111) | (key >> 11);
        seed = plain + seed + (seed << 5) + 3;
    }
}

typedef struct mpq_file {
    const char *name; /* NULL: a hash slot taken by a name no list gives */
    uint32_t offset, size, declared;
} mpq_file;

enum { HEADER = 32, SLOTS = 16, SINGLE_UNIT_EXISTS = 0x81000000u };

/* A v1 MPQ: header, the files' bytes (offsets given relative to the header), a full hash table
 * of SLOTS entries (every slot taken: the files, then names nobody lists), a block table. */
static uint8_t *build_mpq(const mpq_file *files, uint32_t count, const uint8_t *payload, uint32_t payload_size,
                          size_t *out_size)
{
    make_crypt_table();
    uint32_t hash_at = HEADER + payload_size, block_at = hash_at + SLOTS * 16;
    size_t size = block_at + (size_t)count * 16;
    uint8_t *mpq = calloc(1, size);
    uint32_t header[8] = {0x1A51504D, HEADER, (uint32_t)size, 0 | 3u << 16, hash_at, block_at, SLOTS, count};
    memcpy(mpq, header, sizeof header);
    memcpy(mpq + HEADER, payload, payload_size);
    /* the files take slots 0.. whatever their hashes: with no empty slot, a lookup walks from its
     * name's home slot round the whole table (the looping case under test) */
    uint32_t hashes[SLOTS * 4], blocks[64];
    for (uint32_t slot = 0; slot < SLOTS; slot++) {
        char filler[32];
        snprintf(filler, sizeof filler, "nobody lists %u", slot);
        const char *name = slot < count ? files[slot].name : filler;
        hashes[slot * 4 + 0] = hash_string(name, 1);
        hashes[slot * 4 + 1] = hash_string(name, 2);
        hashes[slot * 4 + 2] = 0; /* neutral locale, platform 0 */
        hashes[slot * 4 + 3] = slot < count ? slot : 0;
    }
    for (uint32_t i = 0; i < count; i++) {
        blocks[i * 4 + 0] = files[i].offset;
        blocks[i * 4 + 1] = files[i].size;
        blocks[i * 4 + 2] = files[i].declared ? files[i].declared : files[i].size;
        blocks[i * 4 + 3] = SINGLE_UNIT_EXISTS;
    }
    encrypt(hashes, SLOTS * 4, hash_string("(hash table)", 3));
    encrypt(blocks, (size_t)count * 4, hash_string("(block table)", 3));
    memcpy(mpq + hash_at, hashes, sizeof hashes);
    memcpy(mpq + block_at, blocks, (size_t)count * 16);
    *out_size = size;
    return mpq;
}

static const char list[] = "a.wmo\r\nmissing.wmo\r\n";
static const char member[] = "the member's bytes";

/* Writes the MPQ, opens it (*out_members: how many it lists) and reads a.wmo by its path: returns the first refusal's code (WM_OK when
 * all read) with its message in message. */
static wm_result open_and_read_all(const uint8_t *mpq, size_t size, char *message, size_t message_size,
                                   uint32_t *out_members)
{
    char *dir = wmt_make_temp_dir(), *path = wmt_join(dir, "hostile.mpq");
    wmt_write_file(path, mpq, size);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    wm_result r = wm_archive_open(&ctx, path, &archive);
    *out_members = archive ? wm_archive_member_count(archive) : 0;
    if (!r) { /* a.wmo by path: its bytes are the payload's */
        wm_input in;
        char *member_path = wmt_join(path, "A.WMO");
        wm_archive_close(&ctx, archive);
        archive = NULL;
        r = wm_input_load(&ctx, member_path, &in);
        if (!r) {
            assert_int_equal(in.size, sizeof member);
            assert_memory_equal(in.data, member, sizeof member);
            wm_input_free(&ctx, &in);
        }
        free(member_path);
    }
    snprintf(message, message_size, "%.1100s", ctx.message);
    wmt_remove_tree(dir);
    free(dir), free(path);
    return r;
}


static void full_hash_table_lookups_end(void **state)
{
    (void)state;
    uint8_t payload[64];
    memcpy(payload, list, sizeof list - 1);
    memcpy(payload + 32, member, sizeof member);
    mpq_file files[2] = {{"(listfile)", HEADER, sizeof list - 1, 0}, {"a.wmo", HEADER + 32, sizeof member, 0}};
    size_t size = 0;
    uint8_t *mpq = build_mpq(files, 2, payload, sizeof payload, &size);
    char message[1200];
    uint32_t members = 0;
    /* "missing.wmo" is listed but in no slot: its lookup walks the whole full table and ends */
    if (open_and_read_all(mpq, size, message, sizeof message, &members) != WM_OK)
        fail_msg("a full but valid table was refused: %s", message);
    assert_int_equal(members, 1); /* a.wmo, read back above; missing.wmo is not in the archive */
    free(mpq);
}

static void members_past_the_end_are_refused_by_name(void **state)
{
    (void)state;
    uint8_t payload[64];
    memcpy(payload, list, sizeof list - 1);
    mpq_file list_past[2] = {{"(listfile)", 1u << 20, sizeof list - 1, 0}, {"a.wmo", HEADER + 32, sizeof member, 0}};
    mpq_file member_past[2] = {{"(listfile)", HEADER, sizeof list - 1, 0}, {"a.wmo", 1u << 20, sizeof member, 0}};
    mpq_file member_huge[2] = {{"(listfile)", HEADER, sizeof list - 1, 0}, {"a.wmo", HEADER + 32, 16, 0xFFFFFFF0u}};
    /* StormLib drops a block past the end, or one declaring more than it holds unpacked, from the
     * archive: a member there is "no such member", named */
    const mpq_file *cases[] = {list_past, member_past, member_huge};
    const char *named[] = {"(listfile)", "A.WMO: no such member", "A.WMO: no such member"};
    for (size_t k = 0; k < 3; k++) {
        size_t size = 0;
        uint8_t *mpq = build_mpq(cases[k], 2, payload, sizeof payload, &size);
        char message[1200];
        uint32_t members = 0;
        wm_result r = open_and_read_all(mpq, size, message, sizeof message, &members);
        print_message("case %zu: %s\n", k, message);
        assert_int_not_equal(r, WM_OK);
        assert_non_null(strstr(message, "hostile.mpq"));
        assert_non_null(strstr(message, named[k]));
        free(mpq);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_hash_table_lookups_end),
        cmocka_unit_test(members_past_the_end_are_refused_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
