"""The neutral walkmesh as Python sees it, and its passage to and from the C wm_mesh.

With numpy the arrays are numpy arrays (positions (V,3) float32, indices (T,3) uint32,
surfaces (T,) uint16, walkable (T,) uint8, objects (T,) uint16, transitions (T,3) int32) and a
mesh is handed to the library without copying; without numpy they are lists (of 3-tuples for
positions, indices and transitions).
"""
import ctypes
import os
from ctypes import POINTER, c_char_p, c_float, c_int32, c_uint8, c_uint16, c_uint32

from . import _native
from .errors import Result, WalkmeshError

try:
    import numpy
except ImportError:  # plain sequences then
    numpy = None
if os.environ.get("WALKMESH_PYTHON_NO_NUMPY"):  # plain sequences even where numpy is installed
    numpy = None

NO_TRANSITION = -1
STONE, NONWALK = 4, 7  # the slope classification's surfaces (core/surfaces.txt)

# attribute -> (ctypes element, numpy dtype, values per row, rows counted by)
_LAYOUT = {
    "positions": (c_float, "float32", 3, "vertex_count"),
    "indices": (c_uint32, "uint32", 3, "triangle_count"),
    "surfaces": (c_uint16, "uint16", 1, "triangle_count"),
    "walkable": (c_uint8, "uint8", 1, "triangle_count"),
    "objects": (c_uint16, "uint16", 1, "triangle_count"),
    "transitions": (c_int32, "int32", 3, "triangle_count"),
}


class Mesh:
    """A triangle soup in Z-up game units: per triangle a surface id, a walkable bit and an object,
    per triangle edge (edge e runs from corner e to corner e+1) a transition (-1: none).

    Only positions and indices are required. Surfaces may be ids or names ("grass"); without them
    faces are classified by slope as the library does (stone up to 45 degrees, else nonwalk).
    Without walkable bits each face takes its surface's default. `warnings` holds the library's
    warnings from the call that made the mesh."""

    def __init__(self, positions, indices, surfaces=None, walkable=None, objects=None, transitions=None,
                 object_names=None, name=""):
        self.positions = positions
        self.indices = indices
        self.surfaces = surfaces
        self.walkable = walkable
        self.objects = objects
        self.transitions = transitions
        self.object_names = list(object_names) if object_names is not None else None
        self.name = name
        self.warnings = []

    @property
    def vertex_count(self):
        return len(self.positions)

    @property
    def triangle_count(self):
        return len(self.indices)

    def __repr__(self):
        return "<walkmesh.Mesh %r: %d vertices, %d triangles>" % (self.name, self.vertex_count, self.triangle_count)


def array_out(pointer, total, ctype, dtype):
    """A copy of total C values: a numpy array of dtype, else a list."""
    if numpy is not None:
        if not total:
            return numpy.zeros(total, dtype=dtype)
        return numpy.ctypeslib.as_array(ctypes.cast(pointer, POINTER(ctype)), shape=(total,)).copy()
    return list(ctypes.cast(pointer, POINTER(ctype))[:total]) if total else []


def _copy_out(pointer, count, attribute):
    ctype, dtype, width, _ = _LAYOUT[attribute]
    total = count * width
    values = array_out(pointer, total, ctype, dtype)
    if width != 3:
        return values
    if numpy is not None:
        return values.reshape(-1, 3)
    return [tuple(values[i:i + 3]) for i in range(0, total, 3)]


def from_c(cmesh):
    """A Mesh holding copies of the C mesh's arrays (the C mesh is left to its owner to free)."""
    arrays = {}
    for attribute, (_, _, _, counted_by) in _LAYOUT.items():
        arrays[attribute] = _copy_out(getattr(cmesh, attribute), getattr(cmesh, counted_by), attribute)
    names = [_native.text(cmesh.object_names[i]) for i in range(cmesh.object_count)]
    return Mesh(object_names=names, name=_native.text(cmesh.name), **arrays)


def _flat_plain(values, attribute, rows):
    ctype, _, width, _ = _LAYOUT[attribute]
    flat = []
    for row in values:
        if width == 3:
            if len(row) != 3:
                raise WalkmeshError(Result.INVALID, "%s: every row needs 3 values, not %d" % (attribute, len(row)))
            flat.extend(row)
        else:
            flat.append(row)
    if len(flat) != rows * width:
        raise WalkmeshError(Result.INVALID, "%s: %d rows for %d %s" % (attribute, len(flat) // width, rows,
                                                                         "vertices" if attribute == "positions"
                                                                         else "triangles"))
    try:
        return (ctype * len(flat))(*flat)
    except TypeError as error:
        raise WalkmeshError(Result.INVALID, "%s: %s" % (attribute, error)) from None


