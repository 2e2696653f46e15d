"""The web table faces untrusted input (issue 30, docs/security.md "The web table"): hostile messages
get one line each, sizes and rates are bounded, the WebSocket's origin is checked, every answer
carries the security headers, and a rule file's texts reach a browser only as JSON strings."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webtable as W
from cardlang.web import app as web_app
from cardlang.web import protocol
from scenario import ROOT

HOSTILE = os.path.join(ROOT, "tests", "hostile_text", "escapes_in_texts.cards")


def _seat(c, made, k=0):
    return c.websocket_connect("/ws/" + W.token(made["seats"][k]["link"]))


@pytest.mark.parametrize("raw,expected", [
    ("not json", "a message is one JSON object"),
    ("[1, 2]", "a message is one JSON object"),
    ('{"type": "shout"}', "unknown message type (types: act, undo, rate, ping)"),
    ('{"no": "type"}', "unknown message type (types: act, undo, rate, ping)"),
    ('{"type": "act"}', "`act` needs `id`, the whole number of one of your actions"),
    ('{"type": "act", "id": true}', "`act` needs `id`, the whole number of one of your actions"),
    ('{"type": "act", "id": 1.5}', "`act` needs `id`, the whole number of one of your actions"),
    ('{"type": "act", "id": NaN}', "a message is one JSON object"),
    ('{"type": "act", "id": 99999999999999999999999}', "`act` needs `id`, the whole number of one of your actions"),
    ('{"type": "act", "id": 1, "seq": "x"}', "`seq` is the whole number of the view you acted on"),
    ('{"type": "rate", "stars": "5"}', "`stars` is a whole number from 1 to 5"),
    ('{"type": "rate", "stars": 3, "comment": ["x"]}', "`comment` is a text"),
    ('{"type": "rate", "stars": 3, "comment": "' + "x" * 2001 + '"}', "a comment is at most 2000 characters"),
    ("[" * 3000 + "]" * 3000, "a message is at most 4096 bytes"),
    ("[" * 2000 + "]" * 2000, "a message is one JSON object"),
])
def test_a_hostile_message_gets_one_line_and_the_connection_goes_on(raw, expected):
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=1)
        with _seat(c, made) as ws:
            seat = W.Seat(ws)
            seat.next("view")
            ws.send_text(raw)
            error = seat.next("error")
            assert error == {"type": "error", "message": expected}
            seat.send(type="ping")
            assert seat.next("pong") == {"type": "pong"}
        assert srv.tables[made["table"]].record.actions == []


def test_a_binary_message_is_refused():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=1)
        with _seat(c, made) as ws:
            seat = W.Seat(ws)
            ws.send_bytes(b'{"type": "ping"}')
            assert seat.next("error")["message"] == "messages are JSON text, not binary"


def test_a_message_far_too_big_closes_the_connection():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=1)
        with _seat(c, made) as ws:
            seat = W.Seat(ws)
            seat.next("view")
            ws.send_text("x" * 100_000)
            assert seat.next("error")["message"] == "a message is at most 4096 bytes"
            assert W.close_code(ws) == 1009


def test_the_rate_limit_refuses_a_flood_with_one_line_and_then_closes():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=1)
        with _seat(c, made) as ws:
            seat = W.Seat(ws)
            seat.next("view")
            for _ in range(100):
                ws.send_text('{"type": "ping"}')
            answers = [seat.recv() for _ in range(100)]
            answers = [a for a in answers if a["type"] in ("pong", "error")]
            pongs = sum(a["type"] == "pong" for a in answers)
            errors = [a["message"] for a in answers if a["type"] == "error"]
            assert pongs >= web_app.BURST and errors and set(errors) == {"too many messages: slow down"}
        with _seat(c, made) as ws:
            for _ in range(int(web_app.BURST) + web_app.MAX_REFUSED + 50):
                ws.send_text('{"type": "ping"}')
            assert W.close_code(ws) == 4429


def test_a_websocket_from_another_origin_is_refused():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=1)
        link = "/ws/" + W.token(made["seats"][0]["link"])
        for origin in ("http://evil.example", "http://testserver.evil.example", "null", "file://"):
            with c.websocket_connect(link, headers={"origin": origin}) as ws:
                assert json.loads(ws.receive_text())["type"] == "error"
                assert W.close_code(ws, next_only=True) == 4403
        with c.websocket_connect(link, headers={"origin": "http://testserver"}) as ws:
            assert W.Seat(ws).next("view")["seat"] == 0


def test_every_answer_carries_the_security_headers():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=1)
        answers = [c.get("/"), c.get("/t/" + W.token(made["seats"][0]["link"])), c.get("/static/app.js"),
                   c.get("/static/../secret"), c.get("/api/games"), c.get("/api/tables"), c.get("/nothing"),
                   c.post("/api/tables", json={"game": "nope"}), c.get("/api/replay/" + "y" * 30),
                   c.post("/api/tables", content=b"x" * (web_app.MAX_BODY + 1))]
        for r in answers:
            assert r.headers["content-security-policy"].startswith("default-src 'self'"), r.url
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "no-referrer"
        assert answers[-1].status_code == 413


def test_a_page_that_is_not_shipped_is_404_and_assets_are_only_the_folders_files(tmp_path):
    (tmp_path / "lobby.html").write_text("<!doctype html><title>lobby</title>", encoding="utf-8")
    (tmp_path / "app.js").write_text("// js", encoding="utf-8")
    srv = W.server()
    srv.static = tmp_path
    with W.client(srv) as c:
        assert c.get("/").text.startswith("<!doctype html>")
        assert c.get("/t/" + "a" * 32).status_code == 404  # no table.html shipped here
        assert c.get("/static/app.js").text == "// js"
        for bad in ("/static/..%2Fsecret", "/static/.hidden", "/static/%2e%2e"):
            assert c.get(bad).status_code == 404


def test_a_body_too_big_is_refused_without_a_length_too():
    srv = W.server()
    with W.client(srv) as c:
        def chunks():
            for _ in range(40):
                yield b"x" * 1024
        r = c.post("/api/tables", content=chunks())
        assert r.status_code == 413


def test_a_rule_files_texts_reach_the_client_only_as_json_text():
    """tests/hostile_text/escapes_in_texts.cards: every kind of escape in every text. Each answer
    and message is JSON whose strings hold the texts as written, with no raw control byte and no
    page built from them (the pages are static files)."""
    srv = W.server(files=(HOSTILE,))
    with W.client(srv) as c:
        r = c.get("/api/games")
        assert r.headers["content-type"] == "application/json"
        assert b"\x1b" not in r.content and b"\x07" not in r.content
        game = r.json()["games"][0]
        symbols = srv.catalog.get(game["id"]).symbols
        assert game["title"] == symbols.title and game["about"] == symbols.about
        assert "\x1b]0;PWNED\x07" in game["title"]
        made = W.create(c, game=game["id"], players=2, seats=["person", "person"], seed=1)
        assert b"\x1b" not in c.get("/api/tables").content
        with _seat(c, made, 0) as ws0, _seat(c, made, 1) as ws1:
            raw = [ws0.receive_text() for _ in range(3)] + [ws1.receive_text() for _ in range(3)]
            for text in raw:
                assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
                json.loads(text)
            hello = json.loads(raw[0])
            assert hello["game"] == symbols.title
            views = [json.loads(t) for t in raw if json.loads(t)["type"] == "view"]
            labels = [a["label"] for v in views for a in v["actions"]]
            assert any(label.startswith("keep\x1b[2K") for label in labels)
            assert any("forged log" in line for v in views for line in v["log"])
        # the pages are files, the same whatever the rules say
        for page in ("/", "/t/" + W.token(made["seats"][0]["link"])):
            body = c.get(page).content
            assert b"PWNED" not in body and b"forged" not in body


def test_encode_escapes_every_control_character():
    text = protocol.encode({"label": "a\x1b[31mb\x07\u2028\u202e<script>"})
    assert "\x1b" not in text and "\x07" not in text and "\u2028" not in text and "\u202e" not in text
    assert json.loads(text)["label"] == "a\x1b[31mb\x07\u2028\u202e<script>"


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=50),
                 st.dictionaries(st.sampled_from(["type", "id", "seq", "stars", "comment", "x"]),
                                 st.one_of(st.sampled_from(["act", "undo", "rate", "ping"]), JSON_VALUES),
                                 max_size=5).map(json.dumps)))
def test_any_client_message_is_read_or_refused_in_one_line(raw):
    try:
        msg = protocol.parse_client(raw)
    except protocol.BadMessage as e:
        assert "\n" not in str(e) and str(e)
        return
    assert msg["type"] in protocol.CLIENT_TYPES
    if msg["type"] == "act":
        assert isinstance(msg["id"], int) and not isinstance(msg["id"], bool)


def test_the_tables_being_played_at_once_are_bounded(monkeypatch):
    monkeypatch.setattr(web_app, "MAX_PLAYING", 2)
    srv = W.server()
    with W.client(srv) as c:
        W.create(c, seats=["person"] * 5)
        W.create(c, seats=["person"] * 5)
        r = c.post("/api/tables", json={"game": "coucou", "players": 5, "seats": ["person"] * 5})
        assert r.status_code == 503 and r.json() == {"error": "2 tables are being played: try again when one ends"}
