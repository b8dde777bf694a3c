"""The add-on zip as shipped, without Blender (system python3 >= 3.11 for tomllib):
  - layout: one folder walkmesh_blender/ with the add-on, LICENSE, THIRD-PARTY-NOTICES.txt, the
    Python package and its library; bl_info for the legacy install (Blender 3.4+);
  - blender_manifest.toml against the extension manifest schema of Blender 4.2+ (the rules of
    Blender's own validator, blender_ext.py in --strict mode, restated here): required keys and
    types, id a Python identifier without "__" or edge "_", semantic versions, tagline and
    permission texts of at most 64 characters not ending in punctuation, blender_version_min as
    three numbers, licence as SPDX names, permissions a table of known keys, platforms known
    names and exactly those whose library the zip holds, no wheels (none needed);
  - with Windows DLLs inside (WALKMESH_BLENDER_WINDOWS_DLLS): every DLL that libwalkmesh.dll
    needs, directly or through another, is in the zip or is a Windows system DLL; each has its
    notice; the package's loader, run as on Windows (sys.platform "win32"), adds the package's
    folder with os.add_dll_directory and loads <package>/libwalkmesh.dll first; and under Wine
    (when wine and MinGW are installed) the DLL loads as ctypes loads it (AddDllDirectory +
    LoadLibraryExW with ctypes' flags), exports every function the package's SYMBOLS names, and
    reads the courtyard glTF sample, so Assimp (opened at run time) is found beside it from a
    program running elsewhere, as Blender and python.exe do.
Not tested here: a Windows CPython or Blender importing the package for real.
    python3 addon_package.py ADDON.zip SOURCE_DIR"""
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile

TOP = "walkmesh_blender/"
KNOWN_PLATFORMS = {"windows-x64", "windows-arm64", "macos-x64", "macos-arm64", "linux-x64"}
PERMISSIONS = {"files", "network", "clipboard", "camera", "microphone"}
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")
SYSTEM_DLLS = {"kernel32", "user32", "advapi32", "shell32", "ole32", "oleaut32", "ws2_32", "bcrypt", "gdi32",
               "msvcrt", "ucrtbase", "ntdll", "shlwapi", "version", "rpcrt4", "crypt32", "secur32", "comdlg32"}
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def terse(text):
    """Blender's rule for taglines and permission reasons."""
    return (isinstance(text, str) and text == text.strip() and 0 < len(text) <= 64 and
            not re.search(r"[\x00-\x1f\x7f-\x9f]", text) and (text[-1].isalnum() or text[-1] in ")]}"))


def check_manifest(manifest, has_linux, has_windows):
    required = {"schema_version": str, "id": str, "version": str, "name": str, "tagline": str, "maintainer": str,
                "type": str, "blender_version_min": str, "license": list}
    for key, kind in required.items():
        check(isinstance(manifest.get(key), kind), "manifest: %s missing or not a %s" % (key, kind.__name__))
    ident = manifest.get("id", "")
    check(ident.isidentifier() and "__" not in ident and not ident.startswith("_") and not ident.endswith("_"),
          "manifest: id %r" % ident)
    for key in ("schema_version", "version"):
        check(SEMVER.match(str(manifest.get(key))), "manifest: %s %r is no semantic version" % (key, manifest.get(key)))
    check(terse(manifest.get("tagline")), "manifest: tagline %r (<= 64 characters, no final punctuation)"
          % manifest.get("tagline"))
    check(manifest.get("type") == "add-on", "manifest: type must be add-on")
    check(re.fullmatch(r"\d+\.\d+\.\d+", str(manifest.get("blender_version_min"))) and
          tuple(int(n) for n in manifest["blender_version_min"].split(".")) >= (4, 2, 0),
          "manifest: blender_version_min %r" % manifest.get("blender_version_min"))
    licences = manifest.get("license") or []
    check(licences and all(isinstance(l, str) and re.fullmatch(r"SPDX:[A-Za-z0-9.+-]+", l) for l in licences),
          "manifest: license %r (SPDX names)" % licences)
    permissions = manifest.get("permissions", {})
    check(isinstance(permissions, dict) and set(permissions) <= PERMISSIONS and
          all(terse(v) for v in permissions.values()), "manifest: permissions %r" % permissions)
    platforms = manifest.get("platforms")
    check(isinstance(platforms, list) and set(platforms) <= KNOWN_PLATFORMS, "manifest: platforms %r" % platforms)
    expected = {p for p, present in (("linux-x64", has_linux), ("windows-x64", has_windows)) if present}
    check(set(platforms or []) == expected, "manifest: platforms %r, the zip holds libraries for %r"
          % (platforms, sorted(expected)))
    check("wheels" not in manifest, "manifest: wheels listed, the add-on needs none")


