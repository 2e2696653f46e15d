"""E042 (a choice that can have no legal option) is never wrong, and W005 says where the checker cannot tell.

Each case of issue 15 item 9 is a small game: the choices that can never be empty raise nothing,
those the checker can show empty raise E042, and those it cannot decide raise the warning W005.
"""

import random
from unittest import mock
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardlang
from cardlang import RuleError
from cardlang.load import check_source

HEAD = '''game "T"
players 2..4
deck standard
order value: 2 3 4 5 6 7 8 9 10 J Q K A
zone talon: pile, hidden
zone pile: pile, public
zone hand: per player, private
var level = 0
per player var stake = 0
per player var chips = 3
'''


def choice_codes(body: str, head: str = HEAD) -> list:
    """The E042/W005 codes (with their lines) that `check` gives the game HEAD + body."""
    source = head + textwrap.dedent(body)
    _, _, _, diags = check_source(source, "t.cards")
    errors = [d for d in diags if d.is_error and d.code != "E042"]
    assert errors == [], errors
    return [d.code for d in diags if d.code in ("E042", "W005")]


DEAL = '''
round:
    move all cards to talon
    shuffle talon
    move top of talon to pile
    deal 11 from talon to hand(players)
'''


def test_equal_beside_greater_cannot_be_decided_it_is_a_warning_not_an_error():
    # `level >= stake(turn)` holds in the game this comes from, but nothing here says so
    assert choice_codes(DEAL + '''
    let turn = random(players)
    add 1 to level
    turn chooses:
        "check" if level == stake(turn):
            pass
        "call" if level > stake(turn):
            set stake(turn) = level
    end game
''') == ["W005"]


@pytest.mark.parametrize("third", ['"raise" if level < stake(turn)', '"raise" if stake(turn) > level',
                                   '"raise" if not (level >= stake(turn))'])
def test_three_comparisons_of_one_pair_cover_every_case(third):
    assert choice_codes(DEAL + f'''
    let turn = random(players)
    turn chooses:
        "check" if level == stake(turn):
            pass
        "call" if level > stake(turn):
            set stake(turn) = level
        {third}:
            add 1 to level
    end game
''') == []


def test_equal_beside_different_covers_every_case():
    assert choice_codes(DEAL + '''
    let turn = random(players)
    turn chooses:
        "check" if level == stake(turn):
            pass
        "call" if level != stake(turn):
            set stake(turn) = level
    end game
''') == []


def test_an_enclosing_if_holds_inside_it_through_a_definition():
    assert choice_codes('''
define safe(c: card) = suit(c) != suit(top of pile)
''' + DEAL + '''
    for each p in players:
        if any x in hand(p) where safe(x):
            p chooses a card c from hand(p) where suit(c) != suit(top of pile):
                move c to pile
    end game
''') == []


def test_a_definition_in_the_filter_is_seen_through_too():
    assert choice_codes('''
define safe(c: card) = suit(c) != suit(top of pile)
''' + DEAL + '''
    for each p in players:
        if any x in hand(p) where suit(x) != suit(top of pile):
            p chooses a card c from hand(p) where safe(c):
                move c to pile
    end game
''') == []


CAN_PLAY = '''
define playable(c: card) = rank(c) == rank(top of pile) or suit(c) == suit(top of pile)
define can_play(p) = any c in hand(p) where playable(c)
'''


def test_can_play_guards_the_choice_of_a_playable_card():
    assert choice_codes(CAN_PLAY + DEAL + '''
    for each p in players:
        if can_play(p):
            p chooses a card c from hand(p) where playable(c):
                move c to pile
    end game
''') == []


def test_a_while_condition_holds_at_the_start_of_each_pass():
    assert choice_codes(CAN_PLAY + DEAL + '''
    let p = random(players)
    while can_play(p):
        p chooses a card c from hand(p) where playable(c):
            move c to pile
    end game
''') == []


def test_elif_and_else_know_the_earlier_conditions_were_false():
    assert choice_codes(CAN_PLAY + DEAL + '''
    let p = random(players)
    if not can_play(p):
        pass
    elif level > 3:
        p chooses a card c from hand(p) where playable(c):
            move c to pile
    else:
        p chooses a card c from hand(p) where playable(c):
            move c to pile
    end game
''') == []


def test_a_condition_no_longer_holds_once_something_changes_what_it_reads():
    assert choice_codes(CAN_PLAY + DEAL + '''
    let p = random(players)
    if can_play(p):
        move top of talon to pile
        p chooses a card c from hand(p) where playable(c):
            move c to pile
    end game
''') == ["W005"]


def test_a_card_other_than_one_from_an_eleven_card_hand():
    assert choice_codes(DEAL + '''
    for each p in players:
        let taken = top of hand(p)
        p chooses a card c from hand(p) where c != taken:
            move c to pile
    end game
''') == []


