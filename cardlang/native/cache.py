"""The native engine's disk cache: each game's generated module, and numba's machine code next to it.

A module is written once into `cache_dir()/<key>/` (`$CARDLANG_CACHE/native`, else the user's
cache directory: `$XDG_CACHE_HOME/cardlang/native` or `~/.cache/cardlang/native`), where `key` hashes
the generated source (itself a function of the IR listing: layout, nodes, caps), the numba and
cardlang versions, and the native runtime's own sources (`rng.py`, `steps.py` and the kernels `melds.py`, `poker.py`, `climbing.py`, `pots.py`, `knowledge.py`, which the module's
functions call and numba's cache does not watch). It is then imported from there, and numba's
`cache=True` keeps the compiled functions in that directory's `__pycache__`, so a second process
loads machine code instead of compiling. Nothing is ever written outside the cache directory; a
file is written to a temporary name and renamed, so a concurrent worker reads it whole or not at all.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_MODULES: dict = {}


def cache_dir() -> Path:
    """Where native modules are kept (see the module's docstring)."""
    root = os.environ.get("CARDLANG_CACHE")
    if root:
        return Path(root) / "native"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "cardlang" / "native"


def cache_key(source: str) -> str:
    """The hash a generated module is kept under."""
    import numba

    h = hashlib.sha256()
    for part in (source, numba.__version__, _cardlang_version(), sys.version.split()[0]):
        h.update(part.encode())
        h.update(b"\0")
    for name in ("rng.py", "steps.py", "melds.py", "poker.py", "climbing.py", "pots.py", "knowledge.py"):
        h.update((_HERE / name).read_bytes())
    return h.hexdigest()[:32]


def _cardlang_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardlang")
    except PackageNotFoundError:  # (run from a checkout that is not installed)
        return "unknown"


def load_module(source: str):
    """The generated module of `source`, written into the cache if it is not there, and imported."""
    key = cache_key(source)
    module = _MODULES.get(key)
    if module is not None:
        return module
    folder = cache_dir() / key
    path = folder / f"game_{key}.py"
    if not path.is_file() or path.read_text(encoding="utf-8") != source:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp_", suffix=".py")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(source)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    name = f"cardlang_native_{key}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _MODULES[key] = module
    return module
