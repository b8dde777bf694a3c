"""The library beside the Python package finds the navmesh module (walkmesh-recast) beside
itself, as the CLI does beside the program: a navmesh is built through the package's own
library (raw calls: the package has no navmesh wrapper yet)."""
import ctypes
import os
import unittest

from walkmesh import _native

SAMPLES = os.environ.get("WALKMESH_SAMPLES", "")
WM_ERR_UNSUPPORTED = 6
POLY_COUNT_OFFSET = 60  # wm_navmesh: 5 floats, 2 u32, a pointer, a u64, a pointer, tile_count, poly_count


class NavmeshModuleTest(unittest.TestCase):
    def test_package_library_loads_the_module_beside_it(self):
        lib = ctypes.CDLL(_native.library()._name)  # its own function objects: the package's have argtypes
        folder = os.path.dirname(lib._name) if os.path.isabs(lib._name) else ""
        module_there = any(n.startswith("walkmesh-recast") for n in os.listdir(folder)) if folder else False
        ctx, mesh = ctypes.create_string_buffer(8192), ctypes.create_string_buffer(8192)
        config, navmesh = ctypes.create_string_buffer(512), ctypes.create_string_buffer(512)
        lib.wm_ctx_init(ctx)
        sample = os.path.join(SAMPLES, "courtyard.obj").encode()
        self.assertEqual(lib.wm_mesh_load(ctx, sample, None, None, mesh), 0, ctx.value)
        lib.wm_navmesh_config_recast(config)
        result = lib.wm_navmesh_build(ctx, mesh, config, navmesh)
        if result == WM_ERR_UNSUPPORTED and not module_there:
            self.skipTest("built without Recast/Detour: %s" % ctx.value.decode())
        self.assertTrue(module_there, "no walkmesh-recast module beside %s" % lib._name)
        self.assertEqual(result, 0, ctx.value)
        polygons = ctypes.c_uint32.from_buffer(navmesh, POLY_COUNT_OFFSET).value
        self.assertGreater(polygons, 0)
        lib.wm_navmesh_free(ctx, navmesh)
        lib.wm_mesh_free(ctx, mesh)


if __name__ == "__main__":
    unittest.main()
