/* The pictures really draw: rsvg-convert (librsvg2-bin) turns one picture
 * per format and view into PNG, decoded here (zlib + PNG filters), and the
 * pixels must not be blank: many colours, spread in brightness, and a
 * good part of the plot covered by something other than the background. */
#define _GNU_SOURCE
#include "test_support.h"
#include "svg_inspect.h"
#include "wm_picture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* 8-bit RGB or RGBA PNG (what rsvg-convert writes) -> RGBA pixels, malloc'ed. */
static uint8_t *decode_png(const char *path, uint32_t *width, uint32_t *height)
{
    unsigned channels = 0;
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    assert_true(size > 33 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0);
    uint8_t *idat = NULL;
    size_t idat_size = 0;
    for (size_t at = 8; at + 12 <= size;) {
        uint32_t length = be32(data + at);
        assert_true(at + 12 + length <= size);
        const uint8_t *type = data + at + 4, *body = data + at + 8;
        if (memcmp(type, "IHDR", 4) == 0) {
            *width = be32(body);
            *height = be32(body + 4);
            assert_int_equal(body[8], 8); /* bit depth */
            assert_true(body[9] == 2 || body[9] == 6); /* RGB or RGBA */
            channels = body[9] == 6 ? 4 : 3;
            assert_int_equal(body[12], 0); /* not interlaced */
        } else if (memcmp(type, "IDAT", 4) == 0) {
            idat = realloc(idat, idat_size + length);
            memcpy(idat + idat_size, body, length);
            idat_size += length;
        }
        at += 12 + length;
    }
    assert_true(channels > 0);
    size_t stride = (size_t)*width * channels, raw_size = (stride + 1) * *height;
    uint8_t *raw = malloc(raw_size), *pixels = malloc(stride * *height), *rgba = malloc((size_t)*width * *height * 4);
    uLongf got = raw_size;
    assert_int_equal(uncompress(raw, &got, idat, idat_size), Z_OK);
    assert_int_equal(got, raw_size);
    for (uint32_t y = 0; y < *height; y++) {
        const uint8_t *in = raw + y * (stride + 1) + 1;
        uint8_t *row = pixels + y * stride, *up = y ? row - stride : NULL;
        for (size_t x = 0; x < stride; x++) {
            int a = x >= channels ? row[x - channels] : 0, b = up ? up[x] : 0;
            int c = up && x >= channels ? up[x - channels] : 0;
            int predictor[5] = {0, a, b, (a + b) / 2, paeth(a, b, c)};
            uint8_t filter = raw[y * (stride + 1)];
            assert_true(filter <= 4);
            row[x] = (uint8_t)(in[x] + predictor[filter]);
        }
    }
    for (size_t i = 0; i < (size_t)*width * *height; i++)
        for (unsigned k = 0; k < 4; k++)
            rgba[4 * i + k] = k < channels ? pixels[channels * i + k] : 0xff;
    free(pixels);
    free(raw);
    free(idat);
    free(data);
    return rgba;
}

static void not_blank(const char *corpus_file, const char *view)
{
    if (!svgt_have("rsvg-convert")) {
        print_message("rsvg-convert (librsvg2-bin) missing: skipped\n");
        skip();
    }
    char *input = wmt_corpus_path_or_skip(corpus_file);
    char *dir = wmt_make_temp_dir();
    char *svg = wmt_join(dir, "p.svg"), *png = wmt_join(dir, "p.png");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    wm_option_set(&ctx, &opts, "view", view);
    assert_int_equal(wm_render_file(&ctx, input, NULL, svg, &opts, 0), WM_OK);
    char command[1024];
    snprintf(command, sizeof command, "rsvg-convert -b white -o '%s' '%s'", png, svg);
    assert_int_equal(system(command), 0);
    uint32_t w = 0, h = 0;
    uint8_t *pixels = decode_png(png, &w, &h);
    /* the PNG has the picture's own size */
    char *text = svgt_load(svg);
    double sw = 0, sh = 0;
    assert_int_equal(sscanf(strstr(text, " width=\""), " width=\"%lf\" height=\"%lf\"", &sw, &sh), 2);
    assert_true(fabs(w - sw) <= 1 && fabs(h - sh) <= 1);
    /* inside the drawing's frame (<rect class="pl">): coloured pixels, not grid grey or white */
    double px = 0, py = 0, pw = 0, ph = 0;
    assert_int_equal(sscanf(strstr(text, "<rect class=\"pl\""), "<rect class=\"pl\" x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\"",
                            &px, &py, &pw, &ph), 4);
    uint64_t coloured = 0, inside = 0;
    for (uint32_t y = (uint32_t)py + 2; y + 2 < py + ph && y < h; y++)
        for (uint32_t x = (uint32_t)px + 2; x + 2 < px + pw && x < w; x++) {
            const uint8_t *p = pixels + 4 * ((size_t)y * w + x);
            int hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
            int lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
            coloured += hi - lo > 24;
            inside++;
        }
    double sum = 0, sum2 = 0;
    uint64_t busy = 0, n = (uint64_t)w * h;
    uint32_t colours = 0;
    static uint8_t seen[1 << 15];
    memset(seen, 0, sizeof seen);
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *p = pixels + 4 * i;
        double luma = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        sum += luma;
        sum2 += luma * luma;
        busy += !(p[0] >= 0xf8 && p[1] >= 0xf8 && p[2] >= 0xf8) && !(p[0] == 0xfa && p[1] == 0xfa && p[2] == 0xfa);
        uint32_t key = (uint32_t)(p[0] >> 3) << 10 | (uint32_t)(p[1] >> 3) << 5 | (uint32_t)(p[2] >> 3);
        colours += !seen[key]++;
    }
    double mean = sum / (double)n, variance = sum2 / (double)n - mean * mean;
    print_message("%s %s: %ux%u px, luma variance %.0f, %u colours, %.1f%% not background, %.1f%% of the "
                  "drawing coloured\n",
                  corpus_file, view, w, h, variance, colours, 100.0 * (double)busy / (double)n,
                  100.0 * (double)coloured / (double)inside);
    assert_true(coloured * 20 > inside); /* more than 5% of the drawing in colour: the faces */
    assert_true(variance > 100.0);
    assert_true(colours >= 8);
    assert_true(busy * 20 > n); /* more than 5% drawn */
    free(pixels);
    free(text);
    wmt_remove_tree(dir);
    free(svg);
    free(png);
    free(dir);
    free(input);
}

static void kotor_wok(void **state)
{
    (void)state;
    not_blank("bwm/pykotor-kits-hiddenbek-large_room_1.wok", "top");
    not_blank("bwm/pykotor-kits-hiddenbek-large_room_1.wok", "iso");
}

static void kotor_ascii(void **state)
{
    (void)state;
    not_blank("bwm/tslcp-101peri-kotormax.wok.ascii", "top");
}

static void nwn2_trx(void **state)
{
    (void)state;
    not_blank("nwn2/castle_krag_tower.trx", "top");
    not_blank("nwn2/castle_krag_tower.trx", "iso");
}

static void wmo_root(void **state)
{
    (void)state;
    not_blank("wmo/warcraftnet__duskwood_lumbermill.wmo", "front");
    not_blank("wmo/warcraftnet__duskwood_lumbermill.wmo", "iso");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kotor_wok),
        cmocka_unit_test(kotor_ascii),
        cmocka_unit_test(nwn2_trx),
        cmocka_unit_test(wmo_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
