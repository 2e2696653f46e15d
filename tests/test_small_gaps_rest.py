"""Issue 28 item 6, the rest of the smaller gaps: each with a rule file in tests/engine/ played on both
engines (tests/test_differential.py plays the same files and proves the engines equal)."""

import random

import cardlang
from cardlang.load import check_source
from scenario import path, random_playout


def start(relative: str, players: int, stack, engine: str, seed: int = 0, **options):
    g = cardlang.load(path(relative), players=players, engine=engine, options=options or None)
    return g.new_initial_state(seed=seed, stack=stack)


def codes(source: str) -> list:
    """Every diagnostic of one `check` run but W001 (a name never used), as (code, line)."""
    return [(d.code, d.span.line) for d in check_source(source, "t.cards")[3] if d.code != "W001"]


# ---------------------------------------------------------------- (a) break
BREAK = "tests/engine/break_loops.cards"


def test_break_ends_the_innermost_loop_and_play_goes_on_after_it(engine):
    # P0 2c 3c, P1 Kd 5c, P2 4c 6c; then 7s 8s 9h Th on the stock
    state = start(BREAK, 3, ["2c", "Kd", "4c", "3c", "5c", "6c", "7s", "8s", "9h", "Th"], engine)
    assert [a.label for a in state.legal_actions()] == ["draw", "stop"]  # (`repeat 3 times: break` ended at once)
    for move in ("draw", "draw"):
        state.apply(move)
        assert not state.is_terminal()
    state.apply("stop")
    assert state.is_terminal()
    # P1 opens: the look went round P0 and P1 only; the draws stopped at the heart (7s 8s 9h), the
    # choices added Th and one more
    assert state.transcript(0)[-2] == "opener P1, looked at 2 hands, drew 3, holds 7"


def test_break_without_a_king_or_a_heart_lets_each_loop_run_to_its_end(engine):
    state = start(BREAK, 3, ["2c", "3c", "4c", "5c", "6c", "7c", "2s", "3s", "4s", "5s", "6s"], engine)
    state.apply("stop")
    assert state.transcript(0)[-2] == "opener none, looked at 3 hands, drew 5, holds 7"


def test_a_loop_that_only_a_break_leaves_is_no_endless_loop():
    head = 'game "t"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nvar n = 0\nround:\n' \
           "    move all cards to stock\n"
    assert codes(head + "    while true:\n        add 1 to n\n        if n > 3:\n            break\n    end game\n") == []
    # a `break` of a loop inside ends only that one: the outer loop still never ends (E041)
    assert [("E041", 8)] == codes(head + "    while true:\n        repeat 2 times:\n            break\n    end game\n")


def test_break_outside_a_loop_and_in_a_choice_made_at_once_is_E059():
    head = 'game "t"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nvar n = 0\nround:\n' \
           "    move all cards to stock\n"
    assert codes(head + "    break\n    end game\n") == [("E059", 8)]
    at_once = head + "    repeat 2 times:\n        each player p in players chooses at once:\n" \
                     '            "one":\n                add 1 to n\n                break\n    end game\n'
    assert codes(at_once) == [("E059", 12)]


def test_a_file_that_names_things_break_keeps_working(engine, tmp_path):
    """`break` is a soft keyword: a variable, an option, a player's variable, a zone and a local of
    that name keep working; only a phase cannot be named so (a line `break` is the statement)."""
    source = ('game "old"\nplayers 2\ndeck standard\noption break = 2 in 1..3 "cards a turn"\n'
              "zone stock: pile, hidden\nzone hand: per player, private\nper player var breaks = 0\n"
              "var total = 0\n\n"
              "round:\n    move all cards to stock\n    shuffle stock\n    deal break from stock to hand(players)\n"
              "    for each p in players:\n        let break = count(hand(p))\n        add break to total\n"
              "        set breaks(p) = break\n        if total > 100:\n            break\n"
              '    announce "{total} cards, {break} each"\n    end game\n')
    assert codes(source) == []
    p = tmp_path / "old.cards"
    p.write_text(source)
    state = cardlang.load(str(p), players=2, engine=engine).new_initial_state(seed=1)
    assert state.is_terminal() and "4 cards, 2 each" in state.transcript(0)
    from cardlang.tools.fmt import format_source
    assert format_source(source) == source
    pvar = ('game "old"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nzone shown: pile, public\n'
            "per player var break = 0\n\nround:\n    move all cards to stock\n    move top of stock to shown\n"
            "    for each p in players:\n        set break(p) = count(shown)\n        repeat 3 times:\n"
            "            add 1 to break(p)\n            break\n    end game\n")
    zone = pvar.replace("zone shown", "zone break").replace("to shown", "to break").replace("(shown)", "(break)") \
        .replace("per player var break", "per player var got").replace("break(p)", "got(p)")
    for other, name in ((pvar, "break"), (zone, "got")):
        assert codes(other) == [] and format_source(other) == other
        p.write_text(other)
        state = cardlang.load(str(p), players=2, engine=engine).new_initial_state(seed=1)
        assert state.is_terminal() and list(state.var(name)) == [2, 2]
    phase = zone.replace("zone break", "zone shown").replace("(break)", "(shown)").replace("to break", "to shown") \
        + "\nphase break:\n    add 1 to got(top of players)\n"
    assert [c for c, _ in codes(phase)] == ["E017"]


