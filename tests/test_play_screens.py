"""What `cardlang play` draws: snapshots of the table, and no screen showing a card hidden from its seat."""

import io
import random
import re

import pytest
from click.testing import CliRunner
from rich.console import Console

from cardlang.cli import main
from cardlang.cli.cmd_play import Session
from cardlang.play.seen import common_log, common_observation
from cardlang.play.table_bots import Bots
from cardlang.play.table_view import Style, card_labels_in
from scenario import game, path, permute_hidden
from test_play import ALL_GAMES, PLAYERS, final_state


def new_session(state, seat, ascii=False, width=80):
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False, emoji=False,
                      markup=False)
    g = state.game
    return Session(g, state, humans=[seat], bots=Bots("random", 0), console=console,
                   style=Style(ascii=ascii))


def screen(state, seat, ascii=False, with_actions=True) -> str:
    """The text of the screen `seat` sees now (colour off), with its actions if it is its turn."""
    session = new_session(state, seat, ascii)
    session.draw(seat, status=None)
    if with_actions and state.current_player == seat:
        session.show_actions([a.label for a in session.layout.display_order(state.legal_actions())])
    return session.console.file.getvalue()


def advance(state, rng, moves):
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])


def to_turn_of(state, seat, rng, skip=0):
    """Plays random moves until it is `seat`'s turn, after `skip` of its turns."""
    while True:
        if state.current_player == seat:
            if skip == 0:
                return state
            skip -= 1
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("relative", ALL_GAMES)
@pytest.mark.parametrize("turn", [0, 3])
def test_table_snapshot(relative, turn, snapshot):
    state = game(relative, PLAYERS[relative]).new_initial_state(seed=7)
    to_turn_of(state, 0, random.Random(7), skip=turn)
    assert screen(state, 0) == snapshot


@pytest.mark.parametrize("relative", ALL_GAMES)
def test_table_snapshot_ascii(relative, snapshot):
    state = game(relative, PLAYERS[relative]).new_initial_state(seed=7)
    to_turn_of(state, 0, random.Random(7), skip=2)
    text = screen(state, 0, ascii=True)
    assert all(ord(c) < 128 or c.isalpha() for c in text)  # the game's own words may be accented
    assert text == snapshot


@pytest.mark.parametrize("relative", ALL_GAMES)
def test_final_screen_snapshot(relative, snapshot):
    state = game(relative, PLAYERS[relative]).new_initial_state(seed=3)
    advance(state, random.Random(3), 100_000)
    session = new_session(state, 0)
    session.finish()
    assert session.console.file.getvalue() == snapshot


@pytest.mark.parametrize("relative", ALL_GAMES)
def test_no_screen_shows_a_card_hidden_from_its_seat(relative):
    players = PLAYERS[relative]
    g = game(relative, players)
    changed = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        step = 0
        while not state.is_terminal() and step < 240:
            if step % 10 == 0:
                for seat in range(players):
                    text = screen(state, seat)
                    # only cards the seat knows now, or that its own log showed it when they were shown
                    allowed = {g.deck.label_of(c) for c in range(g.deck.size) if state.knows(seat, c)}
                    allowed |= card_labels_in("\n".join(state.transcript(seat)))
                    assert card_labels_in(text) <= allowed
                    # and the screen is the same whatever the cards hidden from the seat are
                    twin = permute_hidden(state, seat, rng)
                    changed += twin.zones != state.zones
                    assert screen(twin, seat) == text
            advance(state, rng, 1)
            step += 1
    assert changed > 0  # the hidden cards did move: the comparison above was not vacuous