def check_layout(archive, source_dir):
    names = archive.namelist()
    check(all(n.startswith(TOP) for n in names), "zip: everything under %s" % TOP)
    for needed in ("__init__.py", "blender_manifest.toml", "LICENSE", "THIRD-PARTY-NOTICES.txt",
                   "walkmesh/__init__.py", "walkmesh/_native.py"):
        check(TOP + needed in names, "zip: no %s" % needed)
    manifest = tomllib.loads(archive.read(TOP + "blender_manifest.toml").decode("utf-8"))
    tree = ast.parse(archive.read(TOP + "__init__.py").decode("utf-8"))
    bl_info = [ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and
               getattr(n.targets[0], "id", "") == "bl_info"][0]
    with open(os.path.join(source_dir, "core", "wm_version.h")) as handle:
        version = re.search(r'#define WALKMESH_VERSION "([^"]+)"', handle.read()).group(1)
    check(manifest.get("version") == version == ".".join(map(str, bl_info["version"])),
          "versions: manifest %s, bl_info %s, library %s" % (manifest.get("version"), bl_info["version"], version))
    check(tuple(bl_info["blender"]) <= (3, 4, 0), "bl_info: blender %r above Debian's 3.4" % (bl_info["blender"],))
    has_linux = TOP + "walkmesh/libwalkmesh.so" in names
    has_windows = TOP + "walkmesh/libwalkmesh.dll" in names
    check(has_linux or has_windows, "zip: no library")
    check_manifest(manifest, has_linux, has_windows)
    return has_windows


def imported_dlls(path):
    output = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", path], capture_output=True, text=True,
                            check=True).stdout
    return re.findall(r"DLL Name: (\S+)", output)


def opened_at_run_time(path):
    """The DLL names a DLL holds as text but does not import: those it opens itself (Assimp)."""
    with open(path, "rb") as handle:
        named = {m.decode().lower() for m in re.findall(rb"[A-Za-z0-9_.+-]+\.dll(?=\0)", handle.read())}
    imported = {n.lower() for n in imported_dlls(path)}
    return sorted(n for n in named - imported if n[:-4] not in SYSTEM_DLLS and n != os.path.basename(path).lower())


def check_dll_closure(folder):
    """Every DLL libwalkmesh.dll loads, when loaded or later (Assimp), directly or not, is
    beside it or a Windows system DLL."""
    present = {n.lower(): n for n in os.listdir(folder) if n.lower().endswith(".dll")}
    later = opened_at_run_time(os.path.join(folder, "libwalkmesh.dll"))
    check(later, "dll: libwalkmesh.dll names no DLL it opens at run time (Assimp)")
    todo, seen = ["libwalkmesh.dll"] + later, set()
    while todo:
        name = todo.pop().lower()
        if name in seen:
            continue
        seen.add(name)
        if name in present:
            todo += imported_dlls(os.path.join(folder, present[name]))
        else:
            check(name.startswith("api-ms-win-") or name[:-4] in SYSTEM_DLLS, "dll: %s needed, not in the zip" % name)
    with open(os.path.join(folder, "..", "THIRD-PARTY-NOTICES.txt"), encoding="utf-8") as handle:
        notices = handle.read().lower()
    for name in present:
        if name != "libwalkmesh.dll":
            core = re.sub(r"^lib|(-[\d.]+|[\d]+)?\.dll$", "", re.sub(r"-vc\d+-mt", "", name))
            check(core in notices, "notices: nothing about %s" % name)
    return sorted(seen & set(present))


