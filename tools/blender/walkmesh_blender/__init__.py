"""walkmesh for Blender: import, edit, validate and export game walkmeshes (KotOR .wok/.pwk/.dwk,
NWN2 .trx/.trn, WoW .wmo) through the walkmesh library bundled with the add-on."""
bl_info = {
    "name": "walkmesh",
    "author": "walkmesh contributors",
    "version": (0, 1, 0),
    "blender": (3, 4, 0),
    "location": "File > Import/Export; 3D View > Sidebar > Walkmesh",
    "description": "Game walkmeshes: KotOR WOK/PWK/DWK, NWN2 TRX/TRN, WoW WMO collision",
    "category": "Import-Export",
}

if "bpy" in locals():  # re-enabling the add-on in one session
    import importlib
    for _module in (scene, games, files, panel, lints, routes, generate):  # noqa: F821
        importlib.reload(_module)
else:
    from . import files, games, generate, lints, panel, routes, scene  # noqa: F401

import bpy  # noqa: E402


def register():
    files.register()
    panel.register()
    lints.register()
    routes.register()
    generate.register()


def unregister():
    generate.unregister()
    routes.unregister()
    lints.unregister()
    panel.unregister()
    files.unregister()
