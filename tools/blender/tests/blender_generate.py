"""Headless Blender: a corpus room's render meshes put in the scene as objects, selected, and
"Generate walkmesh" run on them with its defaults; the .wok it writes is compared byte for byte
with `walkmesh generate ROOM.mdl` (the CLI, a separate program, reading the model itself), and
the new object is checked to be walkable."""
import os
import subprocess
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import addon_support as support  # noqa: E402

ROOM = "pykotor-generated_kit-blackvulkar-m10aa_01c.mdl"


def main():
    addon = support.install_addon()
    support.need_corpus(os.path.join("bwm-models", ROOM))
    cli = os.environ.get("WALKMESH_CLI")
    if not cli:
        support.skip("WALKMESH_CLI not set")
    walkmesh, scene = addon.walkmesh, addon.scene
    model = os.path.join(support.CORPUS, "bwm-models", ROOM)
    render = walkmesh.read(model, options={"geometry": "render"})
    objects = scene.add_objects(render, model, bpy.context.collection)
    for obj in bpy.context.scene.objects:
        obj.select_set(obj in objects)
    ours = os.path.join(support.SCRATCH, "blender_generated.wok")
    theirs = os.path.join(support.SCRATCH, "cli_generated.wok")
    result = bpy.ops.walkmesh.generate(filepath=ours)
    if result != {"FINISHED"}:
        support.fail("walkmesh.generate: %s" % result)
    subprocess.run([cli, "generate", model, theirs, "--force", "-q"], check=True)
    with open(ours, "rb") as a, open(theirs, "rb") as b:
        if a.read() != b.read():
            support.fail("the add-on's .wok differs from the CLI's on the same model")
    made = bpy.context.view_layer.objects.active
    if made is None or made in objects or len(made.data.polygons) == 0:
        support.fail("no new walkmesh object")
    walkable = scene.get_attribute(made.data, scene.WALKABLE_ATTR, len(made.data.polygons), 0)
    if not walkable.all():
        support.fail("generated faces not walkable")
    print("OK: %d faces, the same file as the CLI" % len(made.data.polygons), flush=True)


main()
