"""walkmesh.generate: a walkmesh made from render geometry (wm_generate, docs/generate.md)."""
import ctypes

from . import _mesh, _native
from ._api import _loaded, _name
from ._context import Context, make_options

# wm_generate_config's float fields, in order, then its switch; the keyword arguments of generate()
_PARAMETERS = ("agent_height", "agent_radius", "max_slope", "max_climb", "min_area", "max_error", "cell_size",
               "cell_height", "keep", "detail", "blocking")


def _field(name):
    return "keep_fraction" if name == "keep" else name


def _value(name, config):
    value = getattr(config, _field(name))
    return bool(value) if name == "blocking" else value


def generate_defaults(game="kotor"):
    """The values generate() starts from for game ("kotor", "nwn", "wow"): a dict of its keyword
    arguments (agent_height, ..., keep, detail, blocking), as `walkmesh generate --game GAME` uses
    them."""
    context = Context()
    config = _native.GenerateConfig()
    context.check(_native.fn("wm_generate_config_game")(context.ref, _native.encode_text(game, "game", optional=False),
                                                          ctypes.byref(config)))
    return {name: _value(name, config) for name in _PARAMETERS}


def generate(source, target=None, game="kotor", overwrite=False, format=None, options=None, limits=None,
             **parameters):
    """A walkmesh (a Mesh) made from source's render geometry: a path (a KotOR room model's render
    meshes, OBJ, glTF, ...) or a Mesh. game picks the defaults ("kotor", "nwn", "wow"); keyword
    arguments agent_height, agent_radius, max_slope, max_climb, min_area, max_error, cell_size,
    cell_height, keep and detail change them, as the CLI's options of the same names do, and
    blocking=True adds blocking faces as --blocking does. With
    target, the walkmesh is also written there (format: None = from the extension), as
    `walkmesh generate SOURCE TARGET` writes it."""
    unknown = sorted(set(parameters) - set(_PARAMETERS))
    if unknown:
        raise TypeError("generate: unknown parameter %s (known: %s)" % (unknown[0], ", ".join(_PARAMETERS)))
    context = Context()
    config = _native.GenerateConfig()
    context.check(_native.fn("wm_generate_config_game")(context.ref, _native.encode_text(game, "game", optional=False),
                                                          ctypes.byref(config)))
    for name, value in parameters.items():
        setattr(config, _field(name), int(bool(value)) if name == "blocking" else float(value))
    module_options = dict(options or {})
    module_options.setdefault("geometry", "render")  # a room model gives its render meshes
    opts, _keep = make_options(context, options=module_options, limits=limits)
    render = _native.Mesh()
    if isinstance(source, _mesh.Mesh):
        held = _mesh.CMesh(source)
        render_ref = ctypes.byref(held.struct)
    else:
        _native.fn("wm_mesh_init")(ctypes.byref(render))
        context.check(_native.fn("wm_mesh_load")(context.ref, _native.encode_path(source), None, ctypes.byref(opts),
                                                 ctypes.byref(render)))
        render_ref = ctypes.byref(render)
    try:
        out = _native.Mesh()
        mesh = _loaded(context, out, lambda: _native.fn("wm_generate")(context.ref, render_ref, ctypes.byref(config),
                                                                       ctypes.byref(out), None))
    finally:
        if not isinstance(source, _mesh.Mesh):
            _native.fn("wm_mesh_free")(context.ref, ctypes.byref(render))
    if target is not None:
        cmesh = _mesh.CMesh(mesh)
        context.check(_native.fn("wm_mesh_save")(context.ref, ctypes.byref(cmesh.struct), _native.encode_path(target),
                                                 _name(format), ctypes.byref(opts), int(bool(overwrite))))
    return mesh
