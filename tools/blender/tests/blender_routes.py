"""Headless Blender: the Route operator draws walkmesh.path's waypoints between two points of an
imported corpus walkmesh, and Select Unreachable selects exactly the faces of the regions
walkmesh.reach lists (their face counts summed here) for a character at the 3D cursor."""
import os
import sys

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
import addon_support as support  # noqa: E402


def walkable_centres(mesh):
    corners = mesh.positions[mesh.indices].astype(numpy.float64)
    plan = numpy.cross(corners[:, 1, :2] - corners[:, 0, :2], corners[:, 2, :2] - corners[:, 0, :2])
    chosen = numpy.nonzero((mesh.walkable != 0) & (numpy.abs(plan) > 1e-3))[0]
    return [tuple(corners[t].mean(axis=0)) for t in chosen]


def check_file(addon, path):
    support.clear_scene()
    bpy.ops.import_scene.walkmesh_kotor(filepath=path)
    obj = bpy.context.view_layer.objects.active
    mesh = addon.walkmesh.read(path)
    centres = walkable_centres(mesh)
    start, goal = centres[0], centres[len(centres) // 2]
    expected = addon.walkmesh.path(path, start, goal)
    result = bpy.ops.walkmesh.route(start=start, goal=goal)
    if expected is None:
        if result != {"CANCELLED"}:
            support.fail("%s: no route, yet the operator drew one" % path)
    else:
        route = bpy.data.objects.get(addon.routes.ROUTE_NAME)
        points = [tuple(p.co[:3]) for p in route.data.splines[0].points] if route else []
        if len(points) != len(expected.points) or any(
                abs(a[0] - b[0]) > 1e-4 or abs(a[1] - b[1]) > 1e-4 for a, b in zip(points, expected.points)):
            support.fail("%s: route drawn %s, walkmesh.path gives %s" % (path, points, expected.points))
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    bpy.context.scene.cursor.location = start
    reach = addon.walkmesh.reach(path, start)
    bpy.ops.walkmesh.select_unreachable()
    selected = numpy.zeros(len(obj.data.polygons), dtype=bool)
    obj.data.polygons.foreach_get("select", selected)
    obj.data.calc_loop_triangles()
    wanted = sum(r.faces for r in reach.unreachable)
    triangles = numpy.zeros(len(obj.data.loop_triangles), dtype=numpy.int32)
    obj.data.loop_triangles.foreach_get("polygon_index", triangles)
    got = int(selected[triangles].sum())
    if got != wanted:
        support.fail("%s: %d triangles selected, the unreachable regions hold %d" % (path, got, wanted))
    print("%s: route of %d points, %d unreachable regions (%d triangles) selected" % (
        os.path.basename(path), len(expected.points) if expected else 0, len(reach.unreachable), got))


def main():
    support.need_corpus()
    addon = support.install_addon()
    for path in support.corpus_files("bwm", (".wok",))[:6]:
        check_file(addon, path)
    print("PASS", flush=True)


main()
