"""One library call's context (message, warnings, limits), its options, and its reports as Python."""
import ctypes
import operator
import os
import threading
from collections import namedtuple

from . import _native
from .errors import WalkmeshError

_UP = {None: 0, "y": 1, "z": 2}
SEVERITIES = ("info", "warning", "error")

Finding = namedtuple("Finding", "severity location message")


class Limits(namedtuple("Limits", "max_bytes max_triangles max_memory")):
    """What one call may take on (None: the library's default, no memory cap):
    max_bytes     the largest input file or decompressed packet (the library's 1 GiB by default);
    max_triangles the largest triangle or vertex count a file may announce (16 million);
    max_memory    the most bytes the library may hold allocated at once during the call: an
                  allocation beyond it fails as out of memory (WM_ERR_NOMEM). Its bookkeeping
                  runs in Python, so calls with it are slower; for hostile files, not for speed.
    Every call takes limits=Limits(...) (or a dict of the same keys)."""

    def __new__(cls, max_bytes=None, max_triangles=None, max_memory=None):
        return super().__new__(cls, max_bytes, max_triangles, max_memory)


class MemoryBudget:
    """The context's allocator replaced by one that counts the bytes held and refuses what would
    go over `limit`, passing the rest to the library's own allocator (wm_allocator)."""

    def __init__(self, struct, limit):
        self.limit = int(limit)
        self.held = self.peak = 0
        self._sizes = {}
        self._lock = threading.Lock()  # the bake allocates from several threads
        self._realloc = _native.REALLOC_FN(struct.alloc.realloc_fn)
        self._free = _native.FREE_FN(struct.alloc.free_fn)
        self._callbacks = (_native.REALLOC_FN(self.realloc), _native.FREE_FN(self.free))  # kept alive
        struct.alloc.realloc_fn = ctypes.cast(self._callbacks[0], ctypes.c_void_p).value
        struct.alloc.free_fn = ctypes.cast(self._callbacks[1], ctypes.c_void_p).value

    def realloc(self, user, pointer, size):
        with self._lock:
            old = self._sizes.get(pointer, 0) if pointer else 0
            if self.held - old + size > self.limit:
                return None
            moved = self._realloc(user, pointer, size)
            if moved:
                self._sizes.pop(pointer, None)
                self._sizes[moved] = size
                self.held += size - old
                self.peak = max(self.peak, self.held)
            return moved

    def free(self, user, pointer):
        with self._lock:
            self.held -= self._sizes.pop(pointer, 0)
            self._free(user, pointer)


class Context:
    """A wm_ctx whose warnings are collected into `warnings`, with the caller's Limits."""

    def __init__(self, limits=None):
        self.struct = _native.Ctx()
        _native.fn("wm_ctx_init")(ctypes.byref(self.struct))
        self.warnings = []
        self._callback = _native.WARN_FN(self._warn)  # kept alive as long as the context
        self.struct.warn = self._callback
        self.budget = None
        self.apply_limits(limits)

    def apply_limits(self, limits):
        """Sets the Limits (or dict, or None: the defaults) on the context."""
        if limits is None:
            return
        try:
            limits = Limits(**limits) if isinstance(limits, dict) else Limits(*limits)
        except TypeError as error:
            raise WalkmeshError(8, "limits: %s" % error) from None
        for name in ("max_bytes", "max_triangles", "max_memory"):
            value = getattr(limits, name)
            try:
                whole = None if value is None else operator.index(value)
            except TypeError:
                whole = -1
            if whole is not None and not 0 <= whole < 1 << 64:
                raise WalkmeshError(8, "limits: %s must be a whole number from 0 to 2^64-1, not %r" % (name, value))
        if limits.max_bytes is not None:
            self.struct.limits.max_bytes = operator.index(limits.max_bytes)
        if limits.max_triangles is not None:
            self.struct.limits.max_triangles = operator.index(limits.max_triangles)
        if limits.max_memory is not None:
            self.budget = MemoryBudget(self.struct, operator.index(limits.max_memory))

    def _warn(self, _user, message):
        self.warnings.append(_native.text(message))

    @property
    def ref(self):
        return ctypes.byref(self.struct)

    def check(self, result):
        """Raises WalkmeshError with the context's message when result is not WM_OK."""
        if result:
            raise WalkmeshError(result, _native.text(self.struct.message))
        return result


