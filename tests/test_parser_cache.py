"""The built parser kept between processes (cardlang/lang/parser_cache.py): read back, it parses
exactly as a parser built from the grammar; it is read only from a folder and a file that are the
user's own and nobody else may write, only if it was built from this grammar, undamaged, and made
of a parser's classes alone; anything else builds the parser again, never fails."""

import hashlib
import io
import os
import pickle
from pathlib import Path

import pytest
from lark.parsers.lalr_analysis import Reduce, Shift

from cardlang.lang import grammar, parser_cache

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "games").glob("*.cards")) + sorted((ROOT / "examples").glob("*.cards"))
OPTIONS = grammar.PARSER_OPTIONS


@pytest.fixture(scope="module")
def fresh():
    return grammar.build_parser()


@pytest.fixture()
def folder(tmp_path):
    path = tmp_path / "cardlang"
    return str(path)


def kept(folder, fresh, key="k"):
    assert parser_cache.write(folder, key, fresh)
    return parser_cache.read(folder, key)


def tokens(tree) -> list:
    return [(t.type, str(t), t.line, t.column, t.end_line, t.end_column) for t in tree.scan_values(lambda v: v is not None)]


def test_the_parser_read_back_parses_every_game_and_example_as_the_built_one(folder, fresh):
    back = kept(folder, fresh)
    assert back is not None and back is not fresh
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        mine, theirs = back.parse(text, start="start"), fresh.parse(text, start="start")
        assert mine == theirs, path.name
        assert tokens(mine) == tokens(theirs), path.name
    assert back.parse("1 + 2 * x", start="expr") == fresh.parse("1 + 2 * x", start="expr")


def test_the_table_read_back_is_the_same_and_its_actions_are_lark_s_own_objects(folder, fresh):
    back = kept(folder, fresh)
    table, original = back.parser.parser.parser.parse_table, fresh.parser.parser.parser.parse_table
    assert table.states == original.states
    assert table.start_states == original.start_states and table.end_states == original.end_states
    actions = {action for entries in table.states.values() for action, _ in entries.values()}
    assert actions and all(a is Shift or a is Reduce for a in actions)  # the parser compares with `is`
    assert [t.name for t in back.terminals] == [t.name for t in fresh.terminals]


def test_a_syntax_error_reads_the_same_from_the_parser_read_back(folder, fresh):
    from lark.exceptions import UnexpectedInput

    back = kept(folder, fresh)
    text = 'game "g"\nplayers 2\nround:\n    set = 3\n'
    errors = []
    for p in (back, fresh):
        with pytest.raises(UnexpectedInput) as e:
            p.parse(text, start="start")
        errors.append((type(e.value), e.value.line, e.value.column, sorted(getattr(e.value, "expected", ()))))
    assert errors[0] == errors[1]


def test_another_grammar_or_a_missing_file_is_built_again(folder, fresh):
    kept(folder, fresh, key="one")
    assert parser_cache.read(folder, "two") is None
    assert parser_cache.read(str(Path(folder) / "nowhere"), "one") is None


def test_the_key_names_the_grammar_and_the_options():
    text = grammar.grammar_text()
    key = parser_cache.key_of(text, OPTIONS)
    assert key == parser_cache.key_of(text, dict(OPTIONS))
    assert key != parser_cache.key_of(text + "\n// another rule\n", OPTIONS)
    assert key != parser_cache.key_of(text, {**OPTIONS, "propagate_positions": False})


def only_file(folder) -> Path:
    (path,) = Path(folder).glob("parser-*.pickle")
    return path