def test_break_plays_the_same_on_both_engines_over_random_games():
    for seed in range(20):
        ends = []
        for engine in ("reference", "compiled"):
            state = start(BREAK, 3, None, engine, seed=seed)
            random_playout(state, random.Random(seed))
            ends.append(state.transcript(0))
        assert ends[0] == ends[1]


# ------------------------------------------------------- (b) dealing a whole pack unevenly
DEAL_ALL = "tests/engine/deal_all_unevenly.cards"


def test_deal_all_deals_the_whole_pack_the_first_places_one_more(engine):
    for players, sizes in ((3, [17, 18, 17]), (4, [13] * 4), (5, [10, 11, 11, 10, 10])):
        # the dealer P0 deals from his left: P1, P2, … get the extra cards of 52
        state = start(DEAL_ALL, players, ["2c", "3c", "4c", "5c", "6c", "7c"], engine)
        log = state.transcript(0)
        assert [f"P{p} holds {n} cards" for p, n in enumerate(sizes)] == [x for x in log if " holds " in x]
        assert state.current_player == 1
        # one card at a time from the top, P1 first: P1's first cards are the 1st and the (n+1)th
        mine = [a.label for a in state.legal_actions()]
        assert "2♣" in mine and ("5♣" if players == 3 else "6♣" if players == 4 else "7♣") in mine


def test_deal_all_checks_clean_and_says_what_each_gets():
    source = open(path(DEAL_ALL)).read()
    assert codes(source) == []  # (the choice after it: every hand surely holds cards, no W005)
    state = start(DEAL_ALL, 5, None, "reference")
    assert state.transcript(0)[1:3] == ["dealt 10 cards each from stock to P1's, P2's, P3's, P4's and P0's hand",
                                        "dealt 1 card each from stock to P1's and P2's hand"]


def test_deal_all_in_a_file_that_names_something_all_is_that_name(engine, tmp_path):
    """An old file with `var all = 2`: `deal all from …` deals two cards each, as it did."""
    source = ('game "old"\nplayers 3\ndeck standard\nvar all = 2\nzone stock: pile, hidden\n'
              "zone hand: per player, private\n\nround:\n    move all cards to stock\n"
              '    deal all from stock to hand(players)\n    announce "{count(stock)} left"\n    end game\n')
    assert codes(source) == []
    p = tmp_path / "old.cards"
    p.write_text(source)
    state = cardlang.load(str(p), players=3, engine=engine).new_initial_state(seed=1)
    assert "46 left" in state.transcript(0)
    from cardlang.tools.fmt import format_source
    assert format_source(source) == source


# ------------------------------------------- (c) winners named over every seat, the eliminated too
CASH_IN = "tests/engine/eliminated_still_scores.cards"


def test_an_eliminated_player_whose_points_count_may_win_among_seats(engine, tmp_path):
    # P0 cashes in 5 and drops out; P1 and P2 play on twice (4 each): P0 has the most points
    state = start(CASH_IN, 3, None, engine)
    for move in ("cash in", "play on", "play on", "play on", "play on"):
        state.apply(move)
    assert state.is_terminal()
    assert list(state.var("points")) == [5, 4, 4]
    assert state.transcript(0)[-1] == "the game is over; winner: P0"
    # without `among seats` only the players still in may win: P1 and P2 tie
    source = open(path(CASH_IN)).read().replace(", highest wins among seats", ", highest wins")
    p = tmp_path / "in_only.cards"
    p.write_text(source)
    state = cardlang.load(str(p), players=3, engine=engine).new_initial_state(seed=0)
    for move in ("cash in", "play on", "play on", "play on", "play on"):
        state.apply(move)
    assert state.transcript(0)[-1] == "the game is over; winners: P1, P2"


