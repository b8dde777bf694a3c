"""Validate: the library's own checks of the exported file plus three lints for what players hit
in game, listed in the panel with the faces concerned selected:
  steep     a walkable face steeper than the walkable slope (a wall given a floor material);
  hidden    a walkable face with blocking geometry just above it (players cannot stand there);
  hole      a walkable face's open edge lying along another walkable face's edge of the same
            object without being joined to it (a crack the pathfinder cannot cross)."""
import os
import tempfile

import bpy
import numpy
from bpy.props import IntProperty, StringProperty
from mathutils import Vector
from mathutils.bvhtree import BVHTree
from mathutils.kdtree import KDTree

from . import files, scene, walkmesh

HIDDEN_CLEARANCE = 1.0  # blocking geometry this close above a walkable face hides it
HOLE_TOLERANCE = 0.05   # an open edge this close to another walkable edge is a crack


def _triangles(mesh):
    corners = mesh.positions[mesh.indices].astype(numpy.float64)
    normal = numpy.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = numpy.linalg.norm(normal, axis=1)
    unit_z = numpy.divide(normal[:, 2], length, out=numpy.zeros_like(length), where=length > 0)
    return corners, unit_z, length


def lint_steep(mesh, slope):
    """Walkable faces whose normal is more than slope degrees from +Z."""
    _, unit_z, length = _triangles(mesh)
    steep = (mesh.walkable != 0) & (length > 0) & (unit_z < numpy.cos(numpy.radians(slope)) - 1e-6)
    return [(int(t), "walkable %s face %.0f degrees steep (walkable slope %.0f)" % (
        walkmesh.surfaces()[int(mesh.surfaces[t])].name, numpy.degrees(numpy.arccos(numpy.clip(unit_z[t], -1, 1))),
        slope)) for t in numpy.nonzero(steep)[0]]


def lint_hidden(mesh, clearance=HIDDEN_CLEARANCE):
    """Walkable faces whose centre has a blocking, non-vertical face within clearance above it."""
    corners, unit_z, _ = _triangles(mesh)
    blocking = numpy.nonzero((mesh.walkable == 0) & (numpy.abs(unit_z) > 0.1))[0]
    if not len(blocking):
        return []
    tree = BVHTree.FromPolygons([Vector(p) for p in mesh.positions.tolist()],
                                mesh.indices[blocking].tolist(), all_triangles=True)
    found = []
    for t in numpy.nonzero(mesh.walkable != 0)[0]:
        centre = Vector(corners[t].mean(axis=0))
        _, _, index, distance = tree.ray_cast(centre + Vector((0, 0, 1e-4)), Vector((0, 0, 1)), clearance)
        if index is not None:
            found.append((int(t), "walkable face under blocking face %d, %.2f above" % (blocking[index], distance)))
    return found


def _open_edges(mesh):
    """(triangle, a, b) of each walkable triangle edge no other walkable triangle shares."""
    count = {}
    walkable = numpy.nonzero(mesh.walkable != 0)[0]
    for t in walkable:
        for k in range(3):
            key = tuple(sorted((int(mesh.indices[t, k]), int(mesh.indices[t, (k + 1) % 3]))))
            count[key] = count.get(key, 0) + 1
    return [(int(t), int(mesh.indices[t, k]), int(mesh.indices[t, (k + 1) % 3])) for t in walkable for k in range(3)
            if count[tuple(sorted((int(mesh.indices[t, k]), int(mesh.indices[t, (k + 1) % 3]))))] == 1]


def _segment_distance(p, a, b):
    ab = b - a
    denominator = float(ab.dot(ab))
    s = 0.0 if denominator == 0 else min(1.0, max(0.0, float((p - a).dot(ab)) / denominator))
    return float(numpy.linalg.norm(p - (a + s * ab)))


def lint_holes(mesh, tolerance=HOLE_TOLERANCE):
    """Open walkable edges whose midpoint lies on another open walkable edge of the same object
    (within tolerance) without sharing its vertices: unwelded seams and T-junction cracks."""
    edges = _open_edges(mesh)
    if not edges:
        return []
    points = mesh.positions.astype(numpy.float64)
    middles = [(points[a] + points[b]) / 2 for _, a, b in edges]
    reach = max(float(numpy.linalg.norm(points[a] - points[b])) for _, a, b in edges) / 2 + tolerance
    tree = KDTree(len(edges))
    for i, middle in enumerate(middles):
        tree.insert(middle, i)
    tree.balance()
    found = {}
    for i, (t, a, b) in enumerate(edges):
        for _, j, _ in tree.find_range(middles[i], reach):
            u, c, d = edges[j]
            if j == i or u == t or {a, b} == {c, d} or mesh.objects[u] != mesh.objects[t]:
                continue
            if _segment_distance(middles[i], points[c], points[d]) <= tolerance:
                found.setdefault(t, "open edge %d-%d lies along face %d's edge without joining it" % (a, b, u))
    return sorted(found.items())


