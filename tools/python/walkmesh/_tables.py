"""What a game file's own tables say about each triangle of the mesh read from it: NWN2 tiles
and islands (the toolset's decisions, not recomputable from geometry) and WoW WMO MOPY flags.
Arrays line up with walkmesh.read(path, **options).indices when given the same options."""
import ctypes
import os
from collections import namedtuple

from . import _mesh, _native
from ._context import Context, make_options
from ._game import _file_image

NO_TILE = NO_ISLAND = NO_MOPY = -1

Nwn2Triangles = namedtuple("Nwn2Triangles", "file_triangle tile island grid_width grid_height tile_width "
                                            "island_count")
Nwn2Triangles.__doc__ = """Per mesh triangle: file_triangle (its index in the file's walkmesh),
tile (row * grid_width + column; NO_TILE when no tile's range holds it) and island (NO_ISLAND:
none), as int32 arrays (lists without numpy); and the grid's size and the island count."""
WmoTriangles = namedtuple("WmoTriangles", "index flags material")
WmoTriangles.__doc__ = """Per mesh triangle: index (in its group file's triangles, the group being
the mesh triangle's object; NO_MOPY for a liquid tile's triangle), and that triangle's MOPY
flags and material (0x08 collision, 0x20 render, 0x04 detail...; material 0xFF collision only)."""


def _signed(pointer, count):
    """uint32 values as int32, so that 0xFFFFFFFF (none) reads -1."""
    return _mesh.array_out(pointer, count, ctypes.c_int32, "int32")


def nwn2_triangles(source, limits=None, **options):
    """The tile and island of every triangle of an NWN2 TRN/TRX (a path or its bytes), from the
    file's tile ranges and triangle records; options as for read (e.g. options={"walkable-only": True})."""
    data, name = _file_image(source)
    context = Context()
    opts, _keep = make_options(context, limits=limits, **options)
    tables = _native.Nwn2Triangles()
    try:
        context.check(_native.fn("wm_nwn2_triangles_read")(context.ref, data, len(data), os.fsencode(name),
                                                           ctypes.byref(opts), ctypes.byref(tables)))
        arrays = [_signed(getattr(tables, field), tables.count)
                  for field in ("file_triangle", "tile", "island")]
        return Nwn2Triangles(*arrays, tables.grid_width, tables.grid_height, tables.tile_width, tables.island_count)
    finally:
        _native.fn("wm_nwn2_triangles_free")(context.ref, ctypes.byref(tables))


def wmo_triangles(path, limits=None, **options):
    """The MOPY record of every triangle of a WMO root (with its groups) or group file; options as
    for read (e.g. options={"collision-rule": "all"})."""
    context = Context()
    opts, _keep = make_options(context, limits=limits, **options)
    tables = _native.WmoTriangles()
    try:
        context.check(_native.fn("wm_wmo_triangles_load")(context.ref, _native.encode_path(path), ctypes.byref(opts),
                                                          ctypes.byref(tables)))
        index = _signed(tables.index, tables.count)
        flags = _mesh.array_out(tables.flags, tables.count, ctypes.c_uint8, "uint8")
        material = _mesh.array_out(tables.material, tables.count, ctypes.c_uint8, "uint8")
        return WmoTriangles(index, flags, material)
    finally:
        _native.fn("wm_wmo_triangles_free")(context.ref, ctypes.byref(tables))
