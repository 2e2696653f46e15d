"""Nothing lost (issue 30): a real `cardlang serve` killed with SIGKILL mid-game and started again on
the same database resumes every table; a seat's link gets its view back and the game goes on to its
end. The export of the tables, and that it refuses a file that is not its own."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest
from websockets.sync.client import connect

from scenario import ROOT

COUCOU = os.path.join(ROOT, "games", "coucou.cards")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db: str, port: int, *more: str) -> subprocess.Popen:
    """`cardlang serve` in a process of its own, once it answers."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "cardlang.cli", "serve", COUCOU, "--db", db,
                             "--port", str(port), *more], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped: {proc.stderr.read().decode()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the server did not answer within a minute")


LAST: dict = {}  # connection -> the last view it read


def views(ws, ok, limit: int = 500) -> dict:
    """The last view read on `ws` if `ok` accepts it, else the first next one it accepts."""
    if ws in LAST and ok(LAST[ws]):
        return LAST[ws]
    for _ in range(limit):
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == "view":
            LAST[ws] = msg
            if ok(msg):
                return msg
    raise AssertionError("no such view")


def test_a_server_killed_with_sigkill_resumes_every_table_and_the_game_goes_on(tmp_path):
    db = str(tmp_path / "tables.sqlite")
    port = free_port()
    proc = serve(db, port)
    try:
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/tables", json={
            "game": "coucou", "players": 5, "seed": 21, "options": {"tokens": 2},
            "seats": ["person", "person", "bot:random", "bot:random", "bot:random"]}).json()
        other = httpx.post(f"{base}/api/tables", json={"game": "coucou", "players": 5, "seed": 5,
                                                       "seats": ["person"] * 5}).json()
        links = {s["seat"]: s["link"].rsplit("/", 1)[1] for s in made["seats"] if s["link"]}
        first = contextlib.ExitStack()
        socks = {k: first.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{t}", open_timeout=30))
                 for k, t in links.items()}
        played = 0
        view = views(socks[0], lambda v: True)
        while played < 4:
            turn = view["to_act"][0]
            mine = views(socks[turn], lambda v: v["seq"] >= view["seq"] and v["to_act"] == [turn])
            socks[turn].send(json.dumps({"type": "act", "id": mine["actions"][0]["id"], "seq": mine["seq"]}))
            played += 1
            view = views(socks[turn], lambda v: v["seq"] > mine["seq"] and v["to_act"][0] in socks)
        before = view
        first.close()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        proc = serve(db, port)
        listed = httpx.get(f"{base}/api/tables").json()["tables"]
        assert {t["id"] for t in listed} == {made["table"], other["table"]}
        second = contextlib.ExitStack()
        socks = {k: second.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{t}", open_timeout=30))
                 for k, t in links.items()}
        hello = json.loads(socks[0].recv(timeout=30))
        assert hello["type"] == "hello" and hello["table"] == made["table"]
        again = views(socks[before["to_act"][0]], lambda v: True)
        assert again["seq"] == before["seq"]
        turn = before["to_act"][0]
        assert again["to_act"] == [turn] and again["actions"]
        # and the game goes on to its end
        view = again
        for _ in range(400):
            if view["over"]:
                break
            turn = view["to_act"][0]
            mine = views(socks[turn], lambda v: v["seq"] >= view["seq"])
            if mine["seq"] > view["seq"] or mine["to_act"] != [turn]:
                view = mine
                continue
            socks[turn].send(json.dumps({"type": "act", "id": mine["actions"][-1]["id"], "seq": mine["seq"]}))
            view = views(socks[turn], lambda v: v["seq"] > mine["seq"] and (v["over"] or v["to_act"][0] in socks))
        assert view["over"] and view["result"]["winners"]
        second.close()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    # the export: every table, its transcript and result; a file not ours is never replaced
    out = tmp_path / "export.json"
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, "-m", "cardlang.cli", "serve", "--db", db, "--export", str(out)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "cardlang-web-export"
    finished = next(t for t in data["tables"] if t["id"] == made["table"])
    assert finished["status"] == "over" and finished["result"]["winners"] and finished["transcript"]
    run = subprocess.run([sys.executable, "-m", "cardlang.cli", "serve", "--db", db, "--export", str(out)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0  # our own export is replaced
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": true}', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "cardlang.cli", "serve", "--db", db, "--export", str(notes)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "will not export to" in run.stderr and "Traceback" not in run.stderr
    assert notes.read_text(encoding="utf-8") == '{"mine": true}'


def test_a_database_of_another_program_is_refused(tmp_path):
    import sqlite3

    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE accounts (id INTEGER)")
    env = dict(os.environ, PYTHONPATH=ROOT)
    run = subprocess.run([sys.executable, "-m", "cardlang.cli", "serve", COUCOU, "--db", str(db), "--port", "1"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "a database of another program" in run.stderr
    assert "Traceback" not in run.stderr
    with sqlite3.connect(db) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["accounts"]


@pytest.mark.parametrize("args,code,expected", [
    (["serve"], 2, "name the rule files or folders to serve"),
    (["serve", "no/such/file.cards"], 2, "does not exist"),
    (["serve", COUCOU, "--port", "99999"], 2, "--port"),
    (["serve", COUCOU, "--db", "/no/such/folder/tables.sqlite"], 1, "no folder"),
])
def test_the_command_line_refuses_in_one_line(args, code, expected, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from cardlang.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == code, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []  # (no database made for a command refused)
