/* Replays every file of the given folders through the fuzz target, so the
 * crashers libFuzzer found stay fixed in the ordinary (sanitized) test run. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    size_t got = size > 0 ? fread(data, 1, (size_t)size, f) : 0;
    fclose(f);
    LLVMFuzzerTestOneInput(data, got);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int replayed = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            fprintf(stderr, "%s: not a folder of inputs\n", argv[i]);
            return 1;
        }
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (entry->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], entry->d_name);
            struct stat st;
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            failed += replay_file(path);
            replayed++;
        }
        closedir(dir);
    }
    printf("%d passed, %d failed\n", replayed - failed, failed);
    return failed != 0 || replayed == 0;
}
