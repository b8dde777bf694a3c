"""The shared library: where it is found, the C structures it shares, and the one table of
every function this package calls (name, result type, argument types).

Functions are bound on first use, so a library older than the package still serves every
call it has; a call it lacks raises WalkmeshError (WM_ERR_UNSUPPORTED) naming the symbol.
"""
import ctypes
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_float, c_int, c_int32, c_int64,
                    c_size_t, c_uint, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

from .errors import Result, WalkmeshError

LIBRARY_ENV = "WALKMESH_LIBRARY"
if sys.platform == "win32":
    _NAMES = ("libwalkmesh.dll", "walkmesh.dll")
elif sys.platform == "darwin":
    _NAMES = ("libwalkmesh.dylib",)
else:
    _NAMES = ("libwalkmesh.so", "libwalkmesh.so.0")

WARN_FN = CFUNCTYPE(None, c_void_p, c_char_p)
PROGRESS_FN = CFUNCTYPE(None, c_void_p, c_char_p, c_uint32, c_uint32)


class Limits(Structure):
    _fields_ = [("max_bytes", c_uint64), ("max_triangles", c_uint64)]


class Allocator(Structure):
    _fields_ = [("realloc_fn", c_void_p), ("free_fn", c_void_p), ("user", c_void_p)]


class Ctx(Structure):
    _fields_ = [("message", c_char * 1024), ("warn", WARN_FN), ("warn_user", c_void_p),
                ("warning_count", c_uint), ("limits", Limits), ("alloc", Allocator),
                ("surfaces", c_void_p)]


MESH_MAX_POINTS = 8  # WM_MESH_MAX_POINTS


class MeshPoint(Structure):
    _fields_ = [("name", c_char * 32), ("xyz", c_float * 3)]


class Mesh(Structure):
    _fields_ = [("name", c_char * 128),
                ("positions", POINTER(c_float)), ("vertex_count", c_uint32), ("vertex_capacity", c_uint32),
                ("indices", POINTER(c_uint32)), ("surfaces", POINTER(c_uint16)),
                ("walkable", POINTER(c_uint8)), ("objects", POINTER(c_uint16)),
                ("transitions", POINTER(c_int32)),
                ("triangle_count", c_uint32), ("triangle_capacity", c_uint32),
                ("object_names", POINTER(c_char_p)), ("object_count", c_uint32),
                ("points", MeshPoint * MESH_MAX_POINTS), ("point_count", c_uint32)]


MAX_OPTIONS = 32


class GenerateConfig(Structure):  # wm_generate_config (formats/recast/wm_generate.h)
    _fields_ = [("agent_height", c_float), ("agent_radius", c_float), ("max_slope", c_float),
                ("max_climb", c_float), ("min_area", c_float), ("max_error", c_float), ("cell_size", c_float),
                ("cell_height", c_float), ("keep_fraction", c_float), ("detail", c_float),
                ("walkable_surface", c_uint16), ("blocking", c_int)]


class Input(Structure):
    _fields_ = [("data", POINTER(c_uint8)), ("size", c_size_t), ("name", c_char_p), ("path", c_char_p),
                ("owned", POINTER(c_uint8)), ("mapped", c_size_t), ("source", c_void_p)]


class Options(Structure):
    _fields_ = [("up", c_int), ("walkable_slope", c_float), ("weld_tolerance", c_float),
                ("base_path", c_char_p), ("source", POINTER(Input)), ("source_format", c_void_p),
                ("names", c_char_p * MAX_OPTIONS), ("values", c_char_p * MAX_OPTIONS), ("count", c_uint)]


class ReportItem(Structure):
    _fields_ = [("severity", c_int), ("key", c_char_p), ("value", c_char_p)]


class Report(Structure):
    _fields_ = [("items", POINTER(ReportItem)), ("count", c_uint32), ("capacity", c_uint32),
                ("errors", c_uint32), ("warnings", c_uint32), ("ctx", POINTER(Ctx)), ("status", c_int)]


