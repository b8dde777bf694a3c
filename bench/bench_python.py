#!/usr/bin/env python3
"""Builds 20k-, 200k- and 1M-triangle KotOR WOKs from numpy arrays through the Python package and
the same meshes through the C API (bench_wok_arrays), in one run, and prints the ratio.
Interpreter start-up and array generation are not timed; each side is the best of RUNS saves.

    PYTHONPATH=build/tools/python python3 bench/bench_python.py build [RUNS]
"""
import os
import subprocess
import sys
import time

import numpy

import walkmesh

SIZES = (20_000, 200_000, 1_000_000)


def terrain(triangles):
    """A rolling grid of about `triangles` triangles, grass and stone, walls where it is steep."""
    side = int((triangles / 2) ** 0.5)
    x, y = numpy.meshgrid(numpy.arange(side + 1, dtype=numpy.float32), numpy.arange(side + 1, dtype=numpy.float32))
    z = (numpy.sin(x * 0.3) * numpy.cos(y * 0.2) * 2).astype(numpy.float32)
    positions = numpy.stack([x.ravel(), y.ravel(), z.ravel()], axis=1)
    corner = (numpy.arange(side)[:, None] * (side + 1) + numpy.arange(side)[None, :]).ravel().astype(numpy.uint32)
    first = numpy.stack([corner, corner + 1, corner + side + 2], axis=1)
    second = numpy.stack([corner, corner + side + 2, corner + side + 1], axis=1)
    indices = numpy.concatenate([first, second])
    surfaces = numpy.where(numpy.arange(len(indices)) % 3 == 0, 3, 4).astype(numpy.uint16)  # grass, stone
    walkable = numpy.ones(len(indices), dtype=numpy.uint8)
    return positions, indices, surfaces, walkable


def python_seconds(mesh, path, runs):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        walkmesh.write(mesh, path, overwrite=True)
        best = min(best, time.perf_counter() - start)
    return best


def c_seconds(program, arrays, path, runs, folder):
    raw = os.path.join(folder, "bench_arrays.bin")
    positions, indices, surfaces, walkable = arrays
    with open(raw, "wb") as handle:
        handle.write(numpy.array([len(positions), len(indices)], dtype=numpy.uint32).tobytes())
        for array in arrays:
            handle.write(numpy.ascontiguousarray(array).tobytes())
    output = subprocess.run([program, raw, path, str(runs)], capture_output=True, text=True, check=True).stdout
    os.remove(raw)
    return float(output)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    program = os.path.join(build, "bench", "bench_wok_arrays")
    folder = os.path.join(build, "bench")
    print("library %s, best of %d saves each" % (walkmesh.version(), runs))
    print("%10s %12s %12s %8s  %s" % ("triangles", "Python s", "C API s", "ratio", "same bytes"))
    for size in SIZES:
        arrays = terrain(size)
        mesh = walkmesh.Mesh(arrays[0], arrays[1], arrays[2], arrays[3])
        py_path, c_path = os.path.join(folder, "bench_py.wok"), os.path.join(folder, "bench_c.wok")
        c_time = c_seconds(program, arrays, c_path, runs, folder)
        py_time = python_seconds(mesh, py_path, runs)
        with open(py_path, "rb") as a, open(c_path, "rb") as b:
            same = a.read() == b.read()
        print("%10d %12.3f %12.3f %8.3f  %s" % (len(arrays[1]), py_time, c_time, py_time / c_time, same))
        os.remove(py_path)
        os.remove(c_path)


main()