def make_options(context, up=None, walkable_slope=None, weld=None, base=None, source=None, options=None,
                 limits=None):
    """A wm_options from keyword arguments; `options` maps module option names (without dashes)
    to values, True for flags; `limits` (Limits) goes to the context. Returns the struct and what
    must outlive it."""
    context.apply_limits(limits)
    opts = _native.Options()
    _native.fn("wm_options_init")(ctypes.byref(opts))
    if up not in _UP:
        raise WalkmeshError(8, "up must be 'y' or 'z', not %r" % (up,))
    opts.up = _UP[up]
    if walkable_slope is not None:
        opts.walkable_slope = float(walkable_slope)
    if weld is not None:
        opts.weld_tolerance = float(weld)
    keep = [_native.encode_path(base, optional=True)]
    opts.base_path = keep[0]
    if source is not None:
        loaded = Source(context, source)
        keep.append(loaded)
        opts.source = ctypes.pointer(loaded.input)
        opts.source_format = loaded.format
    setter = _native.fn("wm_option_set")
    for name, value in (options or {}).items():
        if value is False or value is None:
            continue
        value = "1" if value is True else os.fsdecode(value) if isinstance(value, bytes) else str(value)
        pair = (_native.encode_text(name, "option name", optional=False),
                _native.encode_text(value, "option %s" % name, optional=False))
        keep.extend(pair)
        context.check(setter(context.ref, ctypes.byref(opts), *pair))
    return opts, keep


class Source:
    """A conversion's source file in memory with its format: a writer of the same format keeps
    what the neutral mesh cannot hold (a WOK's tree, a TRX's other packets). Freed with the object."""

    def __init__(self, context, path):
        self.context = context
        self.input = _native.Input()
        context.check(_native.fn("wm_input_load")(context.ref, _native.encode_path(path), ctypes.byref(self.input)))
        self.format = ctypes.c_void_p()
        if _native.fn("wm_format_detect")(context.ref, ctypes.byref(self.input), ctypes.byref(self.format)):
            self.format = ctypes.c_void_p()  # a source no module reads keeps nothing
            context.struct.message = b""

    def __del__(self):
        _native.fn("wm_input_free")(self.context.ref, ctypes.byref(self.input))


class Report:
    """What info or validate found: `facts` (ordered (key, value) pairs, also reachable as
    report[key]) and `findings` (Finding(severity, location, message)); `errors` and
    `warnings_found` count the findings by severity; `warnings` are the library's warnings."""

    def __init__(self, path, facts, findings, errors, warnings_found, warnings):
        self.path = path
        self.facts = facts
        self.findings = findings
        self.errors = errors
        self.warnings_found = warnings_found
        self.warnings = warnings
        self.mesh = None

    @property
    def ok(self):
        return self.errors == 0

    def __getitem__(self, key):
        for fact_key, value in self.facts:
            if fact_key == key:
                return value
        raise KeyError(key)

    def __contains__(self, key):
        return any(fact_key == key for fact_key, _ in self.facts)

    def __repr__(self):
        return "<walkmesh.Report %s: %d facts, %d errors, %d warnings>" % (self.path, len(self.facts), self.errors,
                                                                          self.warnings_found)


class CReport:
    """A wm_report for the duration of a `with` block."""

    def __init__(self, context):
        self.context = context
        self.struct = _native.Report()

    def __enter__(self):
        _native.fn("wm_report_init")(ctypes.byref(self.struct), self.context.ref)
        return self

    def __exit__(self, *exc):
        _native.fn("wm_report_free")(ctypes.byref(self.struct))

    def to_python(self, path):
        facts, findings = [], []
        for i in range(self.struct.count):
            item = self.struct.items[i]
            key, value = _native.text(item.key), _native.text(item.value)
            if item.severity == 0:
                facts.append((key, value))
            else:
                findings.append(Finding(SEVERITIES[item.severity], key, value))
        return Report(str(path), facts, findings, self.struct.errors, self.struct.warnings, self.context.warnings)