class OptionDesc(Structure):
    _fields_ = [("name", c_char_p), ("arg", c_char_p), ("help", c_char_p)]


class Format(Structure):
    _fields_ = [("name", c_char_p), ("description", c_char_p), ("extensions", POINTER(c_char_p)),
                ("capabilities", c_uint), ("probe", c_void_p), ("read", c_void_p), ("write", c_void_p),
                ("validate", c_void_p), ("options", POINTER(OptionDesc))]


SURFACE_MAX_ALIASES = 8  # WM_SURFACE_MAX_ALIASES
SURFACE_MAX_CODES = 4  # WM_SURFACE_MAX_CODES
SURFACE_CODE_NONE = -1  # WM_SURFACE_CODE_NONE


class SurfaceCode(Structure):
    _fields_ = [("scheme", c_char * 16), ("value", c_int64)]


class Surface(Structure):
    _fields_ = [("name", c_char * 32), ("walkable", c_int), ("color", c_uint8 * 3),
                ("aliases", (c_char * 32) * SURFACE_MAX_ALIASES), ("alias_count", c_uint),
                ("codes", SurfaceCode * SURFACE_MAX_CODES), ("code_count", c_uint)]


class SurfaceTable(Structure):
    _fields_ = [("entries", POINTER(Surface)), ("count", c_uint32), ("fallback", c_uint16)]


class Buffer(Structure):
    _fields_ = [("data", POINTER(c_uint8)), ("size", c_size_t), ("capacity", c_size_t),
                ("ctx", POINTER(Ctx)), ("status", c_int)]


class BwmHit(Structure):
    _fields_ = [("found", c_int), ("face", c_uint32), ("material", c_uint32), ("t", c_float),
                ("point", c_float * 3)]


class BakeOptions(Structure):
    _fields_ = [("keep_borders", c_int), ("cut_whole_triangles", c_int), ("threads", c_uint),
                ("git", POINTER(c_uint8)), ("git_size", c_size_t), ("git_source", c_char_p),
                ("progress", PROGRESS_FN), ("progress_user", c_void_p)]


class BakeStats(Structure):
    _fields_ = [(name, c_uint32) for name in (
        "triangles", "walkable_triangles", "grid_width", "grid_height", "island_count", "max_tile_nodes",
        "border_removed", "split_added", "cut_removed", "cutter_count", "whole_cutters")] + [("kept_layout", c_int)]


class Route(Structure):
    _fields_ = [("start", c_uint32), ("goal", c_uint32), ("triangles", POINTER(c_uint32)),
                ("points", POINTER(c_float)), ("count", c_uint32), ("reached", c_int), ("failure", c_char * 160)]


class WalkRoute(Structure):  # wm_route (wm_route.h)
    _fields_ = [("points", POINTER(c_float)), ("count", c_uint32), ("length", c_double), ("plan_length", c_double),
                ("faces", POINTER(c_uint32)), ("face_count", c_uint32), ("start_face", c_uint32),
                ("goal_face", c_uint32), ("found", c_int)]


class WalkRouteOptions(Structure):
    _fields_ = [("from_has_z", c_int), ("to_has_z", c_int), ("radius", c_float)]


class WalkRegion(Structure):
    _fields_ = [("faces", c_uint32), ("area", c_double), ("point", c_float * 3), ("first_face", c_uint32),
                ("enclosed", c_int)]


class WalkReach(Structure):
    _fields_ = [("region_count", c_uint32), ("start_face", c_uint32), ("start_region", c_uint32),
                ("unreachable", POINTER(WalkRegion)), ("unreachable_count", c_uint32)]


class NavmeshConfig(Structure):  # wm_navmesh_config (formats/recast/wm_navmesh.h)
    _fields_ = [("cell_size", c_float), ("cell_height", c_float), ("agent_height", c_float),
                ("agent_radius", c_float), ("agent_climb", c_float), ("walkable_slope", c_float),
                ("steep_slope", c_float), ("ground_area", c_uint8), ("steep_area", c_uint8), ("tile_size", c_int),
                ("max_edge_length", c_float), ("max_simplification_error", c_float), ("min_region_size", c_int),
                ("merge_region_size", c_int), ("max_verts_per_poly", c_int), ("detail_sample_distance", c_float),
                ("detail_sample_max_error", c_float), ("steps", c_uint), ("region_method", c_int),
                ("use_walkable_flags", c_int), ("areas_by_surface", c_int),
                ("low_area", c_uint8), ("low_height", c_float)]


