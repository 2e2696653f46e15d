"""Saves are untrusted input, and keep no secret of the table in readable form.

A malformed save (every field of issue 14's list, and hypothesis mutating every field of real
saves) ends in one line naming the file and the field, exit status 1, never a traceback; an edited
move is refused, saying so; a save's labels show only the cards the table knew; the play screen
shows no seed while the game goes on; `replay --all` of a game in progress needs `--spoilers`; a
hot-seat save replays seat by seat.
"""

import json
import os
import random
import re
import shutil
import stat
import tempfile
import unicodedata
from datetime import timedelta

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardlang
from cardlang.cli import main
from cardlang.play.table_view import card_labels_in
from cardlang.play.save_schema import FIELDS, MAX_MOVES, MAX_SAVE_BYTES, checksum
from cardlang.play.savegame import check_save_target, load_saved, save_data, write_save
from cardlang.play.seen import table_labels, table_seats
from cardlang.runtime.rng import legacy
from scenario import ROOT, path

GAMES = {"games/coucou.cards": 5, "games/counter_bluff.cards": 2, "games/ascenseur.cards": 3,
         "games/red_dog.cards": 2, "games/pioche_poker.cards": 2}
FIRST = ["1"] * 3000


def play(game, args, answers):
    text = "".join(a + "\n" for a in answers)
    return CliRunner().invoke(main, ["play", path(game), "--players", str(GAMES[game]), *map(str, args)],
                              input=text)


def saved(folder, game="games/coucou.cards", seed=3, answers=FIRST, extra=(), name="game.json"):
    save = folder / name
    result = play(game, ["--seed", seed, "--save", save, *extra], answers)
    assert result.exit_code == 0, result.output
    return save


def hotseat_answers(n=3000):
    """Enter at each hand-over, `1` at each choice (an answer in the wrong place is asked again)."""
    return ["", "1"] * (n // 2)


@pytest.fixture(scope="module")
def saves(tmp_path_factory):
    """Real saves of games played with --save, one of each kind, written once for the module."""
    folder = tmp_path_factory.mktemp("saves")
    return {
        "finished": saved(folder, name="finished.json"),
        "progress": saved(folder, answers=["1", "1", "q"], name="progress.json"),
        "bluff": saved(folder, "games/counter_bluff.cards", seed=3, name="bluff.json"),
        "hotseat": saved(folder, seed=11, answers=hotseat_answers(), extra=["--seat", "0", "--seat", "2"],
                         name="hotseat.json"),
        "hotseat_progress": saved(folder, seed=11, answers=["", "1", "", "1", "", "1", "q", "n"],
                                  extra=["--seat", "0", "--seat", "2"], name="hotseat_progress.json"),
    }


def copy(saves, kind, tmp_path, name="game.json"):
    target = tmp_path / name
    shutil.copy(saves[kind], target)
    return target


def edit(save, **fields):
    data = json.loads(save.read_text())
    data.update(fields)
    save.write_text(json.dumps(data, ensure_ascii=False))
    return data


def resume(save):
    return CliRunner().invoke(main, ["play", "--resume", str(save)], input="quit\n")


def replay(save, *args):
    return CliRunner().invoke(main, ["replay", str(save), *map(str, args)])


def refused(result, save, status=1):
    """The one line of a refused save: the status, `error: ` and the file's name, no traceback."""
    assert result.exit_code == status, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error: ") and str(save) in lines[0], lines[0]
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in lines[0]), lines[0]
    assert "Traceback" not in result.output
    return lines[0]


