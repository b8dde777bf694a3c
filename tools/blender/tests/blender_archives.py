"""Headless Blender: File > Import opens a walkmesh inside a module ("module.mod/member.pwk"), as
the package's read() does. Every KotOR walkmesh member of the corpus modules is imported; the
object's triangles are the member's (read here from the ERF's own tables with struct, not through
walkmesh) and the hook empties sit at the member header's floats."""
import os
import struct
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import addon_support as support  # noqa: E402

WALKMESH_TYPES = {2016: ".wok", 2052: ".dwk", 2053: ".pwk"}  # resource type ids (xoreos, PyKotor)


def erf_members(path):
    """{name.ext: bytes} of an ERF V1.0 module's walkmesh members: its key list (16-byte resrefs,
    type at +20) and resource list (offset, size) as the format documentation lays them out."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[4:8] != b"V1.0":
        return {}
    count, keys, resources = struct.unpack_from("<I4xII", data, 16)
    members = {}
    for i in range(count):
        resref = data[keys + 24 * i:keys + 24 * i + 16].split(b"\0")[0].decode("ascii", "replace")
        kind = struct.unpack_from("<H", data, keys + 24 * i + 20)[0]
        offset, size = struct.unpack_from("<II", data, resources + 8 * i)
        if kind in WALKMESH_TYPES:
            members[resref.lower() + WALKMESH_TYPES[kind]] = data[offset:offset + size]
    return members


def check_member(module, name, data):
    support.clear_scene()
    path = os.path.join(module, name)
    result = bpy.ops.import_scene.walkmesh_kotor(filepath=path)
    if result != {"FINISHED"}:
        support.fail("%s: import %s" % (path, result))
    obj = bpy.context.view_layer.objects.active
    obj.data.calc_loop_triangles()
    face_count = struct.unpack_from("<I", data, 0x48 + 8)[0]  # FORMAT-NOTES 1: vertex count, offset, face count
    if len(obj.data.loop_triangles) != face_count:
        support.fail("%s: %d triangles imported, the member holds %d" % (path, len(obj.data.loop_triangles),
                                                                       face_count))
    floats = struct.unpack_from("<15f", data, 12)
    for child in obj.children:
        at = {"use_hook_1": 0, "use_hook_2": 3, "position": 12}.get(child.get("walkmesh_role"))
        if at is not None and any(abs(child.location[k] - floats[at + k]) > 1e-6 for k in range(3)):
            support.fail("%s: %s at %s, the header says %s" % (path, child.name, tuple(child.location),
                                                                floats[at:at + 3]))
    print("%s: %d triangles" % (path, face_count))


def main():
    support.need_corpus("archives")
    support.install_addon()
    checked = 0
    for module in support.corpus_files("archives", (".mod",)):
        for name, data in sorted(erf_members(module).items()):
            check_member(module, name, data)
            checked += 1
    if not checked:
        support.skip("no KotOR walkmesh member in the corpus modules")
    print("%d walkmesh members imported from modules" % checked)
    print("PASS", flush=True)


main()
