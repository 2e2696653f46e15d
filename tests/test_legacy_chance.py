"""Games made before SplitMix64 keep replaying as they were played (issue 29: one new generator for
every engine). The fixtures in tests/legacy_chance/ were written by main's code before the change
(its chance CPython's Mersenne Twister): version-2 saves of coucou and a web table's seed and moves,
each with the transcript main's code played from them. They must replay to those transcripts, with
the old generator kept as a chance source (`runtime.rng.Mersenne`); new saves and tables draw from
SplitMix64 and say so (save version 3, the store's `generator` column)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

import cardlang
from cardlang.cli import main
from cardlang.play.save_schema import VERSION
from cardlang.play.savegame import load_saved, save_data, write_save
from cardlang.runtime import rng
from cardlang.web import replays, tables
from cardlang.web.store import MERSENNE, SPLITMIX, open_store
from scenario import ROOT

HERE = os.path.join(ROOT, "tests", "legacy_chance")
RULES = os.path.join(HERE, "coucou.cards")


def transcript(name: str) -> list:
    with open(os.path.join(HERE, name + ".transcript.txt"), encoding="utf-8") as f:
        return f.read().splitlines()


@pytest.fixture
def old_saves(tmp_path):
    """The fixture's saves and rules, copied (a resumed game may be saved again next to them)."""
    for name in ("coucou.cards", "finished.json", "progress.json"):
        shutil.copy(os.path.join(HERE, name), tmp_path / name)
    return tmp_path


@pytest.mark.parametrize("name", ["finished", "progress"])
def test_a_version_2_save_replays_with_the_mersenne_twister(old_saves, name):
    game, state, data = load_saved(str(old_saves / f"{name}.json"))
    assert data.version == 2 and type(state.rng) is rng.Mersenne
    assert state.transcript() == transcript(name)


def test_a_version_2_save_would_not_replay_with_the_new_generator(old_saves):
    """The fixture tells the generators apart: the same seed and moves deal otherwise with SplitMix64."""
    game, state, data = load_saved(str(old_saves / "finished.json"))
    fresh = game.new_initial_state(seed=data.seed)
    assert fresh.transcript()[:3] != transcript("finished")[:3]


def test_the_replay_command_shows_an_old_game_as_it_was_played(old_saves):
    result = CliRunner().invoke(main, ["replay", "--all", str(old_saves / "finished.json")])
    assert result.exit_code == 0, result.output
    shown = result.output
    for line in transcript("finished")[:12] + transcript("finished")[-3:]:
        assert line in shown


def test_an_old_game_resumed_and_saved_again_stays_version_2(old_saves):
    """A game resumed from a version-2 save goes on with its Mersenne Twister: saved again, it says
    version 2, and it loads again to the same game (moves played after the load included)."""
    game, state, data = load_saved(str(old_saves / "progress.json"))
    for _ in range(6):
        state.apply(state.legal_action_ids()[-1])
    again = old_saves / "again.json"
    write_save(str(again), save_data(state, humans=[0], save_path=str(again)))
    assert json.loads(again.read_text())["version"] == 2
    _, reloaded, _ = load_saved(str(again))
    assert reloaded.transcript() == state.transcript() and type(reloaded.rng) is rng.Mersenne
    assert transcript("progress") == state.transcript()[:len(transcript("progress"))]


def test_a_new_save_is_version_3_and_replays_with_splitmix(tmp_path):
    shutil.copy(RULES, tmp_path / "coucou.cards")
    game = cardlang.load(str(tmp_path / "coucou.cards"), 5)
    state = game.new_initial_state(seed=7)
    assert type(state.rng) is int
    for _ in range(20):
        state.apply(state.legal_action_ids()[0])
    path = tmp_path / "new.json"
    write_save(str(path), save_data(state, humans=[0], save_path=str(path)))
    assert json.loads(path.read_text())["version"] == VERSION == 3
    _, loaded, _ = load_saved(str(path))
    assert type(loaded.rng) is int and loaded.transcript() == state.transcript()


# ---------------------------------------------------------------- web tables stored before
OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, title TEXT NOT NULL, path TEXT NOT NULL,
    rules TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
    seed INTEGER NOT NULL, undo INTEGER NOT NULL, idle_seconds INTEGER NOT NULL,
    created TEXT NOT NULL, status TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0);
CREATE TABLE tokens (hash TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, action INTEGER NOT NULL,
    seat INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, n));
CREATE TABLE ratings (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, stars INTEGER NOT NULL,
    comment TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, seat));
INSERT INTO meta VALUES ('format', 'cardlang-web-store'), ('version', '1');
"""


@pytest.fixture
def old_store(tmp_path):
    """A store as the server wrote it before the `generator` column, holding the fixture's table
    (its seed and moves, played by main's code)."""
    with open(os.path.join(HERE, "web_table.json"), encoding="utf-8") as f:
        table = json.load(f)
    with open(RULES, encoding="utf-8") as f:
        text = f.read()
    path = str(tmp_path / "tables.sqlite")
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
               ("t1", "coucou", "Coucou", RULES, json.dumps({RULES: text}), table["players"], json.dumps({"tokens": 5}),
                json.dumps(["person"] + ["bot:random"] * 4), table["seed"], 0, 120, "2026-12-05T09:00:00Z", "over",
                len(table["actions"])))
    db.executemany("INSERT INTO actions VALUES (?,?,?,?,?)",
                   [("t1", n, a, s, "2026-12-05T09:00:00Z") for n, (a, s) in enumerate(table["actions"])])
    db.commit()
    db.close()
    return path


def test_a_table_stored_before_replays_with_the_mersenne_twister(old_store):
    store = open_store(old_store)
    record, = store.tables()
    assert record.generator == MERSENNE
    game = cardlang.load(RULES, record.players, options=record.options)
    state, broken = tables.replay(game, record)
    assert broken is None and state.is_terminal() and type(state.rng) is rng.Mersenne
    assert state.transcript() == transcript("web_table")
    export = replays.export_data(store)["tables"][0]
    assert export["generator"] == MERSENNE and export["transcript"] == transcript("web_table")
    store.close()


def test_a_new_table_in_an_old_store_draws_from_splitmix(old_store):
    store = open_store(old_store)
    record, = store.tables()
    record.id, record.generator, record.actions = "t2", SPLITMIX, []
    store.create_table(record, [])
    stored = {t.id: t for t in open_store(old_store).tables()}
    assert stored["t1"].generator == MERSENNE and stored["t2"].generator == SPLITMIX
    game = cardlang.load(RULES, record.players, options=record.options)
    state, _ = tables.replay(game, stored["t2"])
    assert type(state.rng) is int and state.transcript() == game.new_initial_state(seed=record.seed).transcript()
