"""The built Lark parser kept between processes: ready in about 10 ms instead of 50–70.

Building the LALR parser from `grammar/cardlang.lark` takes about a second; reading it back from
Lark's own cache 50–70 ms (its generic deserializer rebuilds the 20,000 table entries one call at a
time); a plain pickle of the built parser, its equal table entries shared, about 10 ms. The file
lives in the user's cache folder (`$XDG_CACHE_HOME/cardlang`, else `~/.cache/cardlang`; if that cannot be
written, a folder of the user's own in the temp folder), never in a file of a shared folder:
Lark's `cache=True` writes a pickle to the temp folder under a name anyone can guess, which
another user of the machine could plant. Here a file is read only if the folder and the file are
the user's own and nobody else may write them, and only the classes a parser is made of are
unpickled. The file names the grammar's text, the Lark and Python versions and this format in its
key: another grammar (a checkout with new keywords) builds and keeps its own. Anything unexpected
(no home, a read-only disk, a truncated file, another platform) builds the parser as before.
"""

from __future__ import annotations

import copy
import gc
import hashlib
import io
import os
import pickle
import re
import stat
import sys
import types
from typing import Callable, Optional

FORMAT = b"cardlang-parser 1"  # changed whenever what the file holds changes
MAX_BYTES = 16 * 1024 * 1024  # a parser file is about 0.6 MB: anything far larger is not ours
_PATTERN = type(re.compile(""))
KEEP = 4  # parser files kept in the folder (one per grammar recently used), the newest

# what a pickled Lark parser is made of (found by recording `find_class` on one): nothing else loads
# (and `_Pattern`, in which the lexer's compiled regular expressions are written)
_ALLOWED = {"functools": {"partial"}, "cardlang.lang.grammar": {"_Indenter"},
            "cardlang.lang.parser_cache": {"_Pattern"},
            "lark.parsers.lalr_analysis": {"Shift", "Reduce"}}  # (the table's two actions: see `_Pickler`)
_ALLOWED_PREFIX = "lark."


