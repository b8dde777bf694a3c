"""What each game adds to the shared mesh in Blender: KotOR use hooks and header position as
empties, NWN2 tiles and islands (face attributes, an island colour attribute and a grid object)."""
import math
import re
import struct

import bpy
import numpy

from . import scene, walkmesh

KOTOR_EXTENSIONS = (".wok", ".pwk", ".dwk")
NWN2_EXTENSIONS = (".trx", ".trn")
# header floats at 0x0C (FORMAT-NOTES 1): rel hook 1, rel hook 2, abs hook 1, abs hook 2, position
HOOK_ROLES = (("use_hook_1", "hook1", 0), ("use_hook_2", "hook2", 3), ("position", "position", 12))


def kotor_header_floats(path):
    with open(path, "rb") as handle:
        head = handle.read(72)
    return struct.unpack_from("<15f", head, 12)


def add_kotor_empties(path, parent, collection):
    """Use hooks and header position as empties (children of the walkmesh object); each keeps
    the value read so an unmoved empty exports the file's exact float."""
    floats = kotor_header_floats(path)
    for role, _, at in HOOK_ROLES:
        empty = bpy.data.objects.new(role, None)
        empty.empty_display_type = "SINGLE_ARROW" if role.startswith("use") else "PLAIN_AXES"
        empty.empty_display_size = 0.5
        empty.location = floats[at:at + 3]
        empty[scene.ROLE_PROP] = role
        empty["walkmesh_read"] = list(floats[at:at + 3])
        empty.parent = parent
        collection.objects.link(empty)


def kotor_options(objects):
    """Module options for the hooks and position of empties moved since import (or added)."""
    options = {}
    for obj in objects:
        for child in obj.children:
            role = child.get(scene.ROLE_PROP)
            match = [r for r in HOOK_ROLES if r[0] == role]
            if not match:
                continue
            where = child.matrix_world.translation
            value = numpy.array(where, dtype=numpy.float32)
            read = child.get("walkmesh_read")
            if read is not None and numpy.array_equal(value, numpy.array(read, dtype=numpy.float32)):
                continue
            options[match[0][1]] = "%r,%r,%r" % tuple(float(v) for v in value)
    return options


def nwn2_grid(path):
    """(width, height, tile size) of the file's tile grid, from `info`."""
    report = walkmesh.info(path)
    found = re.match(r"(\d+)x(\d+) tiles of ([0-9.]+)", report["grid"])
    return int(found.group(1)), int(found.group(2)), float(found.group(3))


def tiles_and_islands(mesh, width, height, size):
    """Per triangle its tile (by centre, row-major from the south-west) and island (connected
    walkable triangles inside a tile; -1 for blocking ones)."""
    centre = mesh.positions[mesh.indices].mean(axis=1)
    column = numpy.clip(numpy.floor(centre[:, 0] / size), 0, width - 1).astype(numpy.int64)
    row = numpy.clip(numpy.floor(centre[:, 1] / size), 0, height - 1).astype(numpy.int64)
    tile = (row * width + column).astype(numpy.int32)
    parent = numpy.arange(len(tile))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    first = {}
    walkable = mesh.walkable != 0
    for t in numpy.nonzero(walkable)[0]:
        for k in range(3):
            a, b = sorted((int(mesh.indices[t, k]), int(mesh.indices[t, (k + 1) % 3])))
            other = first.setdefault((a, b), t)
            if other != t and tile[other] == tile[t]:
                parent[root(t)] = root(other)
    roots = numpy.array([root(i) for i in range(len(tile))])
    _, island = numpy.unique(roots, return_inverse=True)
    island = numpy.where(walkable, island, -1).astype(numpy.int32)
    return tile, island


def add_nwn2_layers(mesh, path, obj, collection):
    """Tiles and islands on the imported object, islands coloured, and the tile grid drawn."""
    width, height, size = nwn2_grid(path)
    tile, island = tiles_and_islands(mesh, width, height, size)
    data = obj.data
    for name, values in (("wm_tile", tile), ("wm_island", island)):
        attribute = data.attributes.new(name, "INT", "FACE")
        attribute.data.foreach_set("value", values)
    colors = data.color_attributes.new("wm_islands", "BYTE_COLOR", "CORNER")
    hue = (island * 0.618034) % 1.0
    rgba = numpy.ones((len(island), 4), dtype=numpy.float32)
    rgba[:, 0] = 0.5 + 0.5 * numpy.cos(2 * math.pi * hue)
    rgba[:, 1] = 0.5 + 0.5 * numpy.cos(2 * math.pi * (hue - 1 / 3))
    rgba[:, 2] = 0.5 + 0.5 * numpy.cos(2 * math.pi * (hue - 2 / 3))
    rgba[island < 0] = (0.25, 0.25, 0.25, 1.0)
    colors.data.foreach_set("color", numpy.repeat(rgba, 3, axis=0).reshape(-1))
    grid = bpy.data.meshes.new("tiles")
    lines = [((x * size, 0, 0), (x * size, height * size, 0)) for x in range(width + 1)]
    lines += [((0, y * size, 0), (width * size, y * size, 0)) for y in range(height + 1)]
    grid.from_pydata([p for line in lines for p in line], [(2 * i, 2 * i + 1) for i in range(len(lines))], [])
    grid_object = bpy.data.objects.new("tiles %dx%d of %g" % (width, height, size), grid)
    grid_object[scene.ROLE_PROP] = "tiles"
    grid_object.parent = obj
    grid_object.hide_select = True
    collection.objects.link(grid_object)


def _triangle_keys(mesh):
    corners = numpy.sort(mesh.positions[mesh.indices].round(4).reshape(-1, 3, 3), axis=1)
    return [c.tobytes() for c in corners]


def add_wmo_render_only(mesh, path, collection):
    """WMO collision flags made visible: the imported objects hold the triangles that collide
    (the server extractors' rule on the MOPY flags); the triangles that do not are added as one
    wireframe object, "no collision", which export leaves out."""
    every = walkmesh.read(path, options={"collision-rule": "all"})
    colliding = set(_triangle_keys(mesh))
    rest = numpy.array([k not in colliding for k in _triangle_keys(every)], dtype=bool)
    if not rest.any():
        return None
    used, local = numpy.unique(every.indices[rest], return_inverse=True)
    data = bpy.data.meshes.new("no collision")
    data.from_pydata(every.positions[used].tolist(), [], local.reshape(-1, 3).tolist())
    obj = bpy.data.objects.new("no collision (%d)" % rest.sum(), data)
    obj[scene.ROLE_PROP] = "no_collision"
    obj.display_type = "WIRE"
    collection.objects.link(obj)
    return obj
