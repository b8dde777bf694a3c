/* Surface table: names, KotOR ids and NWN2 flags in both directions, checked
 * against FORMAT-NOTES §1 (surfacemat rows and walkability) and §2 (ASWM flags). */
#include "test_support.h"
#include "bwm/bwm.h"
#include "nwn2/nwn2.h"

#include <stdlib.h>
#include <string.h>

static void kotor_ids_follow_surfacemat(void **state)
{
    (void)state;
    const wm_surface_table *t = wm_surfaces_default();
    /* FORMAT-NOTES §1: walkable 1 3 4 5 6 9 10 11 12 13 14 16 18 20 21 22; not 0 2 7 8 15 17 19. */
    const int walkable[] = {1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22};
    const int blocking[] = {0, 2, 7, 8, 15, 17, 19};
    for (size_t i = 0; i < sizeof walkable / sizeof *walkable; i++) {
        uint16_t s = bwm_surface_of_material(t, walkable[i]);
        assert_int_not_equal(s, WM_SURFACE_NONE);
        assert_int_equal(bwm_material_of_surface(t, s), walkable[i]);
        assert_true(wm_surface_walkable(t, s));
    }
    for (size_t i = 0; i < sizeof blocking / sizeof *blocking; i++) {
        uint16_t s = bwm_surface_of_material(t, blocking[i]);
        assert_int_equal(bwm_material_of_surface(t, s), blocking[i]);
        assert_false(wm_surface_walkable(t, s));
    }
    assert_int_equal(bwm_surface_of_material(t, 99), WM_SURFACE_NONE);
    assert_string_equal(wm_surface_name(t, bwm_surface_of_material(t, 16)), "bottomless_pit");
    assert_string_equal(wm_surface_name(t, bwm_surface_of_material(t, 19)), "snow");
}

static void nwn2_flags_both_ways(void **state)
{
    (void)state;
    const wm_surface_table *t = wm_surfaces_default();
    /* FORMAT-NOTES §2 triangle flags. */
    struct { uint32_t flag; const char *name; } expected[] = {
        {0x8, "dirt"}, {0x10, "grass"}, {0x20, "stone"}, {0x40, "wood"}, {0x80, "carpet"}, {0x100, "metal"},
        {0x200, "swamp"}, {0x400, "mud"}, {0x800, "leaves"}, {0x1000, "water"}, {0x2000, "puddles"}};
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
        /* walkable (1) and clockwise (4) bits are not surfaces */
        uint16_t s = nwn2_surface_of_flags(t, expected[i].flag | 0x1 | 0x4);
        assert_string_equal(wm_surface_name(t, s), expected[i].name);
        assert_int_equal(nwn2_flag_of_surface(t, s), expected[i].flag);
    }
    assert_int_equal(nwn2_surface_of_flags(t, 0x1 | 0x4), WM_SURFACE_NONE);
    assert_int_equal(nwn2_flag_of_surface(t, wm_surface_from_name(t, "lava")), 0);
}

static void material_names_map_case_insensitively(void **state)
{
    (void)state;
    const wm_surface_table *t = wm_surfaces_default();
    struct { const char *name; int kotor; } cases[] = {
        {"Dirt", 1}, {"wok_dirt", 1}, {"WOK_Grass", 3}, {"BottomlessPit", 16}, {"bottomless pit", 16},
        {"Deep_Water", 17}, {"stone.001", 4}, {"12", 12}, {"mat_5", 5}, {"Surface15", 15}, {"wok_7", 7},
        {"NonWalk", 7}, {"stonebridge", 22}, {"puddle", 11}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint16_t s = wm_surface_from_name(t, cases[i].name);
        assert_int_not_equal(s, WM_SURFACE_NONE);
        if (bwm_material_of_surface(t, s) != cases[i].kotor)
            fail_msg("'%s' gave KotOR id %d, expected %d", cases[i].name, bwm_material_of_surface(t, s), cases[i].kotor);
    }
    assert_int_equal(wm_surface_from_name(t, "Material.001"), WM_SURFACE_NONE);
    assert_int_equal(wm_surface_from_name(t, "mat_999"), WM_SURFACE_NONE);
    assert_int_equal(wm_surface_from_name(t, ""), WM_SURFACE_NONE);
    assert_string_equal(wm_surface_name(t, wm_surface_from_name(t, "collision_only")), "collision");
    assert_string_equal(wm_surface_name(t, t->fallback), "stone");
}

