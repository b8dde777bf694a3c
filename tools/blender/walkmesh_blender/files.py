"""File > Import and File > Export entries: KotOR .wok/.pwk/.dwk, NWN2 .trx/.trn, WoW .wmo (and
KotOR .mdl walkmesh nodes when the library has an mdl module)."""
import os

import bpy
from bpy.props import BoolProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import games, scene, walkmesh

# (id, label, extensions) of each game family
FAMILIES = [
    ("kotor", "KotOR walkmesh (.wok/.pwk/.dwk)", (".wok", ".pwk", ".dwk")),
    ("nwn2", "NWN2 walkmesh (.trx/.trn)", (".trx", ".trn")),
    ("wmo", "WoW WMO collision (.wmo)", (".wmo",)),
    ("mdl", "KotOR model walkmesh nodes (.mdl)", (".mdl",)),
]


def offered_families():
    """(family, label, extensions, writes) of the families whose module the loaded library has
    (mdl only once that module exists; its Export entry only if it writes)."""
    modules = {f.name: f for f in walkmesh.formats()}
    module_of = {"kotor": "bwm", "nwn2": "nwn2", "wmo": "wmo", "mdl": "mdl"}
    return [(family, label, extensions, modules[module_of[family]].writes)
            for family, label, extensions in FAMILIES if module_of[family] in modules]


def import_file(context, path):
    """Reads path into a new collection named after the file; returns the mesh objects."""
    mesh = walkmesh.read(path)
    collection = bpy.data.collections.new(os.path.basename(path))
    context.scene.collection.children.link(collection)
    objects = scene.add_objects(mesh, os.path.abspath(path), collection)
    lower = path.lower()
    if lower.endswith(games.KOTOR_EXTENSIONS):
        games.add_kotor_empties(path, objects[0], collection)
    elif lower.endswith(games.NWN2_EXTENSIONS) and len(objects) == 1:
        games.add_nwn2_layers(mesh, path, objects[0], collection)
    elif lower.endswith(".wmo"):
        games.add_wmo_layers(mesh, path, objects, collection)
    for obj in context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    context.view_layer.objects.active = objects[0]
    return objects, mesh.warnings


def export_objects(objects):
    """The walkmesh objects to export: the given mesh objects, with the other parts of their files."""
    objects = [o for o in objects if o is not None]
    files = {o.get(scene.FILE_PROP) for o in objects if o.type == "MESH"}
    chosen = [o for o in bpy.data.objects if o.type == "MESH" and o.get(scene.ROLE_PROP) is None and
              (o in objects or (o.get(scene.FILE_PROP) in files and o.get(scene.FILE_PROP)))]
    return chosen


def export_file(objects, path, base=None, bake=False):
    """Writes the objects to path; their source file (or base) keeps what the mesh cannot hold,
    so an unchanged import exports byte-identical. bake: an NWN2 TRX is baked afterwards."""
    mesh = scene.gather(objects)
    sources = {o.get(scene.FILE_PROP) for o in objects} - {None}
    source = sources.pop() if len(sources) == 1 else None
    options = games.kotor_options(objects) if path.lower().endswith(games.KOTOR_EXTENSIONS) else {}
    if source and not os.path.exists(source):
        source = None
    warnings = walkmesh.write(mesh, path, overwrite=True, source=source, base=base or None, options=options)
    if bake:
        walkmesh.bake(path, path, overwrite=True)
    return warnings


def _report_warnings(operator, warnings):
    for warning in warnings:
        operator.report({"WARNING"}, warning)


def _make_operators(family, label, extensions, writes):
    pattern = ";".join("*" + e for e in extensions)

    class Import(bpy.types.Operator, ImportHelper):
        bl_idname = "import_scene.walkmesh_" + family
        bl_label = "Import " + label
        bl_options = {"REGISTER", "UNDO"}
        filename_ext = extensions[0]
        filter_glob: StringProperty(default=pattern, options={"HIDDEN"})

        def execute(self, context):
            try:
                _, warnings = import_file(context, self.filepath)
            except walkmesh.WalkmeshError as error:
                self.report({"ERROR"}, str(error))
                return {"CANCELLED"}
            _report_warnings(self, warnings)
            return {"FINISHED"}

    class Export(bpy.types.Operator, ExportHelper):
        bl_idname = "export_scene.walkmesh_" + family
        bl_label = "Export " + label
        filename_ext = extensions[0]
        filter_glob: StringProperty(default=pattern, options={"HIDDEN"})
        base: StringProperty(name="Base file", subtype="FILE_PATH",
                             description="An existing game file whose other content the export keeps "
                                         "(NWN2: the area's TRX); empty: the file the objects came from")
        bake: BoolProperty(name="Bake (NWN2)", default=False,
                           description="Rebuild the TRX's tiles, path tables and islands after writing")

        def execute(self, context):
            objects = export_objects(context.selected_objects or [context.active_object])
            if not objects:
                self.report({"ERROR"}, "select the walkmesh objects to export")
                return {"CANCELLED"}
            try:
                warnings = export_file(objects, self.filepath, self.base, self.bake)
            except walkmesh.WalkmeshError as error:
                self.report({"ERROR"}, str(error))
                return {"CANCELLED"}
            _report_warnings(self, warnings)
            return {"FINISHED"}

    Import.__name__ = "WALKMESH_OT_import_" + family
    Export.__name__ = "WALKMESH_OT_export_" + family
    return (Import, Export) if writes else (Import,)


_registered = []


def _menu(kind):
    def draw(self, _context):
        for cls in _registered:
            if cls.bl_idname.startswith(kind):
                self.layout.operator(cls.bl_idname, text=cls.bl_label.split(" ", 1)[1])
    return draw


_import_menu, _export_menu = _menu("import_scene."), _menu("export_scene.")


def register():
    for family, label, extensions, writes in offered_families():
        for cls in _make_operators(family, label, extensions, writes):
            bpy.utils.register_class(cls)
            _registered.append(cls)
    bpy.types.TOPBAR_MT_file_import.append(_import_menu)
    bpy.types.TOPBAR_MT_file_export.append(_export_menu)


def unregister():
    bpy.types.TOPBAR_MT_file_import.remove(_import_menu)
    bpy.types.TOPBAR_MT_file_export.remove(_export_menu)
    while _registered:
        bpy.utils.unregister_class(_registered.pop())