def run_lints(mesh, slope=45.0):
    """Every lint's findings as (kind, triangle, message)."""
    findings = [("steep", t, m) for t, m in lint_steep(mesh, slope)]
    findings += [("hidden", t, m) for t, m in lint_hidden(mesh)]
    findings += [("hole", t, m) for t, m in lint_holes(mesh)]
    return findings


class WalkmeshFinding(bpy.types.PropertyGroup):
    kind: StringProperty()
    message: StringProperty()
    object_name: StringProperty()
    face: IntProperty(default=-1)


class WALKMESH_UL_findings(bpy.types.UIList):
    def draw_item(self, _context, layout, _data, item, _icon, _active, _prop):
        icon = {"error": "ERROR", "warning": "INFO"}.get(item.kind, "FACESEL")
        layout.label(text="%s: %s" % (item.kind, item.message), icon=icon)


def _library_findings(objects, mesh):
    """The format's own validation of the objects as they would be exported."""
    source = objects[0].get(scene.FILE_PROP) or "walkmesh.wok"
    extension = os.path.splitext(source)[1] or ".wok"
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "check" + extension)
        walkmesh.write(mesh, path, overwrite=True, source=source if os.path.exists(source) else None)
        report = walkmesh.validate(path)
    return [(f.severity, -1, "%s: %s" % (f.location, f.message)) for f in report.findings]


def _triangle_faces(objects):
    """Per exported triangle: (object, polygon index)."""
    pairs = []
    for obj in sorted(objects, key=lambda o: o.get(scene.PART_PROP, 0)):
        obj.data.calc_loop_triangles()
        polygon = numpy.zeros(len(obj.data.loop_triangles), dtype=numpy.int32)
        obj.data.loop_triangles.foreach_get("polygon_index", polygon)
        pairs += [(obj, int(p)) for p in polygon]
    return pairs


def validate_objects(context, objects, slope):
    """Fills the scene's findings and selects the faces concerned; returns the findings."""
    mesh = scene.gather(objects)
    findings = run_lints(mesh, slope)
    try:
        findings += _library_findings(objects, mesh)
    except walkmesh.WalkmeshError as error:
        findings.append(("error", -1, str(error)))
    faces = _triangle_faces(objects)
    chosen = {obj.name: numpy.zeros(len(obj.data.polygons), dtype=bool) for obj in objects}
    context.scene.walkmesh_findings.clear()
    for kind, triangle, message in findings:
        item = context.scene.walkmesh_findings.add()
        item.kind, item.message = kind, message
        if triangle >= 0:
            obj, polygon = faces[triangle]
            item.object_name, item.face = obj.name, polygon
            chosen[obj.name][polygon] = True
    for obj in objects:
        select_faces(obj.data, chosen[obj.name])
    return findings


def select_faces(data, faces):
    """Selects exactly the faces of the mask (and their vertices and edges, as edit mode wants)."""
    data.polygons.foreach_set("select", faces)
    corners = numpy.zeros(len(data.loops), dtype=numpy.int32)
    data.loops.foreach_get("vertex_index", corners)
    starts = numpy.zeros(len(data.polygons), dtype=numpy.int32)
    totals = numpy.zeros(len(data.polygons), dtype=numpy.int32)
    data.polygons.foreach_get("loop_start", starts)
    data.polygons.foreach_get("loop_total", totals)
    vertices = numpy.zeros(len(data.vertices), dtype=bool)
    vertices[corners[numpy.repeat(faces, totals)]] = True
    data.vertices.foreach_set("select", vertices)
    edges = numpy.zeros(len(data.edges) * 2, dtype=numpy.int32)
    data.edges.foreach_get("vertices", edges)
    data.edges.foreach_set("select", vertices[edges].reshape(-1, 2).all(axis=1))


class WALKMESH_OT_validate(bpy.types.Operator):
    """Check the walkmesh: the format's own invariants and the steep, hidden and hole lints"""
    bl_idname = "walkmesh.validate"
    bl_label = "Validate"

    def execute(self, context):
        objects = files.export_objects(context.selected_objects or [context.active_object])
        if not objects:
            self.report({"ERROR"}, "select the walkmesh objects to validate")
            return {"CANCELLED"}
        editing = context.mode == "EDIT_MESH"
        if editing:
            bpy.ops.object.mode_set(mode="OBJECT")
        findings = validate_objects(context, objects, context.scene.walkmesh_panel.walkable_slope)
        if editing:
            bpy.ops.object.mode_set(mode="EDIT")
        self.report({"INFO"} if not findings else {"WARNING"}, "%d finding(s)" % len(findings))
        return {"FINISHED"}


CLASSES = (WalkmeshFinding, WALKMESH_UL_findings, WALKMESH_OT_validate)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.walkmesh_findings = bpy.props.CollectionProperty(type=WalkmeshFinding)
    bpy.types.Scene.walkmesh_finding_index = IntProperty(default=0)


def unregister():
    del bpy.types.Scene.walkmesh_finding_index
    del bpy.types.Scene.walkmesh_findings
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
