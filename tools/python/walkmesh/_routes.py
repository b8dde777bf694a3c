"""Routes and reach over a walkmesh's walkable faces (wm_route.h): the shortest route between two
points, and the walkable regions a point cannot reach. The source is a file path (a KotOR .wok,
a .lyt area, an NWN2 .trn/.trx...) or a Mesh; a .navmesh, or a collision mesh (WMO, OBJ ...) of
which Recast builds one, is asked through Detour (wm_navmesh.h)."""
import ctypes
import math
import os
from collections import namedtuple

from . import _mesh, _native
from ._context import Context, Source
from .errors import Result, WalkmeshError

Path = namedtuple("Path", "length plan_length points faces")
Region = namedtuple("Region", "faces area point first_face enclosed")
Reach = namedtuple("Reach", "regions start_face unreachable face_regions start_region")
NO_REGION = 0xFFFFFFFF
IS_WALKMESH = 1 << 1  # WM_IS_WALKMESH (wm_format.h)


def _point(value, what):
    """(x, y, z, has_z) of a point given as 2 or 3 numbers; TypeError for anything else."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) not in (2, 3):
        raise TypeError("%s: expected (x, y) or (x, y, z), not %r" % (what, value))
    try:
        numbers = [float(v) for v in value]
    except (TypeError, ValueError):
        raise TypeError("%s: expected numbers, not %r" % (what, value)) from None
    return (ctypes.c_float * 3)(*(numbers + [0.0])[:3]), len(numbers) == 3


def _is_navmesh_file(source):
    return os.fsdecode(source).endswith(".navmesh")


def _is_walkmesh(context, path):
    """Whether the file's format holds a game's own walkable ground (else: a collision mesh)."""
    source = Source(context, path)
    if not source.format:
        return True  # no module reads it: loading it says why
    return bool(ctypes.cast(source.format, ctypes.POINTER(_native.Format)).contents.capabilities & IS_WALKMESH)


def _navmesh_of(context, source, preset):
    """A .navmesh file, or one Recast builds of a collision mesh with the preset's parameters."""
    navmesh = _native.Navmesh()
    _native.fn("wm_navmesh_init")(ctypes.byref(navmesh))
    path = _native.encode_path(source)
    if _is_navmesh_file(source):
        context.check(_native.fn("wm_navmesh_load")(context.ref, path, ctypes.byref(navmesh)))
        return navmesh
    config = _native.NavmeshConfig()
    context.check(_native.fn("wm_navmesh_config_preset")(context.ref, _native.encode_text(preset, "preset"),
                                                          ctypes.byref(config)))
    mesh = _native.Mesh()
    _native.fn("wm_mesh_init")(ctypes.byref(mesh))
    try:
        context.check(_native.fn("wm_mesh_load")(context.ref, path, None, None, ctypes.byref(mesh)))
        context.check(_native.fn("wm_navmesh_build")(context.ref, ctypes.byref(mesh), ctypes.byref(config),
                                                     ctypes.byref(navmesh)))
    finally:
        _native.fn("wm_mesh_free")(context.ref, ctypes.byref(mesh))
    return navmesh


def _query(points):
    """Detour's search box: points without a Z are raised high and searched all the way down, so
    the nearest polygon is the highest floor under them (wm_navmesh_query_point, as the CLI)."""
    query = _native.NavmeshQuery()
    for point, has_z in points:
        _native.fn("wm_navmesh_query_point")(ctypes.byref(query), int(bool(has_z)), point)
    return query


