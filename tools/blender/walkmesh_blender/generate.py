"""Generate walkmesh: the selected meshes' render geometry through walkmesh.generate (the same
call and options as `walkmesh generate`), the result a new walkmesh object ready to export."""
import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty

from . import scene, walkmesh

_GAMES = [("kotor", "KotOR", "KotOR I and II rooms (.wok)"), ("nwn", "NWN", "Neverwinter Nights"),
          ("wow", "WoW", "World of Warcraft collision")]
# the operator's properties passed to walkmesh.generate by the same names
_PARAMETERS = ("agent_height", "agent_radius", "max_slope", "max_climb", "min_area", "max_error", "keep", "blocking")
# the values start from the library's own defaults, so the add-on and `walkmesh generate` agree
_KOTOR = walkmesh.generate_defaults("kotor")


def _game_changed(operator, _context):
    for name, value in walkmesh.generate_defaults(operator.game).items():
        if name in _PARAMETERS:
            setattr(operator, name, value)


class WALKMESH_OT_generate(bpy.types.Operator):
    """Generate a walkmesh from the selected meshes (the floor an agent stands on, simplified)"""
    bl_idname = "walkmesh.generate"
    bl_label = "Generate walkmesh"
    bl_options = {"REGISTER", "UNDO"}
    game: EnumProperty(name="Game", items=_GAMES, description="Whose defaults the values below start from",
                       update=_game_changed)
    agent_height: FloatProperty(name="Agent height", default=_KOTOR["agent_height"], min=0.01,
                                description="Headroom a walker needs")
    agent_radius: FloatProperty(name="Agent radius", default=_KOTOR["agent_radius"], min=0.0,
                                description="Distance kept from walls")
    max_slope: FloatProperty(name="Max slope", default=_KOTOR["max_slope"], min=0.1, max=89.9,
                             description="Degrees")
    max_climb: FloatProperty(name="Max climb", default=_KOTOR["max_climb"], min=0.0,
                             description="Highest step")
    min_area: FloatProperty(name="Min area", default=_KOTOR["min_area"], min=0.0,
                            description="Smaller pieces are dropped")
    max_error: FloatProperty(name="Max error", default=_KOTOR["max_error"], min=0.001,
                             description="Simplification error")
    keep: FloatProperty(name="Keep", default=_KOTOR["keep"], min=0.0, max=1.0,
                        description="Pieces under this fraction of the largest's area are dropped")
    blocking: BoolProperty(name="Blocking", default=_KOTOR["blocking"],
                           description="Also blocking faces where the floor beside the walkable is too steep or low")
    filepath: StringProperty(subtype="FILE_PATH", description="Also write the walkmesh here (empty: do not)")

    def execute(self, context):
        objects = [o for o in context.selected_objects if o.type == "MESH"]
        if not objects:
            self.report({"ERROR"}, "select the meshes to generate a walkmesh from")
            return {"CANCELLED"}
        parameters = {name: getattr(self, name) for name in _PARAMETERS}
        target = bpy.path.abspath(self.filepath) if self.filepath else None
        try:
            result = walkmesh.generate(scene.gather(objects), target, game=self.game, overwrite=True,
                                       **parameters)
        except walkmesh.WalkmeshError as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        result.object_names = ["walkmesh"]
        created = scene.add_objects(result, target or "", context.collection)
        for obj in context.selected_objects:
            obj.select_set(False)
        for obj in created:
            obj.select_set(True)
        context.view_layer.objects.active = created[0]
        self.report({"INFO"}, "generated: %d faces" % len(result.indices))
        return {"FINISHED"}


def register():
    bpy.utils.register_class(WALKMESH_OT_generate)


def unregister():
    bpy.utils.unregister_class(WALKMESH_OT_generate)
