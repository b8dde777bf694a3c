#include "cli.h"

#include <stdio.h>
#include <string.h>

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
    int width = 4;
    for (size_t i = 0; i < count; i++)
        if ((int)strlen(formats[i]->name) > width)
            width = (int)strlen(formats[i]->name);
    printf("%-*s %-5s %-5s %-8s %s\n", width, "name", "read", "write", "validate", "extensions / description");
    for (size_t i = 0; i < count; i++) {
        const wm_format *f = formats[i];
        printf("%-*s %-5s %-5s %-8s ", width, f->name, f->read ? "yes" : "no", f->write ? "yes" : "no",
               f->validate ? "yes" : "no");
        for (const char *const *e = f->extensions; e && *e; e++)
            printf("%s.%s", e == f->extensions ? "" : " ", *e);
        printf("\n%*s %s\n", width, "", f->description);
    }
    return EXIT_OK;
}
