"""Issue 28 item 6, smaller gaps each seen in a real file: a rule file in tests/engine/ for each, played
on both engines (tests/test_differential.py plays the same files and proves the engines equal)."""

import cardlang
from scenario import path


def start(relative: str, players: int, stack, engine: str, seed: int = 0):
    return cardlang.load(path(relative), players=players, engine=engine).new_initial_state(seed=seed, stack=stack)

RANKS = "tests/engine/rank_list_team_items.cards"


def test_a_list_of_ranks_may_write_the_number_ranks_as_numbers(engine):
    ladder = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    seen = set()
    for seed in range(12):
        state = start(RANKS, 4, None, engine, seed=seed)
        assert state.is_terminal()
        line = next(x for x in state.transcript(0) if " is step " in x)
        card, rest = line.split(" is step ")
        step, shown = rest.split(" of ", 1)
        assert shown == ", ".join(ladder)  # shown as ranks, the numbers too
        assert ladder.index(card[:-1]) + 1 == int(step)  # `ladder[k] == rank(c)` finds the card's rank
        seen.add(card[:-1])
    assert len(seen - {"A", "J", "Q", "K"}) >= 2  # cards of number ranks came up: their steps were right too


def test_an_item_of_a_per_team_list_is_set_as_a_players_is(engine):
    state = start(RANKS, 4, None, engine, seed=0)
    step = int(next(x for x in state.transcript(0) if " is step " in x).split(" is step ")[1].split()[0])
    # each team's second item is its size (2); then P0's team (P0 and P2) adds the step
    assert list(state.scores()) == [2 + 2 * step, 2 + step, 2 + 2 * step, 2 + step]


def test_an_aggregate_written_in_another_order_says_the_order_of_its_parts(snapshot):
    from cardlang.lang.parse import parse

    head = 'game "t"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nround:\n    let m = {}\n    end game\n'
    helps = []
    for wrong in ("sum c in stock where c is hearts of 1", "sum c of stock where c is hearts",
                  "count c in stock of 1 where c is hearts", "max c in stock where c is hearts of 1"):
        module, found = parse(head.format(wrong))
        assert module is None and len(found) == 1 and "`of`" in found[0].help
        helps.append(f"{wrong}: {found[0].code} {found[0].message} ({found[0].help})")
    assert helps == snapshot
    # the right orders parse
    for right in ("sum c in stock of 1 where c is hearts", "count c in stock where c is hearts"):
        assert parse(head.format(right))[0] is not None


def test_a_deck_of_named_cards_only(engine):
    state = start("tests/engine/named_cards_only.cards", 2, None, engine, seed=4)
    hand = [a.label.split("#")[0] for a in state.legal_actions()]
    assert len(hand) == 3 and set(hand) <= {"Wild", "Skip a turn"}
    while not state.is_terminal():
        state.apply(state.legal_action_ids()[0])
    log = state.transcript(0)
    assert "0 left of 6" in log  # 4 Wild and 2 Skip: the deck's six cards, all dealt or played
    played = [line.split(" plays ")[1] for line in log if " plays " in line]
    assert len(played) == 2
    assert list(state.scores()) == [sum(x.startswith("Wild") for x in played)] * 2


def test_a_shoe_has_as_many_decks_as_an_option_says(engine):
    for shoe in (1, 2, 5):
        g = cardlang.load(path("tests/engine/shoe_option.cards"), players=2, options={"shoe": shoe}, engine=engine)
        state = g.new_initial_state(seed=1)
        assert f"{4 * shoe - 2} left of {4 * shoe}" in state.transcript(0)


def test_a_deck_count_that_is_no_number_option_is_E020():
    from cardlang.load import check_source

    source = 'game "t"\nplayers 2\noption shoe = "x"\ndeck standard with shoe decks, nope decks\n' \
             'zone s: pile, hidden\nround:\n    move all cards to s\n    announce "{shoe}"\n    end game\n'
    found = check_source(source, "t.cards")[3]
    assert [(d.code, d.message) for d in found] == [
        ("E020", "`shoe` is not a number option, so it cannot count `decks`"),
        ("E020", "`nope` is not a number option, so it cannot count `decks`")]
