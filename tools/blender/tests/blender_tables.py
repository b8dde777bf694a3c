"""Headless Blender: what the add-on shows of the files' own tables, against values read without
walkmesh (tools/python/tests/raw_files.py): every corpus NWN2 TRX/TRN's face attributes wm_tile
and wm_island against nwn-lib-d's dump (when the peer tool is there), and every corpus WMO's
wm_mopy_flags / wm_mopy_material (imported and "no collision" faces) against the group files'
MOPY bytes; the panel's "select faces with MOPY flag" selects exactly the faces with that bit,
and its flag box counts the faces per bit."""
import os
import sys

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python", "tests"))
import addon_support as support  # noqa: E402
import raw_files  # noqa: E402


def face_values(obj, name):
    values = numpy.zeros(len(obj.data.polygons), dtype=numpy.int32)
    obj.data.attributes[name].data.foreach_get("value", values)
    return values


def imported(path, family):
    support.clear_scene()
    getattr(bpy.ops.import_scene, "walkmesh_" + family)(filepath=path)
    return [o for o in bpy.data.objects if o.type == "MESH"]


def check_nwn2(walkmesh, path):
    islands, ranges, _ = raw_files.peer_dump(path)
    tile_of = raw_files.tile_of_file_triangles(ranges, len(islands))
    obj = [o for o in imported(path, "nwn2") if o.get("walkmesh_role") is None][0]
    file_triangle = walkmesh.nwn2_triangles(path).file_triangle  # which file triangle each face is
    expected_tile = [tile_of[t] for t in file_triangle]
    expected_island = [-1 if islands[t][0] == 0xFFFF else islands[t][0] for t in file_triangle]
    return (face_values(obj, "wm_tile").tolist() == expected_tile and
            face_values(obj, "wm_island").tolist() == expected_island)


def check_wmo(path):
    """Every face's flags and material equal the MOPY bytes of some triangle of its group, and the
    imported plus "no collision" faces together hold every MOPY record of the file once."""
    objects = imported(path, "wmo")
    seen = sorted((int(f), int(m)) for o in objects for f, m in
                  zip(face_values(o, "wm_mopy_flags"), face_values(o, "wm_mopy_material")))
    records = []
    for group in raw_files.group_files(path):
        _, flags, materials = raw_files.raw_group(group)
        records += list(zip(flags, materials))
    return seen == sorted(records), len(seen)


def check_select(objects):
    obj = [o for o in objects if o.get("walkmesh_role") is None and len(o.data.polygons)][0]
    bpy.context.view_layer.objects.active = obj
    bpy.ops.walkmesh.select_mopy_flag(flag=str(0x20))
    selected = numpy.zeros(len(obj.data.polygons), dtype=bool)
    obj.data.polygons.foreach_get("select", selected)
    return selected.tolist() == ((face_values(obj, "wm_mopy_flags") & 0x20) != 0).tolist()


class RecordingLayout:
    """Stands in for a panel's layout headless: records the labels drawn."""

    def __init__(self, labels):
        self.labels = labels
        self.flag = None

    def box(self):
        return self

    def row(self):
        return self

    def label(self, text="", icon="NONE"):
        self.labels.append(text)

    def operator(self, _idname, text="", icon="NONE"):
        return RecordingLayout(self.labels)


def check_panel(addon, obj):
    """The panel's flag box lists, per MOPY bit set on some face, how many faces have it."""
    labels = []
    addon.panel.draw_mopy_flags(RecordingLayout(labels), obj)
    flags = face_values(obj, "wm_mopy_flags")
    expected = ["0x%02x %s: %d" % (bit, name, ((flags & bit) != 0).sum())
                for bit, name in addon.games.MOPY_FLAGS if ((flags & bit) != 0).any()]
    return labels[1:] == expected and len(expected) > 0


def main():
    support.need_corpus("nwn2", "wmo", os.path.join("wmo", "warcraftnet__prisonHQ_Redridge.wmo"))
    addon = support.install_addon()
    failures, counts = [], {"nwn2": 0, "wmo": 0, "wmo faces": 0}
    if raw_files.have_peer():
        for path in support.corpus_files("nwn2", (".trx", ".trn")):
            counts["nwn2"] += 1
            if not check_nwn2(addon.walkmesh, path):
                failures.append(path)
    for path in support.corpus_files("wmo", (".wmo",)):
        same, faces = check_wmo(path)
        counts["wmo"] += 1
        counts["wmo faces"] += faces
        if not same:
            failures.append(path)
    redridge = imported(os.path.join(support.CORPUS, "wmo", "warcraftnet__prisonHQ_Redridge.wmo"), "wmo")
    if not check_select(redridge):
        failures.append("select_mopy_flag")
    if not check_panel(addon, [o for o in redridge if len(o.data.polygons)][0]):
        failures.append("panel: MOPY flag counts")
    print("tables checked: %s" % counts)
    if failures:
        support.fail("%d file(s) differ: %s" % (len(failures), ", ".join(failures)))
    if counts["wmo"] < 10 or (raw_files.have_peer() and counts["nwn2"] < 10):
        support.fail("too few corpus files: %s" % counts)
    print("PASS", flush=True)


main()
