"""What each game adds to the shared mesh in Blender: KotOR use hooks and header position as
empties, NWN2 tiles and islands (face attributes, an island colour attribute and a grid object),
WMO collision flags (face attributes and a colour attribute)."""
import math
import struct

import bpy
import numpy

from . import scene, walkmesh

KOTOR_EXTENSIONS = (".wok", ".pwk", ".dwk")
NWN2_EXTENSIONS = (".trx", ".trn")
# header floats at 0x0C (FORMAT-NOTES 1): rel hook 1, rel hook 2, abs hook 1, abs hook 2, position
HOOK_ROLES = (("use_hook_1", "hook1", 0), ("use_hook_2", "hook2", 3), ("position", "position", 12))


def kotor_header_floats(path):
    """The header's position and hooks, from a file or an archive member ("module.mod/x.pwk")."""
    return struct.unpack_from("<15f", walkmesh.file_bytes(path)[:72], 12)


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


def _face_ints(data, values):
    """Integer face attributes {name: one value per face} on a mesh."""
    for name, per_face in values.items():
        attribute = data.attributes.get(name) or data.attributes.new(name, "INT", "FACE")
        attribute.data.foreach_set("value", numpy.ascontiguousarray(per_face, dtype=numpy.int32))


def _face_colours(data, name, rgba):
    """A corner colour attribute giving each (triangle) face one colour."""
    colors = data.color_attributes.new(name, "BYTE_COLOR", "CORNER")
    colors.data.foreach_set("color", numpy.repeat(rgba, 3, axis=0).reshape(-1))


def add_nwn2_layers(mesh, path, obj, collection):
    """Tiles and islands on the imported object as the file stores them (the toolset's decisions:
    walkmesh.nwn2_triangles), islands coloured, and the tile grid drawn."""
    tables = walkmesh.nwn2_triangles(path)
    width, height, size = tables.grid_width, tables.grid_height, tables.tile_width
    island = tables.island
    data = obj.data
    _face_ints(data, {"wm_tile": tables.tile, "wm_island": island})
    hue = (island * 0.618034) % 1.0
    rgba = numpy.ones((len(island), 4), dtype=numpy.float32)
    rgba[:, 0] = 0.5 + 0.5 * numpy.cos(2 * math.pi * hue)
    rgba[:, 1] = 0.5 + 0.5 * numpy.cos(2 * math.pi * (hue - 1 / 3))
    rgba[:, 2] = 0.5 + 0.5 * numpy.cos(2 * math.pi * (hue - 2 / 3))
    rgba[island < 0] = (0.25, 0.25, 0.25, 1.0)
    _face_colours(data, "wm_islands", rgba)
    grid = bpy.data.meshes.new("tiles")
    lines = [((x * size, 0, 0), (x * size, height * size, 0)) for x in range(width + 1)]
    lines += [((0, y * size, 0), (width * size, y * size, 0)) for y in range(height + 1)]
    grid.from_pydata([p for line in lines for p in line], [(2 * i, 2 * i + 1) for i in range(len(lines))], [])
    grid_object = bpy.data.objects.new("tiles %dx%d of %g" % (width, height, size), grid)
    grid_object[scene.ROLE_PROP] = "tiles"
    grid_object.parent = obj
    grid_object.hide_select = True
    collection.objects.link(grid_object)


# MOPY flag bits (FORMAT-NOTES section 3) and how the collision colours show them
MOPY_FLAGS = ((0x01, "unknown 0x01"), (0x02, "no camera collide"), (0x04, "detail"), (0x08, "collision"),
              (0x10, "hint"), (0x20, "render"), (0x40, "cull objects"), (0x80, "collide hit"))
MOPY_FLAGS_ATTR, MOPY_MATERIAL_ATTR, MOPY_COLOURS = "wm_mopy_flags", "wm_mopy_material", "wm_collision_flags"


def mopy_colours(flags, material):
    """Red: flagged collision (0x08); orange: collides as rendered geometry (0x20 without 0x04);
    blue: material 0xFF (collision-only, not rendered); grey: does not collide."""
    flags = numpy.asarray(flags)
    rgba = numpy.tile(numpy.array([0.45, 0.45, 0.45, 1.0], dtype=numpy.float32), (len(flags), 1))
    rendered = ((flags & 0x20) != 0) & ((flags & 0x04) == 0)
    rgba[rendered] = (0.95, 0.55, 0.1, 1.0)
    rgba[numpy.asarray(material) == 0xFF] = (0.2, 0.45, 0.95, 1.0)
    rgba[(flags & 0x08) != 0] = (0.9, 0.15, 0.15, 1.0)
    return rgba


def _set_mopy(data, flags, material):
    _face_ints(data, {MOPY_FLAGS_ATTR: flags, MOPY_MATERIAL_ATTR: material})
    _face_colours(data, MOPY_COLOURS, mopy_colours(flags, material))


def add_wmo_layers(mesh, path, objects, collection):
    """WMO collision flags made visible: every imported face keeps its MOPY flags and material
    (face attributes, walkmesh.wmo_triangles) and a colour by why it collides; the triangles that
    do not collide under the server rule are added as one wireframe object, "no collision"
    (with their flags too), which export leaves out."""
    tables = walkmesh.wmo_triangles(path)
    for part, obj in enumerate(objects):
        chosen = mesh.objects == part
        _set_mopy(obj.data, tables.flags[chosen], tables.material[chosen])
    every = walkmesh.read(path, options={"collision-rule": "all"})
    every_tables = walkmesh.wmo_triangles(path, options={"collision-rule": "all"})
    colliding = set(zip(mesh.objects.tolist(), tables.index.tolist()))
    rest = numpy.array([key not in colliding for key in zip(every.objects.tolist(), every_tables.index.tolist())],
                       dtype=bool)
    if not rest.any():
        return None
    used, local = numpy.unique(every.indices[rest], return_inverse=True)
    data = bpy.data.meshes.new("no collision")
    data.from_pydata(every.positions[used].tolist(), [], local.reshape(-1, 3).tolist())
    _set_mopy(data, every_tables.flags[rest], every_tables.material[rest])
    obj = bpy.data.objects.new("no collision (%d)" % rest.sum(), data)
    obj[scene.ROLE_PROP] = "no_collision"
    obj.display_type = "WIRE"
    collection.objects.link(obj)
    return obj