def allowed_at_decisions(data, seat):
    """For each decision of `seat` in a saved game, then for the end: the card labels it may see.

    That is the cards it knows at that moment, those its own log showed it when they were shown
    (a showdown reveals cards that the next shuffle hides again before anyone moves), and those it
    knew after any move since the start (the screen tells the cards it saw arrive in a hand,
    `table_view.receipts`: a card it gave P0 that P0 passes on to P4 is seen going to P4, and is
    unknown again once P4 passes it on unseen); also, per decision, whether some card in another
    player's hand was hidden from it then.
    """
    import cardlang

    g = cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])
    state = g.new_initial_state(seed=data["seed"])
    out = []

    ever = set()  # the cards it knew after some move so far

    def knows_now():
        ever.update(g.deck.label_of(c) for c in range(g.deck.size) if state.knows(seat, c))

    def allowed():
        return ever | card_labels_in("\n".join(state.transcript(seat)))

    def something_hidden():
        hands = [z for name, (base, per_player) in g.program.zone_families.items() if per_player
                 for z in range(base, base + g.players) if z != base + seat]
        return any(not state.knows(seat, c) for z in hands for c in state.zones[z])

    knows_now()
    for a in data["actions"]:
        if state.current_player == seat:
            out.append((allowed(), something_hidden()))
        state.apply(a)
        knows_now()
    out.append((allowed(), something_hidden()))
    return out


@pytest.mark.parametrize("relative, seat", [
    pytest.param(p.values[0], seat, id=f"{p.id}-P{seat}", marks=p.marks) for p, seat in zip(ALL_GAMES, (1, 0))])
def test_each_screen_of_a_session_shows_only_cards_its_seat_knew(relative, seat, tmp_path):
    save = tmp_path / "s.json"
    answers = ["?", "log"] + [str(1 + i % 2) for i in range(3000)]
    result = CliRunner().invoke(main, ["play", path(relative), "--players", str(PLAYERS[relative]), "--seed", "6",
                                       "--seat", str(seat), "--save", str(save)],
                                input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    _, data = final_state(save)
    allowed = allowed_at_decisions(data, seat)
    # each screen starts with the header rule that names the seat
    screens = re.split(rf"^.* · you are P{seat}\b.*$", result.output, flags=re.M)[1:]
    assert len(screens) == len(allowed)
    for text, (labels, _) in zip(screens, allowed):
        assert card_labels_in(text) <= labels, text
    assert any(hidden for _, hidden in allowed)  # there was something to hide


def test_a_hotseat_session_shows_each_person_only_their_cards(tmp_path):
    save = tmp_path / "h.json"
    seats = [0, 2]
    answers = []
    for i in range(1500):
        answers += ["", "1", "2"]  # Enter at a handover; an answer; a second answer if asked again
    result = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--seed", "11", "--seat", "0",
                                       "--seat", "2", "--save", str(save)],
                                input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    _, data = final_state(save)
    allowed = {s: iter(allowed_at_decisions(data, s)) for s in seats}
    # after each handover, the screens of that person until the next handover
    blocks = result.output.split("Pass the terminal to ")[1:]
    assert len(blocks) > 4
    for block in blocks:
        seat = int(block[1])
        screens = re.split(r"^.* · people: P0, P2\b.*$", block.split("The game is over")[0], flags=re.M)[1:]
        assert screens
        for text in screens:
            labels, _ = next(allowed[seat])
            assert card_labels_in(text) <= labels, text


def test_common_log_hides_what_any_of_the_people_does_not_know():
    state = game("games/coucou.cards", 5).new_initial_state(seed=3)
    advance(state, random.Random(3), 12)
    merged = common_log(state, [0, 2])
    for i, line in enumerate(merged):
        for seat in (0, 2):
            assert card_labels_in(line) <= card_labels_in(state.transcript(seat)[i])
    assert any("a card" in line for line in merged)


def test_the_common_view_shows_only_cards_every_person_knows():
    state = game("games/coucou.cards", 5).new_initial_state(seed=3)
    rng = random.Random(3)
    seen_differences = 0
    for _ in range(60):
        obs = common_observation(state, [0, 2])
        for seat in (0, 2):
            own = state.observation(seat)
            for name, zone in obs["zones"].items():
                flat = sum(zone, []) if zone and isinstance(zone[0], list) else zone
                mine = sum(own["zones"][name], []) if zone and isinstance(zone[0], list) else own["zones"][name]
                assert all(c is None or c == m for c, m in zip(flat, mine))
                seen_differences += sum(c is None and m is not None for c, m in zip(flat, mine))
        advance(state, rng, 1)
        if state.is_terminal():
            break
    assert seen_differences  # some card known to one of them was hidden from the common view