# ------------------------------------------------------------------ malformed saves
@pytest.mark.parametrize("fields, message", [
    ({"players": "5"}, 'field "players": expected a whole number, got "5"'),
    ({"players": 5.0}, 'field "players": expected a whole number, got 5.0'),
    ({"players": True}, 'field "players": expected a whole number, got true'),
    ({"players": 3}, 'field "players": Coucou is for 5 to 20 players, not 3'),
    ({"options": [1, 2]}, 'field "options": expected an object, got [1, 2]'),
    ({"options": {"tokens": "3"}}, 'field "options.tokens": expected a whole number, got "3"'),
    ({"options": {"tokens": 99}}, 'field "options": option `tokens` must be from 1 to 20, not 99'),
    ({"options": {"nothing": 1}}, 'field "options": Coucou has no option "nothing"'),
    ({"version": "x"}, 'field "version": expected a whole number, got "x"'),
    ({"version": 7}, 'field "version": saved by a newer cardlang (save format 7; this one reads 1, 2 and 3)'),
    ({"version": 0}, 'field "version": no save format 0 exists (this cardlang reads 1, 2 and 3)'),
    ({"humans": "x"}, 'field "humans": expected a list, got "x"'),
    ({"humans": ["x"]}, 'field "humans[0]": expected a whole number, got "x"'),
    ({"humans": [9]}, 'field "humans[0]": seat 9, but the game has 5 seats (0 to 4)'),
    ({"humans": [0, 0]}, 'field "humans[1]": 0 is there twice'),
    ({"labels": 5}, 'field "labels": expected a list, got 5'),
    ({"labels": ["keep"]}, 'field "labels": 1 labels for '),
    ({"labels": None}, 'field "labels": missing (null)'),
    ({"stack": ["Zz"]}, 'field "stack": no card "Zz" in the piquet deck (shuffle 1, card 1)'),
    ({"stack": [999]}, 'field "stack": no card 999 in the piquet deck: ids are 0 to 31 (shuffle 1, card 1)'),
    ({"stack": [-1]}, 'field "stack": no card -1 in the piquet deck'),
    ({"stack": [["As", "10h", "As"]]}, 'field "stack": As is there twice (shuffle 1, card 3)'),
    ({"stack": [["As"], 5]}, 'field "stack[1]": expected a list, got 5'),
    ({"stack": "As"}, 'field "stack": expected a list, got "As"'),
    ({"draws": [99]}, 'field "draws": the game cannot start: the fixed draw 99 is not among'),
    ({"draws": ["x"]}, 'field "draws[0]": expected a whole number, got "x"'),
    ({"draws": [1 << 40]}, 'field "draws[0]": 1099511627776 is out of range'),
    ({"actions": [1, "x"]}, 'field "actions[1]": expected a whole number, got "x"'),
    ({"actions": [-1]}, 'field "actions[0]": -1 is out of range'),
    ({"seed": "3"}, 'field "seed": expected a whole number, got "3"'),
    ({"hash": 5}, 'field "hash": expected a text, got 5'),
    ({"hash": "abc"}, 'field "hash": expected a SHA-256 in hexadecimal, got "abc"'),
    ({"bot": "nobody"}, 'field "bot": unknown bot `nobody`'),
    ({"finished": "no"}, 'field "finished": expected true or false, got "no"'),
    ({"checksum": None}, 'field "checksum": missing (null)'),
    ({"checksum": "0" * 64}, 'field "checksum": it does not match the file\'s contents: the file was edited'),
    ({"surprise": 1}, 'field "surprise": not a field of a save'),
])
def test_a_malformed_field_is_named_in_one_line(saves, tmp_path, fields, message):
    save = copy(saves, "progress", tmp_path)
    edit(save, **fields)
    for result in (resume(save), replay(save)):
        assert refused(result, save).startswith(f"error: {save}: {message}")


def test_a_save_names_only_rule_files(saves, tmp_path):
    save = copy(saves, "progress", tmp_path)
    edit(save, file="/etc/passwd", file_absolute="/etc/passwd", file_from_save="../../../etc/passwd")
    line = refused(resume(save), save)
    assert line == (f"error: {save}: cannot find the rules file of this game (/etc/passwd); give it: "
                    f"cardlang play RULES.cards --resume {save}")


@pytest.mark.parametrize("field", [f for f in FIELDS if f not in ("file_absolute", "file_from_save")])
def test_a_missing_field_is_named(saves, tmp_path, field):
    save = copy(saves, "progress", tmp_path)
    data = json.loads(save.read_text())
    del data[field]
    save.write_text(json.dumps(data))
    line = refused(resume(save), save)
    if field == "format":
        assert "is not a cardlang saved game" in line
    else:
        assert f'field "{field}": missing' in line, line


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not a saved game (not valid JSON"),
    ("[1, 2]", "is not a cardlang saved game (a JSON object was expected, got a list)"),
    ('"text"', "is not a cardlang saved game (a JSON object was expected, got a text)"),
    ("{}", 'is not a cardlang saved game (it has no "format": "cardlang-save")'),
    ("[" * 100_000 + "]" * 100_000, "is not a saved game (its JSON is nested too deeply)"),
    ('{"format": "cardlang-save", "version": 2, "options": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "is not a saved game (its JSON is nested too deeply)"),
    ('{"players": 1' + "0" * 5000 + "}", "is not a saved game (not valid JSON"),
    (b"\xff\xfe{}", "is not a saved game (not UTF-8 text)"),
])
def test_a_file_that_is_no_save_is_one_line(tmp_path, content, message):
    save = tmp_path / "game.json"
    if isinstance(content, bytes):
        save.write_bytes(content)
    else:
        save.write_text(content)
    for result in (resume(save), replay(save)):
        assert message in refused(result, save)


