"""Helpers of the web table's tests: a server on a TestClient, and a seat that reads its messages."""

from __future__ import annotations

import contextlib
import json
import os
import random
import warnings
from typing import Callable, Optional

with warnings.catch_warnings():  # (starlette asks for `httpx2` in its test client; `httpx` works as well)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardlang.web.app import Server, make_app
from cardlang.web.rules import Catalog
from cardlang.web.store import open_store
from scenario import ROOT

COUCOU = os.path.join(ROOT, "games", "coucou.cards")


def server(files=(COUCOU,), db: Optional[str] = None, **kw) -> Server:
    """A server of `files` over a store at `db` (in memory by default)."""
    return Server(Catalog(lambda: list(files)), open_store(db), **kw)


@contextlib.contextmanager
def client(srv: Server):
    """A TestClient of the server, its lifespan (the ticker) running."""
    with TestClient(make_app(srv)) as c:
        yield c


class Seat:
    """One WebSocket at a table: its messages read in order, the last view kept."""

    def __init__(self, ws):
        self.ws = ws
        self.view: Optional[dict] = None
        self.hello = self.next("hello")
        self.errors: list = []

    def recv(self) -> dict:
        msg = json.loads(self.ws.receive_text())
        if msg["type"] == "view":
            self.view = msg
        elif msg["type"] == "error":
            self.errors.append(msg["message"])
        return msg

    def next(self, kind: str) -> dict:
        """The next message of a kind (others read on the way)."""
        while True:
            msg = self.recv()
            if msg["type"] == kind:
                return msg

    def until(self, ok: Callable[[dict], bool]) -> dict:
        """The last view read if it satisfies `ok`, else the next that does."""
        if self.view is not None and ok(self.view):
            return self.view
        while True:
            msg = self.next("view")
            if ok(msg):
                return msg

    def send(self, **msg) -> None:
        self.ws.send_text(json.dumps(msg))

    def act(self, label_or_pick, view: Optional[dict] = None) -> dict:
        """Plays the action of the last view with that label (or picked by a function); its view's seq."""
        view = view or self.view
        if callable(label_or_pick):
            action = label_or_pick(view["actions"])
        else:
            action = next(a for a in view["actions"] if a["label"] == label_or_pick)
        self.send(type="act", id=action["id"], seq=view["seq"])
        return view["seq"]


def create(c, game="coucou", players=5, seats=None, **kw) -> dict:
    """POST /api/tables; the answer."""
    body = {"game": game, "players": players, "seats": seats or ["person"] * players, **kw}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def close_code(ws, *, next_only: bool = False):
    """Read until the server closes the socket: the close code it gave (None if it gave none). With
    `next_only`, the very next read must find it closed ("a message" is returned if it does not)."""
    try:
        while True:
            ws.receive_text()
            if next_only:
                return "a message"
    except Exception as closed:  # (starlette's test client raises WebSocketDisconnect with the code)
        return getattr(closed, "code", None)


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def play_out(seats: dict, rng: random.Random, limit: int = 2000) -> dict:
    """Plays a table to its end: each person picks at random among its actions when the table waits
    for it. `seats`: seat number -> Seat. The last view seen."""
    current = next(iter(seats.values()))
    view = current.until(lambda v: True) if current.view is None else current.view
    for _ in range(limit):
        if view["over"]:
            return view
        waiting = view["to_act"][0]
        if waiting in seats:
            me = seats[waiting]
            mine = me.until(lambda v: v["seq"] >= view["seq"])
            if mine["seq"] > view["seq"]:
                view = mine
                continue
            me.act(lambda actions: rng.choice(actions), mine)
            view = me.until(lambda v: v["seq"] > mine["seq"])
        else:  # a bot's turn: wait for the table to move on
            view = current.until(lambda v: v["seq"] > view["seq"] and (v["over"] or v["to_act"][0] in seats))
        current = seats.get(view["to_act"][0], current) if not view["over"] else current
    raise AssertionError("the game did not end")
