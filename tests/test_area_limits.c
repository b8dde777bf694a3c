/* One room limit for `area split` and `area assemble` (issue 27, point 5): split kept a room
 * index in 16 bits where assemble refused that many rooms; both now refuse past
 * WM_LAYOUT_MAX_ROOMS with one message, and at the limit the last room's index is linked whole. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>

/* One square room a call: what a loader over a folder of rooms would give. */
static wm_result square_room(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out)
{
    (void)user, (void)room;
    uint32_t v[3];
    for (int i = 0; i < 3; i++)
        if (wm_mesh_add_vertex(ctx, out, position[0] + (float)(i & 1), (float)(i >> 1), 0, &v[i]))
            return WM_ERR_NOMEM;
    return wm_mesh_add_triangle(ctx, out, v[0], v[1], v[2], 1, 1);
}

/* A layout of `count` rooms r0, r1, ... at x = 0. */
static void many_rooms(wm_layout *layout, uint32_t count)
{
    wm_layout_init(layout);
    layout->rooms = calloc(count, sizeof *layout->rooms);
    layout->room_count = count;
    for (uint32_t i = 0; i < count; i++)
        snprintf(layout->rooms[i].name, sizeof layout->rooms[i].name, "r%u", i);
}

/* An area of two walkable triangles meeting on the edge (1,0)-(0,1), objects a and b. */
static void two_rooms_meeting(wm_ctx *ctx, const char *a, const char *b, wm_mesh *area)
{
    static const float xyz[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    wm_mesh_init(area);
    for (int i = 0; i < 4; i++)
        assert_int_equal(wm_mesh_add_vertex(ctx, area, xyz[i][0], xyz[i][1], xyz[i][2], NULL), WM_OK);
    assert_int_equal(wm_mesh_add_object(ctx, area, a, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, area, 0, 1, 2, 1, 1), WM_OK);
    assert_int_equal(wm_mesh_add_object(ctx, area, b, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, area, 1, 3, 2, 1, 1), WM_OK);
}

/* Point 5: split kept a room index in 16 bits (room 69999 linked as 4463) where assemble
 * refused that many rooms. Now one limit; at the limit, the last room's index is linked whole. */
static void one_room_limit_and_links_as_wide(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_layout layout;
    wm_mesh area, *rooms = calloc(70000, sizeof *rooms);
    many_rooms(&layout, 70000);
    two_rooms_meeting(&ctx, "r0", "r69999", &area);
    assert_int_equal(wm_area_split(&ctx, &area, &layout, 1e-3f, rooms), WM_ERR_LIMIT);
    char split_message[256];
    snprintf(split_message, sizeof split_message, "%s", wm_ctx_message(&ctx));
    wm_mesh assembled;
    assert_int_equal(wm_area_assemble(&ctx, &layout, square_room, NULL, &assembled), WM_ERR_LIMIT);
    assert_string_equal(split_message, wm_ctx_message(&ctx));
    wm_mesh_free(&ctx, &area);
    layout.room_count = WM_LAYOUT_MAX_ROOMS; /* the most allowed: the last is room 65534 */
    two_rooms_meeting(&ctx, "r0", "r65534", &area);
    assert_int_equal(wm_area_split(&ctx, &area, &layout, 1e-3f, rooms), WM_OK);
    /* r0's triangle (0,1,2): its edge 1 runs (1,0)-(0,1), the edge r65534's triangle shares */
    assert_int_equal(rooms[0].transitions[1], 65534);
    assert_int_equal(rooms[65534].transitions[2], 0);
    for (uint32_t i = 0; i < layout.room_count; i++)
        wm_mesh_free(&ctx, &rooms[i]);
    assert_int_equal(wm_area_assemble(&ctx, &layout, square_room, NULL, &assembled), WM_OK);
    assert_int_equal(assembled.object_count, WM_LAYOUT_MAX_ROOMS);
    assert_int_equal(assembled.objects[assembled.triangle_count - 1], 65534);
    wm_mesh_free(&ctx, &assembled);
    wm_mesh_free(&ctx, &area);
    wm_layout_free(&ctx, &layout);
    free(rooms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_room_limit_and_links_as_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
