"""The package's calls: read, write, convert, info, validate, render, formats and surfaces.

Every call takes the reading/writing options as keywords: up ('y'/'z'), walkable_slope
(degrees), weld (tolerance), base (an existing game file whose other content is kept), source
(the file a mesh came from, so its own format keeps what the mesh cannot hold) and options (a
dict of module options without dashes, e.g. {"hook1": "0.5,-1,0", "rebuild": True}) and limits
(a Limits: the largest input, triangle count and memory the call may take on)."""
import ctypes
import os
from collections import namedtuple

from . import _mesh, _native
from ._context import Context, CReport, make_options
from .errors import Result, WalkmeshError

FormatInfo = namedtuple("FormatInfo", "name description extensions reads writes has_validate options")
SurfaceInfo = namedtuple("SurfaceInfo", "id name walkable color aliases codes")


def version():
    """The linked library's version, e.g. "0.1.0"."""
    return _native.version()


def _name(value, what="format"):
    return _native.encode_text(value, what)


def formats():
    """Every format module of the library: what it reads and writes and its own options."""
    count = ctypes.c_size_t()
    table = _native.fn("wm_formats")(ctypes.byref(count))
    result = []
    for i in range(count.value):
        f = table[i].contents
        extensions, options = [], []
        while f.extensions and f.extensions[len(extensions)]:
            extensions.append(f.extensions[len(extensions)].decode())
        while f.options and f.options[len(options)].name:
            o = f.options[len(options)]
            options.append((o.name.decode(), _native.text(o.arg), _native.text(o.help)))
        result.append(FormatInfo(f.name.decode(), _native.text(f.description), extensions, bool(f.read),
                                 bool(f.write), bool(f.validate), options))
    return result


def surfaces():
    """The built-in surface table (core/surfaces.txt): id, name, default walkability, sRGB colour,
    aliases and the game codes the table itself gives ({"kotor": 30}; None: explicitly none).
    The table is neutral: ids 0..22 are in KotOR's surfacemat.2da row order, and each game's
    module keeps its own codes by surface name, so `codes` is usually empty."""
    table = _native.fn("wm_surfaces_default")().contents
    result = []
    for i in range(table.count):
        s = table.entries[i]
        aliases = [s.aliases[k].value.decode() for k in range(s.alias_count)]
        codes = {c.scheme.decode(): None if c.value == _native.SURFACE_CODE_NONE else c.value
                 for c in s.codes[:s.code_count]}
        result.append(SurfaceInfo(i, s.name.decode(), bool(s.walkable), tuple(s.color), aliases, codes))
    return result


def surface_id(name):
    """The surface a material name means (names, aliases, KotOR row numbers, "wok_" prefixes,
    Blender's ".001" suffixes; see the README's Materials), or None when it names none."""
    table = _native.fn("wm_surfaces_default")()
    surface = _native.fn("wm_surface_from_name")(table, _native.encode_text(name, "surface name", optional=False))
    return None if surface == 0xFFFF else surface


def _loaded(context, cmesh, call):
    """Runs a call filling cmesh; returns it as a Python Mesh and frees the C one."""
    _native.fn("wm_mesh_init")(ctypes.byref(cmesh))
    try:
        context.check(call())
        mesh = _mesh.from_c(cmesh)
    finally:
        _native.fn("wm_mesh_free")(context.ref, ctypes.byref(cmesh))
    mesh.warnings = context.warnings
    return mesh


def read(path, format=None, **options):
    """Reads a walkmesh or model file into a Mesh (format: a module name; None: detected)."""
    context = Context()
    opts, _keep = make_options(context, **options)
    cmesh = _native.Mesh()
    return _loaded(context, cmesh, lambda: _native.fn("wm_mesh_load")(
        context.ref, _native.encode_path(path), _name(format), ctypes.byref(opts), ctypes.byref(cmesh)))


def read_bytes(data, name=None, format=None, **options):
    """Reads a file image already in memory; name's extension helps detection."""
    context = Context()
    opts, _keep = make_options(context, **options)
    cmesh = _native.Mesh()
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("read_bytes: expected bytes, not %s" % type(data).__name__)
    data = bytes(data)
    return _loaded(context, cmesh, lambda: _native.fn("wm_mesh_load_memory")(
        context.ref, data, len(data), _name(name, "name"), _name(format), ctypes.byref(opts), ctypes.byref(cmesh)))