def test_a_damaged_or_truncated_file_is_not_read(folder, fresh):
    kept(folder, fresh)
    path = only_file(folder)
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert parser_cache.read(folder, "k") is None
    path.write_bytes(data[: len(data) // 2])
    assert parser_cache.read(folder, "k") is None
    path.write_bytes(b"")
    assert parser_cache.read(folder, "k") is None


def forged(folder, key, payload: bytes) -> None:
    """A file with a right header and checksum around `payload`, as anyone able to write there could make."""
    path = Path(parser_cache._path(folder, key))
    path.write_bytes(b"\n".join((parser_cache.FORMAT, key.encode(), hashlib.sha256(payload).hexdigest().encode(),
                                 payload)))
    os.chmod(path, 0o600)


class _Boom:
    def __reduce__(self):
        return (os.system, ("echo planted > /dev/null",))


def test_a_file_that_would_run_code_is_refused_whatever_its_header(folder, fresh):
    kept(folder, fresh)
    forged(folder, "k", pickle.dumps(_Boom()))
    assert parser_cache.read(folder, "k") is None
    forged(folder, "k", pickle.dumps(io.BytesIO(b"x")))  # any class that is not a parser's
    assert parser_cache.read(folder, "k") is None


def _global_call(module: str, name: str) -> bytes:
    """A pickle calling `module`'s global `name` with no argument (protocol 4's STACK_GLOBAL, which
    takes a dotted name)."""
    def text(s):
        return b"\x8c" + bytes([len(s)]) + s.encode()
    return b"\x80\x04" + text(module) + text(name) + b"\x93" + b")" + b"R" + b"."


@pytest.mark.parametrize("module,name", [("lark.lark", "os.getpid"),  # through a module, to what it imported
                                         ("lark.load_grammar", "_get_parser"),  # Lark's, but a function
                                         ("lark.utils", "dataclass")])  # a function Lark imported
def test_a_file_reaching_past_larks_classes_is_refused(folder, fresh, module, name):
    kept(folder, fresh)
    assert pickle.loads(_global_call("os", "getpid")) == os.getpid()  # (the forged pickle works)
    forged(folder, "k", _global_call(module, name))
    assert parser_cache.read(folder, "k") is None


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="ownership is a POSIX notion")
def test_a_file_or_folder_others_may_write_is_not_read(folder, fresh):
    kept(folder, fresh)
    path = only_file(folder)
    os.chmod(path, 0o620)  # the group may write it
    assert parser_cache.read(folder, "k") is None
    os.chmod(path, 0o600)
    assert parser_cache.read(folder, "k") is not None
    os.chmod(folder, 0o777)  # anyone may put a file there
    try:
        assert parser_cache.read(folder, "k") is None
        assert not parser_cache.write(folder, "k", fresh)
    finally:
        os.chmod(folder, 0o700)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="ownership is a POSIX notion")
def test_links_are_not_followed(folder, fresh, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    kept(str(elsewhere), fresh)
    os.symlink(elsewhere, folder)  # the folder is a link
    assert parser_cache.read(folder, "k") is None
    os.unlink(folder)
    os.makedirs(folder, mode=0o700)
    os.symlink(only_file(elsewhere), parser_cache._path(folder, "k"))  # the file is a link
    assert parser_cache.read(folder, "k") is None


def test_no_place_to_keep_it_still_gives_a_parser(tmp_path, fresh):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    built = []

    def build():
        built.append(1)
        return fresh

    assert parser_cache.cached_parser("g", OPTIONS, build, folder=str(blocked / "cardlang")) is fresh
    assert built == [1]


def test_the_second_start_reads_what_the_first_kept(folder, fresh):
    built = []

    def build():
        built.append(1)
        return fresh

    first = parser_cache.cached_parser("g", OPTIONS, build, folder=folder)
    second = parser_cache.cached_parser("g", OPTIONS, build, folder=folder)
    assert first is fresh and second is not fresh and built == [1]
    assert oct(os.stat(folder).st_mode & 0o777) == "0o700"
    assert oct(only_file(folder).stat().st_mode & 0o777) == "0o600"


def test_old_grammars_files_are_removed(folder, fresh):
    for n in range(parser_cache.KEEP + 3):
        assert parser_cache.write(folder, f"key{n}", fresh)
    assert len(list(Path(folder).glob("parser-*.pickle"))) == parser_cache.KEEP
    assert not list(Path(folder).glob(".parser-*"))  # no temporary file left


def test_the_cache_folder_is_the_user_s(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert parser_cache.cache_dir() == str(tmp_path / "cardlang")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG spec: a relative path is ignored
    assert parser_cache.cache_dir() == str(tmp_path / "home" / ".cache" / "cardlang")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert parser_cache.cache_dir() == str(tmp_path / "home" / ".cache" / "cardlang")


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="ownership is a POSIX notion")
def test_a_home_that_cannot_be_written_keeps_it_in_a_temp_folder_of_the_user_s_own(monkeypatch, tmp_path, fresh):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    assert parser_cache.folders() == [str(blocked / "cardlang"), str(tmp_path / f"cardlang-{os.getuid()}")]
    built = []

    def build():
        built.append(1)
        return fresh

    assert parser_cache.cached_parser("g", OPTIONS, build) is fresh
    assert parser_cache.cached_parser("g", OPTIONS, build) is not fresh and built == [1]
    assert list((tmp_path / f"cardlang-{os.getuid()}").glob("parser-*.pickle"))