def _with_ground(source, limits, preset, on_graph, on_navmesh):
    """on_graph(context, graph) over a walkmesh's walk graph (a path or a Mesh), or
    on_navmesh(context, navmesh) over a .navmesh or a collision mesh's navmesh."""
    if source is None or not (isinstance(source, (str, bytes, os.PathLike, _mesh.Mesh))):
        raise TypeError("source: expected a file path or a Mesh, not %r" % (source,))
    if not isinstance(source, _mesh.Mesh):
        context = Context(limits)
        _native.encode_path(source)  # a NUL inside: ValueError first
        if _is_navmesh_file(source) or not _is_walkmesh(context, source):
            navmesh = _navmesh_of(context, source, preset)
            try:
                return on_navmesh(context, navmesh)
            finally:
                _native.fn("wm_navmesh_free")(context.ref, ctypes.byref(navmesh))
    return _with_graph(source, limits, on_graph)


def _with_graph(source, limits, call):
    """Runs call(context, graph) on the walk graph of source (a path or a Mesh)."""
    context = Context(limits)
    graph = ctypes.c_void_p()
    if isinstance(source, _mesh.Mesh):
        cmesh = _mesh.CMesh(source)
        context.check(_native.fn("wm_walk_graph_build")(context.ref, ctypes.byref(cmesh.struct), 1,
                                                        ctypes.byref(graph)))
    else:
        path = _native.encode_path(source)  # a NUL inside: ValueError, as the package's other calls
        loaded = _native.Mesh()
        _native.fn("wm_mesh_init")(ctypes.byref(loaded))
        try:
            context.check(_native.fn("wm_mesh_load")(context.ref, path, None, None, ctypes.byref(loaded)))
            context.check(_native.fn("wm_walk_graph_build")(context.ref, ctypes.byref(loaded), 1, ctypes.byref(graph)))
        finally:
            _native.fn("wm_mesh_free")(context.ref, ctypes.byref(loaded))
    try:
        return call(context, graph)
    finally:
        _native.fn("wm_walk_graph_free")(context.ref, graph)


def _radius_options(radius, start_z, goal_z):
    if isinstance(radius, bool) or not isinstance(radius, (int, float)):
        raise TypeError("radius: expected a number, not %r" % (radius,))
    if not math.isfinite(radius) or radius < 0:
        raise WalkmeshError(Result.INVALID, "radius %r: expected a finite length >= 0" % (radius,))
    return _native.WalkRouteOptions(int(start_z), int(goal_z), float(radius))


def _route_on_graph(context, graph, start_c, goal_c, options):
    result = _native.WalkRoute()
    context.check(_native.fn("wm_route_find")(context.ref, graph, start_c, goal_c, ctypes.byref(options),
                                              ctypes.byref(result)))
    try:
        if not result.found:
            return None
        points = [tuple(result.points[3 * i:3 * i + 3]) for i in range(result.count)]
        faces = [result.faces[i] for i in range(result.face_count)]
        return Path(result.length, result.plan_length, points, faces)
    finally:
        _native.fn("wm_route_free")(context.ref, ctypes.byref(result))


def _route_on_navmesh(context, navmesh, start, goal, radius):
    (start_c, start_z), (goal_c, goal_z) = start, goal
    if radius:
        raise WalkmeshError(Result.INVALID, "radius: on a navmesh the agent's size is built in (radius 0)")
    query = _query([(start_c, start_z), (goal_c, goal_z)])
    result = _native.WalkRoute()
    context.check(_native.fn("wm_navmesh_route")(context.ref, ctypes.byref(navmesh), ctypes.byref(query), start_c,
                                                 goal_c, ctypes.byref(result)))
    try:
        if not result.found:
            return None
        return Path(result.length, result.plan_length,
                    [tuple(result.points[3 * i:3 * i + 3]) for i in range(result.count)], [])
    finally:
        _native.fn("wm_route_free")(context.ref, ctypes.byref(result))


def path(source, start, goal, radius=0.0, limits=None, preset="recast"):
    """The shortest route over the walkable faces of source from start to goal, each (x, y) or
    (x, y, z) (a z picks the floor where floors overlap): Path(length over the ground, plan_length,
    points [(x, y, z), ...] (start, corners, goal), faces crossed), or None when the two are not
    joined. A point over no walkable face raises WalkmeshError (INVALID). radius keeps the route
    that far from blocking corners where it crosses face edges (see docs/routes.md). A .navmesh
    file, or a collision mesh (WMO, OBJ ...: a navmesh Recast builds with the preset's
    parameters), is asked through Detour, as `walkmesh path` does (no faces listed; radius is
    baked into the navmesh: only 0 there)."""
    return paths(source, [(start, goal)], radius, 0, limits, preset)[0]