def test_a_huge_save_is_not_read(tmp_path):
    save = tmp_path / "game.json"
    with open(save, "wb") as f:  # sparse: its size says it all, nothing is read
        f.truncate(MAX_SAVE_BYTES + 1)
    line = refused(resume(save), save)
    assert f"it has {MAX_SAVE_BYTES + 1} bytes; a save has at most {MAX_SAVE_BYTES}" in line


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="POSIX only")
def test_a_fifo_or_a_device_is_not_read(tmp_path):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)  # reading it would wait for a writer forever
    assert "is not a saved game (not a regular file)" in refused(resume(fifo), fifo)
    assert "is not a saved game (not a regular file)" in refused(replay("/dev/zero"), "/dev/zero")


def test_control_characters_of_a_save_are_never_printed(saves, tmp_path):
    save = copy(saves, "progress", tmp_path)
    edit(save, options={"\x1b[2J": 1}, bot="\x1b]0;x\x07")
    line = refused(resume(save), save)
    assert "\x1b" not in line and "\\u001b" in line


# ------------------------------------------------------------------ hypothesis: every field mutated
WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-(1 << 70), 1 << 70), st.integers(-3, 60),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
    st.sampled_from(["As", "Zz", "10♥", "5", "", "a card", "0" * 64, "cardlang-save", "\ud800", "\x1b[2J"]),
    st.lists(st.integers(-2, 70), max_size=4), st.lists(st.text(max_size=3), max_size=3),
    st.dictionaries(st.text(max_size=6), st.one_of(st.integers(-2, 30), st.booleans(), st.text(max_size=3)),
                    max_size=3),
    st.recursive(st.integers(0, 3), lambda inner: st.lists(inner, max_size=2), max_leaves=6),
)
UNCHECKED_TEXTS = {"game", "file", "saved_at"}  # free texts: another text is no problem
PATHS = {"file_absolute", "file_from_save"}  # optional, and the rules file is looked for at each


def _is_wrong(field, value, original) -> bool:
    """Whether a save with `field` set to `value` must be refused."""
    if field in UNCHECKED_TEXTS:
        return not isinstance(value, str)
    if field in PATHS:
        return not (value is None or isinstance(value, str))
    canonical = lambda v: json.dumps(v, sort_keys=True)  # noqa: E731 - true is not 1, 5.0 is not 5
    return canonical(value) != canonical(original)


@st.composite
def mutations(draw, data):
    """A field of `data` and a wrong value for it: a junk value, one element of a list changed, or gone."""
    field = draw(st.sampled_from(sorted(data) + ["(extra)"]))
    if field == "(extra)":
        return draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in data)), 1
    original = data[field]
    if isinstance(original, list) and original and draw(st.booleans()):
        i = draw(st.integers(0, len(original) - 1))
        value = list(original)
        value[i] = draw(st.one_of(WRONG, st.integers(0, 70000)))
    elif draw(st.integers(0, 9)) == 0:
        value = "(delete)"
    else:
        value = draw(WRONG)
    return field, value


