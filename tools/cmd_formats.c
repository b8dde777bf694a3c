/* walkmesh formats: the format modules and what each reads and writes. */
#include "cli.h"
#include "report_print.h"

#include <string.h>

static const cli_spec formats_spec = {
    .name = "formats",
    .features = CLI_RESULTS,
    .usage = "Usage: walkmesh formats [--json]\n\n"
             "Lists every format module: its name (for --from/--to), what it reads and writes, its\n"
             "extensions and whether it offers validate; then the archives whose members are read as\n"
             "files (ARCHIVE/member).\n",
    .max_inputs = -1, /* none */
};

static void print_json(wm_buffer *out, const wm_format *const *formats, size_t count)
{
    wm_put_text(out, "[");
    for (size_t i = 0; i < count; i++) {
        const wm_format *f = formats[i];
        wm_put_text(out, "%s\n{\"name\": ", i ? "," : "");
        wm_put_json_string(out, f->name);
        wm_put_text(out, ", \"read\": %s, \"write\": %s, \"validate\": %s, \"extensions\": [", f->read ? "true" : "false",
                    f->write ? "true" : "false", f->validate ? "true" : "false");
        for (const char *const *e = f->extensions; e && *e; e++) {
            wm_put_text(out, e == f->extensions ? "" : ", ");
            wm_put_json_string(out, *e);
        }
        wm_put_text(out, "], \"description\": ");
        wm_put_json_string(out, f->description);
        wm_put_text(out, "}");
    }
    wm_put_text(out, "\n]\n");
}

static void print_table(wm_buffer *out, const wm_format *const *formats, size_t count)
{
    int width = 4;
    for (size_t i = 0; i < count; i++)
        if ((int)strlen(formats[i]->name) > width)
            width = (int)strlen(formats[i]->name);
    wm_put_text(out, "%-*s %-5s %-5s %-8s %s\n", width, "name", "read", "write", "validate", "extensions / description");
    for (size_t i = 0; i < count; i++) {
        const wm_format *f = formats[i];
        wm_put_text(out, "%-*s %-5s %-5s %-8s ", width, f->name, f->read ? "yes" : "no", f->write ? "yes" : "no",
                    f->validate ? "yes" : "no");
        for (const char *const *e = f->extensions; e && *e; e++)
            wm_put_text(out, "%s.%s", e == f->extensions ? "" : " ", *e);
        wm_put_text(out, "\n%*s %s\n", width, "", f->description);
    }
}

/* The containers, whose members every command reads as ARCHIVE/member (text only: the JSON
 * stays the list of format modules). */
static void print_containers(wm_buffer *out)
{
    size_t count;
    const wm_container *const *containers = wm_containers(&count);
    wm_put_text(out, "\narchives (read as folders: ARCHIVE/member; 'walkmesh info ARCHIVE' lists them):\n");
    for (size_t i = 0; i < count; i++) {
        const wm_container *c = containers[i];
        wm_put_text(out, "%-6s", c->name);
        for (const char *const *e = c->extensions; e && *e; e++)
            wm_put_text(out, " .%s", *e);
        wm_put_text(out, "\n       %s\n", c->description);
    }
}

int cmd_formats(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&formats_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_buffer out;
    wm_buffer_init(&out, &ctx);
    size_t count;
    const wm_format *const *formats = wm_formats(&count);
    if (args.json)
        print_json(&out, formats, count);
    else
        print_table(&out, formats, count);
    if (!args.json)
        print_containers(&out);
    code = out.status ? cli_fail(&ctx, out.status, 0) : EXIT_OK;
    if (!code)
        fwrite(out.data, 1, out.size, stdout);
    wm_buffer_free(&out);
    cli_args_free(&args, &ctx);
    return code;
}