def paths(source, pairs, radius=0.0, landmarks=0, limits=None, preset="recast"):
    """path for each (start, goal) of pairs on one source, read once: a list of Path or None in
    the pairs' order. landmarks (0 to 64) are prepared first on a walkmesh, each about as long
    as the slowest route: the routes after search less (the same routes), worth it for hundreds
    of routes over a large area (docs/routes.md; on a navmesh they are not used)."""
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
        raise TypeError("pairs: expected [(start, goal), ...], not %r" % (pairs,))
    ends = []
    for pair in pairs:
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise TypeError("pairs: expected (start, goal), not %r" % (pair,))
        ends.append((_point(pair[0], "start"), _point(pair[1], "goal")))
    if isinstance(landmarks, bool) or not isinstance(landmarks, int):
        raise TypeError("landmarks: expected a count, not %r" % (landmarks,))
    if not 0 <= landmarks <= 64:
        raise WalkmeshError(Result.INVALID, "landmarks %r: expected 0 to 64" % (landmarks,))
    options = [_radius_options(radius, start[1], goal[1]) for start, goal in ends]

    def on_graph(context, graph):
        if landmarks and ends:
            context.check(_native.fn("wm_walk_graph_add_landmarks")(context.ref, graph, landmarks))
        return [_route_on_graph(context, graph, start[0], goal[0], o) for (start, goal), o in zip(ends, options)]

    def on_navmesh(context, navmesh):
        return [_route_on_navmesh(context, navmesh, start, goal, radius) for start, goal in ends]

    return _with_ground(source, limits, preset, on_graph, on_navmesh)


def reach(source, at, limits=None, preset="recast"):
    """The walkable regions of source that a character at `at` ((x, y) or (x, y, z)) cannot reach:
    Reach(regions (the count of all), start_face, unreachable [Region(faces, area, point, first_face,
    enclosed), ...] the largest first, face_regions (each face's region, NO_REGION for blocking
    faces), start_region). On a .navmesh or a collision mesh (as for path), a region is a set of
    polygons Detour links, and face_regions is empty."""
    at_c, at_z = _point(at, "at")

    def find(context, graph):
        result = _native.WalkReach()
        context.check(_native.fn("wm_reach_find")(context.ref, graph, at_c, int(at_z), ctypes.byref(result)))
        try:
            regions = [result.unreachable[i] for i in range(result.unreachable_count)]
            region_of = _native.fn("wm_walk_graph_region")
            faces = [region_of(graph, t) for t in range(_native.fn("wm_walk_graph_triangle_count")(graph))]
            return Reach(result.region_count, result.start_face,
                         [Region(r.faces, r.area, tuple(r.point), r.first_face, bool(r.enclosed)) for r in regions],
                         faces, result.start_region)
        finally:
            _native.fn("wm_reach_free")(context.ref, ctypes.byref(result))

    def on_navmesh(context, navmesh):
        query = _query([(at_c, at_z)])
        result = _native.WalkReach()
        context.check(_native.fn("wm_navmesh_reach")(context.ref, ctypes.byref(navmesh), ctypes.byref(query), at_c,
                                                     ctypes.byref(result)))
        try:
            regions = [result.unreachable[i] for i in range(result.unreachable_count)]
            return Reach(result.region_count, result.start_face,
                         [Region(r.faces, r.area, tuple(r.point), r.first_face, bool(r.enclosed)) for r in regions],
                         [], result.start_region)
        finally:
            _native.fn("wm_reach_free")(context.ref, ctypes.byref(result))

    return _with_ground(source, limits, preset, find, on_navmesh)