def _mutation_is_refused(base: dict, field, value, command):
    data = dict(base)
    if value == "(delete)":
        if field in PATHS:
            return
        del data[field]
    else:
        if field in base and not _is_wrong(field, value, base[field]):
            return
        data[field] = value
    with tempfile.TemporaryDirectory() as folder:
        save = os.path.join(folder, "mutated.json")
        with open(save, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
        args = ["replay", save] if command == "replay" else ["play", "--resume", save]
        result = CliRunner().invoke(main, args, input="quit\n")
        refused(result, save)


@pytest.mark.parametrize("kind", ["progress", "bluff"])
def test_every_field_mutated_is_refused_in_one_line(saves, kind):
    base = json.loads(saves[kind].read_text())

    @settings(max_examples=40, deadline=timedelta(seconds=5), derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(mutation=mutations(base), command=st.sampled_from(["replay", "resume"]))
    def check(mutation, command):
        field, value = mutation
        _mutation_is_refused(base, field, value, command)

    check()


@pytest.mark.parametrize("kind", ["progress", "bluff", "hotseat"])
def test_every_field_changed_one_at_a_time_is_refused(saves, kind):
    # the exhaustive twin of the hypothesis test: each field once, with one wrong value of each kind
    base = json.loads(saves[kind].read_text())
    for field in sorted(base):
        for value in ("(delete)", None, "x", -1, 1 << 40, [], {}, [["As"]], True):
            _mutation_is_refused(base, field, value, "resume")


# ------------------------------------------------------------------ edited files
def _game_of(data):
    return cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])


def _other_legal(data, who):
    """(index, another legal action) for the first move whose player `who(seat)` accepts."""
    state = _game_of(data).new_initial_state(seed=data["seed"])
    for i, a in enumerate(data["actions"]):
        legal = [x for x in state.legal_action_ids() if x != a]
        if who(state.current_player) and legal:
            return i, legal[0]
        state.apply(a)
    raise AssertionError("no such move")


def _with_action(data, i, action, rechecksum):
    new = dict(data, actions=data["actions"][:i] + [action] + data["actions"][i + 1:])
    if rechecksum:  # an editor who knows the format and writes the checksum again
        new["checksum"] = checksum(new)
    return new


@pytest.mark.parametrize("rechecksum", [False, True])
def test_a_move_changed_to_another_legal_one_is_refused_as_an_edit(saves, tmp_path, rechecksum):
    save = copy(saves, "finished", tmp_path)
    data = json.loads(save.read_text())
    i, other = _other_legal(data, lambda seat: seat == 0)  # a move of the person: its label shows what changed
    save.write_text(json.dumps(_with_action(data, i, other, rechecksum), ensure_ascii=False))
    for result in (resume(save), replay(save)):
        line = refused(result, save)
        assert "the file was edited" in line
        if rechecksum:
            assert f'field "labels[{i}]": move {i + 1} reads ' in line, line


def test_a_hidden_move_changed_is_refused_although_the_table_never_saw_it(saves, tmp_path):
    save = copy(saves, "bluff", tmp_path)
    data = json.loads(save.read_text())
    g = _game_of(data)
    state = g.new_initial_state(seed=data["seed"])
    # a bot's move whose label the table read as `a card`, changed to another one it reads the same
    for i, a in enumerate(data["actions"]):
        if state.current_player != 0 and "a card" in data["labels"][i]:
            others = [x for x in state.legal_action_ids() if x != a]
            break
        state.apply(a)
    else:
        raise AssertionError("no hidden move in this game")
    edited = _with_action(data, i, others[0], rechecksum=False)
    save.write_text(json.dumps(edited, ensure_ascii=False))
    assert "the file was edited" in refused(resume(save), save)


def test_a_cut_save_is_refused_but_one_written_at_that_move_resumes(saves, tmp_path):
    save = copy(saves, "finished", tmp_path)
    data = json.loads(save.read_text())
    n = len(data["actions"]) // 2
    edit(save, actions=data["actions"][:n], labels=data["labels"][:n], finished=False, winners=[])
    assert "the file was edited" in refused(resume(save), save)
    state = cardlang.State.from_json(_game_of(data), dict(data, actions=data["actions"][:n]))
    write_save(str(save), save_data(state, humans=[0], bot=data["bot"], save_path=str(save)))
    assert resume(save).exit_code == 0


def test_a_changed_rules_file_is_still_refused_by_its_hash(saves, tmp_path):
    rules = tmp_path / "game.cards"
    shutil.copy(path("games/coucou.cards"), rules)
    save = tmp_path / "save.json"
    result = CliRunner().invoke(main, ["play", str(rules), "--seed", "3", "--save", str(save)], input="1\nquit\n")
    assert result.exit_code == 0, result.output
    rules.write_text(rules.read_text() + "\n# a change\n")
    for result in (resume(save), replay(save)):
        assert result.exit_code == 1 and "has changed since this game was saved" in result.output


