"""Headless Blender: the installed add-on imports every corpus WOK/PWK/DWK, TRX/TRN and WMO (root
and group) through File > Import and exports it unchanged through File > Export.
WOK/PWK/DWK and TRX/TRN must come back byte-identical (so geometry, surfaces, tiles and path
tables are equal); WMO collision must be equal triangle for triangle."""
import os
import sys
import time

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
import addon_support as support  # noqa: E402


def roundtrip(addon, path, family):
    support.clear_scene()
    getattr(bpy.ops.import_scene, "walkmesh_" + family)(filepath=path)
    target = os.path.join(support.SCRATCH, "blender-" + os.path.basename(path))
    if os.path.exists(target):
        os.remove(target)
    getattr(bpy.ops.export_scene, "walkmesh_" + family)(filepath=target)
    return target


def check_wmo(walkmesh, original, exported):
    before, after = walkmesh.read(original), walkmesh.read(exported)
    key = lambda m: sorted(map(tuple, numpy.sort(m.positions[m.indices].round(4), axis=1).reshape(-1, 9).tolist()))
    return key(before) == key(after) and sorted(before.walkable.tolist()) == sorted(after.walkable.tolist())


def main():
    support.need_corpus("bwm", "nwn2", "nwn2-areas", "wmo")
    addon = support.install_addon()
    walkmesh = addon.walkmesh
    families = [("bwm", (".wok", ".pwk", ".dwk"), "kotor"), ("nwn2", (".trx", ".trn"), "nwn2"),
                ("nwn2-areas", (".trx", ".trn"), "nwn2"), ("wmo", (".wmo",), "wmo")]
    failures, counts, started = [], {}, time.time()
    for folder, extensions, family in families:
        for path in support.corpus_files(folder, extensions):
            if family == "wmo" and walkmesh.read(path).triangle_count == 0:
                counts["wmo without collision (LOD)"] = counts.get("wmo without collision (LOD)", 0) + 1
                continue
            target = roundtrip(addon, path, family)
            same = check_wmo(walkmesh, path, target) if family == "wmo" else support.same_bytes(path, target)
            counts[family] = counts.get(family, 0) + 1
            if not same:
                failures.append(path)
    print("round trips: %s in %.1f s" % (counts, time.time() - started))
    if failures:
        support.fail("%d file(s) changed: %s" % (len(failures), ", ".join(failures)))
    if counts.get("kotor", 0) < 20 or counts.get("nwn2", 0) < 80 or counts.get("wmo", 0) < 10:
        support.fail("too few corpus files: %s" % counts)
    print("PASS", flush=True)


main()