def test_a_card_other_than_one_from_a_hand_of_one_card_is_e042():
    assert choice_codes('''
round:
    move all cards to talon
    shuffle talon
    deal 1 from talon to hand(players)
    for each p in players:
        let taken = top of hand(p)
        p chooses a card c from hand(p) where c != taken:
            move c to pile
    end game
''') == ["E042"]


def test_a_card_other_than_one_from_a_hand_of_unknown_size_is_a_warning():
    assert choice_codes('''
phase turn(p):
    let taken = top of hand(p)
    p chooses a card c from hand(p) where c != taken:
        move c to pile
''' + DEAL + '''
    for each p in players:
        turn(p)
    end game
''') == ["W005"]


def test_fold_if_owing_beside_check_if_owing_nothing_cannot_be_decided():
    # `owe(p)` could be negative for all the checker knows: a warning, not E042
    assert choice_codes('''
define owe(p) = level - stake(p)
''' + DEAL + '''
    for each p in players:
        p chooses:
            "fold" if owe(p) > 0:
                pass
            "check" if owe(p) == 0:
                pass
    end game
''') == ["W005"]


def test_fold_if_owing_beside_check_if_not_owing_covers_every_case():
    assert choice_codes('''
define owe(p) = level - stake(p)
''' + DEAL + '''
    for each p in players:
        p chooses:
            "fold" if owe(p) > 0:
                pass
            "check" if owe(p) <= 0:
                pass
    end game
''') == []


def test_a_choice_from_a_selection_is_a_choice_with_its_filter():
    assert choice_codes(DEAL + '''
    for each p in players:
        let beaters = select c in hand(p) where value(c) > value(top of pile)
        p chooses a card shown from beaters:
            reveal shown
    end game
''') == ["W005"]


def test_a_choice_from_a_selection_the_enclosing_if_says_is_not_empty():
    assert choice_codes(DEAL + '''
    for each p in players:
        let beaters = select c in hand(p) where value(c) > value(top of pile)
        if count(beaters) > 0:
            p chooses a card shown from beaters:
                reveal shown
    end game
''') == []


def test_a_choice_from_an_empty_selection_is_e042():
    assert choice_codes(DEAL + '''
    for each p in players:
        p chooses a card shown from select c in hand(p) where c is hearts and c is spades:
            reveal shown
    end game
''') == ["E042"]


def test_a_choice_from_a_zone_known_to_be_empty_is_e042():
    assert choice_codes('''
round:
    move all cards to talon
    for each p in players:
        p chooses a card c from hand(p):
            move c to pile
    end game
''') == ["E042"]


def test_a_filter_on_a_dealt_hand_that_can_match_nothing_is_e042():
    # one card dealt from the whole shuffled deck: it can be a card that is not a heart
    assert choice_codes('''
round:
    move all cards to talon
    shuffle talon
    deal 1 from talon to hand(players)
    for each p in players:
        p chooses a card c from hand(p) where c is hearts:
            move c to pile
    end game
''') == ["E042"]


def test_conditions_that_are_all_false_with_the_cards_dealt_are_e042():
    assert choice_codes('''
round:
    move all cards to talon
    shuffle talon
    deal 1 from talon to hand(players)
    for each p in players:
        p chooses:
            "pass" if count(hand(p)) > 1:
                pass
            "discard" if count(talon) < 10:
                move hand(p) to talon
    end game
''') == ["E042"]


def test_numbers_other_than_one_from_a_range_of_two_or_more():
    head = HEAD.replace("var level = 0", "var level = 0\noption most = 3 in 1..5")
    assert choice_codes(DEAL + '''
    for each p in players:
        p chooses a number n from 0 to most where n != level:
            set stake(p) = n
    end game
''', head) == []


def test_a_suit_other_than_one_is_always_there():
    # a trump named in the second round of Euchre: any suit but the turned card's (a deck has four)
    assert choice_codes(DEAL + '''
    for each p in players:
        p chooses a suit s where s != suit(top of pile):
            set stake(p) = 1
        p chooses a rank r where rank(top of pile) != r:
            set stake(p) = 2
    end game
''') == []


def test_a_suit_other_than_one_of_a_deck_of_one_suit_is_not_known_to_be_there():
    head = HEAD.replace("deck standard", "deck ranks 2 3 4 suits hearts").replace("order value: 2 3 4 5 6 7 8 9 10 J Q K A",
                                                                             "order value: 2 3 4")
    assert choice_codes('''
round:
    for each p in players:
        p chooses a suit s where s != suit(top of pile):
            set stake(p) = 1
    end game
''', head) == ["W005"]


def test_a_number_range_that_is_empty_is_e042():
    assert choice_codes(DEAL + '''
    for each p in players:
        p chooses a number n from 3 to 1:
            set stake(p) = n
    end game
''') == ["E042"]


