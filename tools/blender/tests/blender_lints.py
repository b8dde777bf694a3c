"""Headless Blender: the Validate operator's lints on walkmeshes built to trigger each one (and on a
clean one, which gives none), then every lint over every corpus file, with counts printed."""
import os
import sys
import time

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
import addon_support as support  # noqa: E402

FLOOR = [(0, 0, 0), (4, 0, 0), (4, 4, 0), (0, 4, 0)]
FLOOR_FACES = [(0, 1, 2), (0, 2, 3)]


def built(walkmesh, name, positions, indices, surfaces):
    path = os.path.join(support.SCRATCH, name)
    walkmesh.write(walkmesh.Mesh(positions, indices, surfaces=surfaces), path, overwrite=True)
    return path


def cases(walkmesh):
    """name -> (file, the lint kind it must trigger or None)."""
    clean = built(walkmesh, "lint-clean.wok", FLOOR, FLOOR_FACES, ["stone"] * 2)
    # a wall given a floor material: grass, standing vertical
    steep = built(walkmesh, "lint-steep.wok", FLOOR + [(0, 0, 3), (4, 0, 3)], FLOOR_FACES + [(0, 4, 1), (1, 4, 5)],
                  ["stone", "stone", "grass", "grass"])
    # a blocking slab 0.5 above the floor
    slab = [(0, 0, 0.5), (4, 0, 0.5), (4, 4, 0.5), (0, 4, 0.5)]
    hidden = built(walkmesh, "lint-hidden.wok", FLOOR + slab, FLOOR_FACES + [(4, 5, 6), (4, 6, 7)],
                   ["stone", "stone", "nonwalk", "nonwalk"])
    # a second floor 1 cm away from the first: a crack along x = 4
    beside = [(4.01, 0, 0), (8, 0, 0), (8, 4, 0), (4.01, 4, 0)]
    hole = built(walkmesh, "lint-hole.wok", FLOOR + beside, FLOOR_FACES + [(4, 5, 6), (4, 6, 7)], ["stone"] * 4)
    return {"clean": (clean, None), "steep": (steep, "steep"), "hidden": (hidden, "hidden"), "hole": (hole, "hole")}


def lint_kinds(findings):
    return {kind for kind, _, _ in findings if kind in ("steep", "hidden", "hole")}


def check_built_files(addon):
    for name, (path, expected) in cases(addon.walkmesh).items():
        support.clear_scene()
        bpy.ops.import_scene.walkmesh_kotor(filepath=path)
        result = bpy.ops.walkmesh.validate()
        scene = bpy.context.scene
        kinds = {f.kind for f in scene.walkmesh_findings if f.kind in ("steep", "hidden", "hole")}
        if kinds != ({expected} if expected else set()):
            support.fail("%s: lints %s, expected %s" % (name, kinds, expected))
        obj = bpy.context.view_layer.objects.active
        selected = numpy.zeros(len(obj.data.polygons), dtype=bool)
        obj.data.polygons.foreach_get("select", selected)
        flagged = {f.face for f in scene.walkmesh_findings if f.face >= 0}
        if set(numpy.nonzero(selected)[0].tolist()) != flagged or (expected and not flagged):
            support.fail("%s: selected faces %s, findings name %s" % (name, numpy.nonzero(selected)[0], flagged))
        print("%s: %s -> %s" % (name, result, sorted((f.kind, f.face) for f in scene.walkmesh_findings)))


def corpus_counts(addon):
    totals, flagged, started = {"steep": 0, "hidden": 0, "hole": 0}, [], time.time()
    files = (support.corpus_files("bwm", (".wok", ".pwk", ".dwk")) + support.corpus_files("nwn2", (".trx", ".trn"))
             + support.corpus_files("nwn2-areas", (".trx", ".trn")) + support.corpus_files("wmo", (".wmo",)))
    for path in files:
        mesh = addon.walkmesh.read(path)
        slope = 60.0 if path.lower().endswith(".wmo") else 45.0  # the WMO reader's own walkable slope
        findings = addon.lints.run_lints(mesh, slope)
        per_kind = {k: sum(1 for f in findings if f[0] == k) for k in totals}
        for kind, count in per_kind.items():
            totals[kind] += count
        if findings:
            flagged.append((os.path.basename(path), per_kind))
    print("corpus lints over %d files in %.1f s: %s" % (len(files), time.time() - started, totals))
    for name, per_kind in flagged:
        print("  %s: %s" % (name, per_kind))


def main():
    addon = support.install_addon()
    check_built_files(addon)
    if support.CORPUS and os.path.isdir(support.CORPUS):
        corpus_counts(addon)
    print("PASS", flush=True)


main()
