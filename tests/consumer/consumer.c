/* A program using walkmesh the way another project would (built by
 * library_consumers.cmake through find_package, pkg-config and add_subdirectory):
 * prints the library version and the triangle count of the file given. */
#include <stdio.h>
#include <string.h>
#include <walkmesh.h>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 1;
    if (strcmp(wm_version(), WALKMESH_VERSION) != 0) {
        fprintf(stderr, "library %s, headers %s\n", wm_version(), WALKMESH_VERSION);
        return 3;
    }
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh mesh;
    if (wm_mesh_load(&ctx, argv[1], NULL, NULL, &mesh)) {
        fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
        return 2;
    }
    printf("%d.%d.%d %u\n", WALKMESH_VERSION_MAJOR, WALKMESH_VERSION_MINOR, WALKMESH_VERSION_PATCH,
           mesh.triangle_count);
    wm_mesh_free(&ctx, &mesh);
    return 0;
}