def write(mesh, path, format=None, overwrite=False, **options):
    """Writes a Mesh (format: None = from the extension); an existing file is only replaced with
    overwrite=True. Returns the library's warnings."""
    context = Context()
    opts, _keep = make_options(context, **options)
    if not isinstance(mesh, _mesh.Mesh):
        raise TypeError("write: expected a walkmesh.Mesh, not %s" % type(mesh).__name__)
    cmesh = _mesh.CMesh(mesh)
    context.check(_native.fn("wm_mesh_validate")(context.ref, ctypes.byref(cmesh.struct)))
    context.check(_native.fn("wm_mesh_save")(context.ref, ctypes.byref(cmesh.struct), _native.encode_path(path),
                                             _name(format), ctypes.byref(opts), int(bool(overwrite))))
    return context.warnings


def convert(source, target, from_format=None, to_format=None, overwrite=False, **options):
    """Converts a file; a writer of the input's own format keeps what the neutral mesh cannot
    hold, so an unchanged file stays byte-identical. Returns the library's warnings."""
    context = Context()
    opts, _keep = make_options(context, **options)
    context.check(_native.fn("wm_convert")(context.ref, _native.encode_path(source), _native.encode_path(target),
                                           _name(from_format), _name(to_format), ctypes.byref(opts),
                                           int(bool(overwrite))))
    return context.warnings


def info(path, format=None, with_mesh=False, **options):
    """The format's facts about a file (a Report; with_mesh=True also sets report.mesh)."""
    context = Context()
    opts, _keep = make_options(context, **options)
    with CReport(context) as report:
        if not with_mesh:
            context.check(_native.fn("wm_info")(context.ref, _native.encode_path(path), _name(format),
                                                ctypes.byref(opts), None, ctypes.byref(report.struct)))
            return report.to_python(path)
        cmesh = _native.Mesh()
        mesh = _loaded(context, cmesh, lambda: _native.fn("wm_info")(
            context.ref, _native.encode_path(path), _name(format), ctypes.byref(opts), ctypes.byref(cmesh),
            ctypes.byref(report.struct)))
        result = report.to_python(path)
    result.mesh = mesh
    return result


def validate(path, format=None, **options):
    """Checks a file against every invariant its format knows (a Report; report.ok is False
    when errors were found)."""
    context = Context()
    opts, _keep = make_options(context, **options)
    with CReport(context) as report:
        context.check(_native.fn("wm_validate")(context.ref, _native.encode_path(path), _name(format),
                                                ctypes.byref(opts), ctypes.byref(report.struct)))
        return report.to_python(path)


def render(source, output, format=None, overwrite=False, view=None, select=None, route=None, git=None,
           floors=False, liquids=False, **options):
    """Draws a file as an SVG picture from its own format's data: view 'top'|'front'|'side'|'iso',
    select a KotOR surface, an NWN2 tile range or a WMO group, route ((x1, y1), (x2, y2)) the NWN2
    route, git the area's GIT (cutters), floors/liquids for WMO. Returns the library's warnings."""
    picture = dict(options.pop("options", None) or {})
    picture.update(view=view, select=None if select is None else str(select), git=_path_text(git), floors=floors,
                   liquids=liquids)
    if route is not None:
        (x1, y1), (x2, y2) = route
        picture["path"] = "%r,%r %r,%r" % (float(x1), float(y1), float(x2), float(y2))
    context = Context()
    opts, _keep = make_options(context, options=picture, **options)
    module = None
    if format is not None:
        module = _native.fn("wm_format_by_name")(_name(format))
        if not module:
            raise WalkmeshError(Result.UNSUPPORTED, "%s: no format module named %r" % (source, format))
    context.check(_native.fn("wm_render_file")(context.ref, _native.encode_path(source), module,
                                               _native.encode_path(output), ctypes.byref(opts),
                                               int(bool(overwrite))))
    return context.warnings


def _path_text(path):
    """An option's path as text (the option values are str): checked as a path is."""
    return None if path is None else os.fsdecode(_native.encode_path(path))
