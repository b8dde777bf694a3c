"""Game operations beyond conversion: KotOR height and ray queries, the NWN2 bake and the NWN2
route the file's own path tables give. Each takes limits=Limits(...) as the other calls do."""
import ctypes
import os
from collections import namedtuple

from . import _native
from ._context import Context
from .errors import Result, WalkmeshError

Hit = namedtuple("Hit", "face material point distance")
Route = namedtuple("Route", "start goal triangles points reached failure")
BakeResult = namedtuple("BakeResult", "data stats warnings")


def file_bytes(path, limits=None):
    """The bytes of a file, or of a member inside an archive ("module.mod/room.wok", as read()
    takes), read by the library under its limits."""
    encoded = _native.encode_path(path)
    context = Context(limits)
    image = _native.Input()
    context.check(_native.fn("wm_input_load")(context.ref, encoded, ctypes.byref(image)))
    try:
        return ctypes.string_at(image.data, image.size)
    finally:
        _native.fn("wm_input_free")(context.ref, ctypes.byref(image))


def _file_image(source):
    """(bytes, name) of a path (a file or an archive member) or of bytes given directly."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<memory>"
    return file_bytes(source), os.fsdecode(_native.encode_path(source))


class KotorWalkmesh:
    """A KotOR binary walkmesh (.wok/.pwk/.dwk) opened for queries through its own AABB tree.
    Use as a context manager, or call close()."""

    def __init__(self, source, limits=None):
        data, name = _file_image(source)
        self._context = Context(limits)
        self._data = data  # the parsed walkmesh may point into it
        handle = ctypes.c_void_p()
        self._context.check(_native.fn("wm_bwm_open")(self._context.ref, data, len(data), os.fsencode(name),
                                                      ctypes.byref(handle)))
        self._handle = handle

    def close(self):
        if self._handle:
            _native.fn("wm_bwm_close")(self._context.ref, self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_handle", None):
            self.close()

    def _live(self):
        if not self._handle:
            raise WalkmeshError(Result.INVALID, "the walkmesh was closed")
        return self._handle

    @staticmethod
    def _hit(hit):
        return Hit(hit.face, hit.material, tuple(hit.point), hit.t) if hit.found else None

    def height(self, x, y, z=None):
        """The walkable face under (x, y) (the one nearest height z when given, else the highest)
        as a Hit (point[2] is the height), or None where there is none."""
        hit = _native.BwmHit()
        z_ref = float("nan") if z is None else float(z)
        self._context.check(_native.fn("wm_bwm_height_at")(self._context.ref, self._live(), float(x), float(y),
                                                           z_ref, ctypes.byref(hit)))
        return self._hit(hit)

    def raycast(self, origin, direction):
        """The nearest face hit by origin + t * direction (t >= 0) as a Hit, or None."""
        hit = _native.BwmHit()
        self._context.check(_native.fn("wm_bwm_raycast")(self._context.ref, self._live(),
                                                         (ctypes.c_float * 3)(*origin),
                                                         (ctypes.c_float * 3)(*direction), ctypes.byref(hit)))
        return self._hit(hit)


def query_height(source, x, y, z=None, limits=None):
    """KotorWalkmesh(source).height(x, y, z) in one call."""
    with KotorWalkmesh(source, limits) as walkmesh:
        return walkmesh.height(x, y, z)


def raycast(source, origin, direction, limits=None):
    """KotorWalkmesh(source).raycast(origin, direction) in one call."""
    with KotorWalkmesh(source, limits) as walkmesh:
        return walkmesh.raycast(origin, direction)


def _bake_options(git, keep_borders, cut_whole_triangles, threads):
    opts = _native.BakeOptions()
    _native.fn("wm_nwn2_bake_options_init")(ctypes.byref(opts))
    opts.keep_borders = int(bool(keep_borders))
    opts.cut_whole_triangles = int(bool(cut_whole_triangles))
    opts.threads = int(threads)
    keep = []
    if git is not None:
        git_data, git_name = _file_image(git)
        buffer = (ctypes.c_uint8 * len(git_data)).from_buffer_copy(git_data) if git_data else None
        keep += [buffer, os.fsencode(git_name)]
        opts.git = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_uint8)) if buffer else None
        opts.git_size = len(git_data)
        opts.git_source = keep[-1]
    return opts, keep


def bake(source, output=None, git=None, keep_borders=False, cut_whole_triangles=False, threads=0, overwrite=False,
         progress=None, limits=None):
    """Bakes an NWN2 TRN or TRX (a path or its bytes) into a TRX: tiles, tile path tables, line of
    sight, islands. git: the area's GIT (path or bytes) whose walkmesh cutters are cut. With output
    the TRX is written there (replacing a file only with overwrite=True), else returned as bytes.
    progress(stage, done, total) is called as stages advance. Returns BakeResult(data, stats, warnings)."""
    data, name = _file_image(source)
    context = Context(limits)
    opts, _keep = _bake_options(git, keep_borders, cut_whole_triangles, threads)
    if progress is not None:
        callback = _native.PROGRESS_FN(lambda _user, stage, done, total: progress(_native.text(stage), done, total))
        opts.progress = callback
    buffer, stats = _native.Buffer(), _native.BakeStats()
    _native.fn("wm_buffer_init")(ctypes.byref(buffer), context.ref)
    try:
        context.check(_native.fn("wm_nwn2_bake")(context.ref, data, len(data), os.fsencode(name),
                                                 ctypes.byref(opts), ctypes.byref(buffer), ctypes.byref(stats)))
        context.check(buffer.status)
        baked = ctypes.string_at(buffer.data, buffer.size)
        if output is not None:
            context.check(_native.fn("wm_file_write_atomic")(context.ref, _native.encode_path(output), baked,
                                                             len(baked), int(bool(overwrite))))
    finally:
        _native.fn("wm_buffer_free")(ctypes.byref(buffer))
    figures = {name: getattr(stats, name) for name, _ in _native.BakeStats._fields_}
    return BakeResult(None if output is not None else baked, figures, context.warnings)


def route(source, start, goal, limits=None):
    """The route an NWN2 creature takes from start (x, y) to goal (x, y) of a baked TRX, as the
    file's own tables give it: Route(start, goal, triangles, points, reached, failure); when the
    tables do not lead to the goal, reached is False and failure says where they stop."""
    context = Context(limits)
    result = _native.Route()
    context.check(_native.fn("wm_nwn2_route_find_file")(context.ref, _native.encode_path(source),
                                                        (ctypes.c_float * 2)(*start), (ctypes.c_float * 2)(*goal),
                                                        ctypes.byref(result)))
    try:
        triangles = [result.triangles[i] for i in range(result.count)]
        points = [tuple(result.points[3 * i:3 * i + 3]) for i in range(result.count)]
        return Route(result.start, result.goal, triangles, points, bool(result.reached),
                     _native.text(result.failure) or None)
    finally:
        _native.fn("wm_nwn2_route_free")(context.ref, ctypes.byref(result))
