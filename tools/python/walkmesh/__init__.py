"""walkmesh: game walkmeshes (KotOR .wok/.pwk/.dwk, NWN2 .trn/.trx, WoW .wmo, OBJ/glTF/...) from
Python, on the walkmesh shared library through ctypes.

    import walkmesh
    mesh = walkmesh.read("room.wok")              # a Mesh: numpy arrays when numpy is installed
    walkmesh.write(mesh, "room.obj")
    walkmesh.convert("room.obj", "room.wok", overwrite=True)
    walkmesh.generate("m10aa_01c.mdl", "m10aa_01c.wok")   # a walkmesh from render geometry
    print(walkmesh.validate("room.wok").findings)

The library is found beside this package (libwalkmesh.so / libwalkmesh.dll), else at the path
in the WALKMESH_LIBRARY environment variable, else on the system's library path. Every failure
raises WalkmeshError carrying the library's result code (`code`, a Result) and message. Every
call takes limits=walkmesh.Limits(max_bytes, max_triangles, max_memory) for hostile input.
Paths are str, bytes or os.PathLike: None where a path is required, or a value of another type,
raises TypeError; a path with an embedded NUL raises ValueError, as Python's os calls do.
"""
from ._api import FormatInfo, SurfaceInfo, convert, formats, info, read, read_bytes, render, surface_id, \
    surfaces, validate, version, write
from ._context import Finding, Limits, Report
from ._generate import generate, generate_defaults
from ._game import BakeResult, Hit, KotorWalkmesh, Route, bake, file_bytes, query_height, raycast, route
from ._mesh import NO_TRANSITION, Mesh
from ._routes import NO_REGION, Path, Reach, Region, path, paths, reach
from ._tables import NO_ISLAND, NO_MOPY, NO_TILE, Nwn2Triangles, WmoTriangles, nwn2_triangles, wmo_triangles
from .errors import Result, WalkmeshError

__all__ = ["BakeResult", "Finding", "FormatInfo", "Hit", "KotorWalkmesh", "Limits", "Mesh", "NO_ISLAND",
           "NO_MOPY", "NO_REGION", "NO_TILE", "NO_TRANSITION", "Nwn2Triangles", "Path", "Reach", "Region",
           "Report", "Result", "Route", "SurfaceInfo", "WalkmeshError", "WmoTriangles", "bake", "convert",
           "file_bytes", "formats", "generate", "generate_defaults", "info", "nwn2_triangles", "path",
           "paths", "query_height", "raycast", "reach", "read", "read_bytes", "render", "route", "surface_id",
           "surfaces", "validate", "version", "wmo_triangles", "write"]