def test_a_version_1_save_is_still_read_and_written_again_as_version_2(tmp_path):
    """A version-1 save was played with the old generator (CPython's Mersenne Twister): made here
    from the version-2 save main's code wrote before SplitMix64 (tests/legacy_chance/)."""
    for name in ("coucou.cards", "progress.json"):
        shutil.copy(os.path.join(ROOT, "tests", "legacy_chance", name), tmp_path / name)
    save = tmp_path / "progress.json"
    data = json.loads(save.read_text())
    game = cardlang.load(str(tmp_path / "coucou.cards"), players=data["players"], options=data["options"])
    replayed = game.new_initial_state(seed=data["seed"], chance=legacy(data["seed"]))
    unmasked = []  # what version 1 wrote: every label as the engine gives it
    for a in data["actions"]:
        unmasked.append(replayed.game.program.label(replayed, a))
        replayed.apply(a)
    old = {k: v for k, v in data.items() if k not in ("checksum",)}
    old.update(version=1, labels=unmasked)
    save.write_text(json.dumps(old, ensure_ascii=False))
    assert replay(save).exit_code == 0
    old_edited = dict(old, labels=["edited"] + unmasked[1:])
    save.write_text(json.dumps(old_edited, ensure_ascii=False))
    assert 'field "labels[0]"' in refused(replay(save), save)
    save.write_text(json.dumps(old, ensure_ascii=False))
    assert resume(save).exit_code == 0
    again = json.loads(save.read_text())  # (the bots played on to P0's turn before it quit)
    state = game.new_initial_state(seed=data["seed"], chance=legacy(data["seed"]))
    for a in again["actions"]:
        state.apply(a)
    assert again["actions"][:len(data["actions"])] == data["actions"]
    assert again["version"] == 2 and again["labels"] == table_labels(state, (0,))
    assert again["checksum"] == checksum(again)


# ------------------------------------------------------------------ no secret in a save
LONG = {"games/ascenseur.cards": 60}  # a whole game has more than a thousand moves: stopped after these


def _saves_of_every_kind(tmp_path):
    """(save, table seats) for each game: one person to the end and midway, bots only, hot-seat."""
    for game, players in GAMES.items():
        cut = LONG.get(game)
        whole = FIRST[:cut] + ["q"] if cut else FIRST
        out = [(saved(tmp_path, game, seed=5, answers=whole, name="one.json"), (0,)),
               (saved(tmp_path, game, seed=6, answers=["1"] * 4 + ["q"], extra=["--seat", "1"], name="midway.json"),
                (1,)),
               (saved(tmp_path, game, seed=8, answers=hotseat_answers(2 * cut) + ["q", "n"] if cut else hotseat_answers(),
                      extra=["--seat", "0", "--seat", "1"], name="hot.json"), (0, 1))]
        bots = tmp_path / "bots.json"
        if cut:  # the bots' game as its save was after `cut` moves
            state = cardlang.load(path(game), players=players).new_initial_state(seed=7)
            rng = random.Random(7)
            for _ in range(cut):
                state.apply(rng.choice(state.legal_action_ids()))
            write_save(str(bots), save_data(state, humans=(), save_path=str(bots)))
        else:
            result = CliRunner().invoke(main, ["play", path(game), "--players", str(players), "--bots-only",
                                               "--seed", "7", "--save", str(bots)])
            assert result.exit_code == 0, result.output
        out.append((bots, tuple(range(players))))
        yield game, out


def test_no_save_shows_a_card_to_a_seat_of_the_table_that_did_not_know_it(tmp_path):
    hidden_labels = 0
    for game, cases in _saves_of_every_kind(tmp_path):
        for save, table in cases:
            text = save.read_text()
            data = json.loads(text)
            assert table_seats(data["humans"], data["players"]) == table
            g = _game_of(data)
            state = g.new_initial_state(seed=data["seed"])
            lines, unmasked = [], []
            for action in data["actions"]:
                unmasked.append(g.program.label(state, action))
                lines.append(len(state.log))
                state.apply(action)
            views = [state.transcript(seat) for seat in table]  # what each person's screen showed
            for label, line, full in zip(data["labels"], lines, unmasked):
                seen = set.intersection(*(card_labels_in(view[line]) for view in views))
                assert card_labels_in(label) <= seen, (game, label, [view[line] for view in views])
                secret = card_labels_in(full) - seen
                if secret:
                    hidden_labels += 1
                    assert label != full and not any(card in label for card in secret), (game, label)
            # the file holds no readable card name but those of its labels
            assert card_labels_in(text) <= set().union(*map(card_labels_in, data["labels"]))
    assert hidden_labels > 50  # the games did choose among cards hidden from the table


