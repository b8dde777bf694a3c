#!/usr/bin/env python3
"""Regenerates the project's own sample meshes in this folder (run by hand; the
outputs are committed). Game coordinates are Z-up; OBJ files are written Y-up
as Blender exports them: (x, y, z)_game -> (x, z, -y)_obj."""
import base64, json, struct

def write_obj(path, comment, verts, groups):
    """verts: list of game (x, y, z); groups: list of (object, material, faces)."""
    with open(path, "w") as f:
        f.write(f"# {comment}\n# Y-up (Blender default); walkmesh converts to Z-up game axes.\n")
        if any(m for _, m, _ in groups):
            f.write(f"mtllib {path.rsplit('.', 1)[0]}.mtl\n")
        for x, y, z in verts:
            f.write(f"v {x:g} {z:g} {-y:g}\n")
        current = None
        for obj, mat, faces in groups:
            if obj != current:
                f.write(f"o {obj}\n")
                current = obj
            if mat:
                f.write(f"usemtl {mat}\n")
            for face in faces:
                f.write("f " + " ".join(str(i + 1) for i in face) + "\n")
    mats = sorted({m for _, m, _ in groups if m})
    if mats:
        colours = {"stone": "0.47 0.66 0.63", "grass": "0.26 0.63 0.28", "nonwalk": "0.9 0.22 0.21",
                   "door": "0.0 0.54 0.48"}
        with open(path.rsplit('.', 1)[0] + ".mtl", "w") as f:
            for m in mats:
                f.write(f"newmtl {m}\nKd {colours.get(m, '0.5 0.5 0.5')}\n\n")

class Grid:
    """Shares vertices by position so seams are closed."""
    def __init__(self):
        self.verts, self.index = [], {}
    def v(self, x, y, z):
        key = (round(x, 6), round(y, 6), round(z, 6))
        if key not in self.index:
            self.index[key] = len(self.verts)
            self.verts.append(key)
        return self.index[key]
    def quad(self, a, b, c, d):
        """Counter-clockwise seen from the front: two triangles."""
        return [(a, b, c), (a, c, d)]

def courtyard():
    g = Grid()
    grass, stone, walls = [], [], []
    for i in range(5):
        for j in range(5):
            if (i, j) == (2, 2):
                continue  # the pillar stands here
            x0, y0 = 2 * i, 2 * j
            q = g.quad(g.v(x0, y0, 0), g.v(x0 + 2, y0, 0), g.v(x0 + 2, y0 + 2, 0), g.v(x0, y0 + 2, 0))
            (grass if x0 < 4 else stone).extend(q)
    # pillar walls facing outwards around the hole x 4..6, y 4..6, 3 m high
    corners = [(4, 4), (6, 4), (6, 6), (4, 6)]
    for k in range(4):
        (xa, ya), (xb, yb) = corners[k], corners[(k + 1) % 4]
        # (b - a) x (c - a) points away from the pillar's centre: the walls face outwards
        walls.extend(g.quad(g.v(xa, ya, 0), g.v(xb, yb, 0), g.v(xb, yb, 3), g.v(xa, ya, 3)))
    write_obj("courtyard.obj", "Courtyard 10x10 m with a 2x2 m pillar in the middle; grass west, stone east.",
              g.verts, [("courtyard", "grass", grass), ("courtyard", "stone", stone), ("pillar", "nonwalk", walls)])
    return g.verts, grass, stone, walls

def ramp():
    g = Grid()
    faces = []
    faces += g.quad(g.v(0, 0, 0), g.v(4, 0, 0), g.v(4, 4, 0), g.v(0, 4, 0))      # lower floor
    faces += g.quad(g.v(4, 0, 0), g.v(8, 0, 2), g.v(8, 4, 2), g.v(4, 4, 0))      # 26.6 degree ramp
    faces += g.quad(g.v(8, 0, 2), g.v(12, 0, 2), g.v(12, 4, 2), g.v(8, 4, 2))    # upper floor
    faces += g.quad(g.v(12, 0, 2), g.v(12, 0, 5), g.v(12, 4, 5), g.v(12, 4, 2))  # wall at the top end
    write_obj("ramp.obj", "Ramp without materials: floor, 26.6 degree slope, platform, vertical wall. "
              "Use --walkable-slope.", g.verts, [("ramp", None, faces)])

def two_rooms():
    g = Grid()
    rooms, door = [], []
    for x0 in (0, 8):  # two 6x6 m rooms of 2 m cells
        for i in range(3):
            for j in range(3):
                xa, ya = x0 + 2 * i, 2 * j
                rooms += g.quad(g.v(xa, ya, 0), g.v(xa + 2, ya, 0), g.v(xa + 2, ya + 2, 0), g.v(xa, ya + 2, 0))
    door += g.quad(g.v(6, 2, 0), g.v(8, 2, 0), g.v(8, 4, 0), g.v(6, 4, 0))  # the doorway joins them
    write_obj("two_rooms.obj", "Two 6x6 m rooms joined by a 2 m doorway (surface door).", g.verts,
              [("room_a", "stone", rooms[:18]), ("doorway", "door", door), ("room_b", "stone", rooms[18:])])

def courtyard_gltf(verts, grass, stone, walls):
    """The courtyard as glTF (Y-up by the spec), its node moved 100 m east and turned 90 degrees about
    the vertical axis, to show that node transforms are baked in."""
    yup = [(x, z, -y) for x, y, z in verts]
    pos = b"".join(struct.pack("<3f", *v) for v in yup)
    prims, blobs, views, accessors = [], [pos], [], []
    offset = len(pos)
    views.append({"buffer": 0, "byteOffset": 0, "byteLength": len(pos), "target": 34962})
    mins = [min(v[k] for v in yup) for k in range(3)]
    maxs = [max(v[k] for v in yup) for k in range(3)]
    accessors.append({"bufferView": 0, "componentType": 5126, "count": len(yup), "type": "VEC3", "min": mins, "max": maxs})
    materials = []
    for m, (name, faces, colour) in enumerate([("grass", grass, [0.26, 0.63, 0.28, 1]), ("stone", stone, [0.47, 0.66, 0.63, 1]),
                                               ("nonwalk", walls, [0.9, 0.22, 0.21, 1])]):
        idx = b"".join(struct.pack("<3H", *f) for f in faces)
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(idx), "target": 34963})
        accessors.append({"bufferView": len(views) - 1, "componentType": 5123, "count": 3 * len(faces), "type": "SCALAR"})
        blobs.append(idx)
        offset += len(idx)
        prims.append({"attributes": {"POSITION": 0}, "indices": len(accessors) - 1, "material": m})
        materials.append({"name": name, "pbrMetallicRoughness": {"baseColorFactor": colour}})
    data = b"".join(blobs)
    doc = {"asset": {"version": "2.0", "generator": "walkmesh corpus/make_samples.py"},
           "scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"name": "courtyard", "mesh": 0, "translation": [100, 0, 0], "rotation": [0, 0.70710678, 0, 0.70710678]}],
           "meshes": [{"name": "courtyard", "primitives": prims}], "materials": materials,
           "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
           "bufferViews": views, "accessors": accessors}
    with open("courtyard.gltf", "w") as f:
        json.dump(doc, f, indent=1)

if __name__ == "__main__":
    v, gr, st, wa = courtyard()
    ramp()
    two_rooms()
    courtyard_gltf(v, gr, st, wa)
