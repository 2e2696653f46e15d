"""`cardlang play` as a newcomer finds it (issue 27's "found as a newcomer", issue 26's hot-seat
scrollback): what the table shows, how it asks, what it writes where. Each test plays the game
through click's CliRunner; tests/test_play_table_pty.py checks the visible ones in a real terminal.
"""

import os
import re

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from scenario import path

SYMBOLS = re.compile("[♣♦♥♠]")


def run(args, answers=()):
    """`cardlang ARGS…` with the answers typed one a line."""
    return CliRunner().invoke(main, list(args), input="".join(a + "\n" for a in answers))


# ------------------------------------------------------------------ bots only
def test_bots_only_ascii_writes_suits_as_letters():
    result = run(["play", path("examples/war.cards"), "--bots-only", "--seed", "1", "--ascii"])
    assert result.exit_code == 0, result.output
    assert not SYMBOLS.search(result.output), result.output[-400:]
    assert re.search(r"face up on battle: \w+[cdhs]\b", result.output)  # the cards are there, as letters


def test_bots_only_without_ascii_keeps_the_suit_symbols():
    result = run(["play", path("examples/war.cards"), "--bots-only", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert SYMBOLS.search(result.output)


def test_bots_only_game_without_a_score_prints_whole_numbers():
    # coin_flip declares no `score of p`: the scores are the payoffs, floats inside the engine
    result = run(["play", path("examples/coin_flip.cards"), "--bots-only", "--seed", "1"])
    assert result.exit_code == 0, result.output
    final = next(line for line in result.output.splitlines() if line.startswith("final scores"))
    assert final == "final scores: P0: 0, P1: 1", final


# ------------------------------------------------------------------ save-file names
SAVE_NAME = re.compile(r"[\w.-]*\.save\.json")


def test_the_save_file_name_is_the_same_in_the_docs_the_help_and_what_play_writes(tmp_path, monkeypatch):
    from cardlang.cli.cmd_play import SAVE_NAME_SHAPE
    from scenario import ROOT

    shape = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*-\d{8}-\d{6}\.save\.json")  # GAME-YYYYMMDD-HHMMSS
    help_text = run(["play", "--help"]).output
    texts = {"play --help": help_text}
    for doc in ("README.md", "docs/language.md", "docs/saves.md"):
        texts[doc] = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    for where, text in texts.items():
        names = SAVE_NAME.findall(text)
        if where != "docs/saves.md":  # (saves.md gives an example only)
            assert SAVE_NAME_SHAPE in names, (where, names)
        for name in names:
            assert name == SAVE_NAME_SHAPE or shape.fullmatch(name), (where, name)
    # what play writes when `q` offers to save and Enter takes the name offered
    monkeypatch.chdir(tmp_path)
    result = run(["play", path("games/coucou.cards"), "--seed", "2"], ["1", "q", ""])
    assert result.exit_code == 0, result.output
    written = [p.name for p in tmp_path.iterdir()]
    assert len(written) == 1 and shape.fullmatch(written[0]) and written[0].startswith("coucou-"), written
    assert f"[{written[0]}]" in result.output  # the name offered is the name written


# ------------------------------------------------------------------ --auto-single
def test_auto_single_plays_a_lone_legal_move_without_asking_and_says_so(tmp_path):
    import json

    game = path("examples/follow_suit.cards")
    asked, auto = tmp_path / "asked.json", tmp_path / "auto.json"
    plain = run(["play", game, "--seed", "3", "--save", str(asked)], ["1"] * 200)
    quick = run(["play", game, "--seed", "3", "--save", str(auto), "--auto-single"], ["1"] * 200)
    assert plain.exit_code == 0 and quick.exit_code == 0, quick.output
    with open(asked) as f, open(auto) as g:
        asked_data, auto_data = json.load(f), json.load(g)
    assert asked_data["actions"] == auto_data["actions"]  # the same game: `1` was the only move anyway
    singles = quick.output.count("P0 had a single legal move, played without asking (--auto-single): ")
    assert singles == 8  # (this deal gives P0 eight turns with one legal card)
    assert "single legal move" not in plain.output
    assert quick.output.count("P0 > ") == plain.output.count("P0 > ") - singles  # never asked for those
    assert "--auto-single" in run(["play", "--help"]).output


# ------------------------------------------------------------------ the numbered choices
CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
CHOICE = re.compile(r"(\d+)\. (.+?)(?=\s{2,}\d+\. |\s*$)")


def screens(output: str):
    """Each turn of a played session: (the hand shown, the numbered choices in number order)."""
    for block in output.split("Your turn, P0.")[1:]:
        head = output[:output.index(block)].rsplit("your hand", 1)[-1].split("\n", 1)[0]
        choices = {}
        for line in block.split("\n"):
            if line.startswith("P0 > ") or line.startswith("answer with"):
                break
            for m in CHOICE.finditer(line):
                choices[int(m.group(1))] = m.group(2)
        yield CARD.findall(head), [choices[k] for k in sorted(choices)]


def test_display_order_sorts_card_choices_as_the_hand_and_keeps_the_others_in_place():
    import cardlang
    from types import SimpleNamespace as A

    from cardlang.play.table_view import Layout

    layout = Layout.of(cardlang.load(path("games/ascenseur.cards"), players=3))
    actions = [A(label=x, id=k) for k, x in enumerate(["draw", "play K♠", "play 2♣", "pass", "play 9♠", "play 2♣"])]
    shown = layout.display_order(actions)
    assert [a.label for a in shown] == ["draw", "play 2♣", "play 2♣", "pass", "play 9♠", "play K♠"]
    assert [a.id for a in shown] == [0, 2, 5, 3, 4, 1]  # the ids are the actions' own: only the list is sorted
    hand = ["K♠", "2♣", "9♠"]
    assert layout.sorted_hand(hand) == ["2♣", "9♠", "K♠"]
    # the same cards in another order (a hand dealt otherwise) give the same list
    again = layout.display_order([actions[k] for k in (4, 0, 5, 3, 1, 2)])
    assert [a.label for a in again] == ["play 2♣", "draw", "play 2♣", "pass", "play 9♠", "play K♠"]


@pytest.mark.parametrize("game", ["examples/follow_suit.cards", "examples/knock_rummy.cards"])
def test_the_numbered_choices_follow_the_hand_shown_above_every_turn(game):
    result = run(["play", path(game), "--seed", "3", "--speed", "0"], ["1"] * 40 + ["q", "n"])
    assert result.exit_code == 0, result.output
    turns = list(screens(result.output))
    assert len(turns) >= 12
    for hand, choices in turns:
        cards = [m.group(0) for m in map(CARD.search, choices) if m and m.group(0) in hand]
        assert cards == [c for c in hand if c in cards], (hand, choices)  # in the hand's order


# ------------------------------------------------------------------ log lines as a person says them
def test_zone_names_in_the_log_read_as_words():
    from cardlang.runtime.log import deal_text, zone_words

    assert zone_words("hand(P2)") == "P2's hand" and zone_words("draw_pile") == "draw pile"
    assert zone_words("column(3)") == "column 3" and zone_words("won_tricks(P0)") == "P0's won tricks"
    assert deal_text(3, "talon", ["hand(P3)"]) == "dealt 3 cards from talon to P3's hand"
    assert deal_text(1, "talon", ["hand(P0)", "hand(P4)", "hand(P3)"]) == \
        "dealt 1 card each from talon to P0's, P4's and P3's hand"
    assert deal_text(2, "stock", ["hand(P0)", "column(2)"]) == "dealt 2 cards each from stock to P0's hand and column 2"


CODE_LIKE = re.compile(r"\w\((?:P?\d+)\)|_|\(s\)|==|!=|\{|\}")  # `hand(P0)`, `draw_pile`, `card(s)`, `{x}`


def test_no_line_of_the_games_transcripts_reads_like_code():
    from test_transcripts import GAMES
    from test_playouts import _range

    for relative in GAMES:
        low, _ = _range(relative)
        result = run(["play", path(relative), "--bots-only", "--seed", "7", "--players", str(low)])
        assert result.exit_code == 0, result.output
        odd = [line for line in result.output.splitlines() if CODE_LIKE.search(line)]
        assert not odd, (relative, odd[:5])


# ------------------------------------------------------------------ the card you received
def _exchange_with_p0():
    """A Coucou game (5 players) played on until a player changes cards with P0: the state before
    that action, the action, and the player who changed."""
    import random

    import cardlang

    game = cardlang.load(path("games/coucou.cards"), players=5)
    rng = random.Random(1)
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            change = [a for a in legal if a.label == "change"]
            p = state.current_player
            if change and p == 1:  # P1 changes with his right-hand neighbour, P0, not with the talon
                trial = state.clone()
                his = trial.observation(1)["zones"]["hand"][1]
                trial.apply(change[0])
                if trial.observation(0)["zones"]["hand"][0] == his:
                    return game, state, change[0], p
            state.apply(rng.choice(legal))
    raise AssertionError("no exchange with P0 in 40 games")


def test_the_log_names_the_card_received_in_an_exchange_only_to_those_who_saw_it():
    from cardlang.play.table_view import Layout, known_places, receipts

    game, state, change, p = _exchange_with_p0()
    layout = Layout.of(game)
    before = {s: state.view(s).observation() for s in range(5)}
    mine, his = before[0]["zones"]["hand"][0][0], before[1]["zones"]["hand"][1][0]
    state.apply(change)
    after = {s: state.view(s).observation() for s in range(5)}
    assert after[0]["zones"]["hand"][0] == [his]
    # both saw both cards: each his own going to the other, the other's coming to him
    both = [f"P0's hand gets {his}", f"P1's hand gets {mine}"]
    assert receipts(before[0], after[0], layout) == both and receipts(before[1], after[1], layout) == both
    for other in (2, 3, 4):  # the others: only a card each knew in one of the hands (from an earlier exchange)
        knew, knows = known_places(before[other]), known_places(after[other])
        for line in receipts(before[other], after[other], layout):
            card = line.rsplit(" ", 1)[1]
            assert knew[card][0] == "hand" and knows[card] in {("hand", 0), ("hand", 1)}, line
    # and a seat that knew neither card is told nothing
    blind = dict(before[2], zones=dict(before[2]["zones"], hand=[[None] * len(h) for h in before[2]["zones"]["hand"]]))
    blind_after = dict(after[2], zones=dict(after[2]["zones"], hand=[[None] * len(h) for h in after[2]["zones"]["hand"]]))
    assert receipts(blind, blind_after, layout) == []


def test_at_the_table_the_card_drawn_is_named_after_the_draw():
    # Knock Rummy: P0 answers 1 ("draw from the stock"), then 1 (discard the first card)
    result = run(["play", path("examples/knock_rummy.cards"), "--seed", "3", "--speed", "0"],
                 ["1", "1", "log", "q", "n"])
    assert result.exit_code == 0, result.output
    out = result.output
    log = out[out.rindex("P0 > log"):]
    lines = [line.strip() for line in log.splitlines()]
    i = lines.index("P0 chooses draw from the stock")
    assert re.fullmatch(r"P0's hand gets (?:10|[2-9AJQK])[♣♦♥♠]", lines[i + 1]), lines[i:i + 3]
    drawn = lines[i + 1].rsplit(" ", 1)[1]
    hands = re.findall(r"your hand\s+(.*)", out)
    assert drawn not in hands[0] and drawn in hands[1]  # the card that came is the one now in the hand
    assert not any(line.startswith("P1's hand gets") for line in lines)  # P1's draws are unseen


@pytest.mark.parametrize("relative,players", [("games/coucou.cards", 5), ("examples/knock_rummy.cards", 2)])
def test_what_a_seat_is_told_arrived_does_not_depend_on_cards_hidden_from_it(relative, players):
    # the leak test's twins (tests/test_leaks.py): the same past for seat k, the cards k does not know
    # dealt again. Another seat moves (the same move in both): where k cannot tell the twins apart
    # afterwards either, what k is told arrived in a hand is the same, though the cards that did differ
    from cardlang.play.table_view import Layout, known_places, receipts
    from test_leaks import twins

    compared = unseen = 0
    for state, seat, twin, fits in twins(relative, players):
        if not fits or state.current_player == seat or state.current_player is None:
            continue
        layout = Layout.of(state.game)
        same = {x.label: x for x in twin.legal_actions()}
        for action in state.legal_actions():
            if action.label not in same:
                continue  # (a move naming a card of the mover's: the twins' differ)
            a, b = state.clone(), twin.clone()
            before_a, before_b = a.view(seat).observation(), b.view(seat).observation()
            a.apply(action.id)
            b.apply(same[action.label].id)
            if a.view(seat) != b.view(seat):
                continue  # the move showed k a card that differs between the twins
            after_a, after_b = a.view(seat).observation(), b.view(seat).observation()
            told = receipts(before_a, after_a, layout)
            assert receipts(before_b, after_b, layout) == told
            compared += 1
            # every card k is told of is one k knows, and some moves changed hands k does not see
            knows = known_places(after_a)
            assert all(card in knows for line in told for card in CARD.findall(line)), told
            unseen += a.zones != state.zones and a.zones != b.zones
    assert compared >= 5 and unseen >= 1, (compared, unseen)


# ------------------------------------------------------------------ the players' table
ROW = re.compile(r"│ (P\d)([^│]*)│[^│]*│[^│]*│\s*(\S+) │")  # Ascenseur: player, hand, played, bid


def bidding_screens(output: str):
    """Each screen where P0 is asked to bid: the players' rows (seat -> (tags, bid shown)) and the
    bids made in this deal before P0's (from the events)."""
    for block in output.split("─ Ascenseur")[1:]:
        if "choose: bid 0" not in block:
            continue
        rows = {m.group(1): (m.group(2), m.group(3)) for m in ROW.finditer(block)}
        deal = block[block.rindex("deal "):] if "deal " in block else block
        made = dict(re.findall(r"(P\d) chooses bid (\d+)", deal))
        yield rows, made


def test_a_bid_not_made_yet_is_a_dash_and_no_leader_is_left_from_the_last_deal(tmp_path):
    result = run(["play", path("games/ascenseur.cards"), "--players", "3", "--seed", "3", "--speed", "0"],
                 ["1"] * 80 + ["q", "n"])
    assert result.exit_code == 0, result.output
    screens = list(bidding_screens(result.output))
    assert len(screens) >= 2  # the first deal's bidding and the next one's
    for rows, made in screens:
        assert set(rows) == {"P0", "P1", "P2"}
        for seat, (tags, bid) in rows.items():
            assert bid == made.get(seat, "—"), (seat, bid, made)  # a bid made, or a dash: never a 0 nobody bid
            assert "leader" not in tags  # nobody leads while the deal is bid
    assert any(len(made) < 2 for _, made in screens)  # (some seat had not bid yet)


def test_a_resumed_game_shows_the_bids_made_before_it_stopped(tmp_path):
    save = tmp_path / "s.json"
    first = run(["play", path("games/ascenseur.cards"), "--players", "3", "--seed", "3", "--speed", "0",
                 "--save", str(save)], ["1", "q"])
    assert first.exit_code == 0, first.output
    again = run(["play", "--resume", str(save), "--speed", "0"], ["q"])
    assert again.exit_code == 0, again.output
    rows = {m.group(1): m.group(3) for m in ROW.finditer(again.output)}
    # P0 bid 1 before leaving, and the bots after it: P1 7, P2 8
    assert rows["P0"] == "1" and rows["P1"] == "7" and rows["P2"] == "8"


def test_choice_answers_finds_the_variables_set_to_the_number_chosen():
    import cardlang

    from cardlang.play.table_view import choice_answers

    assert set(choice_answers(cardlang.load(path("games/ascenseur.cards"), players=3).program)) == {"bid"}
    assert choice_answers(cardlang.load(path("games/coucou.cards"), players=5).program) == {}