def test_a_bot_s_face_down_card_is_saved_as_a_card(saves):
    data = json.loads(saves["bluff"].read_text())
    g = _game_of(data)
    state = g.new_initial_state(seed=data["seed"])
    face_down = 0
    for label, action in zip(data["labels"], data["actions"]):
        unmasked = g.program.label(state, action)
        if state.current_player != 0 and "face down" in unmasked:
            face_down += 1
            assert "a card" in label and card_labels_in(label) == set(), label
            assert label == unmasked.replace(next(iter(card_labels_in(unmasked))), "a card")
        state.apply(action)
    assert face_down > 0


def test_hotseat_labels_are_what_everyone_at_the_table_saw(saves):
    data = json.loads(saves["hotseat"].read_text())
    state = cardlang.State.from_json(_game_of(data), data)
    assert data["labels"] == table_labels(state, (0, 2))
    for seat in (0, 2):  # each person alone saw more of their own moves
        alone = table_labels(state, (seat,))
        assert all(card_labels_in(shared) <= card_labels_in(own) for shared, own in zip(data["labels"], alone))
    assert table_labels(state, (0,)) != data["labels"]


# ------------------------------------------------------------------ no seed on screen
def test_the_seed_is_not_on_screen_while_a_person_plays_and_is_at_the_end(tmp_path):
    save = tmp_path / "game.json"
    midway = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--save", str(save)],
                                input="1\n1\n1\nquit\n")
    assert midway.exit_code == 0, midway.output
    seed = str(json.loads(save.read_text())["seed"])
    assert seed not in midway.output
    hot = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--hotseat", "--save", str(save)],
                             input="\n1\n\n1\nquit\n")
    assert hot.exit_code == 0, hot.output
    assert str(json.loads(save.read_text())["seed"]) not in hot.output
    # the offered file name has no seed either
    offered = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--seed", "987654321"], input="quit\nn\n")
    assert "987654321" not in offered.output and "File name [coucou-" in offered.output
    whole = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--save", str(save)],
                               input="1\n" * 3000)
    seed = json.loads(save.read_text())["seed"]
    screens = whole.output.split("The game is over")
    assert str(seed) not in screens[0].rsplit("Coucou · 5 players", 1)[0]  # every screen before the last
    assert f"seed {seed}" in whole.output.splitlines()[[i for i, line in enumerate(whole.output.splitlines())
                                                        if "Coucou · 5 players" in line][-1]]


# ------------------------------------------------------------------ replay views
def test_replay_all_of_a_game_in_progress_needs_spoilers(saves, tmp_path):
    save = copy(saves, "progress", tmp_path)
    seed = json.loads(save.read_text())["seed"]
    result = replay(save, "--all")
    line = refused(result, save, status=2)
    assert "is a game still in progress: --all would show every hidden card of it" in line and "--spoilers" in line
    for args in (["--all", "--spoilers"], ["--spoilers"]):
        shown = replay(save, *args)
        assert shown.exit_code == 0, shown.output
        assert "Every card shown (omniscient)." in shown.output and f"seed {seed}" in shown.output
    seat = replay(save)  # the person's own view, without the seed that deals every hand
    assert seat.exit_code == 0 and "Seen by P0" in seat.output and f"seed {seed}" not in seat.output
    finished = copy(saves, "finished", tmp_path, "finished.json")
    assert replay(finished, "--all").exit_code == 0  # once over, nothing is a secret any more
    both = replay(save, "--seat", 1, "--spoilers")
    assert both.exit_code == 2 and both.output.strip() == "error: give --seat K or --all, not both"


def test_a_bots_only_game_in_progress_needs_spoilers_too(tmp_path):
    save = tmp_path / "bots.json"
    result = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--bots-only", "--seed", "8",
                                       "--save", str(save)])
    assert result.exit_code == 0
    data = json.loads(save.read_text())
    state = cardlang.State.from_json(_game_of(data), dict(data, actions=data["actions"][:10]))
    write_save(str(save), save_data(state, humans=(), bot="random", save_path=str(save)))
    assert "--spoilers" in refused(replay(save), save, status=2)
    assert replay(save, "--spoilers").exit_code == 0
    assert replay(save, "--seat", 3).exit_code == 0


