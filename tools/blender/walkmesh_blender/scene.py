"""A walkmesh.Mesh into Blender objects and back.

Every neutral object becomes a mesh object keeping the file's vertex and face order, so an
unchanged file exports byte-identical. Surfaces are materials named after the surface, from one
palette (the library's surface colours, blocking ones see-through); per face the walkable bit
("wm_walkable") and the surface it had ("wm_surface"); per edge the transition or room link
("wm_transition", -1 none)."""
import bpy
import numpy

from . import walkmesh

SURFACE_PROP = "walkmesh_surface"
FILE_PROP = "walkmesh_file"
PART_PROP = "walkmesh_part"
NAME_PROP = "walkmesh_name"
ROLE_PROP = "walkmesh_role"
WALKABLE_ATTR, SURFACE_ATTR, TRANSITION_ATTR = "wm_walkable", "wm_surface", "wm_transition"


def surface_material(surface):
    """The palette material of a surface id (made on first use)."""
    info = walkmesh.surfaces()[surface]
    material = bpy.data.materials.get(info.name)
    if material is None or material.get(SURFACE_PROP) != surface:
        material = bpy.data.materials.new(info.name)
        material[SURFACE_PROP] = surface
    red, green, blue = (c / 255.0 for c in info.color)
    # walkable opaque, blocking half see-through: visibly different in solid and material view
    material.diffuse_color = (red, green, blue, 1.0 if info.walkable else 0.45)
    material.blend_method = "OPAQUE" if info.walkable else "BLEND"
    return material


def material_surface(material):
    """The surface id a material stands for: the palette's own, else its name through the
    library's aliases; None when it names no surface."""
    if material is None:
        return None
    if SURFACE_PROP in material:
        return int(material[SURFACE_PROP])
    return walkmesh.surface_id(material.name)


def _set_attribute(mesh, name, domain, values):
    attribute = mesh.attributes.get(name) or mesh.attributes.new(name, "INT", domain)
    attribute.data.foreach_set("value", numpy.ascontiguousarray(values, dtype=numpy.int32))


def get_attribute(mesh, name, count, default):
    attribute = mesh.attributes.get(name)
    values = numpy.full(count, default, dtype=numpy.int32)
    if attribute is not None and len(attribute.data) == count:
        attribute.data.foreach_get("value", values)
    return values


def _edge_keys(mesh_data):
    edges = numpy.zeros(len(mesh_data.edges) * 2, dtype=numpy.int64)
    mesh_data.edges.foreach_get("vertices", edges)
    edges = edges.reshape(-1, 2)
    return numpy.minimum(edges[:, 0], edges[:, 1]) * (1 << 32) + numpy.maximum(edges[:, 0], edges[:, 1])


def _triangle_edge_keys(indices):
    a = indices.astype(numpy.int64)
    b = numpy.roll(a, -1, axis=1)
    return numpy.minimum(a, b) * (1 << 32) + numpy.maximum(a, b)


def _build_mesh(name, positions, indices, surfaces, walkable, transitions):
    data = bpy.data.meshes.new(name)
    data.vertices.add(len(positions))
    data.vertices.foreach_set("co", positions.reshape(-1))
    data.loops.add(len(indices) * 3)
    data.loops.foreach_set("vertex_index", indices.reshape(-1).astype(numpy.int32))
    data.polygons.add(len(indices))
    data.polygons.foreach_set("loop_start", numpy.arange(0, len(indices) * 3, 3, dtype=numpy.int32))
    data.polygons.foreach_set("loop_total", numpy.full(len(indices), 3, dtype=numpy.int32))
    data.update(calc_edges=True)
    used = sorted(set(int(s) for s in surfaces))
    for surface in used:
        data.materials.append(surface_material(surface))
    slot = {surface: i for i, surface in enumerate(used)}
    data.polygons.foreach_set("material_index", numpy.array([slot[int(s)] for s in surfaces], dtype=numpy.int32))
    _set_attribute(data, WALKABLE_ATTR, "FACE", walkable)
    _set_attribute(data, SURFACE_ATTR, "FACE", surfaces)
    keys = _edge_keys(data)
    order = numpy.argsort(keys)
    per_edge = numpy.full(len(keys), -1, dtype=numpy.int32)
    corner_keys = _triangle_edge_keys(indices).reshape(-1)
    marked = transitions.reshape(-1) >= 0
    where = order[numpy.searchsorted(keys, corner_keys[marked], sorter=order)]
    per_edge[where] = transitions.reshape(-1)[marked]
    _set_attribute(data, TRANSITION_ATTR, "EDGE", per_edge)
    return data


