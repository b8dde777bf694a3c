/* BioWare resource type ids and the extensions they stand for, as xoreos (src/aurora/types.h and
 * its NWN2 engine's aliases) and PyKotor document them; the walkmesh-related ids are also counted
 * in the games' keys (FORMAT-NOTES 4). NWN2 gave new meanings to ids of the 3000 block. */
#include "wm_archive.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct type_name {
    uint16_t id;
    char extension[6];
} type_name;

static const type_name common[] = {
    {0, "res"},    {1, "bmp"},    {2, "mve"},    {3, "tga"},    {4, "wav"},    {6, "plt"},    {7, "ini"},
    {8, "bmu"},    {9, "mpg"},    {10, "txt"},   {11, "wma"},   {12, "wmv"},   {13, "xmv"},   {2000, "plh"},
    {2001, "tex"}, {2002, "mdl"}, {2003, "thg"}, {2005, "fnt"}, {2007, "lua"}, {2008, "slt"}, {2009, "nss"},
    {2010, "ncs"}, {2011, "mod"}, {2012, "are"}, {2013, "set"}, {2014, "ifo"}, {2015, "bic"}, {2016, "wok"},
    {2017, "2da"}, {2018, "tlk"}, {2022, "txi"}, {2023, "git"}, {2024, "bti"}, {2025, "uti"}, {2026, "btc"},
    {2027, "utc"}, {2029, "dlg"}, {2030, "itp"}, {2031, "btt"}, {2032, "utt"}, {2033, "dds"}, {2034, "bts"},
    {2035, "uts"}, {2036, "ltr"}, {2037, "gff"}, {2038, "fac"}, {2039, "bte"}, {2040, "ute"}, {2041, "btd"},
    {2042, "utd"}, {2043, "btp"}, {2044, "utp"}, {2045, "dft"}, {2046, "gic"}, {2047, "gui"}, {2048, "css"},
    {2049, "ccs"}, {2050, "btm"}, {2051, "utm"}, {2052, "dwk"}, {2053, "pwk"}, {2054, "btg"}, {2055, "utg"},
    {2056, "jrl"}, {2057, "sav"}, {2058, "utw"}, {2059, "4pc"}, {2060, "ssf"}, {2061, "hak"}, {2062, "nwm"},
    {2063, "bik"}, {2064, "ndb"}, {2065, "ptm"}, {2066, "ptt"}, {9996, "1da"}, {9997, "erf"}, {9998, "bif"},
    {9999, "key"},
};

/* KotOR's meanings of the 3000 block. */
static const type_name kotor[] = {
    {3000, "lyt"}, {3001, "vis"}, {3002, "rim"}, {3003, "pth"},  {3004, "lip"}, {3005, "bwm"},
    {3006, "txb"}, {3007, "tpc"}, {3008, "mdx"}, {3009, "rsv"},  {3010, "sig"}, {3011, "mab"},
    {3012, "qst"}, {3013, "sto"}, {3015, "hex"}, {3022, "fsm"},  {3023, "art"}, {3024, "amp"},
    {3025, "cwa"}, {3028, "bip"},
};

/* NWN2's (xoreos' NWN2 engine maps them onto its own ids). */
static const type_name nwn2[] = {
    {3000, "osc"}, {3001, "usc"}, {3002, "trn"}, {3003, "utr"}, {3004, "uen"}, {3005, "ult"}, {3006, "sef"},
    {3007, "pfx"}, {3008, "cam"}, {3009, "lfx"}, {3010, "bfx"}, {3011, "upe"}, {3012, "ros"}, {3013, "rst"},
    {3014, "ifx"}, {3015, "pfb"}, {3016, "zip"}, {3017, "wmp"}, {3018, "bbx"}, {3019, "tfx"}, {3020, "wlk"},
    {3021, "xml"}, {3022, "scc"}, {3033, "ptx"}, {3034, "ltx"}, {3035, "trx"}, {4000, "mdb"}, {4003, "gr2"},
    {4004, "fxa"}, {4005, "fxe"}, {4007, "jpg"}, {4008, "pwc"},
};

static const char *look_up(const type_name *table, size_t count, uint32_t type)
{
    for (size_t i = 0; i < count; i++)
        if (table[i].id == type)
            return table[i].extension;
    return NULL;
}

