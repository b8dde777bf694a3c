/* One assertion shared by the game-folder tests of the archive containers: wm_game_find finds
 * the name in the archive named holder, and the member's bytes are the expected file's. */
#ifndef GAME_FIND_CHECK_H
#define GAME_FIND_CHECK_H

#include "test_support.h"

#include <stdlib.h>
#include <string.h>

static void assert_game_finds(const char *game, const char *name, const char *holder, const char *expected_file)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *found = NULL;
    if (wm_game_find(&ctx, game, NULL, name, &found) != WM_OK)
        fail_msg("%s: %s", name, ctx.message);
    if (!strstr(found, holder))
        fail_msg("%s: found in %s, not in %s", name, found, holder);
    size_t size = 0;
    uint8_t *expected = wmt_read_file(expected_file, &size);
    wm_input in;
    assert_int_equal(wm_input_load(&ctx, found, &in), WM_OK);
    assert_int_equal(in.size, size);
    assert_memory_equal(in.data, expected, size);
    wm_input_free(&ctx, &in);
    wm_free(&ctx, found);
    free(expected);
}

#endif