def test_a_hotseat_save_replays_seat_by_seat(saves, tmp_path):
    save = copy(saves, "hotseat", tmp_path)
    result = replay(save)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Every card shown" not in out
    parts = re.split(r"^=== P(\d)'s view ===$", out, flags=re.M)
    assert parts[0] == "" and parts[1::2] == ["0", "2"]
    for seat, text in zip(parts[1::2], parts[2::2]):
        alone = replay(save, "--seat", seat).output
        assert text.strip("\n") == alone.strip("\n")
    progress = copy(saves, "hotseat_progress", tmp_path, "progress.json")
    line = refused(replay(progress), progress, status=2)
    assert "is a game in progress played by P0, P2 at one terminal: give --seat K" in line
    one = replay(progress, "--seat", 2)
    seed = json.loads(progress.read_text())["seed"]
    assert one.exit_code == 0 and "Seen by P2" in one.output and f"seed {seed}" not in one.output
    assert refused(replay(progress, "--all"), progress, status=2)


def test_load_saved_gives_the_checked_fields(saves):
    game, state, data = load_saved(str(saves["finished"]))
    assert state.is_terminal() and data.finished and data.version == 3
    assert data.labels == table_labels(state, (0,)) and list(state.history) == data.actions
    _, start, _ = load_saved(str(saves["finished"]), replay=False)
    assert start.history == [] and start.seed == data.seed


def test_a_save_of_too_many_moves_is_refused_before_its_moves_are_looked_at(saves, tmp_path):
    save = copy(saves, "progress", tmp_path)
    edit(save, actions=[0] * (MAX_MOVES + 1))
    assert f'field "actions": {MAX_MOVES + 1} items (at most {MAX_MOVES})' in refused(replay(save), save)