/* The game's own table first, then the ids every game shares, then the other game's (an NWN2
 * area exported as a V1.0 ERF holds its .trx as 3035, which KotOR never uses). */
static const char *look_up_all(uint32_t type, int for_nwn2)
{
    const type_name *first = for_nwn2 ? nwn2 : kotor, *other = for_nwn2 ? kotor : nwn2;
    size_t first_count = for_nwn2 ? sizeof nwn2 / sizeof nwn2[0] : sizeof kotor / sizeof kotor[0];
    size_t other_count = for_nwn2 ? sizeof kotor / sizeof kotor[0] : sizeof nwn2 / sizeof nwn2[0];
    const char *found = look_up(first, first_count, type);
    if (!found)
        found = look_up(common, sizeof common / sizeof common[0], type);
    if (!found)
        found = look_up(other, other_count, type);
    return found;
}

const char *wm_resource_type_extension(uint32_t type, int for_nwn2)
{
    return look_up_all(type, for_nwn2);
}

wm_result wm_archive_add_resource(wm_ctx *ctx, wm_archive *archive, uint32_t index, const uint8_t *field,
                                  size_t field_size, int for_nwn2, const wm_archive_member *where)
{
    size_t length = 0;
    while (length < field_size && field[length])
        length++;
    if (length == 0) /* ".wok" alone would be a hidden file named after nothing */
        return wm_error(ctx, WM_ERR_CORRUPT, "member %u has an empty name", index);
    if (field[0] == '.' && (length == 1 || (length == 2 && field[1] == '.'))) /* "...wok" is a name, ".." is not */
        return wm_error(ctx, WM_ERR_CORRUPT, "member %u's name \"%.*s\" is a '.' or '..' component", index,
                        (int)length, (const char *)field);
    char number[12];
    const char *extension = wm_resource_type_extension(where->type, for_nwn2);
    if (!extension) {
        snprintf(number, sizeof number, "%u", where->type);
        extension = number;
    }
    return wm_archive_add_member(ctx, archive, index, (const char *)field, length, extension, where);
}

static uint32_t reverse(const type_name *table, size_t count, const char *extension)
{
    for (size_t i = 0; i < count; i++)
        if (wm_name_compare(table[i].extension, extension) == 0)
            return table[i].id;
    return UINT32_MAX;
}

uint32_t wm_resource_type_id(const char *extension, int for_nwn2)
{
    const type_name *tables[3] = {for_nwn2 ? nwn2 : kotor, common, for_nwn2 ? kotor : nwn2};
    size_t counts[3] = {for_nwn2 ? sizeof nwn2 / sizeof nwn2[0] : sizeof kotor / sizeof kotor[0],
                        sizeof common / sizeof common[0],
                        for_nwn2 ? sizeof kotor / sizeof kotor[0] : sizeof nwn2 / sizeof nwn2[0]};
    uint32_t id = UINT32_MAX;
    for (int t = 0; t < 3 && id == UINT32_MAX; t++)
        id = reverse(tables[t], counts[t], extension);
    if (id == UINT32_MAX && extension[0] >= '0' && extension[0] <= '9' && strlen(extension) <= 5) {
        char *end = NULL;
        unsigned long number = strtoul(extension, &end, 10);
        if (*end == '\0' && number < 0xFFFF)
            id = (uint32_t)number;
    }
    return id;
}

wm_result wm_archive_change_resource(wm_ctx *ctx, const wm_archive_change *change, size_t field_size, int for_nwn2,
                                     size_t *out_length, uint32_t *out_type)
{
    const char *dot = strrchr(change->name, '.');
    *out_length = dot ? (size_t)(dot - change->name) : 0;
    *out_type = dot ? wm_resource_type_id(dot + 1, for_nwn2) : UINT32_MAX;
    if (*out_type == UINT32_MAX)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: no resource type for this extension in this archive",
                        change->name);
    if (*out_length == 0 || *out_length > field_size)
        return wm_error(ctx, WM_ERR_INVALID, "%s: a resource name in this archive has 1 to %zu characters",
                        change->name, field_size);
    return wm_name_check(ctx, change->name, *out_length, WM_NAME_COMPONENT, "the member's name");
}
