"""The Walkmesh sidebar panel: set a surface on selected faces, a transition or room link on
selected edges, bake an NWN2 TRX, validate (findings listed, faces selected), and a WMO
object's collision flags (faces per MOPY flag, select the faces with one)."""
import bpy
import numpy
from bpy.props import EnumProperty, IntProperty, StringProperty

from . import games, scene, walkmesh


def _surface_items(_self, _context):
    return [(str(s.id), s.name, "%s%s" % ("walkable" if s.walkable else "blocking",
                                          "".join(", %s %s" % (scheme, "none" if code is None else code)
                                                  for scheme, code in sorted(s.codes.items()))))
            for s in walkmesh.surfaces()]


def _selection(obj, domain):
    """Selected faces or edges of obj's mesh (works in edit and object mode)."""
    if obj.mode == "EDIT":
        obj.update_from_editmode()
    items = obj.data.polygons if domain == "FACE" else obj.data.edges
    selected = numpy.zeros(len(items), dtype=bool)
    items.foreach_get("select", selected)
    return selected


def _in_object_mode(operator_fn):
    def run(self, context):
        obj = context.active_object
        if obj is None or obj.type != "MESH":
            self.report({"ERROR"}, "select a walkmesh object")
            return {"CANCELLED"}
        editing = obj.mode == "EDIT"
        if editing:
            bpy.ops.object.mode_set(mode="OBJECT")
        try:
            return operator_fn(self, context, obj)
        finally:
            if editing:
                bpy.ops.object.mode_set(mode="EDIT")
    return run


def set_surface(obj, faces, surface):
    """Gives the faces (a boolean mask) the surface's material and its default walkability."""
    data = obj.data
    material = scene.surface_material(surface)
    if material.name not in data.materials:
        data.materials.append(material)
    slot = list(data.materials).index(material)
    indices = numpy.zeros(len(data.polygons), dtype=numpy.int32)
    data.polygons.foreach_get("material_index", indices)
    indices[faces] = slot
    data.polygons.foreach_set("material_index", indices)
    for name, value in ((scene.SURFACE_ATTR, surface), (scene.WALKABLE_ATTR, int(walkmesh.surfaces()[surface].walkable))):
        values = scene.get_attribute(data, name, len(data.polygons), -1)
        values[faces] = value
        attribute = data.attributes.get(name) or data.attributes.new(name, "INT", "FACE")
        attribute.data.foreach_set("value", values)
    data.update()


def set_transition(obj, edges, value):
    """Gives the edges (a boolean mask) the transition or room link value (-1: none)."""
    data = obj.data
    values = scene.get_attribute(data, scene.TRANSITION_ATTR, len(data.edges), -1)
    values[edges] = value
    attribute = data.attributes.get(scene.TRANSITION_ATTR) or data.attributes.new(scene.TRANSITION_ATTR, "INT", "EDGE")
    attribute.data.foreach_set("value", values)
    data.update()


class WALKMESH_OT_set_surface(bpy.types.Operator):
    """Set the chosen surface on the selected faces"""
    bl_idname = "walkmesh.set_surface"
    bl_label = "Set surface on selected faces"
    bl_options = {"REGISTER", "UNDO"}
    surface: EnumProperty(name="Surface", items=_surface_items)

    @_in_object_mode
    def execute(self, _context, obj):
        faces = _selection(obj, "FACE")
        set_surface(obj, faces, int(self.surface))
        self.report({"INFO"}, "%d face(s) set to %s" % (faces.sum(), walkmesh.surfaces()[int(self.surface)].name))
        return {"FINISHED"}


class WALKMESH_OT_set_room_link(bpy.types.Operator):
    """Set the transition or room link on the selected edges (-1 removes it)"""
    bl_idname = "walkmesh.set_room_link"
    bl_label = "Set room link on selected edges"
    bl_options = {"REGISTER", "UNDO"}
    value: IntProperty(name="Room link", default=0, min=-1)

    @_in_object_mode
    def execute(self, _context, obj):
        edges = _selection(obj, "EDGE")
        set_transition(obj, edges, self.value)
        self.report({"INFO"}, "%d edge(s) linked to %d" % (edges.sum(), self.value))
        return {"FINISHED"}


class WALKMESH_OT_bake(bpy.types.Operator):
    """Bake an NWN2 TRX or TRN into a TRX: tiles, path tables, line of sight and islands"""
    bl_idname = "walkmesh.bake"
    bl_label = "Bake NWN2 TRX"
    filepath: StringProperty(subtype="FILE_PATH")
    target: StringProperty(subtype="FILE_PATH", description="The TRX to write; empty: replace the file")

    def execute(self, _context):
        try:
            result = walkmesh.bake(bpy.path.abspath(self.filepath), bpy.path.abspath(self.target or self.filepath),
                                   overwrite=True)
        except walkmesh.WalkmeshError as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        self.report({"INFO"}, "baked: %(triangles)d triangles, %(island_count)d islands" % result.stats)
        return {"FINISHED"}