static void user_table_overrides(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *path = wmt_test_data_path("materials_override.txt");
    wm_surface_table table;
    assert_int_equal(wm_surface_table_load(&ctx, path, &table), WM_OK);
    const wm_surface_table *d = wm_surfaces_default();
    assert_int_equal(table.count, d->count);
    uint16_t sand = wm_surface_from_name(&table, "sand");
    assert_false(wm_surface_walkable(&table, sand));
    assert_true(wm_surface_walkable(d, wm_surface_from_name(d, "sand")));
    assert_int_equal(bwm_material_of_surface(&table, wm_surface_from_name(&table, "Cobble")), 4);
    assert_int_equal(wm_surface_from_name(d, "Cobble"), WM_SURFACE_NONE);
    wm_surface_table_free(&ctx, &table);
    free(path);
}

static void bad_table_lines_are_named(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_surface_table table;
    const char *bad_walk = "# comment\nsand 2 20 0 d4e157\n";
    assert_int_equal(wm_surface_table_parse(&ctx, wm_surfaces_default(), bad_walk, strlen(bad_walk), "my.txt", &table),
                     WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "my.txt: line 2"));
    const char *bad_fallback = "fallback nosuchthing\n";
    assert_int_equal(wm_surface_table_parse(&ctx, wm_surfaces_default(), bad_fallback, strlen(bad_fallback), "f.txt",
                                            &table),
                     WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "nosuchthing"));
    const char *new_surface = "ice 0 -1 0 e0f7fa slippery\nfallback ice\n";
    assert_int_equal(wm_surface_table_parse(&ctx, wm_surfaces_default(), new_surface, strlen(new_surface), "n.txt",
                                            &table),
                     WM_OK);
    assert_int_equal(table.count, wm_surfaces_default()->count + 1);
    assert_string_equal(wm_surface_name(&table, table.fallback), "ice");
    assert_int_equal(wm_surface_from_name(&table, "Slippery"), table.count - 1);
    wm_surface_table_free(&ctx, &table);
}

/* The built-in table is neutral: no game codes in it; each game's module
 * names its own (KotOR surfacemat.2da rows, NWN2 flags). A surface file
 * may give a new surface codes of its own, and the older six-column lines
 * still read (with -1 and 0 as "none"). */
static void game_codes_belong_to_modules(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const wm_surface_table *d = wm_surfaces_default();
    for (uint32_t i = 0; i < d->count; i++)
        assert_int_equal(d->entries[i].code_count, 0);
    const char *text = "ice 0 e0f7fa slippery kotor=30 nwn2=0x4000\n"
                       "grass 1 3 0 43a047 -\n"             /* the older columns: grass loses its NWN2 flag */
                       "wood 1 a1887f - kotor=none\n";      /* wood has no KotOR row any more */
    wm_surface_table t;
    assert_int_equal(wm_surface_table_parse(&ctx, d, text, strlen(text), "codes.txt", &t), WM_OK);
    uint16_t ice = wm_surface_named(&t, "ice");
    assert_int_equal(ice, d->count);
    assert_int_equal(bwm_surface_of_material(&t, 30), ice);
    assert_int_equal(bwm_material_of_surface(&t, ice), 30);
    assert_int_equal(nwn2_surface_of_flags(&t, 0x4000 | 0x1), ice);
    assert_int_equal(nwn2_flag_of_surface(&t, ice), 0x4000);
    uint16_t grass = wm_surface_named(&t, "grass");
    assert_int_equal(bwm_surface_of_material(&t, 3), grass);
    assert_int_equal(nwn2_flag_of_surface(&t, grass), 0);
    assert_int_equal(nwn2_surface_of_flags(&t, 0x10), WM_SURFACE_NONE);
    assert_int_equal(bwm_material_of_surface(&t, wm_surface_named(&t, "wood")), -1);
    assert_int_equal(bwm_surface_of_material(&t, 5), WM_SURFACE_NONE);
    assert_int_equal(nwn2_flag_of_surface(&t, wm_surface_named(&t, "wood")), 0x40); /* untouched */
    wm_surface_table_free(&ctx, &t);
    const char *bad = "ice 0 e0f7fa - kotor=x\n";
    assert_int_equal(wm_surface_table_parse(&ctx, d, bad, strlen(bad), "bad.txt", &t), WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "bad.txt: line 1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kotor_ids_follow_surfacemat),
        cmocka_unit_test(nwn2_flags_both_ways),
        cmocka_unit_test(game_codes_belong_to_modules),
        cmocka_unit_test(material_names_map_case_insensitively),
        cmocka_unit_test(user_table_overrides),
        cmocka_unit_test(bad_table_lines_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