HOSTILE = {
    "nested.json": lambda data: "[" * 100_000 + "]" * 100_000,
    "longest.json": lambda data: json.dumps(dict(data, actions=[0] * MAX_MOVES, labels=["x"] * MAX_MOVES)),
    "biggest.json": lambda data: json.dumps(dict(data, labels=["♥" * 1000] * (MAX_SAVE_BYTES // 3200)),
                                            ensure_ascii=False),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_save_is_refused_in_bounded_memory(saves, tmp_path, name):
    # in a fresh process, so that its peak memory is its own (the limit of issue 14: 300 MB)
    import subprocess
    import sys

    save = tmp_path / name
    save.write_text(HOSTILE[name](json.loads(saves["progress"].read_text())))
    assert save.stat().st_size <= MAX_SAVE_BYTES
    # the peak is VmHWM, this process's own: `ru_maxrss` keeps the peak of the process it was forked
    # from (the test run itself, which may be larger than the limit) across the exec
    code = ("import resource, sys\nfrom cardlang.cli import main\n"
            "try:\n    main(['replay', sys.argv[1]])\nexcept SystemExit as e:\n    status = e.code\n"
            "try:\n    peak = next(int(line.split()[1]) for line in open('/proc/self/status')"
            " if line.startswith('VmHWM:'))\n"
            "except OSError:\n    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "print(status, peak)")
    run = subprocess.run([sys.executable, "-c", code, str(save)], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in run.stderr and run.stderr.startswith(f"error: {save}"), run.stderr
    status, peak_kb = run.stdout.split()
    assert status == "1" and int(peak_kb) < 300 * 1024, (status, peak_kb)


# ------------------------------------------------------------------ where a save is written (issue 27, item 6)
def _play_saving_to(target, rules=None, answers=("1", "1", "quit", "n")):
    rules = rules or path("games/coucou.cards")
    return CliRunner().invoke(main, ["play", str(rules), "--players", "5", "--seed", "3", "--save", str(target)],
                              input="".join(a + "\n" for a in answers))


def _refused_target(result, target):
    """A save refused before the game starts: one line naming the file, status 2, nothing played."""
    line = refused(result, target, status=2)
    assert line.startswith(f"error: will not save to {target}:"), line
    assert "a save writes a new file or replaces a saved game" in line
    return line


def test_a_save_never_replaces_the_rules_file_being_played(tmp_path):
    rules = tmp_path / "coucou.cards"
    shutil.copy(path("games/coucou.cards"), rules)
    before = rules.read_bytes()
    _refused_target(_play_saving_to(rules, rules), rules)
    link = tmp_path / "link.json"  # nor through a symbolic link to it
    link.symlink_to(rules)
    _refused_target(_play_saving_to(link, rules), link)
    assert rules.read_bytes() == before and link.is_symlink()
    assert CliRunner().invoke(main, ["check", str(rules)]).exit_code == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".cardlang-save-")] == []  # no temp file left


@pytest.mark.parametrize("content", ["hello\n", '{"format": "other", "actions": []}\n', "", "[1, 2]"])
def test_a_save_never_replaces_a_file_that_is_not_a_save(tmp_path, content):
    other = tmp_path / "notes.json"
    other.write_text(content)
    assert "it is not a saved game" in _refused_target(_play_saving_to(other), other)
    assert other.read_text() == content


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_a_save_never_writes_to_a_fifo_or_a_device(tmp_path):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)  # opening it to write would wait for a reader; replacing it would lose it
    assert "it is a named pipe (FIFO)" in _refused_target(_play_saving_to(fifo), fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    node = tmp_path / "full"
    try:  # a device node of our own (as root): a broken check replaces it, not one of /dev
        os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 7))  # the numbers of /dev/full on Linux
    except (PermissionError, AttributeError, OSError):
        node = None
    if node is not None:
        before = os.stat(node)
        assert "it is a character device" in _refused_target(_play_saving_to(node), node)
        after = os.lstat(node)
        assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino and after.st_rdev == before.st_rdev
    # a device of /dev is only looked at by the check, never given to anything that writes
    with pytest.raises(OSError, match="it is a character device"):
        check_save_target("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_save_replaces_a_save_and_writes_a_new_file(saves, tmp_path):
    new = tmp_path / "sub" / "new.json"
    assert _play_saving_to(new).exit_code == 0 and json.loads(new.read_text())["format"] == "cardlang-save"
    # a save of another game, and a save laid out by another program (its keys in another order)
    other = copy(saves, "bluff", tmp_path, "other.json")
    data = json.loads(saves["progress"].read_text())
    relaid = tmp_path / "relaid.json"
    relaid.write_text(json.dumps(dict(reversed(list(data.items()))), indent=2))
    for target in (other, relaid):
        result = _play_saving_to(target)
        assert result.exit_code == 0, result.output
        assert json.loads(target.read_text())["game"] == "Coucou"
        assert resume(target).exit_code == 0


def test_a_file_name_typed_at_the_save_offer_is_checked_too(tmp_path):
    rules = tmp_path / "coucou.cards"
    shutil.copy(path("games/coucou.cards"), rules)
    before = rules.read_bytes()
    result = CliRunner().invoke(main, ["play", str(rules), "--players", "5", "--seed", "3"],
                                input=f"1\nquit\n{rules}\n")
    assert result.exit_code == 0, result.output
    assert f"could not save to {rules}: will not save to {rules}: it is not a saved game" in result.output
    assert "The game was not saved." in result.output and "Traceback" not in result.output
    assert rules.read_bytes() == before


def test_a_save_to_proc_self_mem_is_one_line(tmp_path):
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("no /proc")
    line = refused(_play_saving_to("/proc/self/mem"), "/proc/self/mem", status=2)
    assert line.startswith("error: ") and "/proc/self/mem" in line
    gone = "/proc/self/no-such-folder/game.json"  # a new file that cannot be made: one line too
    result = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--bots-only", "--seed", "1",
                                       "--save", gone])
    assert result.exit_code == 1 and f"error: could not save the game to {gone}: " in result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, OSError)


@pytest.mark.parametrize("bot", ["ismcts:1e400s", "ismcts:nans", "greedy:3600s", "ismcts:99999999999"])
def test_a_save_carrying_an_unbounded_bot_budget_is_refused_at_once(saves, tmp_path, bot):
    # the checksum made again: the budget is what someone sent, not a damaged file (issue 27, item 8)
    import subprocess
    import sys

    save = copy(saves, "progress", tmp_path)
    data = json.loads(save.read_text())
    data["bot"] = bot
    data["checksum"] = checksum(data)
    save.write_text(json.dumps(data, ensure_ascii=False))
    run = subprocess.run([sys.executable, "-m", "cardlang.cli", "play", "--resume", str(save)], input="quit\n",
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert run.stderr.strip().splitlines() == [run.stderr.strip()]
    assert run.stderr.startswith(f'error: {save}: field "bot": a ') and "budget is a number" in run.stderr