def cache_dir() -> Optional[str]:
    """The folder of the user's parser files, or None where there is no safe one (no home, not POSIX)."""
    if not hasattr(os, "getuid"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative: the XDG spec says to ignore it
        base = os.path.join(os.path.expanduser("~"), ".cache")
        if not os.path.isabs(base):  # no home to expand `~` to
            return None
    return os.path.join(base, "cardlang")


def key_of(grammar: str, options: dict) -> str:
    """What the file must have been built from: the grammar's text, the parser's options, Lark's and
    Python's versions (a pickle of Lark's objects is only good for the same Lark)."""
    import lark

    h = hashlib.sha256()
    for part in (FORMAT.decode(), grammar, repr(sorted(options.items())), lark.__version__, sys.version):
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def folders() -> list:
    """Where parser files are kept, in order: the user's cache folder, then a folder of the user's own
    in the temp folder (for a home that cannot be written: a build costs a second, a read 10 ms)."""
    out = [cache_dir()]
    if hasattr(os, "getuid"):
        import tempfile

        out.append(os.path.join(tempfile.gettempdir(), f"cardlang-{os.getuid()}"))
    return [f for f in out if f is not None]


def cached_parser(grammar: str, options: dict, build: Callable[[], object], folder: Optional[str] = None):
    """The parser of `grammar` from the user's cache (`folder`, by default `folders()`), else
    `build()`, then kept in the first folder that takes it."""
    places = folders() if folder is None else [folder]
    key = key_of(grammar, options)
    for place in places:
        found = read(place, key)
        if found is not None:
            return found
    built = build()
    for place in places:
        if write(place, key, built):
            break
    return built


def _path(folder: str, key: str) -> str:
    return os.path.join(folder, f"parser-{key[:40]}.pickle")


def _own(st) -> bool:
    """Whether a file or folder is this user's and nobody else may write to it."""
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(folder: str, key: str):
    """The parser kept under `key` in `folder`, or None (missing, not safely ours, stale, damaged)."""
    try:
        st = os.lstat(folder)  # (a link in place of the folder is not followed: refused)
        if not stat.S_ISDIR(st.st_mode) or not _own(st):
            return None
        # (no link followed; a FIFO put there does not block the open: it is then refused below)
        fd = os.open(_path(folder, key), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())  # the file opened, not its name: nothing can swap it in between
            if not stat.S_ISREG(st.st_mode) or not _own(st) or st.st_size > MAX_BYTES:
                return None
            data = f.read(MAX_BYTES + 1)
        head, _, rest = data.partition(b"\n")
        stored_key, _, rest = rest.partition(b"\n")
        digest, _, payload = rest.partition(b"\n")
        if head != FORMAT or stored_key != key.encode() or hashlib.sha256(payload).hexdigest().encode() != digest:
            return None
        collecting = gc.isenabled()
        gc.disable()  # tens of thousands of new objects, none of them garbage: no collection meanwhile
        try:
            return _Unpickler(io.BytesIO(payload)).load()
        finally:
            if collecting:
                gc.enable()
    except Exception:  # noqa: BLE001 - a damaged file is rebuilt, whatever broke in reading it
        return None


def write(folder: str, key: str, parser) -> bool:
    """Keeps `parser` under `key` in `folder` (made the user's own if new); False if it could not."""
    import tempfile

    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or not _own(st):
            return False
        _share_entries(parser)
        _build_scanners(parser)
        kept = copy.copy(parser)
        # the grammar as Lark read it (96 KB) serves only to build the tables: Lark's own cache leaves it out
        vars(kept).pop("grammar", None)
        buffer = io.BytesIO()
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(kept)
        payload = buffer.getvalue()
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".parser-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(b"\n".join((FORMAT, key.encode(), hashlib.sha256(payload).hexdigest().encode(), payload)))
            os.replace(temp, _path(folder, key))  # whole or not at all: processes may start together
        except BaseException:
            os.unlink(temp)
            raise
        try:
            _prune(folder)
        except OSError:  # (another process pruned or replaced a file meanwhile: the one written stands)
            pass
        return True
    except Exception:  # noqa: BLE001 - no cache is a slower start, never a failure
        return False


def _share_entries(parser) -> None:
    """Makes equal entries of the LALR table one tuple (there are about 2,000 different ones among
    20,000): the file then holds each once, and reading it builds a tenth of the objects."""
    states = parser.parser.parser.parser.parse_table.states  # Lark → frontend → LALR → its table
    shared: dict = {}
    for actions in states.values():
        for token, entry in actions.items():
            actions[token] = shared.setdefault(entry, entry)


def _build_scanners(parser) -> None:
    """Builds the scanner of every state of the contextual lexer (each a regular expression of the
    terminals the state accepts, and of the keywords its names must not be): the file keeps them, as
    `_Pattern`s compiled at their first use, and a first parse no longer works them out (4,000
    trial matches and 50 scanners for a small file: a third of its time)."""
    lexer = parser.parser.lexer
    lexer = getattr(lexer, "lexer", lexer)  # (behind the indenter's `PostLexConnector`)
    for basic in {id(b): b for b in [*lexer.lexers.values(), lexer.root_lexer]}.values():
        basic.scanner  # (a property: builds it once)


class _Pattern:
    """A compiled regular expression as a parser file keeps it: its text, compiled at its first use
    (then its own `match` and `fullmatch` stand in place of these)."""

    def __init__(self, pattern, flags):
        self.pattern, self.flags = pattern, flags

    def _compile(self):
        import re

        compiled = re.compile(self.pattern, self.flags)
        self.match, self.fullmatch = compiled.match, compiled.fullmatch
        return compiled

    def match(self, *args):
        """`re.Pattern.match`."""
        return self._compile().match(*args)

    def fullmatch(self, *args):
        """`re.Pattern.fullmatch`."""
        return self._compile().fullmatch(*args)


def _prune(folder: str) -> None:
    """Removes all but the `KEEP` newest parser files (old grammars)."""
    files = [os.path.join(folder, n) for n in os.listdir(folder) if n.startswith("parser-") and n.endswith(".pickle")]
    files.sort(key=os.path.getmtime, reverse=True)
    for old in files[KEEP:]:
        os.unlink(old)


# Lark's parser holds the `re` module (written as a reference, read back as the module) and compares
# table entries with its two `Action` objects by identity (`action is Shift`): those are written as
# the names they have in `lark.parsers.lalr_analysis`, so reading gives the objects themselves.
class _Pickler(pickle.Pickler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from lark.parsers.lalr_analysis import Reduce, Shift

        self._actions = {id(Shift): "Shift", id(Reduce): "Reduce"}

    def reducer_override(self, obj):
        name = self._actions.get(id(obj))
        if name is not None:
            return name
        if isinstance(obj, _PATTERN):
            return _Pattern, (obj.pattern, obj.flags)
        return NotImplemented

    def persistent_id(self, obj):
        if isinstance(obj, types.ModuleType):
            if obj.__name__ != "re":
                raise pickle.PicklingError(f"a parser holding the module {obj.__name__} is not kept")
            return "module:re"
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid):
        if pid != "module:re":
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        import re

        return re

    def find_class(self, module, name):
        if name in _ALLOWED.get(module, ()):
            return super().find_class(module, name)
        # Lark's own classes only: a dotted name (`lark.lark` + `os.system`) would reach through a
        # module to anything it imported, and a function is not what a parser is made of
        if module.startswith(_ALLOWED_PREFIX) and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__.startswith(_ALLOWED_PREFIX):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a parser")
