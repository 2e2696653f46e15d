"""Reading rule files as untrusted input: bounded reads of regular files, and the root `extends` stays in.

A rule file may name other rule files with `extends`; nothing else is ever read. A base must lie
inside the root of the file being checked: its folder (and subfolders), widened by `--root DIR`
(`root=` in the API), by the `CARDLANG_ROOT` environment variable, or by a `root = "..."` setting in
the nearest `cardlang.toml` (or `[tool.cardlang]` of a `pyproject.toml`) found upward from the file.
Every check on a base's path is made before the base is opened; `docs/security.md` states the rules.
"""

from __future__ import annotations

import os
import stat
from typing import Optional

from .diagnostics import Diagnostic, Span
from .limits import MAX_FILE_BYTES

MAX_SETTINGS_BYTES = 1024 * 1024  # a cardlang.toml or pyproject.toml
RULE_SUFFIX = ".cards"
ROOT_ENV = "CARDLANG_ROOT"
SETTINGS_FILES = ("cardlang.toml", "pyproject.toml")


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words: `a folder`, `a named pipe (FIFO)`, …"""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size_text(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB" if n >= 1024 * 1024 else f"{n} bytes"


def read_bytes(path: str, limit: int) -> tuple[Optional[bytes], Optional[str]]:
    """At most `limit` bytes of a regular file, or why not (never opens a FIFO, a device, a folder)."""
    try:
        st = os.stat(path)
    except OSError as e:
        return None, os_problem(e)
    if not stat.S_ISREG(st.st_mode):
        return None, f"this is {file_kind(st.st_mode)}, not a rule file"
    if st.st_size > limit:
        return None, f"this file is {_size_text(st.st_size)}; a file cardlang reads has at most {_size_text(limit)}"
    try:
        # O_NONBLOCK: if the file was swapped for a FIFO since the stat, opening it does not wait
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        return None, os_problem(e)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            return None, f"this is {file_kind(mode)}, not a rule file"
        chunks, size = [], 0
        while size <= limit:  # a file that grows while it is read stops at limit + 1 bytes
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        return None, os_problem(e)
    finally:
        os.close(fd)
    if size > limit:
        return None, f"this file is more than {_size_text(limit)}, the most a file cardlang reads may have"
    return b"".join(chunks), None


def os_problem(e: OSError, reading: bool = True) -> str:
    """Why the system would not give a file, in words (a loop of symbolic links named as such)."""
    import errno

    if e.errno == errno.ELOOP:
        what = "is a symbolic link that leads back to itself, in a loop"
        return f"cannot read the file: it {what}" if reading else what
    return f"cannot read the file: {e.strerror or e}" if reading else f"cannot be read: {e.strerror or e}"


def read_source(path: str) -> tuple[Optional[str], list[Diagnostic]]:
    """The text of a rule file (a regular file of at most MAX_FILE_BYTES), or an E005 saying why not."""
    here = Span(path, 1, 1, 1, 2)
    data, problem = read_bytes(path, MAX_FILE_BYTES)
    if data is None:
        return None, [Diagnostic("E005", "error", problem, here)]
    if b"\0" in data:
        return None, [Diagnostic("E005", "error", "this is a binary file, not a rule file", here)]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return None, [Diagnostic("E005", "error", "the file is not valid UTF-8 text", Span(path, line, col, line, col + 1),
                                 help="save the file as UTF-8")]


# ------------------------------------------------------------------------ the root
def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies under it (both absolute and normalised)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _root(folder: str) -> tuple:
    """A root as (the folder as written, made absolute; the real folder, symbolic links resolved)."""
    written = os.path.normpath(os.path.abspath(folder))
    return written, os.path.realpath(written)


def roots_for(path: str, root: Optional[str] = None, _cache: Optional[dict] = None) -> tuple[tuple, list]:
    """The roots `extends` in `path` may reach, as (written, real) folders, and problems with the settings.

    Always the file's own folder; also `root`, else `$CARDLANG_ROOT`; and the nearest settings file's
    `root`. A setting in a file cannot leave that file's folder: only the command line or the
    environment can name a folder above it (a pull request can add a settings file, not an option)."""
    folder = os.path.dirname(os.path.abspath(path))
    roots = [_root(folder)]
    given = root if root is not None else os.environ.get(ROOT_ENV) or None
    if given is not None:
        roots.append(_root(given))
    setting, problems = _setting(folder, {} if _cache is None else _cache)
    if setting is not None:
        roots.append(setting)
    return tuple(dict.fromkeys(roots)), problems


def _setting(folder: str, cache: dict) -> tuple[Optional[tuple], list]:
    """The root set by the nearest cardlang.toml, or pyproject.toml with `[tool.cardlang]`, upward."""
    if folder in cache:
        return cache[folder]
    found: tuple = (None, [])
    for name in SETTINGS_FILES:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            result = _read_setting(candidate, name == "pyproject.toml")
            if result is not None:
                found = result
                break
    else:
        parent = os.path.dirname(folder)
        if parent != folder:
            found = _setting(parent, cache)
    cache[folder] = found
    return found


def _read_setting(file: str, in_pyproject: bool) -> Optional[tuple]:
    """(root or None, problems) of one settings file; None when it says nothing about cardlang."""
    here = Span(file, 1, 1, 1, 2)
    data, problem = read_bytes(file, MAX_SETTINGS_BYTES)
    if data is None:
        return None, [Diagnostic("E005", "error", f"cannot read the `root` setting: {problem}", here)]
    import tomllib  # (here: only a variant reads settings)

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None, [Diagnostic("E005", "error", "this settings file is not valid TOML", here)]
    if in_pyproject:
        tool = table.get("tool")
        table = tool.get("cardlang") if isinstance(tool, dict) else None
        if not isinstance(table, dict):
            return None
    value = table.get("root")
    if value is None:
        return (None, []) if not in_pyproject else None
    if not isinstance(value, str) or not value:
        return None, [Diagnostic("E005", "error", "the `root` setting must be a folder, as a text", here)]
    folder = _root(os.path.dirname(os.path.abspath(file)))
    chosen = _root(os.path.join(folder[0], value))
    if os.path.isabs(value) or not inside(chosen[0], folder[0]) or not inside(chosen[1], folder[1]):
        return None, [Diagnostic("E007", "error", f"the `root` setting `{value}` leaves the folder of this file",
                                 here, help="a settings file widens the root only below its own folder; "
                                            "give `--root DIR` to go further")]
    return chosen, []


def locate_base(variant: str, name: str, span: Span, roots: tuple) -> tuple[Optional[str], Optional[Diagnostic]]:
    """The path of the base that `extends "name"` in `variant` names, or the diagnostic that refuses it.

    Checks the text of the path, then where it leads, without opening it: inside the root (as written,
    then with symbolic links resolved), a regular file, a `.cards` file. The path returned is as the
    variant wrote it, joined to the variant's folder."""
    here = os.path.dirname(variant)
    where = ("the root: " + ", ".join(f"`{written}`" for written, _ in roots),)
    widen = "widen the root with `--root DIR` or `root = \"...\"` in a cardlang.toml (docs/security.md)"
    if os.path.isabs(name) or name.startswith("~") or os.path.splitdrive(name)[0]:
        return None, Diagnostic("E007", "error", f"`{name}` is an absolute path; `extends` takes a path relative "
                                "to this file's folder", span, help="write the path from this file's folder")
    full = os.path.normpath(os.path.join(here, name))
    written = os.path.normpath(os.path.abspath(full))
    if not any(inside(written, w) or inside(written, r) for w, r in roots):
        return None, Diagnostic("E007", "error", f"`{name}` leaves the root", span, help=widen,
                                notes=where)
    real = os.path.realpath(written)
    if not any(inside(real, r) for _, r in roots):
        return None, Diagnostic("E007", "error", f"`{name}` is a symbolic link to a file outside the root",
                                span, help=widen, notes=where)
    not_rules = None if name.endswith(RULE_SUFFIX) else Diagnostic(
        "E027", "error", f"`{name}` is not a `.cards` file: `extends` names only rule files", span)
    try:
        mode = os.stat(full).st_mode
    except FileNotFoundError:
        return None, not_rules or Diagnostic("E027", "error", f"the base file `{name}` does not exist", span,
                                             help=f"paths are relative to this file's folder ({here or '.'})")
    except OSError as e:
        return None, not_rules or Diagnostic("E027", "error", f"the base file `{name}` {os_problem(e, reading=False)}",
                                             span)
    if not stat.S_ISREG(mode):
        return None, Diagnostic("E027", "error", f"the base `{name}` is {file_kind(mode)}, not a rule file", span)
    if not_rules is not None:
        return None, not_rules
    if not real.endswith(RULE_SUFFIX):
        return None, Diagnostic("E027", "error", f"`{name}` is a symbolic link to a file that is not a `.cards` "
                                "file: `extends` names only rule files", span)
    return full, None