def _flat_numpy(values, attribute, rows):
    ctype, dtype, width, _ = _LAYOUT[attribute]
    try:
        array = numpy.asarray(values)
    except ValueError as error:
        raise WalkmeshError(Result.INVALID, "%s: %s" % (attribute, error)) from None
    if array.dtype.kind not in "biuf":
        raise WalkmeshError(Result.INVALID, "%s: numbers expected, not %s" % (attribute, array.dtype))
    if array.size != rows * width or (width == 3 and array.ndim == 2 and array.shape[1] != 3):
        raise WalkmeshError(Result.INVALID, "%s: shape %s does not fit %d rows of %d" % (attribute, array.shape,
                                                                                        rows, width))
    array = numpy.ascontiguousarray(array, dtype=dtype).reshape(-1)
    return array, array.ctypes.data_as(POINTER(ctype))


def _rows(values, attribute):
    width = _LAYOUT[attribute][2]
    if numpy is not None and not isinstance(values, (list, tuple)):
        array = numpy.asarray(values)
        return array.size // width if array.ndim == 1 else len(array)
    return len(values)


def _surface_ids(surfaces, rows):
    """Surface names become ids through the library's table; ids pass through."""
    table = _native.fn("wm_surfaces_default")()
    lookup = _native.fn("wm_surface_from_name")

    def by_name(name):
        surface = lookup(table, name.encode("utf-8"))
        if surface == 0xFFFF:
            raise WalkmeshError(Result.INVALID, "surfaces: %r names no surface" % name)
        return surface
    if numpy is not None and not isinstance(surfaces, (list, tuple)):
        array = numpy.asarray(surfaces)
        if array.dtype.kind in "UO":
            names, inverse = numpy.unique(array, return_inverse=True)
            return numpy.array([by_name(str(n)) for n in names], dtype="uint16")[inverse]
        return array
    return [by_name(s) if isinstance(s, str) else s for s in surfaces]


class CMesh:
    """A wm_mesh whose arrays point at the Python mesh's memory (numpy) or at ctypes copies; it
    owns nothing the library must free and lives as long as this object."""

    def __init__(self, mesh):
        vertices = _rows(mesh.positions, "positions")
        triangles = _rows(mesh.indices, "indices")
        self.struct = _native.Mesh()
        self._keep = []
        self.struct.name = (mesh.name or "").encode("utf-8")[:127]
        self.struct.vertex_count = self.struct.vertex_capacity = vertices
        self.struct.triangle_count = self.struct.triangle_capacity = triangles
        self._set("positions", mesh.positions, vertices)
        self._set("indices", mesh.indices, triangles)
        self._set("objects", mesh.objects if mesh.objects is not None else self._fill(triangles, 0), triangles)
        transitions = mesh.transitions if mesh.transitions is not None else self._fill(triangles, NO_TRANSITION, 3)
        self._set("transitions", transitions, triangles)
        self._set_surfaces(mesh, triangles)
        names = mesh.object_names or [mesh.name or "walkmesh"]
        encoded = (c_char_p * len(names))(*[n.encode("utf-8") for n in names])
        self._keep.append(encoded)
        self.struct.object_names = encoded
        self.struct.object_count = len(names) if triangles else 0
        self._check(triangles, len(names))

    @staticmethod
    def _fill(count, value, width=1):
        if numpy is not None:
            return numpy.full((count, width) if width > 1 else count, value)
        return [(value,) * width if width > 1 else value] * count

    def _set(self, attribute, values, rows):
        if numpy is not None:
            array, pointer = _flat_numpy(values, attribute, rows)
        else:
            array = _flat_plain(values, attribute, rows)
            pointer = ctypes.cast(array, POINTER(_LAYOUT[attribute][0]))
        self._keep.append(array)
        setattr(self.struct, attribute, pointer)
        return array

    def _set_surfaces(self, mesh, triangles):
        if mesh.surfaces is None:  # the library's slope rule: stone up to 45 degrees, else nonwalk
            walkable = self._set("walkable", self._fill(triangles, 0), triangles)
            surfaces = self._set("surfaces", self._fill(triangles, STONE), triangles)
            _native.fn("wm_mesh_walkable_from_slope")(ctypes.byref(self.struct), 45.0)
            if numpy is not None:
                surfaces[:] = numpy.where(walkable != 0, STONE, NONWALK)
            else:
                for t in range(triangles):
                    surfaces[t] = STONE if walkable[t] else NONWALK
            return
        surfaces = self._set("surfaces", _surface_ids(mesh.surfaces, triangles), triangles)
        if mesh.walkable is not None:
            self._set("walkable", mesh.walkable, triangles)
            return
        table = _native.fn("wm_surfaces_default")().contents
        defaults = [table.entries[i].walkable for i in range(table.count)]
        if numpy is not None:
            default = numpy.array(defaults + [0], dtype="uint8")
            self._set("walkable", default[numpy.minimum(surfaces, len(defaults))], triangles)
        else:
            self._set("walkable", [defaults[s] if s < len(defaults) else 0 for s in surfaces], triangles)

    def _check(self, triangles, names):
        objects = self._keep[2]
        top = (int(objects.max()) if triangles else 0) if numpy is not None else max(objects, default=0)
        if triangles and top >= names:
            raise WalkmeshError(Result.INVALID, "objects: index %d but only %d object name(s)" % (top, names))
