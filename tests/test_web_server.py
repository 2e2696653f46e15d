"""The web table's server through its protocol (issue 30, docs/web.md): whole games, reconnecting,
tokens, undo, ratings, replays, the lobby. The limits and hostile input: tests/test_web_untrusted.py."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time

import webtable as W
from cardlang.web import tables as web_tables
from scenario import ROOT


def _open(c, stack, link):
    return W.Seat(stack.enter_context(c.websocket_connect("/ws/" + W.token(link))))


def test_the_lobby_lists_the_games_and_tables_without_tokens():
    srv = W.server()
    with W.client(srv) as c:
        games = c.get("/api/games").json()["games"]
        assert [g["id"] for g in games] == ["coucou"]
        coucou = games[0]
        assert coucou["title"] == "Coucou" and coucou["players"] == {"min": 5, "max": 20}
        assert coucou["about"].startswith("Everyone holds one card")
        assert {"name": "tokens", "values": "1..20", "default": 5, "help": "tokens each player starts with"} \
            in coucou["options"]
        assert coucou["problems"] == []
        made = W.create(c, seats=["person", "bot:random", "bot:random", "bot:greedy:4", "person"], seed=1)
        listed = c.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [made["table"]]
        assert listed[0]["game"] == "coucou" and listed[0]["players"] == 5
        text = c.get("/api/tables").text
        for s in made["seats"]:
            if s["link"]:
                assert W.token(s["link"]) not in text
        assert W.token(made["spectator"]) not in text
        assert [s["link"] is None for s in made["seats"]] == [False, True, True, True, False]


def test_two_people_and_bots_play_coucou_to_the_end_through_the_protocol():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person", "person", "bot:random", "bot:greedy:4", "bot:random"], seed=11,
                        options={"tokens": 2})
        with contextlib.ExitStack() as stack:
            seats = {s["seat"]: _open(c, stack, s["link"]) for s in made["seats"] if s["link"]}
            spectator = _open(c, stack, made["spectator"])
            assert seats[0].hello["role"] == "seat" and seats[0].hello["seat"] == 0
            assert spectator.hello["role"] == "spectator" and spectator.hello["seat"] is None
            last = W.play_out(seats, random.Random(3))
            assert last["over"] and last["to_act"] == [] and last["actions"] == []
            result = last["result"]
            assert len(result["winners"]) == 1 and result["order"] is None
            assert sum(1 for s in result["scores"] if s > 0) == 1  # the last player with tokens
            seen = spectator.until(lambda v: v["over"])
            assert seen["result"] == result and seen["seat"] is None and seen["actions"] == []
            table = srv.tables[made["table"]]
            assert table.state.is_terminal()
            assert [s for _, s in table.record.actions].count(0) > 0
            assert [s for _, s in table.record.actions].count(1) > 0
            # the store holds every move: the game played again from the seed ends the same
            stored = srv.store.tables()[0]
            assert stored.status == "over" and stored.actions == table.record.actions
            assert c.get("/api/tables").json()["tables"][0]["status"] == "over"


def test_a_seat_is_shown_only_its_own_card_and_labels_from_its_view():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=4)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            for k, seat in enumerate(seats):
                view = seat.next("view")
                hands = view["observation"]["zones"]["hand"]
                assert [h[0] is not None for h in hands] == [s == k for s in range(5)] or k == view["to_act"][0]
                table = srv.tables[made["table"]]
                state_view = table.state.view(k)
                assert [a["label"] for a in view["actions"]] == [a.label for a in state_view.legal_actions()]
                assert view["log"] == state_view.transcript()


def test_a_link_opened_again_gets_its_view_at_once_and_the_table_goes_on():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person", "person", "bot:random", "bot:random", "bot:random"], seed=2)
        links = {s["seat"]: s["link"] for s in made["seats"] if s["link"]}
        with c.websocket_connect("/ws/" + W.token(links[0])) as ws:
            first = W.Seat(ws).next("view")
        assert srv.tables[made["table"]].present[0] == 0
        started = time.monotonic()
        with c.websocket_connect("/ws/" + W.token(links[0])) as ws:
            seat = W.Seat(ws)
            again = seat.next("view")
            assert time.monotonic() - started < 1.0
            assert again == first
            assert srv.tables[made["table"]].present[0] == 1
        with contextlib.ExitStack() as stack:
            seats = {k: _open(c, stack, link) for k, link in links.items()}
            assert W.play_out(seats, random.Random(1))["over"]


def test_an_unknown_token_is_refused_and_a_seat_acts_only_for_itself():
    srv = W.server()
    with W.client(srv) as c:
        with c.websocket_connect("/ws/" + "x" * 32) as ws:
            assert json.loads(ws.receive_text()) == {"type": "error", "message": "no table has this link"}
            assert W.close_code(ws, next_only=True) == 4404
        made = W.create(c, seats=["person"] * 5, seed=4)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            views = [s.next("view") for s in seats]
            turn = views[0]["to_act"][0]
            other = (turn + 1) % 5
            theirs = views[turn]["actions"][0]
            # the other seat sends the id of the seat whose turn it is, even naming that seat
            seats[other].send(type="act", id=theirs["id"], seq=views[0]["seq"], seat=turn)
            assert seats[other].next("error")["message"] == "it is not your turn"
            spectator = _open(c, stack, made["spectator"])
            spectator.send(type="act", id=theirs["id"], seq=0)
            assert "spectator" in spectator.next("error")["message"]
            seats[turn].send(type="act", id=10 ** 12, seq=0)
            assert seats[turn].next("error")["message"] == f"action {10 ** 12} is not one of your actions now"
            seats[turn].send(type="act", id=theirs["id"], seq=7)
            assert "moved on" in seats[turn].next("error")["message"]
            assert srv.tables[made["table"]].record.actions == []
            seats[turn].act(theirs["label"], views[turn])
            assert seats[turn].until(lambda v: v["seq"] == 1)["to_act"] != [turn]


def _undo_table(c, undo=True):
    made = W.create(c, seats=["person"] * 5, seed=5, undo=undo)
    return made


def test_undo_takes_back_a_move_that_revealed_nothing():
    srv = W.server()
    with W.client(srv) as c:
        made = _undo_table(c)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            views = [s.next("view") for s in seats]
            dealer = views[0]["to_act"][0]
            seats[dealer].act(lambda a: a[0])
            after = seats[dealer].until(lambda v: v["seq"] == 1)
            nxt = after["to_act"][0]
            mine = seats[nxt].until(lambda v: v["seq"] == 1)
            seats[nxt].act("keep", mine)
            kept = seats[nxt].until(lambda v: v["seq"] == 2)
            assert kept["undo"] is True and kept["to_act"] != [nxt]
            table = srv.tables[made["table"]]
            assert len(table.record.actions) == 2
            seats[nxt].send(type="undo")
            back = seats[nxt].until(lambda v: v["seq"] == 3)
            assert back["to_act"] == [nxt] and [a["label"] for a in back["actions"]] == ["keep", "change"]
            assert back["observation"] == mine["observation"] and back["log"] == mine["log"]
            assert len(table.record.actions) == 1 and len(srv.store.tables()[0].actions) == 1
            assert srv.store.tables()[0].seq == 3
            # once more: the same move again, then someone else's: no more undo for the first
            seats[nxt].act("keep", back)
            third = seats[nxt].until(lambda v: v["seq"] == 4)["to_act"][0]
            seats[third].until(lambda v: v["seq"] == 4)
            seats[third].act("keep")
            seats[nxt].until(lambda v: v["seq"] == 5)
            seats[nxt].send(type="undo")
            assert seats[nxt].next("error")["message"] == "the last move is not yours: another player has acted since"


def test_undo_is_refused_after_a_move_that_showed_a_card():
    srv = W.server()
    with W.client(srv) as c:
        made = _undo_table(c)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            views = [s.next("view") for s in seats]
            dealer = views[0]["to_act"][0]
            seats[dealer].act(lambda a: a[0])
            nxt = seats[dealer].until(lambda v: v["seq"] == 1)["to_act"][0]
            seats[nxt].until(lambda v: v["seq"] == 1)
            seats[nxt].act("change")  # the neighbour sees his card (or shows his King)
            changed = seats[nxt].until(lambda v: v["seq"] == 2)
            assert changed["undo"] is False
            seats[nxt].send(type="undo")
            assert seats[nxt].next("error")["message"] == "the move showed a card to someone: it cannot be taken back"
            assert len(srv.tables[made["table"]].record.actions) == 2


def test_undo_is_refused_where_the_table_does_not_allow_it():
    srv = W.server()
    with W.client(srv) as c:
        made = _undo_table(c, undo=False)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            views = [s.next("view") for s in seats]
            dealer = views[0]["to_act"][0]
            seats[dealer].act(lambda a: a[0])
            assert seats[dealer].until(lambda v: v["seq"] == 1)["undo"] is False
            seats[dealer].send(type="undo")
            assert seats[dealer].next("error")["message"] == "this table does not allow undo"


def test_a_move_that_drew_at_random_cannot_be_taken_back():
    """Structural: the state's chance moved between the two states (the next deal's shuffle)."""
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person"] * 5, seed=5, undo=True)
    table = srv.tables[made["table"]]
    rng = random.Random(0)
    while table.state.rng == table.state.game.new_initial_state(seed=5).rng:
        seat = table.state.current_player
        table.apply(rng.choice(table.state.legal_action_ids()), seat)
    assert table.undo_problem(table.record.actions[-1][1]) == "the move drew something random: it cannot be taken back"
    before = web_tables.replay(table.game, table.record, table.record.actions[:-1])[0]
    assert web_tables.revealed(before, table.state) is not None


def test_a_seat_left_empty_is_played_by_a_bot_until_its_person_returns(monkeypatch):
    monkeypatch.setattr(web_tables, "IDLE_MIN", 1)
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person", "bot:random", "bot:random", "bot:random", "bot:random"], seed=3,
                        idle_seconds=1)
        table = srv.tables[made["table"]]
        assert not table.over
        deadline = time.monotonic() + 30
        while not table.over and time.monotonic() < deadline:
            time.sleep(0.2)
        assert table.over, "the empty seat's bot did not play"
        assert [s for _, s in table.record.actions].count(0) > 0
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person", "bot:random", "bot:random", "bot:random", "bot:random"], seed=3,
                        idle_seconds=1)
        with c.websocket_connect("/ws/" + W.token(made["seats"][0]["link"])) as ws:
            seat = W.Seat(ws)
            seat.until(lambda v: v["to_act"] == [0])
            time.sleep(2.5)  # present: the seat waits for its person, however long
            assert not srv.tables[made["table"]].over
            assert seat.view["to_act"] == [0]


def test_ratings_after_the_game_and_the_replay_seat_by_seat_or_whole():
    srv = W.server()
    with W.client(srv) as c:
        made = W.create(c, seats=["person", "bot:random", "bot:random", "bot:random", "bot:random"], seed=9,
                        options={"tokens": 1})
        link = made["seats"][0]["link"]
        with c.websocket_connect("/ws/" + W.token(link)) as ws:
            seat = W.Seat(ws)
            seat.send(type="rate", stars=4, comment="too early")
            assert seat.next("error")["message"] == "rate the game once it is over"
            assert c.get("/api/replay/" + W.token(link)).status_code == 409
            W.play_out({0: seat}, random.Random(2))
            seat.send(type="rate", stars=4, comment="short but <b>fun</b>")
            assert seat.next("rated") == {"type": "rated", "stars": 4}
            seat.send(type="rate", stars=6)
            assert seat.next("error")["message"] == "`stars` is a whole number from 1 to 5"
        assert srv.store.ratings(made["table"])[0]["comment"] == "short but <b>fun</b>"
        table = srv.tables[made["table"]]
        mine = c.get("/api/replay/" + W.token(link) + "?seat=0").json()
        assert len(mine["steps"]) == len(table.record.actions) + 1
        assert all(len(s["views"]) == 1 and s["views"][0]["seat"] == 0 for s in mine["steps"])
        assert mine["steps"][-1]["views"][0]["result"] == protocol_result(table)
        whole = c.get("/api/replay/" + W.token(made["spectator"])).json()
        assert [len(s["views"]) for s in whole["steps"]] == [6] * len(mine["steps"])
        assert whole["log"] == table.state.transcript()
        assert c.get("/api/replay/" + W.token(link) + "?seat=9").status_code == 400


def protocol_result(table):
    from cardlang.web.protocol import result_of

    return result_of(table.state)


def test_bad_table_requests_get_one_line():
    srv = W.server()
    with W.client(srv) as c:
        cases = [
            ({"game": "nope"}, "no such game (see /api/games)"),
            ({"game": "coucou", "players": 3}, "Coucou is for 5 to 20 players"),
            ({"game": "coucou", "players": 5, "seats": ["person"]}, "`seats` lists one kind per seat (5)"),
            ({"game": "coucou", "players": 5, "seats": ["person"] * 4 + ["bot:wizard"]}, "unknown bot"),
            ({"game": "coucou", "players": 5, "seats": ["person"] * 4 + ["bot:ismcts:999999"]}, "at most"),
            ({"game": "coucou", "players": 5, "options": {"tokens": 99}}, "option `tokens` must be from 1 to 20"),
            ({"game": "coucou", "players": 5, "options": {"nope": 1}}, "no option `nope`"),
            ({"game": "coucou", "players": 5, "idle_seconds": 0}, "`idle_seconds`"),
            ({"game": "coucou", "players": 5, "seed": -1}, "`seed`"),
        ]
        for body, expected in cases:
            r = c.post("/api/tables", json=body)
            assert r.status_code == 400, body
            message = r.json()["error"]
            assert expected in message and "\n" not in message, (body, message)
        r = c.post("/api/tables", content=b"[1, 2", headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json() == {"error": "the request is one JSON object"}
        assert c.get("/api/tables").json() == {"tables": []}


def test_the_lobby_password():
    srv = W.server(password="hunter2")
    with W.client(srv) as c:
        for path in ("/api/games", "/api/tables"):
            assert c.get(path).status_code == 401
            assert c.get(path, headers={"X-Cardlang-Password": "wrong"}).status_code == 401
            assert c.get(path, headers={"X-Cardlang-Password": "hunter2"}).status_code == 200
        assert c.post("/api/tables", json={"game": "coucou", "players": 5}).status_code == 401
        r = c.post("/api/tables", json={"game": "coucou", "players": 5, "seats": ["person"] * 5},
                   headers={"X-Cardlang-Password": "hunter2"})
        assert r.status_code == 200
        # a seat's link is its own credential
        with c.websocket_connect("/ws/" + W.token(r.json()["seats"][0]["link"])) as ws:
            assert W.Seat(ws).next("view")["seat"] == 0


def test_a_file_that_no_longer_checks_shows_its_problems_and_running_tables_keep_their_rules(tmp_path):
    rules = tmp_path / "mine.cards"
    rules.write_text(open(W.COUCOU, encoding="utf-8").read(), encoding="utf-8")
    srv = W.server(files=(str(rules),), reload=True)
    with W.client(srv) as c:
        made = W.create(c, game="mine", seats=["person"] * 5, seed=1)
        rules.write_text("game \"Broken\"\nplayers 2\nround:\n    oops\n", encoding="utf-8")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            problems = c.get("/api/games").json()["games"][0]["problems"]
            if problems:
                break
            time.sleep(0.3)
        assert problems and all(p.startswith(str(rules)) and ": E" in p for p in problems), problems
        r = c.post("/api/tables", json={"game": "mine", "players": 5})
        assert r.status_code == 400 and "does not check" in r.json()["error"]
        with c.websocket_connect("/ws/" + W.token(made["seats"][0]["link"])) as ws:
            view = W.Seat(ws).next("view")
            assert view["observation"]["game"] == "Coucou"
        table = srv.tables[made["table"]]
        assert "Rule 1: 32 cards" in table.record.rules[str(rules)]
        rules.write_text(open(W.COUCOU, encoding="utf-8").read().replace('game "Coucou"', 'game "Coucou 2"'),
                         encoding="utf-8")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and c.get("/api/games").json()["games"][0]["title"] != "Coucou 2":
            time.sleep(0.3)
        made2 = W.create(c, game="mine", seats=["person"] * 5, seed=1)
        assert srv.tables[made2["table"]].game.title == "Coucou 2"
        assert srv.tables[made["table"]].game.title == "Coucou"


HOSTILE_RUNTIME = os.path.join(ROOT, "tests", "hostile_runtime")


def test_a_rule_that_breaks_during_a_move_stops_the_table_with_one_line():
    srv = W.server(files=(os.path.join(HOSTILE_RUNTIME, "division_by_zero.cards"),
                          os.path.join(HOSTILE_RUNTIME, "score_divides_by_zero.cards")))
    with W.client(srv) as c:
        made = W.create(c, game="division_by_zero", players=2, seats=["person", "person"], seed=1)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            seats[0].until(lambda v: v["to_act"] == [0])
            seats[0].act("a")
            seats[1].until(lambda v: v["seq"] == 1)
            seats[1].act("b")
            stopped = seats[1].until(lambda v: v["seq"] == 2)
            assert "division by zero" in stopped["error"] and "\n" not in stopped["error"]
            seats[0].send(type="act", id=0, seq=2)
            assert seats[0].next("error")["message"] == "the game is over"
        assert c.get("/api/tables").json()["tables"][0]["status"] == "broken"
        # a score that breaks a rule when the game ends, as the view shows it
        made = W.create(c, game="score_divides_by_zero", players=2, seats=["person", "person"], seed=1)
        with contextlib.ExitStack() as stack:
            seats = [_open(c, stack, s["link"]) for s in made["seats"]]
            turn = seats[0].until(lambda v: True)["to_act"][0]
            seats[turn].until(lambda v: v["to_act"] == [turn])
            seats[turn].act("go")
            stopped = seats[turn].until(lambda v: v["seq"] == 1)
            assert "division by zero" in stopped["error"]
            seats[turn].send(type="ping")
            assert seats[turn].next("pong") == {"type": "pong"}
