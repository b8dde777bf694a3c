/* Built against an installed walkmesh through pkg-config by install_check.cmake:
 * prints the triangle count of the file given. */
#include <stdio.h>
#include <walkmesh.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 1;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const wm_format *format;
    wm_mesh mesh;
    if (wm_format_detect(&ctx, argv[1], &format) || format->read(&ctx, argv[1], NULL, &mesh)) {
        fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
        return 2;
    }
    printf("%u\n", mesh.triangle_count);
    wm_mesh_free(&ctx, &mesh);
    return 0;
}