class Navmesh(Structure):  # wm_navmesh
    _fields_ = [("origin", c_float * 3), ("tile_width", c_float), ("tile_height", c_float), ("max_tiles", c_uint32),
                ("max_polys", c_uint32), ("tile_data", c_void_p), ("tile_data_size", c_uint64),
                ("tile_offsets", c_void_p), ("tile_count", c_uint32), ("poly_count", c_uint32), ("detour", c_void_p)]


class NavmeshQuery(Structure):  # wm_navmesh_query
    _fields_ = [("include_flags", c_uint16), ("search", c_float * 3)]


class Nwn2Triangles(Structure):
    _fields_ = [("count", c_uint32), ("file_triangle", POINTER(c_uint32)), ("tile", POINTER(c_uint32)),
                ("island", POINTER(c_uint32)), ("grid_width", c_uint32), ("grid_height", c_uint32),
                ("tile_width", c_float), ("island_count", c_uint32)]


class WmoTriangles(Structure):
    _fields_ = [("count", c_uint32), ("index", POINTER(c_uint32)), ("flags", POINTER(c_uint8)),
                ("material", POINTER(c_uint8))]


REALLOC_FN = CFUNCTYPE(c_void_p, c_void_p, c_void_p, c_size_t)  # wm_allocator
FREE_FN = CFUNCTYPE(None, c_void_p, c_void_p)

