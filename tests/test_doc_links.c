/* The user documentation holds together: every relative link and picture in README.md,
 * docs/ (every .md page) and bench/README.md names a file or folder of the checkout, every #anchor names a
 * heading of its page (GitHub's rule: lower case, spaces to '-', other punctuation dropped), and
 * the README stays a short front door (at most 300 lines). Code blocks are not read. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define README_MOST_LINES 300

static char *checkout_path(const char *relative)
{
    char *samples = wmt_sample_path("."); /* corpus/ of the checkout */
    char *root = wmt_join(samples, "..");
    char *path = wmt_join(root, relative);
    free(samples);
    free(root);
    return path;
}

static char *load_text(const char *path)
{
    size_t size;
    uint8_t *bytes = wmt_read_file(path, &size);
    char *text = realloc(bytes, size + 1);
    text[size] = '\0';
    return text;
}

/* GitHub's anchor of a heading's text: lower case, spaces to '-', punctuation other than '-'
 * and '_' dropped (bytes of UTF-8 letters kept). */
static void heading_anchor(const char *heading, size_t length, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < length && n + 1 < cap; i++) {
        unsigned char c = (unsigned char)heading[i];
        if (c == ' ')
            out[n++] = '-';
        else if (c >= 0x80 || c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))
            out[n++] = (char)c;
        else if (c >= 'A' && c <= 'Z')
            out[n++] = (char)(c - 'A' + 'a');
    }
    out[n] = '\0';
}

static int page_has_anchor(const char *text, const char *anchor)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (*line != '#')
            continue;
        const char *start = line + strspn(line, "#");
        start += strspn(start, " ");
        const char *end = strchr(start, '\n');
        char made[256];
        heading_anchor(start, end ? (size_t)(end - start) : strlen(start), made, sizeof made);
        if (strcmp(made, anchor) == 0)
            return 1;
    }
    return 0;
}

/* Whether one link target of the page (in page_dir, relative to the checkout) resolves; else why not. */
static int link_resolves(const char *page_text, const char *page_dir, const char *target, char *why, size_t cap)
{
    if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
        return 1;
    char file[512];
    const char *hash = strchr(target, '#');
    size_t file_length = hash ? (size_t)(hash - target) : strlen(target);
    snprintf(file, sizeof file, "%.*s", (int)file_length, target);
    char *text = NULL;
    if (file_length > 0) {
        char relative[1024];
        snprintf(relative, sizeof relative, "%s%s", page_dir, file);
        char *path = checkout_path(relative);
        struct stat st;
        int there = stat(path, &st) == 0;
        if (there && hash && S_ISREG(st.st_mode))
            text = load_text(path);
        free(path);
        if (!there) {
            snprintf(why, cap, "no file %.400s", relative);
            return 0;
        }
    }
    int ok = !hash || page_has_anchor(text ? text : page_text, hash + 1);
    if (!ok)
        snprintf(why, cap, "no heading for %s", hash);
    free(text);
    return ok;
}

/* Every ](target) outside code blocks of the page; returns how many links it checked. */
static size_t check_page(const char *page)
{
    char *path = checkout_path(page);
    char *text = load_text(path);
    char page_dir[256] = "";
    const char *slash = strrchr(page, '/');
    if (slash)
        snprintf(page_dir, sizeof page_dir, "%.*s", (int)(slash - page + 1), page);
    size_t checked = 0, line_number = 0;
    int in_code = 0;
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        line_number++;
        if (strncmp(line, "```", 3) == 0)
            in_code = !in_code;
        char *end_of_line = strchr(line, '\n');
        for (char *at = line; !in_code && (at = strstr(at, "](")) != NULL && (!end_of_line || at < end_of_line);) {
            at += 2;
            size_t length = strcspn(at, ") \n");
            char target[512], why[600];
            snprintf(target, sizeof target, "%.*s", (int)length, at);
            if (!link_resolves(text, page_dir, target, why, sizeof why))
                fail_msg("%s:%zu: link (%s): %s", page, line_number, target, why);
            checked++;
        }
    }
    free(text);
    free(path);
    return checked;
}

static void readme_links_resolve_and_it_stays_short(void **state)
{
    (void)state;
    size_t links = check_page("README.md");
    char *path = checkout_path("README.md");
    char *text = load_text(path);
    size_t lines = 0;
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    print_message("README.md: %zu lines, %zu links checked\n", lines, links);
    assert_true(links >= 10);
    if (lines > README_MOST_LINES)
        fail_msg("README.md has %zu lines: at most %d (details belong in docs/)", lines, README_MOST_LINES);
    free(text);
    free(path);
}

static void docs_links_resolve(void **state)
{
    (void)state;
    char *docs = checkout_path("docs");
    DIR *dir = opendir(docs);
    assert_non_null(dir);
    size_t pages = 0, links = 0;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        size_t n = strlen(entry->d_name);
        if (n < 4 || strcmp(entry->d_name + n - 3, ".md") != 0)
            continue;
        char page[300];
        snprintf(page, sizeof page, "docs/%s", entry->d_name);
        links += check_page(page);
        pages++;
    }
    closedir(dir);
    free(docs);
    links += check_page("bench/README.md");
    links += check_page("corpus/README.md");
    print_message("%zu docs pages and the bench and samples READMEs: %zu links checked\n", pages, links);
    assert_true(pages >= 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_links_resolve_and_it_stays_short),
        cmocka_unit_test(docs_links_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
