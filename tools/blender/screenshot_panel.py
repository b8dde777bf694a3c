"""Takes the README's picture of the add-on's panel from a real Blender window (not headless:
run it under a virtual X server, Debian's xvfb):

    blender -b --factory-startup --python-expr "import bpy; bpy.ops.wm.save_as_mainfile(filepath='empty.blend')"
    xvfb-run -s "-screen 0 1400x860x24" blender --factory-startup --enable-event-simulate empty.blend \
        --python tools/blender/screenshot_panel.py -- build/tools/blender/walkmesh_blender-0.1.0.zip docs/pictures/blender-panel.png

(a file given on the command line keeps the splash screen away).

It installs the zip, converts the project's own sample corpus/courtyard.obj into a WOK with a
wall given a floor material, imports it, validates it (the steep lint selects the wall) and
screenshots the window with the Walkmesh sidebar open."""
import os
import sys

import bpy

ARGUMENTS = sys.argv[sys.argv.index("--") + 1:]
ZIP, PICTURE = ARGUMENTS[0], os.path.abspath(ARGUMENTS[1])
SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "corpus", "courtyard.obj")


def prepare():
    bpy.ops.preferences.addon_install(filepath=os.path.abspath(ZIP), overwrite=True)
    bpy.ops.preferences.addon_enable(module="walkmesh_blender")
    addon = sys.modules["walkmesh_blender"]
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    mesh = addon.walkmesh.read(SAMPLE)
    # a wall of grass beside the courtyard: what the steep lint is for
    low, high = mesh.positions.min(axis=0), mesh.positions.max(axis=0)
    import numpy
    wall = numpy.array([(low[0], low[1], 0), (high[0], low[1], 0), (high[0], low[1], 3), (low[0], low[1], 3)],
                       dtype=numpy.float32)
    base = len(mesh.positions)
    mesh.positions = numpy.concatenate([mesh.positions, wall])
    mesh.indices = numpy.concatenate([mesh.indices, numpy.array([(base, base + 2, base + 1), (base, base + 3, base + 2)],
                                                                dtype=numpy.uint32)])
    grass = [s.id for s in addon.walkmesh.surfaces() if s.name == "grass"][0]
    mesh.surfaces = numpy.concatenate([mesh.surfaces, numpy.array([grass, grass], dtype=numpy.uint16)])
    mesh.walkable = numpy.concatenate([mesh.walkable, numpy.ones(2, dtype=numpy.uint8)])
    mesh.objects = numpy.concatenate([mesh.objects, numpy.zeros(2, dtype=numpy.uint16)])
    mesh.transitions = numpy.concatenate([mesh.transitions, numpy.full((2, 3), -1, dtype=numpy.int32)])
    path = os.path.join(os.path.dirname(PICTURE), "courtyard-wall.wok")
    addon.walkmesh.write(mesh, path, overwrite=True)
    bpy.ops.import_scene.walkmesh_kotor(filepath=path)
    os.remove(path)
    bpy.ops.walkmesh.validate()
    bpy.ops.object.mode_set(mode="EDIT")  # the faces the findings name show selected
    bpy.ops.mesh.select_mode(type="FACE")


def show(window):
    for area in window.screen.areas:
        if area.type == "VIEW_3D":
            space = area.spaces.active
            space.show_region_ui = True
            space.shading.type = "SOLID"
            space.shading.color_type = "MATERIAL"
            space.region_3d.view_rotation = __import__("mathutils").Euler((0.9, 0, 0.6)).to_quaternion()
            space.region_3d.view_location = (5, 5, 0)
            space.region_3d.view_distance = 24
            for region in area.regions:
                if region.type == "UI":
                    open_walkmesh_tab(window, region)


def open_walkmesh_tab(window, region):
    """Clicks the sidebar's Walkmesh tab (Blender 3.4 has no property for the active tab): the
    tabs run down the region's right edge, Item, Tool and View first, then Walkmesh (needs
    --enable-event-simulate)."""
    if hasattr(region, "active_panel_category"):
        region.active_panel_category = "Walkmesh"
        return
    x, y = region.x + region.width - 10, region.y + region.height - 170
    window.event_simulate(type="MOUSEMOVE", value="NOTHING", x=x, y=y)
    window.event_simulate(type="LEFTMOUSE", value="PRESS", x=x, y=y)
    window.event_simulate(type="LEFTMOUSE", value="RELEASE", x=x, y=y)


def shoot():
    window = bpy.context.window_manager.windows[0]
    with bpy.context.temp_override(window=window):
        bpy.ops.screen.screenshot(filepath=PICTURE)
    bpy.ops.wm.quit_blender()


def step_one():
    try:
        prepare()
    except Exception:
        bpy.ops.wm.quit_blender()
        raise
    show(bpy.context.window_manager.windows[0])
    bpy.app.timers.register(shoot, first_interval=2.0)


bpy.app.timers.register(step_one, first_interval=1.0)