_R = c_int  # wm_result
_P = c_char_p
# Every C function the package calls: name -> (result type, argument types).
SYMBOLS = {
    "wm_version": (c_char_p, []),
    "wm_ctx_init": (None, [POINTER(Ctx)]),
    "wm_result_name": (c_char_p, [c_int]),
    "wm_options_init": (None, [POINTER(Options)]),
    "wm_option_set": (_R, [POINTER(Ctx), POINTER(Options), _P, _P]),
    "wm_mesh_init": (None, [POINTER(Mesh)]),
    "wm_mesh_free": (None, [POINTER(Ctx), POINTER(Mesh)]),
    "wm_mesh_validate": (_R, [POINTER(Ctx), POINTER(Mesh)]),
    "wm_mesh_walkable_from_slope": (None, [POINTER(Mesh), c_float]),
    "wm_report_init": (None, [POINTER(Report), POINTER(Ctx)]),
    "wm_report_free": (None, [POINTER(Report)]),
    "wm_formats": (POINTER(POINTER(Format)), [POINTER(c_size_t)]),
    "wm_format_by_name": (POINTER(Format), [_P]),
    "wm_surfaces_default": (POINTER(SurfaceTable), []),
    "wm_surface_from_name": (c_uint16, [POINTER(SurfaceTable), _P]),
    "wm_buffer_init": (None, [POINTER(Buffer), POINTER(Ctx)]),
    "wm_buffer_free": (None, [POINTER(Buffer)]),
    "wm_input_load": (_R, [POINTER(Ctx), _P, POINTER(Input)]),
    "wm_input_free": (None, [POINTER(Ctx), POINTER(Input)]),
    "wm_format_detect": (_R, [POINTER(Ctx), POINTER(Input), POINTER(c_void_p)]),
    "wm_file_write_atomic": (_R, [POINTER(Ctx), _P, c_void_p, c_size_t, c_int]),
    # the high-level calls (core/wm_pipeline.h)
    "wm_mesh_load": (_R, [POINTER(Ctx), _P, _P, POINTER(Options), POINTER(Mesh)]),
    "wm_mesh_load_memory": (_R, [POINTER(Ctx), c_void_p, c_size_t, _P, _P, POINTER(Options), POINTER(Mesh)]),
    "wm_mesh_save": (_R, [POINTER(Ctx), POINTER(Mesh), _P, _P, POINTER(Options), c_int]),
    "wm_convert": (_R, [POINTER(Ctx), _P, _P, _P, _P, POINTER(Options), c_int]),
    "wm_info": (_R, [POINTER(Ctx), _P, _P, POINTER(Options), POINTER(Mesh), POINTER(Report)]),
    "wm_validate": (_R, [POINTER(Ctx), _P, _P, POINTER(Options), POINTER(Report)]),
    # generation from render geometry (formats/recast/wm_generate.h)
    "wm_generate_config_game": (_R, [POINTER(Ctx), _P, POINTER(GenerateConfig)]),
    "wm_generate": (_R, [POINTER(Ctx), POINTER(Mesh), POINTER(GenerateConfig), POINTER(Mesh), c_void_p]),
    # KotOR queries (formats/bwm/wm_bwm.h)
    "wm_bwm_open": (_R, [POINTER(Ctx), c_void_p, c_size_t, _P, POINTER(c_void_p)]),
    "wm_bwm_close": (None, [POINTER(Ctx), c_void_p]),
    "wm_bwm_height_at": (_R, [POINTER(Ctx), c_void_p, c_float, c_float, c_float, POINTER(BwmHit)]),
    "wm_bwm_raycast": (_R, [POINTER(Ctx), c_void_p, c_float * 3, c_float * 3, POINTER(BwmHit)]),
    # NWN2 bake and routes (formats/nwn2/wm_nwn2.h)
    "wm_nwn2_bake_options_init": (None, [POINTER(BakeOptions)]),
    "wm_nwn2_bake": (_R, [POINTER(Ctx), c_void_p, c_size_t, _P, POINTER(BakeOptions), POINTER(Buffer),
                          POINTER(BakeStats)]),
    "wm_nwn2_route_find_file": (_R, [POINTER(Ctx), _P, c_float * 2, c_float * 2, POINTER(Route)]),
    "wm_nwn2_route_free": (None, [POINTER(Ctx), POINTER(Route)]),
    # routes and reach over walkable faces (wm_route.h)
    "wm_walk_graph_build": (_R, [POINTER(Ctx), POINTER(Mesh), c_int, POINTER(c_void_p)]),
    "wm_walk_graph_free": (None, [POINTER(Ctx), c_void_p]),
    "wm_walk_graph_add_landmarks": (_R, [POINTER(Ctx), c_void_p, c_uint32]),
    "wm_route_find": (_R, [POINTER(Ctx), c_void_p, POINTER(c_float), POINTER(c_float), POINTER(WalkRouteOptions),
                           POINTER(WalkRoute)]),
    "wm_route_free": (None, [POINTER(Ctx), POINTER(WalkRoute)]),
    "wm_reach_find": (_R, [POINTER(Ctx), c_void_p, POINTER(c_float), c_int, POINTER(WalkReach)]),
    "wm_reach_free": (None, [POINTER(Ctx), POINTER(WalkReach)]),
    "wm_walk_graph_triangle_count": (c_uint32, [c_void_p]),
    "wm_walk_graph_region": (c_uint32, [c_void_p, c_uint32]),
    # navmeshes through Detour (formats/recast/wm_navmesh.h)
    "wm_navmesh_init": (None, [POINTER(Navmesh)]),
    "wm_navmesh_free": (None, [POINTER(Ctx), POINTER(Navmesh)]),
    "wm_navmesh_load": (_R, [POINTER(Ctx), _P, POINTER(Navmesh)]),
    "wm_navmesh_config_preset": (_R, [POINTER(Ctx), _P, POINTER(NavmeshConfig)]),
    "wm_navmesh_build": (_R, [POINTER(Ctx), POINTER(Mesh), POINTER(NavmeshConfig), POINTER(Navmesh)]),
    "wm_navmesh_query_point": (None, [POINTER(NavmeshQuery), c_int, POINTER(c_float)]),
    "wm_navmesh_route": (_R, [POINTER(Ctx), POINTER(Navmesh), POINTER(NavmeshQuery), POINTER(c_float),
                              POINTER(c_float), POINTER(WalkRoute)]),
    "wm_navmesh_reach": (_R, [POINTER(Ctx), POINTER(Navmesh), POINTER(NavmeshQuery), POINTER(c_float),
                              POINTER(WalkReach)]),
    "wm_nwn2_triangles_read": (_R, [POINTER(Ctx), c_void_p, c_size_t, _P, POINTER(Options),
                                    POINTER(Nwn2Triangles)]),
    "wm_nwn2_triangles_free": (None, [POINTER(Ctx), POINTER(Nwn2Triangles)]),
    # WMO MOPY records (formats/wmo/wm_wmo.h)
    "wm_wmo_triangles_load": (_R, [POINTER(Ctx), _P, POINTER(Options), POINTER(WmoTriangles)]),
    "wm_wmo_triangles_free": (None, [POINTER(Ctx), POINTER(WmoTriangles)]),
    # pictures (formats/svg/wm_render.h)
    "wm_render_file": (_R, [POINTER(Ctx), _P, POINTER(Format), _P, POINTER(Options), c_int]),
}