def test_the_idioms_of_the_valid_corpus_stay_silent():
    for path in ("tests/check/valid/flow_idioms.cards",):
        source = open(path, encoding="utf-8").read()
        _, _, _, diags = check_source(source, path)
        assert [d for d in diags if d.code in ("E042", "W005")] == []


# ------------------------------------------------------------ a property over generated games
CONDITIONS = ["x > 0", "x == 0", "x < 0", "x >= 1", "x <= 0", "x != 0", "y > x", "y == x", "y < x", "x > 1",
              "count(hand(p)) > 0", "count(hand(p)) == 0", "count(hand(p)) > 2", "not (x > 0)", "x > 0 and y > 0",
              "x > 0 or y > 0", "any c in hand(p) where c is hearts", "not (any c in hand(p) where c is hearts)",
              "hand(p) has spades", "count(talon) > 40", "true", "false", "k > 1", "k == 1", "k < 2"]
BEFORE = ["", "        move top of talon to hand(p)\n", "        move top of hand(p) to pile\n",
          "        move top 2 of hand(p) to pile\n"]
FILTERS = ["c is hearts", "c is not hearts", "suit(c) == suit(top of pile)", "c != top of hand(p)", "value(c) > x"]

GAME = '''game "G"
players 2..3
deck standard
order value: 2 3 4 5 6 7 8 9 10 J Q K A
zone talon: pile, hidden
zone pile: pile, public
zone hand: per player, private
var x = 0
var y = 0
var turns = 0

round:
    move all cards to talon
    shuffle talon
    move top of talon to pile
    deal {deal} from talon to hand(players)
    for each p in players:
        set x = random([-1, 0, 1, 2])
        set y = random([-1, 0, 1, 2])
        let k = count(hand(p))
{before}{guard}        p chooses:
{alternatives}
    add 1 to turns
    if turns > 3:
        end game
'''


@st.composite
def generated_games(draw) -> str:
    alternatives = []
    before = draw(st.sampled_from(BEFORE))
    for i in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            alternatives.append(f'            "o{i}" if {draw(st.sampled_from(CONDITIONS))}:\n                pass')
        else:
            where = draw(st.sampled_from(FILTERS))
            alternatives.append(f"            a card c from hand(p) where {where}:\n                move c to pile")
    guard = ""
    if draw(st.booleans()):
        guard = f"        if not ({draw(st.sampled_from(CONDITIONS))}):\n            pass\n        else:\n"
        alternatives = ["    " + line for a in alternatives for line in a.split("\n")]
        body = "\n".join(alternatives)
        return GAME.format(deal=draw(st.integers(1, 3)), guard=guard, alternatives=body, before=before).replace(
            "        p chooses:", "            p chooses:")
    return GAME.format(deal=draw(st.integers(1, 3)), guard=guard, alternatives="\n".join(alternatives),
                       before=before)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(source=generated_games(), seed=st.integers(0, 2**16))
def test_a_game_check_passes_never_lacks_a_legal_choice(tmp_path_factory, source, seed):
    """Whatever `check` passes without E042 or W005 never stops on "no legal choice" in random play."""
    path = tmp_path_factory.mktemp("g") / "g.cards"
    path.write_text(source, encoding="utf-8")
    _, _, _, diags = check_source(source, str(path))
    assert not [d for d in diags if d.is_error and d.code != "E042"], diags
    flagged = {d.code for d in diags if d.code in ("E042", "W005")}
    game = cardlang.load(str(path), 2, engine="reference") if "E042" not in flagged else None
    if game is None:
        return
    rng = random.Random(seed)
    for game_seed in range(seed, seed + 5):
        try:
            state = game.new_initial_state(seed=game_seed)
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_action_ids()))
        except RuleError as e:
            assert "no legal choice" not in str(e) or flagged, (source, str(e))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(source=generated_games())
def test_what_check_calls_e042_can_really_be_empty(tmp_path_factory, source):
    """A choice `check` reports as E042 meets "no legal choice" in some random playout (with the
    check turned off, so that the game loads), at some legal player count."""
    path = tmp_path_factory.mktemp("g") / "g.cards"
    path.write_text(source, encoding="utf-8")
    if not any(d.code == "E042" for d in check_source(source, str(path))[3]):
        return
    with mock.patch("cardlang.lang.check.check_choices", lambda checker: None):
        games = [cardlang.load(str(path), n, engine="reference") for n in (2, 3)]
    for game in games:
        for seed in range(30):
            rng = random.Random(seed)
            try:
                state = game.new_initial_state(seed=seed)
                while not state.is_terminal():
                    state.apply(rng.choice(state.legal_action_ids()))
            except RuleError as e:
                if "no legal choice" in str(e):
                    return
    raise AssertionError(f"E042, but no playout met an empty choice:\n{source}")
