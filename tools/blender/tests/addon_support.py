"""Shared by the headless Blender tests: install the add-on zip the way a user does (the
extension installer where the Blender version has it, else the legacy add-on install), find the
corpus, and fail or skip with an exit code CTest understands."""
import os
import sys

import addon_utils
import bpy

SKIP = 77
CORPUS = os.environ.get("WALKMESH_CORPUS_DIR") or os.environ.get("WALKMESH_CORPUS_FALLBACK", "")
SCRATCH = os.environ.get("WALKMESH_TEST_SCRATCH") or os.path.join(os.getcwd(), "scratch")
os.makedirs(SCRATCH, exist_ok=True)


def zip_argument():
    arguments = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not arguments or not os.path.exists(arguments[0]):
        fail("usage: blender -b --python SCRIPT -- ADDON.zip")
    return arguments[0]


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def skip(message):
    print("SKIP: " + message, flush=True)
    sys.exit(SKIP)


def install_addon():
    """Installs and enables the zip; returns the add-on module."""
    path = zip_argument()
    if bpy.app.version >= (4, 2, 0):
        bpy.ops.extensions.package_install_files(filepath=path, repo="user_default", enable_on_install=True)
    else:
        result = bpy.ops.preferences.addon_install(filepath=path, overwrite=True)
        if result != {"FINISHED"}:
            fail("addon_install: %s" % result)
        bpy.ops.preferences.addon_enable(module="walkmesh_blender")
    for module in addon_utils.modules():
        if module.__name__.endswith("walkmesh_blender"):
            return sys.modules[module.__name__]
    fail("walkmesh_blender is not among the installed add-ons")


def corpus_files(folder, extensions):
    directory = os.path.join(CORPUS, folder)
    if not os.path.isdir(directory):
        return []
    return sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.lower().endswith(extensions))


def need_corpus(*needed):
    """Skips unless the corpus is there with each needed file or folder (relative to it)."""
    if not (CORPUS and os.path.isdir(CORPUS)):
        skip("no corpus (WALKMESH_CORPUS_DIR)")
    missing = [n for n in needed if not os.path.exists(os.path.join(CORPUS, n))]
    if missing:
        skip("not in the corpus at %s: %s" % (CORPUS, ", ".join(missing)))


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    for mesh in list(bpy.data.meshes):
        bpy.data.meshes.remove(mesh)
    for collection in list(bpy.data.collections):
        bpy.data.collections.remove(collection)


def same_bytes(a, b):
    with open(a, "rb") as first, open(b, "rb") as second:
        return first.read() == second.read()