def add_objects(mesh, path, collection):
    """One Blender object per neutral object of mesh (read from path); returns them in order."""
    objects = []
    for part, name in enumerate(mesh.object_names):
        chosen = numpy.nonzero(mesh.objects == part)[0]
        indices = mesh.indices[chosen]
        if len(mesh.object_names) == 1:
            positions, local = mesh.positions, indices
        else:
            used, local = numpy.unique(indices, return_inverse=True)
            positions, local = mesh.positions[used], local.reshape(-1, 3)
        data = _build_mesh(name, positions, local, mesh.surfaces[chosen], mesh.walkable[chosen],
                           mesh.transitions[chosen])
        obj = bpy.data.objects.new(name, data)
        obj[FILE_PROP] = path
        obj[PART_PROP] = part
        obj[NAME_PROP] = name
        collection.objects.link(obj)
        objects.append(obj)
    return objects


def _object_arrays(obj):
    data = obj.data
    data.calc_loop_triangles()
    positions = numpy.zeros(len(data.vertices) * 3, dtype=numpy.float32)
    data.vertices.foreach_get("co", positions)
    positions = positions.reshape(-1, 3)
    if obj.matrix_world != obj.matrix_world.Identity(4):
        matrix = numpy.array(obj.matrix_world, dtype=numpy.float64)
        positions = (positions @ matrix[:3, :3].T + matrix[:3, 3]).astype(numpy.float32)
    triangles = len(data.loop_triangles)
    indices = numpy.zeros(triangles * 3, dtype=numpy.uint32)
    data.loop_triangles.foreach_get("vertices", indices)
    polygon = numpy.zeros(triangles, dtype=numpy.int32)
    data.loop_triangles.foreach_get("polygon_index", polygon)
    return data, positions, indices.reshape(-1, 3), polygon


def _face_surfaces(obj, data, polygon):
    slots = [material_surface(slot.material) for slot in obj.material_slots]
    material_index = numpy.zeros(len(data.polygons), dtype=numpy.int32)
    data.polygons.foreach_get("material_index", material_index)
    stored = get_attribute(data, SURFACE_ATTR, len(data.polygons), -1)
    walkable = get_attribute(data, WALKABLE_ATTR, len(data.polygons), -1)
    table = walkmesh.surfaces()
    faces = len(data.polygons)
    surfaces = numpy.zeros(faces, dtype=numpy.uint16)
    walk = numpy.zeros(faces, dtype=numpy.uint8)
    for face in range(faces):
        index = material_index[face]
        surface = slots[index] if index < len(slots) else None
        if surface is None:  # no or unknown material: the library classifies by slope
            surface = 0xFFFF
        surfaces[face] = surface
        if surface != 0xFFFF:
            keep = stored[face] == surface and walkable[face] >= 0
            walk[face] = walkable[face] if keep else table[surface].walkable
    return surfaces[polygon], walk[polygon]


def gather(objects):
    """A walkmesh.Mesh of the objects (in their part order): faces are triangulated, surfaces come
    from the materials, transitions from the edge attribute."""
    objects = sorted(objects, key=lambda o: o.get(PART_PROP, 0))
    pieces, offset = [], 0
    for part, obj in enumerate(objects):
        data, positions, indices, polygon = _object_arrays(obj)
        surfaces, walkable = _face_surfaces(obj, data, polygon)
        keys = _edge_keys(data)
        per_edge = get_attribute(data, TRANSITION_ATTR, len(keys), -1)
        order = numpy.argsort(keys)
        corner = _triangle_edge_keys(indices)
        found = order[numpy.searchsorted(keys, corner, sorter=order).clip(0, len(keys) - 1)]
        transitions = numpy.where(keys[found] == corner, per_edge[found], -1)
        transitions[walkable == 0] = -1  # links live on walkable faces' edges
        pieces.append((positions, indices + offset, surfaces, walkable, transitions,
                       numpy.full(len(indices), part, dtype=numpy.uint16)))
        offset += len(positions)
    joined = [numpy.concatenate([p[k] for p in pieces]) for k in range(6)]
    unknown = joined[2] == 0xFFFF
    mesh = walkmesh.Mesh(joined[0], joined[1], joined[2], joined[3], joined[5], joined[4],
                         [o.get(NAME_PROP, o.name) for o in objects])
    if unknown.any():
        _classify_by_slope(mesh, unknown)
    return mesh


def _classify_by_slope(mesh, unknown, slope=45.0):
    corners = mesh.positions[mesh.indices[unknown]]
    normal = numpy.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = numpy.linalg.norm(normal, axis=1)
    up = numpy.divide(normal[:, 2], length, out=numpy.zeros_like(length), where=length > 0)
    flat = up >= numpy.cos(numpy.radians(slope))
    mesh.surfaces[unknown] = numpy.where(flat, 4, 7)  # stone / nonwalk, as the library's slope rule
    mesh.walkable[unknown] = flat.astype(numpy.uint8)
