#include "cli.h"

#include <stdio.h>

int cmd_formats(int argc, char **argv)
{
    if (argc > 1) {
        if (cli_is_help(argv[1])) {
            printf("Usage: walkmesh formats\n\nLists every format module: its name (for --from/--to), what it\n"
                   "reads and writes, its extensions and whether it offers validate.\n");
            return EXIT_OK;
        }
        cli_error("formats takes no arguments (see 'walkmesh formats --help')");
        return EXIT_USAGE;
    }
    size_t count;
    const wm_format *const *formats = wm_formats(&count);
    printf("%-8s %-5s %-5s %-8s %s\n", "name", "read", "write", "validate", "extensions / description");
    for (size_t i = 0; i < count; i++) {
        const wm_format *f = formats[i];
        printf("%-8s %-5s %-5s %-8s ", f->name, f->read ? "yes" : "no", f->write ? "yes" : "no",
               f->validate ? "yes" : "no");
        for (const char *const *e = f->extensions; e && *e; e++)
            printf("%s.%s", e == f->extensions ? "" : " ", *e);
        printf("\n         %s\n", f->description);
    }
    return EXIT_OK;
}
