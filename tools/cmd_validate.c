#include "cli.h"
#include "report_print.h"

#include <stdio.h>
#include <string.h>

static void help(void)
{
    printf("Usage: walkmesh validate FILE [--json] [options]\n\n"
           "Checks FILE against every invariant its format module knows (see the README section of\n"
           "each format) and lists each finding with its location. Errors break the file for the game;\n"
           "warnings are quirks real files show. Formats without their own checks get the neutral mesh\n"
           "checks (indices in range, finite coordinates, known surfaces).\n\n"
           "  --json                 machine-readable output\n\n"
           "Exit status: 0 no errors (warnings allowed), 5 errors found, 2 unreadable, 4 unknown format.\n\n");
    cli_print_mesh_options_help();
}

int cmd_validate(int argc, char **argv)
{
    cli_mesh_options o;
    const char *path;
    int json;
    int parsed = cli_parse_file_command(argc, argv, help, &o, &path, &json);
    if (parsed >= 0)
        return parsed;
    const char *from = o.from;
    wm_ctx ctx;
    cli_ctx_init(&ctx, json || o.quiet);
    int code = cli_mesh_options_apply(&o, &ctx);
    if (code)
        return code;
    const wm_format *format = NULL;
    if (from) {
        format = wm_format_by_name(from);
        if (!format) {
            cli_error("--from %s: no such format (see 'walkmesh formats')", from);
            code = EXIT_FORMAT;
            goto done;
        }
        if (!format->validate && !format->read) {
            cli_error("--from %s: that format cannot be read (see 'walkmesh formats')", from);
            code = EXIT_FORMAT;
            goto done;
        }
    } else if (strcmp(path, "-") != 0 && !wm_file_exists(path)) {
        cli_error("%s: no such file", path);
        code = EXIT_INPUT;
        goto done;
    }
    const wm_options opts = o.opts;
    wm_report report;
    wm_report_init(&report, &ctx);
    wm_result r = wm_validate_format(&ctx, path, from, &opts, &report, &format);
    if (r) {
        wm_report_free(&report);
        code = cli_fail(&ctx, r, 0);
        goto done;
    }
    if (json) {
        printf("{\"file\": ");
        json_string(stdout, path);
        printf(", \"format\": \"%s\", \"errors\": %u, \"warnings\": %u, \"facts\": ", format->name, report.errors,
               report.warnings);
        report_print_facts_json(stdout, &report);
        printf(", \"findings\": ");
        report_print_findings_json(stdout, &report);
        printf("}\n");
    } else {
        report_print_text(stdout, &report, "");
        printf("%s: %s: %u error%s, %u warning%s\n", path, report.errors ? "INVALID" : "valid", report.errors,
               report.errors == 1 ? "" : "s", report.warnings, report.warnings == 1 ? "" : "s");
    }
    code = report.errors ? EXIT_INVALID : EXIT_OK;
    wm_report_free(&report);
done:
    cli_mesh_options_free(&o, &ctx);
    return code;
}
