"""Archive members as paths: walkmesh.read("module.mod/room.wok") reads the member, write() into
"module.mod/new.wok" adds one. The module is built here with struct from the ERF layout (a
160-byte header, 24-byte keys, 8-byte resource entries), independently of walkmesh's writer, and
read back the same way."""
import os
import struct
import unittest

import walkmesh

from support import corpus_files, need_corpus, rows, scratch


def build_erf(members):
    """ERF V1.0 bytes of (resref, type, data) members."""
    count = len(members)
    keys, resources = 160, 160 + 24 * count
    offset = resources + 8 * count
    header = b"MOD V1.0" + struct.pack("<9I", 0, 0, count, 160, keys, resources, 125, 1, 0xFFFFFFFF) + bytes(116)
    key_list = b"".join(name.encode().ljust(16, b"\0") + struct.pack("<IHH", i, kind, 0)
                        for i, (name, kind, _) in enumerate(members))
    resource_list = b""
    for _, _, data in members:
        resource_list += struct.pack("<II", offset, len(data))
        offset += len(data)
    return header + key_list + resource_list + b"".join(data for _, _, data in members)


def read_erf(data):
    """{(resref, type): bytes} of ERF V1.0 bytes."""
    count, _, keys, resources = struct.unpack_from("<4I", data, 16)
    found = {}
    for i in range(count):
        name = data[keys + 24 * i:keys + 24 * i + 16].split(b"\0")[0].decode()
        kind = struct.unpack_from("<H", data, keys + 24 * i + 20)[0]
        offset, size = struct.unpack_from("<II", data, resources + 8 * i)
        found[(name, kind)] = data[offset:offset + size]
    return found


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


@need_corpus
class ArchivePaths(unittest.TestCase):
    def setUp(self):
        self.rooms = corpus_files("bwm", (".wok",))[:2]
        self.bytes = [read_bytes(path) for path in self.rooms]
        self.module = scratch("python-archive.mod")
        with open(self.module, "wb") as f:
            f.write(build_erf([("room_a", 2016, self.bytes[0]), ("room_b", 2016, self.bytes[1])]))

    def test_read_member_like_loose_file(self):
        for name, loose in (("ROOM_A.WOK", self.rooms[0]), ("room_b.wok", self.rooms[1])):
            member = walkmesh.read(os.path.join(self.module, name))
            expected = walkmesh.read(loose)
            self.assertEqual(rows(member.positions), rows(expected.positions))
            self.assertEqual(rows(member.indices), rows(expected.indices))

    def test_write_adds_a_member(self):
        mesh = walkmesh.read(self.rooms[0])
        walkmesh.write(mesh, os.path.join(self.module, "room_c.wok"))
        loose = scratch("python-archive-room_c.wok")
        walkmesh.write(mesh, loose)
        with open(self.module, "rb") as f:
            members = read_erf(f.read())
        self.assertEqual(members[("room_a", 2016)], self.bytes[0])
        self.assertEqual(members[("room_b", 2016)], self.bytes[1])
        with open(loose, "rb") as f:
            self.assertEqual(members[("room_c", 2016)], f.read())
        with self.assertRaises(walkmesh.WalkmeshError):  # replacing needs overwrite
            walkmesh.write(mesh, os.path.join(self.module, "room_c.wok"))


if __name__ == "__main__":
    unittest.main()
