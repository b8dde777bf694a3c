"""Headless Blender: edit a corpus WOK by script through the add-on's panel operators (a surface on
selected faces, a room link on a selected open edge), export, and check that `walkmesh info`
(the CLI, a separate program) shows both."""
import os
import subprocess
import sys

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
import addon_support as support  # noqa: E402

SOURCE = "bwm/k1cp-m12aa_01f.wok"
ROOM = 9


def open_walkable_edge(data, walkable):
    """An edge used by exactly one walkable face that carries no link yet."""
    links = numpy.zeros(len(data.edges), dtype=numpy.int32)
    data.attributes["wm_transition"].data.foreach_get("value", links)
    uses = numpy.zeros(len(data.edges), dtype=numpy.int32)
    key_to_edge = {tuple(sorted(e.vertices)): e.index for e in data.edges}
    for polygon in data.polygons:
        if walkable[polygon.index]:
            for key in polygon.edge_keys:
                uses[key_to_edge[tuple(sorted(key))]] += 1
    candidates = numpy.nonzero((uses == 1) & (links < 0))[0]
    if not len(candidates):
        support.fail("no open walkable edge without a link")
    return int(candidates[0])


def cli_info(path):
    cli = os.environ.get("WALKMESH_CLI")
    if not cli:
        support.skip("WALKMESH_CLI not set")
    return subprocess.run([cli, "info", path], capture_output=True, text=True, check=True).stdout


def main():
    support.need_corpus(SOURCE)
    addon = support.install_addon()
    path = os.path.join(support.CORPUS, SOURCE)
    before = cli_info(path)
    bpy.ops.import_scene.walkmesh_kotor(filepath=path)
    obj = bpy.context.view_layer.objects.active
    data = obj.data
    walkable = numpy.zeros(len(data.polygons), dtype=numpy.int32)
    data.attributes["wm_walkable"].data.foreach_get("value", walkable)
    chosen = numpy.nonzero(walkable)[0][:4]
    grass = [s.id for s in addon.walkmesh.surfaces() if s.name == "grass"][0]
    data.polygons.foreach_set("select", numpy.isin(numpy.arange(len(data.polygons)), chosen))
    bpy.ops.walkmesh.set_surface(surface=str(grass))
    edge = open_walkable_edge(data, walkable)
    data.edges.foreach_set("select", numpy.arange(len(data.edges)) == edge)
    bpy.ops.walkmesh.set_room_link(value=ROOM)
    target = os.path.join(support.SCRATCH, "edited.wok")
    if os.path.exists(target):
        os.remove(target)
    bpy.ops.export_scene.walkmesh_kotor(filepath=target)
    after = cli_info(target)
    print(after)
    grass_line = [l for l in after.splitlines() if l.strip().startswith("grass ")]
    if "grass " in before or not grass_line or "%d triangles (%d walkable)" % (len(chosen), len(chosen)) not in grass_line[0]:
        support.fail("walkmesh info shows no 4 walkable grass faces: %s" % grass_line)
    count = lambda text: int([l for l in text.splitlines() if l.strip().startswith("transitions:")][0].split()[1])
    if count(after) != count(before) + 1:
        support.fail("transitions %d, expected %d" % (count(after), count(before) + 1))
    if "-> room %d" % ROOM in before or "-> room %d" % ROOM not in after:
        support.fail("room link %d not listed by walkmesh info" % ROOM)
    print("PASS", flush=True)


main()
