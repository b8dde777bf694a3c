"""Routes and reach in Blender: the shortest route over the selected walkmesh between two picked
points (two selected vertices in edit mode, or the operator's start and goal) drawn as a poly
curve, and the faces a character at the 3D cursor cannot reach selected (walkmesh.path and
walkmesh.reach on the objects as they would be exported)."""
import bpy
import numpy
from bpy.props import FloatVectorProperty

from . import files, lints, scene, walkmesh

ROUTE_NAME = "walkmesh route"


def _objects(context):
    return files.export_objects(context.selected_objects or [context.active_object])


def _picked_points(obj):
    """World positions of the two selected vertices of obj, or None."""
    chosen = [obj.matrix_world @ v.co for v in obj.data.vertices if v.select]
    return (tuple(chosen[0]), tuple(chosen[1])) if len(chosen) == 2 else None


def draw_route(context, points):
    """A poly curve object through the points (replacing the previous route)."""
    old = bpy.data.objects.get(ROUTE_NAME)
    if old is not None:
        bpy.data.objects.remove(old, do_unlink=True)
    curve = bpy.data.curves.new(ROUTE_NAME, type="CURVE")
    curve.dimensions = "3D"
    spline = curve.splines.new("POLY")
    spline.points.add(len(points) - 1)
    for point, (x, y, z) in zip(spline.points, points):
        point.co = (x, y, z + 0.05, 1.0)  # just above the ground, to stay visible
    obj = bpy.data.objects.new(ROUTE_NAME, curve)
    context.scene.collection.objects.link(obj)
    return obj


class WALKMESH_OT_route(bpy.types.Operator):
    """Draw the shortest route over the walkmesh between two points (two selected vertices, or start and goal)"""
    bl_idname = "walkmesh.route"
    bl_label = "Route"
    start: FloatVectorProperty(name="Start", size=3)
    goal: FloatVectorProperty(name="Goal", size=3)

    def execute(self, context):
        objects = _objects(context)
        if not objects:
            self.report({"ERROR"}, "select the walkmesh objects")
            return {"CANCELLED"}
        editing = context.mode == "EDIT_MESH"
        if editing:
            bpy.ops.object.mode_set(mode="OBJECT")
        picked = _picked_points(objects[0]) if editing else None
        start, goal = picked or (tuple(self.start), tuple(self.goal))
        try:
            route = walkmesh.path(scene.gather(objects), start, goal)
        except walkmesh.WalkmeshError as error:
            route, message = None, str(error)
        else:
            message = "no route between the two points"
        if editing:
            bpy.ops.object.mode_set(mode="EDIT")
        if route is None:
            self.report({"WARNING"}, message)
            return {"CANCELLED"}
        draw_route(context, route.points)
        self.report({"INFO"}, "route %.2f long, %d corners" % (route.length, len(route.points) - 2))
        return {"FINISHED"}


class WALKMESH_OT_select_unreachable(bpy.types.Operator):
    """Select the walkable faces a character standing at the 3D cursor cannot reach"""
    bl_idname = "walkmesh.select_unreachable"
    bl_label = "Select Unreachable"

    def execute(self, context):
        objects = _objects(context)
        if not objects:
            self.report({"ERROR"}, "select the walkmesh objects")
            return {"CANCELLED"}
        editing = context.mode == "EDIT_MESH"
        if editing:
            bpy.ops.object.mode_set(mode="OBJECT")
        try:
            reach = walkmesh.reach(scene.gather(objects), tuple(context.scene.cursor.location))
        except walkmesh.WalkmeshError as error:
            if editing:
                bpy.ops.object.mode_set(mode="EDIT")
            self.report({"WARNING"}, str(error))
            return {"CANCELLED"}
        regions = numpy.array(reach.face_regions, dtype=numpy.int64)
        unreachable = (regions != walkmesh.NO_REGION) & (regions != reach.start_region)
        chosen = {obj.name: numpy.zeros(len(obj.data.polygons), dtype=bool) for obj in objects}
        for triangle, (obj, polygon) in enumerate(lints._triangle_faces(objects)):
            if unreachable[triangle]:
                chosen[obj.name][polygon] = True
        for obj in objects:
            lints.select_faces(obj.data, chosen[obj.name])
        if editing:
            bpy.ops.object.mode_set(mode="EDIT")
        self.report({"INFO"}, "%d of %d regions cannot be reached" % (len(reach.unreachable), reach.regions))
        return {"FINISHED"}


CLASSES = (WALKMESH_OT_route, WALKMESH_OT_select_unreachable)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)


def unregister():
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