LOADER_AS_ON_WINDOWS = r"""
import ctypes, json, os, sys
sys.platform = "win32"
calls = []
os.add_dll_directory = lambda folder: calls.append(["add_dll_directory", folder])
def fake_cdll(name, *args, **kwargs):
    calls.append(["CDLL", name])
    raise OSError("this is not Windows")
ctypes.CDLL = fake_cdll
sys.path.insert(0, sys.argv[1])
os.environ.pop("WALKMESH_LIBRARY", None)
from walkmesh import _native
try:
    _native.library()
except Exception as error:
    calls.append(["error", str(error)])
print(json.dumps({"calls": calls, "symbols": sorted(_native.SYMBOLS)}))
"""


def check_windows_loader(stage):
    package = os.path.join(stage, "walkmesh")
    run = subprocess.run([sys.executable, "-c", LOADER_AS_ON_WINDOWS, stage], capture_output=True, text=True)
    check(run.returncode == 0, "loader as on Windows: %s" % run.stderr)
    result = json.loads(run.stdout)
    calls = result["calls"]
    dll = os.path.join(package, "libwalkmesh.dll")
    check(calls[:2] == [["add_dll_directory", package], ["CDLL", dll]],
          "loader as on Windows: first calls %r, expected the package folder then %s" % (calls[:2], dll))
    return result["symbols"]


def check_under_wine(stage, symbols, scratch, source_dir):
    if not (shutil.which("wine") and shutil.which("x86_64-w64-mingw32-gcc")):
        print("wine or MinGW missing: the DLL was not loaded under Wine")
        return
    probe = os.path.join(scratch, "dll_probe.exe")
    headers = ["-I" + os.path.join(source_dir, folder) for folder in ("core", "formats")]
    subprocess.run(["x86_64-w64-mingw32-gcc", "-std=c11", "-O1", "-Wall", "-Werror", "-s"] + headers +
                   [os.path.join(os.path.dirname(__file__), "dll_probe.c"), "-o", probe], check=True)
    env = dict(os.environ, WINEPREFIX=os.path.join(scratch, "wine"), WINEDEBUG="-all",
               WINEDLLOVERRIDES="mscoree,mshtml=", TMPDIR=scratch)
    win = lambda p: "Z:" + p.replace("/", "\\")
    package = os.path.join(stage, "walkmesh")
    model = os.path.join(source_dir, "corpus", "courtyard.gltf")  # read through Assimp
    run = subprocess.run(["wine", probe, win(package), win(os.path.join(package, "libwalkmesh.dll")), win(model)] +
                         symbols, capture_output=True, text=True, env=env, timeout=600, cwd=scratch)
    check(run.returncode == 0, "wine: %s %s" % (run.stdout, run.stderr[-500:]))
    if os.path.exists(os.path.join(package, "walkmesh-recast.dll")):
        # The navmesh module, opened by the library beside itself, builds a navmesh of the model.
        built = re.search(r"^navmesh (\d+) polygons", run.stdout, re.M)
        check(built and int(built.group(1)) > 0, "wine: no navmesh through walkmesh-recast.dll: %s" % run.stdout)
    print("wine: " + run.stdout.strip().replace("\r", ""))


def main():
    zip_path, source_dir = sys.argv[1], sys.argv[2]
    scratch = os.environ.get("WALKMESH_TEST_SCRATCH") or os.path.join(os.getcwd(), "scratch")
    with zipfile.ZipFile(zip_path) as archive:
        has_windows = check_layout(archive, source_dir)
        stage = os.path.join(scratch, "addon-package")
        shutil.rmtree(stage, ignore_errors=True)
        archive.extractall(stage)
    stage = os.path.join(stage, TOP.rstrip("/"))
    if has_windows:
        loaded = check_dll_closure(os.path.join(stage, "walkmesh"))
        print("Windows DLLs loaded by libwalkmesh.dll, all in the zip: %s" % ", ".join(loaded))
        symbols = check_windows_loader(stage)
        check_under_wine(stage, symbols, scratch, source_dir)
    else:
        print("no Windows DLLs in this zip (configure with WALKMESH_BLENDER_WINDOWS_DLLS): Windows part not run")
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("PASS")


main()