def _candidates():
    explicit = os.environ.get(LIBRARY_ENV)
    if explicit:
        yield explicit
        return
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _NAMES:
        yield os.path.join(here, name)
    for name in _NAMES:
        yield name  # the system's search path (an installed libwalkmesh)


_library = None


def library():
    """The loaded shared library (loaded once)."""
    global _library
    if _library is not None:
        return _library
    tried = []
    for candidate in _candidates():
        if os.path.isabs(candidate) and not os.path.exists(candidate):
            tried.append(candidate)
            continue
        if sys.platform == "win32" and os.path.isabs(candidate):
            os.add_dll_directory(os.path.dirname(candidate))  # its Assimp and runtime DLLs
        try:
            _library = ctypes.CDLL(candidate)
            return _library
        except OSError as error:
            tried.append("%s (%s)" % (candidate, error))
    raise WalkmeshError(Result.IO, "the walkmesh library was not found; tried: %s (set %s to its path)"
                        % ("; ".join(tried), LIBRARY_ENV))


_bound = {}


def fn(name):
    """The C function `name` with its prototype from SYMBOLS, bound on first use."""
    bound = _bound.get(name)
    if bound is not None:
        return bound
    restype, argtypes = SYMBOLS[name]
    try:
        bound = getattr(library(), name)
    except AttributeError:
        raise WalkmeshError(Result.UNSUPPORTED, "this walkmesh library (%s) has no %s: it is older than the "
                            "Python package" % (version(), name)) from None
    bound.restype = restype
    bound.argtypes = argtypes
    _bound[name] = bound
    return bound


def has(name):
    """Whether the loaded library offers the C function `name`."""
    return hasattr(library(), name)


def version():
    return fn("wm_version")().decode()


def encode_path(path, optional=False):
    """A path (str, bytes or os.PathLike) as the library takes it: UTF-8 on Windows, the file
    system's bytes elsewhere. None is a TypeError unless optional (then it stays None); an
    embedded NUL is a ValueError, as Python's os calls give: C would cut the path there."""
    if path is None:
        if optional:
            return None
        raise TypeError("expected a path (str, bytes or os.PathLike), not None")
    path = os.fspath(path)
    if not isinstance(path, bytes):
        path = path.encode("utf-8") if sys.platform == "win32" else os.fsencode(path)
    return checked_text(path, "path")


def checked_text(value, what):
    """bytes for a C string: a NUL inside would end it early."""
    if b"\0" in value:
        raise ValueError("%s: embedded null byte" % what)
    return value


def encode_text(value, what, optional=True):
    """A str (a format or surface name, an option value) as UTF-8 for C; None stays None when
    optional; anything else is a TypeError."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError("%s: expected a str, not %s" % (what, type(value).__name__))
    return checked_text(value.encode("utf-8"), what)


def text(value):
    return None if value is None else value.decode("utf-8", "replace")
