"""Game files read without walkmesh, for tests (also the Blender add-on's): NWN2 tiles and
islands from nwn-lib-d's `nwn-trn aswm-dump` (the peer tool), WMO MOPY records from the group
files' bytes (FORMAT-NOTES section 3: chunk magics stored byte-reversed, MOGP = 68-byte header
then subchunks, MOPY = {u8 flags, u8 material} per triangle). No walkmesh import here."""
import functools
import os
import re
import struct
import subprocess
import sys

CORPUS = os.environ.get("WALKMESH_CORPUS_DIR") or os.environ.get("WALKMESH_CORPUS_FALLBACK", "")
NWN_TRN = os.environ.get("WALKMESH_NWN_TRN") or os.path.join(CORPUS, "..", "tools", "nwn-trn")


@functools.lru_cache(maxsize=None)
def peer_problem(tool=NWN_TRN):
    """Why the peer tool cannot be used (printed once, one line), or None when it starts. Exit 126
    or 127 is the shell's and the loader's "cannot run" (not executable; a library missing, such
    as nwn-trn's D runtime, Debian's libphobos2-ldc-shared100): the tests that need it skip."""
    problem = None
    if not os.path.isfile(tool) or not os.access(tool, os.X_OK):
        problem = "no nwn-trn (nwn-lib-d) peer tool at %s" % tool
    else:
        try:
            run = subprocess.run([tool, "--help"], capture_output=True, timeout=60)
            if run.returncode in (126, 127) or run.returncode < 0:
                said = run.stderr.decode("utf-8", "replace").strip().splitlines()
                problem = "nwn-trn at %s does not run (exit %d): %s" % (tool, run.returncode, said[0] if said else "")
        except OSError as error:
            problem = "nwn-trn at %s does not run: %s" % (tool, error)
    if problem:
        print("skipping the checks against the peer tool: " + problem, file=sys.stderr, flush=True)
    return problem


def have_peer():
    return peer_problem() is None


def peer_dump(path):
    """(per file triangle (island, flags), per tile (offset, count), grid width) from the peer's dump."""
    text = subprocess.run([NWN_TRN, "aswm-dump", path], capture_output=True, check=True).stdout
    text = text.decode("latin-1")  # tile and walkmesh names are raw bytes
    triangles = text.split("==== TRIANGLES ====", 1)[1].split("==== TILES HEADER ====", 1)[0]
    islands = [(int(i), int(f)) for i, f in re.findall(r"island: (\d+), flags: (\d+)", triangles)]
    tiles_part = text.split("==== TILES ====", 1)[1].split("==== ISLANDS ====", 1)[0]
    counts = [int(c) for c in re.findall(r"tri_cnt: (\d+)", tiles_part)]
    offsets = [int(o) for o in re.findall(r"triangles_offset: (\d+)", tiles_part)]
    width = int(re.search(r"tiles_grid_width: (\d+)", text).group(1))
    return islands, list(zip(offsets, counts)), width


def tile_of_file_triangles(ranges, count):
    tile = [-1] * count
    for index, (offset, length) in enumerate(ranges):
        for t in range(offset, min(offset + length, count)):
            tile[t] = index
    return tile


def chunks(data, start, end):
    """[(magic as named, payload offset, size)] of data[start:end]; magics are stored reversed."""
    found = []
    while start + 8 <= end:
        magic, size = data[start:start + 4][::-1].decode("ascii"), struct.unpack_from("<I", data, start + 4)[0]
        found.append((magic, start + 8, size))
        start += 8 + size
    return found


def raw_group(path):
    """(MOGP flags, MOPY flags, MOPY materials) of a group file, from its bytes."""
    with open(path, "rb") as handle:
        data = handle.read()
    _, at, size = [c for c in chunks(data, 0, len(data)) if c[0] == "MOGP"][0]
    group_flags = struct.unpack_from("<I", data, at + 8)[0]
    mopy = [c for c in chunks(data, at + 68, at + size) if c[0] == "MOPY"]
    if not mopy:
        return group_flags, [], []
    _, at, size = mopy[0]
    return group_flags, list(data[at:at + size:2]), list(data[at + 1:at + size:2])


def group_files(path):
    """The group files a WMO read covers: a root's X_NNN.wmo (MOHD group count), or the file itself."""
    with open(path, "rb") as handle:
        data = handle.read()
    listed = dict((m, (at, size)) for m, at, size in chunks(data, 0, len(data)))
    if "MOHD" not in listed:
        return [path]
    count = struct.unpack_from("<I", data, listed["MOHD"][0] + 4)[0]
    return ["%s_%03d.wmo" % (path[:-4], i) for i in range(count)]


def server_rule(flags):
    """FORMAT-NOTES 3: collidable = (flags & 0x08) || ((flags & 0x20) && !(flags & 0x04))."""
    return bool(flags & 0x08) or (bool(flags & 0x20) and not flags & 0x04)
