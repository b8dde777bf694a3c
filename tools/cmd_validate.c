/* walkmesh validate: every invariant a file's format module knows, per file. */
#include "cli.h"
#include "report_print.h"

static const cli_spec validate_spec = {
    .name = "validate",
    .features = CLI_RESULTS | CLI_MESH | CLI_MANY | CLI_ARCHIVES,
    .usage = "Usage: walkmesh validate FILE... [--json] [options]\n\n"
             "Checks each FILE against every invariant its format module knows (see the README section\n"
             "of each format) and lists each finding with its location. Errors break the file for the\n"
             "game; warnings are quirks real files show. Formats without their own checks get the\n"
             "neutral mesh checks (indices in range, finite coordinates, known surfaces). With --json,\n"
             "one object per file (an array for several files). An archive (.mod, .erf, .hak, .rim,\n"
             "chitin.key) stands for every walkmesh in it; ARCHIVE/member names one.\n",
    .footer = "Exit status: 0 no errors (warnings allowed), 5 errors found, 1 usage, 2 unreadable,\n"
              "4 unknown format.\n",
    .min_inputs = 1,
};

static void print_report(const cli_args *args, const char *path, const wm_format *format, const wm_report *report,
                         wm_buffer *out)
{
    if (args->json) {
        wm_put_text(out, "{\"file\": ");
        wm_put_json_string(out, path);
        wm_put_text(out, ", \"format\": \"%s\", \"errors\": %u, \"warnings\": %u, \"facts\": ",
                    format ? format->name : "detected",
                    report->errors, report->warnings);
        report_print_facts_json(out, report);
        wm_put_text(out, ", \"findings\": ");
        report_print_findings_json(out, report);
        wm_put_text(out, "}\n");
        return;
    }
    report_print_text(out, report, "");
    wm_put_text(out, "%s: %s: %u error%s, %u warning%s\n", path, report->errors ? "INVALID" : "valid", report->errors,
                report->errors == 1 ? "" : "s", report->warnings, report->warnings == 1 ? "" : "s");
}

static int validate_one(void *user, int index, wm_ctx *ctx, wm_buffer *out)
{
    const cli_args *args = user;
    const char *path = args->inputs[index];
    const wm_format *format = NULL;
    wm_report report;
    wm_report_init(&report, ctx);
    wm_result r = wm_validate_format(ctx, path, args->mesh.from, &args->mesh.opts, &report, &format);
    if (r) {
        wm_report_free(&report);
        return cli_exit_code(r, 0);
    }
    print_report(args, path, format, &report, out);
    int code = report.errors ? EXIT_INVALID : EXIT_OK;
    if (code)
        wm_error(ctx, WM_ERR_INVALID, "%s: %u error%s found", path, report.errors, report.errors == 1 ? "" : "s");
    wm_report_free(&report);
    return code;
}

int cmd_validate(int argc, char **argv)
{
    return cli_run_over_inputs(&validate_spec, argc, argv, validate_one);
}