def mopy_flags(obj):
    """The MOPY flags of obj's faces, or None when it has none (not a WMO import)."""
    data = obj.data if obj is not None and obj.type == "MESH" else None
    if data is None or data.attributes.get(games.MOPY_FLAGS_ATTR) is None:
        return None
    return scene.get_attribute(data, games.MOPY_FLAGS_ATTR, len(data.polygons), 0)


class WALKMESH_OT_select_mopy_flag(bpy.types.Operator):
    """Select the faces of a WMO object whose MOPY flags have the chosen bit"""
    bl_idname = "walkmesh.select_mopy_flag"
    bl_label = "Select faces with MOPY flag"
    bl_options = {"REGISTER", "UNDO"}
    flag: EnumProperty(name="Flag", items=[(str(bit), "0x%02x %s" % (bit, name), "") for bit, name in games.MOPY_FLAGS])

    @_in_object_mode
    def execute(self, _context, obj):
        flags = mopy_flags(obj)
        if flags is None:
            self.report({"ERROR"}, "not a WMO object (no %s attribute)" % games.MOPY_FLAGS_ATTR)
            return {"CANCELLED"}
        chosen = (flags & int(self.flag)) != 0
        obj.data.polygons.foreach_set("select", chosen)
        self.report({"INFO"}, "%d face(s) with flag 0x%02x" % (chosen.sum(), int(self.flag)))
        return {"FINISHED"}


def draw_mopy_flags(layout, obj):
    """Faces per MOPY flag bit of a WMO object, each with its select button."""
    flags = mopy_flags(obj)
    if flags is None:
        return
    box = layout.box()
    box.label(text="WMO collision flags (%d faces)" % len(flags), icon="MOD_PHYSICS")
    for bit, name in games.MOPY_FLAGS:
        count = int(((flags & bit) != 0).sum())
        if count:
            row = box.row()
            row.label(text="0x%02x %s: %d" % (bit, name, count))
            row.operator("walkmesh.select_mopy_flag", text="", icon="RESTRICT_SELECT_OFF").flag = str(bit)


class WALKMESH_PT_panel(bpy.types.Panel):
    bl_label = "Walkmesh"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Walkmesh"

    def draw(self, context):
        layout = self.layout
        settings = context.scene.walkmesh_panel
        obj = context.active_object
        if obj is not None and obj.get(scene.FILE_PROP):
            layout.label(text=bpy.path.basename(obj[scene.FILE_PROP]), icon="FILE")
        box = layout.box()
        box.prop(settings, "surface")
        box.operator("walkmesh.set_surface").surface = settings.surface
        box = layout.box()
        box.prop(settings, "room_link")
        box.operator("walkmesh.set_room_link").value = settings.room_link
        layout.prop(settings, "walkable_slope")
        layout.operator("walkmesh.validate", icon="CHECKMARK")
        row = layout.row(align=True)
        row.operator("walkmesh.route", icon="TRACKING")
        row.operator("walkmesh.select_unreachable", icon="RESTRICT_SELECT_OFF")
        layout.operator("walkmesh.generate", icon="MOD_REMESH")
        layout.template_list("WALKMESH_UL_findings", "", context.scene, "walkmesh_findings", context.scene,
                             "walkmesh_finding_index", rows=4)
        if obj is not None and str(obj.get(scene.FILE_PROP, "")).lower().endswith((".trx", ".trn")):
            layout.operator("walkmesh.bake", icon="MOD_REMESH").filepath = obj[scene.FILE_PROP]
        draw_mopy_flags(layout, obj)


class WalkmeshPanelSettings(bpy.types.PropertyGroup):
    surface: EnumProperty(name="Surface", items=_surface_items)
    room_link: IntProperty(name="Room link", default=0, min=-1,
                           description="Transition or room link for the selected edges (-1: none)")
    walkable_slope: bpy.props.FloatProperty(name="Walkable slope", default=45.0, min=0.0, max=90.0,
                                            description="Steepest walkable face, degrees (validate)")


CLASSES = (WalkmeshPanelSettings, WALKMESH_OT_set_surface, WALKMESH_OT_set_room_link, WALKMESH_OT_bake,
           WALKMESH_OT_select_mopy_flag, WALKMESH_PT_panel)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.walkmesh_panel = bpy.props.PointerProperty(type=WalkmeshPanelSettings)


def unregister():
    del bpy.types.Scene.walkmesh_panel
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
