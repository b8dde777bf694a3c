"""The library's result codes and the exception that carries them."""
import enum


class Result(enum.IntEnum):
    """wm_result (core/wm_context.h)."""
    OK = 0
    IO = 1
    TRUNCATED = 2
    CORRUPT = 3
    LIMIT = 4
    NOMEM = 5
    UNSUPPORTED = 6
    AMBIGUOUS = 7
    INVALID = 8
    EXISTS = 9
    OPTION = 10
    NOT_FORMAT = 11


class WalkmeshError(Exception):
    """A call failed: `code` is the library's wm_result (a Result), `message` its one-line message
    (naming the file and the offset, line or element)."""

    def __init__(self, code, message):
        try:
            code = Result(code)
        except ValueError:
            pass
        self.code = code
        self.message = message
        name = code.name if isinstance(code, Result) else str(code)
        super().__init__("%s (WM_ERR_%s)" % (message, name))