def test_among_seats_still_picks_the_best_of_all_when_the_eliminated_did_worse(engine):
    state = start(CASH_IN, 4, None, engine)
    for move in ("play on", "cash in", "play on", "play on", "play on", "cash in", "cash in"):
        state.apply(move)
    assert state.is_terminal()
    assert list(state.var("points")) == [4, 5, 7, 7]  # (P2 and P3 cashed in on the second pass)
    assert state.transcript(0)[-1] == "the game is over; winners: P2, P3"


# ------------------------------------- (d) what the choice check knows goes across a phase boundary
INTO_PHASE = "tests/check/valid/condition_into_a_phase.cards"


def test_a_condition_tested_around_a_phase_holds_in_it_no_false_W005():
    assert codes(open(path(INTO_PHASE)).read()) == []


def test_a_phase_played_where_the_condition_does_not_hold_still_gets_W005():
    source = open(path(INTO_PHASE)).read()
    # played a second time, with no test around it: the condition holds at one line only
    elsewhere = source.replace("    end game\n", "    raise_or_fold(top of players)\n    end game\n", 1)
    assert codes(elsewhere) == [("W005", 26)]
    # the bid changes between the test and the line: the test no longer holds there
    changed = source.replace("            raise_or_fold(p)\n", "            set bid(p) = 0\n            raise_or_fold(p)\n")
    assert codes(changed) == [("W005", 26)]
    # a parameter named as the caller's loop variable is the same player only when it is passed
    other = source.replace("            raise_or_fold(p)\n", "            raise_or_fold(next of p)\n")
    assert codes(other) == [("W005", 25)]


def test_the_cards_dealt_before_a_phase_are_known_in_it_a_real_E042_is_found():
    head = 'game "t"\nplayers 2..4\ndeck standard\nzone stock: pile, hidden\nzone table: pile, public\n' \
           "zone hand: per player, private\n\nround:\n    move all cards to stock\n    shuffle stock\n" \
           "    deal {n} from stock to hand(players)\n    turn(top of players)\n    end game\n\nphase turn(q):\n" \
           "    q chooses a card c from hand(q):\n        move c to table\n" \
           "    q chooses a card c from hand(q):\n        move c to table\n"
    # one card dealt: the second choice of the phase has nothing to choose from (it said nothing)
    assert codes(head.format(n=1)) == [("E042", 18)]
    assert codes(head.format(n=2)) == []
    # a phase that moves no card keeps what the caller knew of the hands after it
    after = head.format(n=1).replace("    turn(top of players)\n", "    tally\n    turn(top of players)\n") + \
        "\nphase tally:\n    announce \"{count(stock)} left\"\n"
    assert codes(after) == [("E042", 19)]


# ------------------------------------------- (e) coverage of a choice of a card and a pile
PILES = "tests/engine/pile_never_taken.cards"


def test_a_card_and_a_pile_is_one_rule_reached_when_any_pile_is_taken():
    from cardlang.play.coverage import merge_entries
    from cardlang.play.simulate import simulate

    stats = simulate(cardlang.load(path(PILES), players=2), 20, seed=1)
    choices = [e for e in stats["coverage"] if e["kind"] == "choose"]
    assert [e["label"].split(" and ")[0] for e in choices] == ["a card c from hand(p)", '"pass"']
    card = choices[0]
    assert card["hits"] > 0 and stats["never_reached"] == []  # (no king on top of the stock: pile 3 never comes up)
    assert [(p["pile"], p["hits"] > 0, p["offered"] > 0) for p in card["piles"]] == [
        (1, True, True), (2, True, True), (3, False, False)]
    assert card["hits"] == sum(p["hits"] for p in card["piles"])
    twice = merge_entries(card, card)
    assert twice["hits"] == 2 * card["hits"] and [p["hits"] for p in twice["piles"]] == [
        2 * p["hits"] for p in card["piles"]]


