"""walkmesh: game walkmeshes (KotOR .wok/.pwk/.dwk, NWN2 .trn/.trx, WoW .wmo, OBJ/glTF/...) from
Python, on the walkmesh shared library through ctypes.

    import walkmesh
    mesh = walkmesh.read("room.wok")              # a Mesh: numpy arrays when numpy is installed
    walkmesh.write(mesh, "room.obj")
    walkmesh.convert("room.obj", "room.wok", overwrite=True)
    print(walkmesh.validate("room.wok").findings)

The library is found beside this package (libwalkmesh.so / libwalkmesh.dll), else at the path
in the WALKMESH_LIBRARY environment variable, else on the system's library path. Every failure
raises WalkmeshError carrying the library's result code (`code`, a Result) and message.
"""
from ._api import FormatInfo, SurfaceInfo, convert, formats, info, read, read_bytes, render, surface_id, \
    surfaces, validate, version, write
from ._context import Finding, Report
from ._game import BakeResult, Hit, KotorWalkmesh, Route, bake, query_height, raycast, route
from ._mesh import NO_TRANSITION, Mesh
from .errors import Result, WalkmeshError

__all__ = ["BakeResult", "Finding", "FormatInfo", "Hit", "KotorWalkmesh", "Mesh", "NO_TRANSITION", "Report",
           "Result", "Route", "SurfaceInfo", "WalkmeshError", "bake", "convert", "formats", "info", "query_height",
           "raycast", "read", "read_bytes", "render", "route", "surface_id", "surfaces", "validate", "version", "write"]
