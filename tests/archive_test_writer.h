/* A small archive writer for the tests, written from the format documentation (FORMAT-NOTES 4,
 * xoreos' and PyKotor's descriptions), independent of walkmesh's own code: ERF V1.0 and V1.1,
 * RIM V1.0, KEY V1 with one BIFF V1 file. */
#ifndef ARCHIVE_TEST_WRITER_H
#define ARCHIVE_TEST_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef enum atw_kind { ATW_ERF_V10, ATW_MOD_V11, ATW_RIM, ATW_KEY } atw_kind;

typedef struct atw_member {
    char name[40];     /* the resource name, no extension (at most 16 bytes, 32 for V1.1) */
    char extension[8]; /* what the type stands for, for the test's paths */
    uint32_t type;
    uint8_t *data;
    size_t size;
} atw_member;

/* One entry as the test's reader sees it. */
typedef struct atw_entry {
    char name[33];
    uint32_t type;
    const uint8_t *data; /* into the archive's bytes */
    uint32_t size;
} atw_entry;

/* The test's reader, from the same documentation: the entries of an ERF V1.0/V1.1 or RIM V1.0
 * (at most max; a table or member outside the bytes fails the test). Returns the count. */
size_t atw_read(const uint8_t *bytes, size_t size, atw_entry *out, size_t max);

/* The archive's bytes (ERF or RIM; for ATW_KEY the key, whose one BIF atw_bif makes). */
uint8_t *atw_build(atw_kind kind, const atw_member *members, size_t count, size_t *out_size);
/* The BIF of a key built by atw_build(ATW_KEY): member i is its resource i. */
uint8_t *atw_bif(const atw_member *members, size_t count, size_t *out_size);
/* Writes the archive into dir ("test.erf", "test.mod", "test.rim"; for a key "chitin.key" and
 * "data/walkmesh.bif", which the key names "data\\walkmesh.bif") and returns its path. */
char *atw_write(const char *dir, atw_kind kind, const atw_member *members, size_t count);

#endif