def test_the_simulate_report_names_the_pile_never_taken_as_a_detail():
    from click.testing import CliRunner
    from cardlang.cli import main

    out = CliRunner().invoke(main, ["simulate", path(PILES), "-n", "10"]).output
    assert "rule coverage: 2 of 2 rules reached" in out and "never reached" not in out
    assert out.count("pile 3 never taken") == 1


def test_the_pile_choice_plays_the_same_on_both_engines(engine):
    state = start(PILES, 2, None, engine)  # (the stock is not shuffled: the deck's first cards, no king)
    labels = [a.label for a in state.legal_actions()]
    assert len(labels) == 3 and labels[-1] == "pass" and labels[1].endswith(" to row(2)")  # no row(3): no king
    state.apply(labels[1])
    assert state.current_player == 1
    state.apply("pass")
    assert state.is_terminal() and state.var("turns") == 1


# ------------------------------------------------- (f) a rank with a space in its name
DRAW_TWO = "tests/engine/draw_two.cards"


def test_a_rank_read_with_a_space_shows_as_written_and_plays_by_its_name(engine):
    g = cardlang.load(path(DRAW_TWO), players=2, engine=engine)
    card = g.deck.card_id("DrawTwor")  # (its short name still names it, in a stack or a save)
    assert g.deck.label_of(card) == "Draw Two of red" and g.deck.name_of(card) == "DrawTwor"
    assert g.deck.card_ids("Draw Two of red") == g.deck.card_ids("draw  two of RED") == (card,)
    assert g.deck.label_of(g.deck.card_id("Skipb")) == "Skip of blue"  # (a rank without a label: as before)
    state = g.new_initial_state(stack=["DrawTwor", "1b", "2r", "3b", "Skipr", "1r"])
    assert [a.label for a in state.legal_actions()] == ["play Draw Two of red", "play 2r"]
    state.apply("play Draw Two of red")  # `c is DrawTwo` in the rules: P1 draws two, P0 plays again
    assert state.transcript(0)[-2:] == ["P0 plays Draw Two of red", "P1 draws two and misses a turn"]
    assert state.current_player == 0


def test_a_rank_label_is_one_line_of_the_deck_and_formats_as_written():
    from cardlang.tools.fmt import format_source
    source = open(path(DRAW_TWO)).read()
    assert codes(source) == [] and format_source(source) == source
    # the label goes with the rank before it: without `DrawTwo` it is the label of 3, and the rules'
    # `DrawTwo` is no rank of the deck
    bad = source.replace('DrawTwo "Draw Two" Skip', '"Draw Two" Skip')
    assert [c for c, _ in codes(bad)] == ["E010"]


# ------------------------------------------ (g) a declared value chosen from some of its values
KIND = "tests/engine/game_kind_from_list.cards"


def test_a_declared_value_is_chosen_from_a_list_of_some_of_them(engine):
    # P0 is dealt the 1st, 4th, 7th and 10th cards: four jacks, so grand only
    state = start(KIND, 3, ["Jc", "2c", "3c", "Jd", "2d", "3d", "Jh", "2h", "3h", "Js"], engine)
    assert [a.label for a in state.legal_actions()] == ["play grand"]
    state = start(KIND, 3, ["Jc", "2c", "3c", "Jd", "2d", "3d", "Jh", "2h", "3h", "4s"], engine)
    assert [a.label for a in state.legal_actions()] == ["play grand", "play null"]  # in the list's order
    state.apply("play null")
    assert state.transcript(0)[-2] == "the game is null" and state.var("contract") == 5  # (its place in `values`)


def test_a_list_of_declared_values_checks_its_items_and_the_choice_check_reads_it():
    source = open(path(KIND)).read()
    assert codes(source) == []  # (`k == grand` is open for grand of the list: no W005)
    # (each with the W005 of a list the check cannot read)
    assert [c for c, _ in codes(source.replace("[grand, null]", "[grand, 3]"))][0] == "E012"
    assert [c for c, _ in codes(source.replace("from [grand, null]", "from seats"))][0] == "E012"
    # a filter no value of the list meets: every option closed, whatever the hand (E042)
    never = source.replace("where k == grand \\\n            or (count c in hand(declarer) where rank(c) == J) < 4",
                           "where k == clubs")
    assert [c for c, _ in codes(never)] == ["E042"]
