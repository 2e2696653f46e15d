"""The native engine's runtime kernels (issue 29) give the numbers of the Python runtime they mirror:
poker hand values (`native.poker` against `runtime.poker.Ranking.evaluate_value`, through the
layouts of the games that rank hands and of variants: short decks, two decks, fewer suits, an
order shorter than the deck, reordered and missing categories), the meld counting functions
(`native.melds` against `runtime.melds`) and the showdown's split (`native.pots.shares` against
`runtime.pots.side_pots` and `shares`), and betting rounds (`native.pots` against `runtime.pots`)."""

from __future__ import annotations

import random
import re
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardlang
from cardlang.runtime import melds as py_melds
from cardlang.runtime import pots as py_pots
from cardlang.runtime.poker import Ranking

np = pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the native engine's extra (cardlang[native]) is not installed")
from cardlang.native import melds, pots, poker  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOLDEM = (ROOT / "examples/holdem.cards").read_text()
STANDARD_ORDER = "2 3 4 5 6 7 8 9 10 J Q K A"
FULL = ("straight_flush > four_of_a_kind > full_house > flush > straight > three_of_a_kind > two_pair > pair "
        "> high_card")

# (deck, order, ranking) of hold'em variants: each a layout whose codes the engines use
VARIANTS = {
    "twenty cards, no wheel": ("ranks 10 J Q K A suits clubs diamonds hearts spades", "10 J Q K A", FULL),
    "two decks, five of a kind": ("standard with 2 decks", STANDARD_ORDER, "five_of_a_kind > " + FULL + ", ace low"),
    "order shorter than the deck": ("standard", "7 8 9 10 J Q K A", "flush > full_house > pair, ace low"),
    "short deck, two suits": ("ranks 6 7 8 9 10 J Q K A suits hearts spades", "6 7 8 9 10 J Q K A",
                              "straight_flush > four_of_a_kind > flush > full_house > three_of_a_kind > straight "
                              "> two_pair > pair > high_card, ace low"),
    "thirty-two cards, pairs above straights": (
        "ranks 7 8 9 10 J Q K A suits clubs diamonds hearts spades", "7 8 9 10 J Q K A",
        "four_of_a_kind > two_pair > straight > pair > three_of_a_kind, ace low"),
}
GAMES = ["games/counter_bluff.cards", "games/pioche_poker.cards", "examples/holdem.cards"]


def variant_source(deck: str, order: str, ranking: str) -> str:
    s = HOLDEM.replace("deck standard\n", f"deck {deck}\n", 1)
    s = s.replace(f"order value: {STANDARD_ORDER}\n", f"order value: {order}\n", 1)
    return re.sub(r"ranking hands by value: .*?ace low\n", f"ranking hands by value: {ranking}\n", s, count=1,
                  flags=re.S)


@pytest.fixture(scope="module")
def layouts(tmp_path_factory) -> dict:
    """name -> (deck size, Ranking, codes, native table), for every game and variant."""
    out = {}
    folder = tmp_path_factory.mktemp("rankings")
    paths = {name: str(ROOT / name) for name in GAMES}
    for name, spec in VARIANTS.items():
        path = folder / (re.sub(r"\W+", "_", name) + ".cards")
        path.write_text(variant_source(*spec))
        paths[name] = str(path)
    for name, path in paths.items():
        layout = cardlang.load(path, 2).program.layout
        (ranking, codes), = layout.rankings.values()
        out[name] = (layout.deck.size, ranking, codes, poker.ranking_table(ranking, codes))
    return out


def python_value(ranking, codes, hand) -> int:
    """What both engines compute for `hand value of hand` (compiler/reference_expr.e_HandValue)."""
    return int(ranking.evaluate_value([codes[c] for c in hand]))


def test_the_variants_are_what_they_say(layouts):
    """The layouts do hold the decks the cases name: copies share codes, a short order sits at the top."""
    size, _, codes, _ = layouts["two decks, five of a kind"]
    assert size == 104 and len(set(codes)) == 52
    size, ranking, codes, _ = layouts["twenty cards, no wheel"]
    assert size == 20 and min(codes) == 32 and not ranking.ace_low_straight
    size, ranking, codes, _ = layouts["short deck, two suits"]
    assert size == 18 and {c & 3 for c in codes} == {0, 1}
    assert layouts["order shorter than the deck"][2][0] == 20  # a 2 is not in the order: the lowest rank


@pytest.mark.parametrize("name", GAMES + list(VARIANTS))
def test_random_hands_of_every_size_have_the_runtimes_value(layouts, name):
    """Hands of 5 to 10 cards of the layout's deck, distinct cards and (as the runtime allows) not."""
    size, ranking, codes, table = layouts[name]
    rng = random.Random(name)
    for n in range(5, 11):
        for k in range(600):
            hand = rng.sample(range(size), n) if k % 3 else [rng.randrange(size) for _ in range(n)]
            got = poker.hand_value(np.array(hand, dtype=np.int64), n, table)
            assert got == python_value(ranking, codes, hand), hand


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_hand_of_any_layout(layouts, data):
    name = data.draw(st.sampled_from(GAMES + list(VARIANTS)))
    size, ranking, codes, table = layouts[name]
    hand = data.draw(st.lists(st.integers(0, size - 1), min_size=5, max_size=10))
    # the kernel reads cards[:n]: what lies after them does not count
    padded = np.array(hand + [0, size - 1], dtype=np.int64)
    assert poker.hand_value(padded, len(hand), table) == python_value(ranking, codes, hand)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_long_suits_with_copies(layouts, data):
    """A suit of five or more cards holding a rank twice (two decks): the runtime computes its value
    rather than looking it up, and so does the kernel."""
    size, ranking, codes, table = layouts["two decks, five of a kind"]
    suit = data.draw(st.integers(0, 3))
    suited = [c for c in range(size) if codes[c] & 3 == suit]
    hand = data.draw(st.lists(st.sampled_from(suited), min_size=5, max_size=8))
    hand += data.draw(st.lists(st.integers(0, size - 1), max_size=10 - len(hand)))
    assert poker.hand_value(np.array(hand, dtype=np.int64), len(hand), table) == python_value(ranking, codes, hand)


@pytest.mark.parametrize("name", ["twenty cards, no wheel", "short deck, two suits"])
@pytest.mark.parametrize("n", [5, 6, 7])
def test_every_hand_of_a_small_deck(layouts, name, n):
    """Every 5-, 6- and 7-card hand of a 20-card and of an 18-card deck."""
    size, ranking, codes, table = layouts[name]
    hands = np.array(list(combinations(range(size), n)), dtype=np.int64)
    got = poker_values(hands, table)
    want = [python_value(ranking, codes, hand) for hand in hands.tolist()]
    assert got.tolist() == want


@pytest.mark.slow
@pytest.mark.parametrize("name", ["examples/holdem.cards", "games/counter_bluff.cards"])
def test_every_five_card_hand_of_the_standard_deck(layouts, name):
    size, ranking, codes, table = layouts[name]
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int64)
    want = [python_value(ranking, codes, hand) for hand in hands.tolist()]
    assert poker_values(hands, table).tolist() == want


@pytest.mark.slow
@pytest.mark.parametrize("n", [7, 8])
def test_every_hand_of_the_thirty_two_card_deck(layouts, n):
    """Every 7-card hand (3.4 million) and 8-card hand (10.5 million: the computed path) of 32 cards."""
    size, ranking, codes, table = layouts["thirty-two cards, pairs above straights"]
    for first in range(size - n + 1):  # in slices, to bound the memory
        rest = [(first, *more) for more in combinations(range(first + 1, size), n - 1)]
        hands = np.array(rest, dtype=np.int64)
        want = [python_value(ranking, codes, hand) for hand in rest]
        assert poker_values(hands, table).tolist() == want


def poker_values(hands, table):
    """hand_value of each row, in one call (the rows are the hands, all of one size)."""
    return _values(hands, table)


try:
    from numba import njit

    @njit(cache=False)
    def _values(hands, table):
        out = np.empty(hands.shape[0], dtype=np.int64)
        for i in range(hands.shape[0]):
            out[i] = poker.hand_value(hands[i], hands.shape[1], table)
        return out
except ImportError:  # pragma: no cover - skipped above
    pass


CATEGORY_LISTS = st.permutations(["five_of_a_kind", "straight_flush", "four_of_a_kind", "full_house", "flush",
                                  "straight", "three_of_a_kind", "two_pair", "pair"])


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(CATEGORY_LISTS, st.integers(0, 9), st.booleans(), st.booleans(), st.integers(0, 2**32))
def test_any_ranking(categories, keep, high_card, ace_low, seed):
    """A ranking of any categories in any order (high_card, if listed, last), hands with copies."""
    rng = random.Random(seed)
    names = categories[:keep] + (["high_card"] if high_card else [])
    ranking = Ranking.from_categories(names, ace_low_straight=ace_low)
    table = poker.ranking_table(ranking, range(52))
    for n in range(5, 11):
        for _ in range(300):
            hand = [rng.randrange(52) for _ in range(n)]
            assert poker.hand_value(np.array(hand, dtype=np.int64), n, table) == ranking.evaluate_value(hand)


@pytest.mark.parametrize("n", [0, 4, 11])
def test_a_hand_of_the_wrong_size_is_minus_one(layouts, n):
    """The engines' rule error (effects.poker_hand_size) is the caller's: the kernel says -1."""
    _, _, _, table = layouts["examples/holdem.cards"]
    assert poker.hand_value(np.zeros(12, dtype=np.int64), n, table) == -1


def test_what_the_tables_cannot_hold_is_refused_by_name():
    ranking = Ranking.standard()
    with pytest.raises(NotImplementedError, match="card code 52"):
        poker.ranking_table(ranking, range(53))
    with pytest.raises(NotImplementedError, match="not a runtime poker Ranking"):
        poker.ranking_table(object(), range(52))


# ------------------------------------------------------------------ melds: the counting functions
DECK_TABLES = st.integers(1, 30).flatmap(lambda size: st.tuples(
    st.just(size),
    st.lists(st.integers(0, 14), min_size=size, max_size=size),  # card_rank
    st.lists(st.integers(-1, 5), min_size=size, max_size=size),  # card_suit (-1: a joker)
    st.lists(st.integers(-4, 15), min_size=size, max_size=size),  # an order's positions or values
))


def cards_of(data, size, distinct):
    """Cards of a deck of `size` (a zone's distinct ids, or any ids)."""
    if distinct:
        return data.draw(st.lists(st.integers(0, size - 1), unique=True, max_size=size))
    return data.draw(st.lists(st.integers(0, size - 1), max_size=20))


def arr(xs):
    return np.array(list(xs) + [0], dtype=np.int64)  # (one more: the kernels read cards[:n] only)


@settings(max_examples=300, deadline=None)
@given(DECK_TABLES, st.booleans(), st.data())
def test_pairs_runs_and_longest_suit(deck, distinct, data):
    size, rank, suit, positions = deck
    cards = cards_of(data, size, distinct)
    n = len(cards)
    assert melds.count_pairs(arr(cards), n, arr(rank), arr(suit)) == py_melds.count_pairs(cards, rank, suit)
    assert melds.longest_suit(arr(cards), n, arr(suit)) == py_melds.longest_suit(cards, suit)
    for weighted in (False, True):
        assert melds.count_runs(arr(cards), n, arr(positions), weighted) == py_melds.count_runs(cards, positions,
                                                                                               weighted)


@settings(max_examples=300, deadline=None)
@given(DECK_TABLES, st.booleans(), st.integers(-3, 60), st.data())
def test_subsets(deck, distinct, total, data):
    size, _, _, values = deck
    cards = cards_of(data, size, distinct)
    got = melds.count_subsets(arr(cards), len(cards), arr(values), total)
    try:
        want = py_melds.count_subsets(cards, values, total)
    except py_melds.MeldError:
        assert got == melds.NEGATIVE_VALUE
    else:
        assert got == want


def test_subsets_of_many_zero_cards_are_refused_before_they_overflow():
    zeros = np.zeros(70, dtype=np.int64)
    assert melds.count_subsets(np.arange(70), 62, zeros, 0) == 2**62 == py_melds.count_subsets(range(62), zeros, 0)
    assert melds.count_subsets(np.arange(70), 63, zeros, 0) == melds.TOO_MANY


def test_the_counting_functions_over_a_real_deck():
    """Fifteen-two, pairs and runs of a counting game's hand, as the runtime counts them (a hand
    of 5 4 6 5 J: four fifteens, one pair, two runs of three)."""
    game = cardlang.load(str(ROOT / "examples/counting_show.cards"))
    layout = game.program.layout
    deck = layout.deck
    pips, order = layout.orders["pips"], layout.orders["run"]
    by_rank = {}
    for c in range(deck.size):
        by_rank.setdefault(deck.rank_name(c), []).append(c)
    hand = [by_rank["5"][0], by_rank["4"][1], by_rank["6"][2], by_rank["5"][3], by_rank["J"][0]]
    a = arr(hand)
    assert melds.count_subsets(a, 5, arr(pips), 15) == py_melds.count_subsets(hand, pips, 15) == 4
    assert melds.count_pairs(a, 5, arr(deck.card_rank), arr(deck.card_suit)) == 1
    assert melds.count_runs(a, 5, arr(order), True) == py_melds.count_runs(hand, order, True) == 6


# ------------------------------------------------------------------ melds: deadwood
# (sets, runs, ace) of `melds` declarations over the standard deck, runs in 2 .. K with the ace placed
MELD_RULES = [(3, 3, "low"), (2, 3, None), (4, 4, "around"), (3, None, None), (None, 3, "both"), (2, 2, "high")]


@pytest.fixture(scope="module")
def knock_rummy():
    layout = cardlang.load(str(ROOT / "examples/knock_rummy.cards"), 2).program.layout
    return layout.melds, layout.deck


@pytest.fixture(scope="module")
def meld_rules(knock_rummy):
    """name -> (runtime MeldRule, native deadwood table, native arrangement table): the game's own
    rule and variants of it."""
    rule, deck = knock_rummy
    out = {"examples/knock_rummy.cards": (rule, melds.deadwood_table(rule), melds.arrangement_table(rule))}
    ace = deck.ranks.index("A")
    for set_min, run_min, ace_rule in MELD_RULES:
        order = [deck.ranks.index(r) for r in "2 3 4 5 6 7 8 9 10 J Q K".split()]
        if ace_rule is None:
            order = [ace] + order
        variant = py_melds.MeldRule(deck.card_rank, deck.card_suit, len(deck.ranks), len(deck.suits), rule.points,
                                    set_min, run_min, order, ace_rule, ace)
        out[f"sets {set_min}, runs {run_min}, ace {ace_rule}"] = (variant, melds.deadwood_table(variant),
                                                                  melds.arrangement_table(variant))
    return out


def python_deadwood(rule, hand):
    try:
        return rule.deadwood(hand)
    except py_melds.MeldError:
        return melds.TOO_MANY_WAYS


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_deadwood(meld_rules, data):
    """Hands of 0 to 36 cards (ten is the game's), a card given twice counting once."""
    rule, table, _ = meld_rules[data.draw(st.sampled_from(sorted(meld_rules)))]
    hand = data.draw(st.lists(st.integers(0, 51), max_size=36, unique=data.draw(st.booleans())))
    assert melds.deadwood(arr(hand), len(hand), table) == python_deadwood(rule, hand)


@pytest.mark.parametrize("name", ["examples/knock_rummy.cards"] + [f"sets {a}, runs {b}, ace {c}"
                                                                 for a, b, c in MELD_RULES])
def test_deadwood_of_random_hands(meld_rules, name):
    """Many random hands of each rule, the sizes where sets meet runs most; sets of two over 26 to
    30 cards reach the runtime's bound on choices (its MeldError) and must be refused alike."""
    rule, table, _ = meld_rules[name]
    rng = random.Random(name)
    refused = 0
    for k in range(1500):
        n = (7, 10, 11, 13, 16, 20, 26, 30)[k % 8]
        hand = rng.sample(range(52), n)
        want = python_deadwood(rule, hand)
        refused += want == melds.TOO_MANY_WAYS
        assert melds.deadwood(arr(hand), n, table) == want, hand
    if name.startswith("sets 2, runs 3"):
        assert refused  # (the refusal is met, not only written)


def test_deadwood_of_a_rule_without_the_four_suit_tables_is_refused_by_name():
    for build in (melds.deadwood_table, melds.arrangement_table):
        with pytest.raises(NotImplementedError, match="four suits, no jokers"):
            build(py_melds.MeldRule((0, 1, 2, 3), (0, 0, 0, -1), 3, 1, (1, 1, 1, 0), 3))
        with pytest.raises(NotImplementedError, match="no `melds`"):
            build(None)


def python_cards(function, *args):
    """The cards a runtime function gives, or TOO_MANY_WAYS for its MeldError."""
    try:
        return list(function(*args))
    except py_melds.MeldError:
        return melds.TOO_MANY_WAYS


def native_cards(function, *args):
    out = np.full(64, -9, dtype=np.int64)
    k = function(*args, out)
    assert (out[max(k, 0):] == -9).all()  # nothing written past what it says
    return melds.TOO_MANY_WAYS if k < 0 else out[:k].tolist()


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_melded_and_layoffs(meld_rules, data):
    """The melded cards of a hand and the cards laid off onto another's melds, in the hand's order,
    a card given twice kept twice as the runtime keeps it."""
    rule, _, table = meld_rules[data.draw(st.sampled_from(sorted(meld_rules)))]
    unique = data.draw(st.booleans())
    hand = data.draw(st.lists(st.integers(0, 51), max_size=30, unique=unique))
    onto = data.draw(st.lists(st.integers(0, 51), max_size=16, unique=unique))
    assert native_cards(melds.melded, arr(hand), len(hand), table) == python_cards(rule.melded, hand)
    assert (native_cards(melds.layoffs, arr(hand), len(hand), arr(onto), len(onto), table)
            == python_cards(rule.layoffs, hand, onto))


@pytest.mark.parametrize("name", ["examples/knock_rummy.cards"] + [f"sets {a}, runs {b}, ace {c}"
                                                                 for a, b, c in MELD_RULES])
def test_melded_and_layoffs_of_random_hands(meld_rules, name):
    """Random hands and melds to lay off onto, as a knock leaves them; the cases the runtime meets
    (a run grown by a card laid off, a set's rank, its bound on choices) are met here too."""
    rule, _, table = meld_rules[name]
    rng = random.Random(name)
    grown = refused = 0
    for k in range(800):
        n = (7, 10, 11, 13, 20, 26, 30)[k % 7]
        hand = rng.sample(range(52), n)
        onto = rng.sample([c for c in range(52) if c not in hand], 10)
        want = python_cards(rule.melded, hand)
        refused += want == melds.TOO_MANY_WAYS
        assert native_cards(melds.melded, arr(hand), n, table) == want, hand
        off = python_cards(rule.layoffs, hand, onto)
        assert native_cards(melds.layoffs, arr(hand), n, arr(onto), 10, table) == off, (hand, onto)
        set_ranks = {rule.card_rank[m[0]] for m in rule.arrange(onto)[2]}
        grown += off != melds.TOO_MANY_WAYS and any(rule.card_rank[c] not in set_ranks for c in off)  # (by a run)
    assert grown or rule.run_min is None
    if name.startswith("sets 2, runs 3"):
        assert refused


# ------------------------------------------------------------------ pots: the showdown's split
@settings(max_examples=400, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 40), min_size=n, max_size=n),  # contributions
    st.lists(st.booleans(), min_size=n, max_size=n),  # contenders
    st.lists(st.integers(-3, 3), min_size=n, max_size=n),  # values (small: ties)
    st.integers(0, n - 1),  # the anchor
)))
def test_the_split_of_side_pots(case):
    contrib, contender, value, anchor = case
    n = len(contrib)
    order = tuple((anchor + i) % n for i in range(n))
    seats = tuple(p for p in range(n) if contender[p])
    want = py_pots.shares(py_pots.side_pots(contrib, seats), {p: value[p] for p in seats}, order)
    got = pots.shares(np.array(contrib, dtype=np.int64), np.array(contender, dtype=np.int64),
                      np.array(value, dtype=np.int64), np.array(order, dtype=np.int64))
    assert got.tolist() == want
    assert sum(want) == sum(contrib)


class _PotState:
    """What `runtime.pots` reads and writes of a state: `v` and `active`."""

    def __init__(self, v, active):
        self.v, self.active, self.log, self.fresh = v, active, None, []


def _native_row(row):
    return [int(x) for x in row]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_betting_rounds_are_the_runtimes(data):
    """`native.pots.start_round`, `act`, `put` and `award` over `V` (none as NONE, the decision a
    row of `TV`) leave what `runtime.pots` leaves in `state.v`, and offer the same decisions, for
    random stacks, seats out, antes, blinds, no-limit and limit rounds with caps, and choices."""
    from cardlang.runtime.pots import PotSpec

    n = data.draw(st.integers(2, 6), label="players")
    stacks = data.draw(st.lists(st.integers(0, 40), min_size=n, max_size=n), label="stacks")
    active = data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="active")
    ring = tuple(tuple((s + i) % n for i in range(n)) for s in range(n))
    spec = PotSpec("pot", n, n, 0, ring)  # (the stacks in slots 0 .. n-1, the pot's after them)
    v = list(stacks) + [0] * spec.size
    for slot, per_player, init in spec.slots():
        for s in range(slot, slot + (n if per_player else 1)):
            v[s] = init
    py = _PotState(v, list(active))
    NONE = pots.NONE
    row = spec.base + 4 * n + 6
    V = np.array([NONE if x is None else x for x in v[:row]] + [0], dtype=np.int64)
    TV = np.zeros((row + 1, 8), dtype=np.int64)
    TV[row, :5] = [0, 0, 0, 1, 0]
    ACT = np.array(active, dtype=np.bool_)
    R = np.array(ring, dtype=np.int64)
    args = (V, TV, ACT, spec.base, n, spec.stacks, R)

    def same():
        assert [NONE if x is None else int(x) for x in py.v[:row]] == V[:row].tolist()
        assert [int(x) for x in py.v[row]] == _native_row(TV[row, :5])

    ante = data.draw(st.integers(0, 3), label="ante")
    for p in range(n):
        pots.put(V, spec.base, n, spec.stacks, ante, p)
        py_pots.put(py, spec, ante, p)
    same()
    for _ in range(data.draw(st.integers(1, 3), label="rounds")):
        first = data.draw(st.integers(0, n - 1), label="first")
        blinds = data.draw(st.lists(st.integers(0, 6), max_size=3), label="blinds")
        fixed = data.draw(st.one_of(st.none(), st.integers(1, 4)), label="fixed")
        minimum = None if fixed is not None else data.draw(st.one_of(st.none(), st.integers(1, 4)), label="min")
        cap = data.draw(st.one_of(st.none(), st.integers(0, 4)), label="cap")
        try:
            py_pots.start_round(py, spec, first, blinds, minimum, fixed, cap)
        except ValueError:  # (more blinds than players to post them: the native run stops)
            assert pots.start_round(*args, first, np.array(blinds + [0], dtype=np.int64), len(blinds),
                                    NONE if minimum is None else minimum, NONE if fixed is None else fixed,
                                    NONE if cap is None else cap) == 1
            return
        assert pots.start_round(*args, first, np.array(blinds + [0], dtype=np.int64), len(blinds),
                                NONE if minimum is None else minimum, NONE if fixed is None else fixed,
                                NONE if cap is None else cap) == 0
        same()
        for _ in range(60):  # (a round ends in a few decisions: every raise costs a chip)
            if not py_pots.betting(py, spec):
                break
            fold, check, call, lo, hi = py.v[row]
            kinds = [k for k, ok in ((0, fold), (1, check), (2, call)) if ok] + ([3] if lo <= hi else [])
            kind = data.draw(st.sampled_from(kinds), label="kind")
            amount = data.draw(st.integers(lo, hi), label="amount") if kind == 3 else 0
            py_pots.act(py, spec, kind, amount)
            assert pots.act(*args, kind, amount) == 0
            same()
        values = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n), label="values")
        anchor = data.draw(st.one_of(st.none(), st.integers(0, n - 1)), label="anchor")
        lowest = data.draw(st.booleans(), label="lowest")
        contenders = py_pots.contenders(py, spec)
        py_pots.award(py, spec, anchor, {p: values[p] for p in contenders} if len(contenders) > 1 else {}, lowest)
        assert pots.award(*args, NONE if anchor is None else anchor, np.array(values, dtype=np.int64), lowest) == 0
        same()


def _zones_of(places, order, nzones: int, cap: int):
    """Native zone arrays (Z, ZN, LOC) with card c in zone `places[c]`, laid in the order `order`."""
    Z, ZN = np.zeros((nzones, cap), dtype=np.int64), np.zeros(nzones, dtype=np.int64)
    LOC = np.zeros(cap, dtype=np.int64)
    for c in order:
        z = places[c]
        Z[z, ZN[z]] = c
        ZN[z] += 1
        LOC[c] = z
    return Z, ZN, LOC


# ------------------------------------------------ a zone's cards moved in one step (switch `zone_moves`)
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_move_zone_is_move_of_a_copy_of_the_zones_cards(data):
    """`steps.move_zone` leaves the zones, their order and each card's zone as `steps.move` of a copy
    of the source zone's cards does: onto another zone, under it, onto itself, under itself, into a
    destination that is no zone."""
    from cardlang.native import steps

    nzones = data.draw(st.integers(min_value=1, max_value=5))
    places = data.draw(st.lists(st.integers(min_value=0, max_value=nzones - 1), max_size=12))
    order = data.draw(st.permutations(range(len(places))))
    src = data.draw(st.integers(min_value=0, max_value=nzones - 1))
    dest = data.draw(st.integers(min_value=-1, max_value=nzones))
    bottom = data.draw(st.booleans())
    cap = max(len(places), 1)

    def state():
        return _zones_of(places, order, nzones, cap)

    Z, ZN, LOC = state()
    cards = Z[src, :ZN[src]].copy()
    expected = steps.move(Z, ZN, LOC, cards, len(cards), dest, bottom) if len(cards) else 0
    Z2, ZN2, LOC2 = state()
    got = steps.move_zone(Z2, ZN2, LOC2, src, dest, bottom) if ZN2[src] else 0
    assert got == expected
    if not expected:
        assert ZN2.tolist() == ZN.tolist() and LOC2.tolist() == LOC.tolist()
        assert all(Z2[z, :ZN[z]].tolist() == Z[z, :ZN[z]].tolist() for z in range(nzones))


# ------------------------------------------------ one card moved in place (switch `card_moves`)
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_move_card_is_move_of_that_card(data):
    """`steps.move_card` leaves the zones, their order and each card's zone as `steps.move` of a list
    of that one card does, and fails where it fails: onto another zone, under it, onto its own zone,
    a card of no place or past the deck, a destination that is no zone."""
    from cardlang.native import steps

    nzones = data.draw(st.integers(min_value=1, max_value=5))
    places = data.draw(st.lists(st.integers(min_value=0, max_value=nzones - 1), max_size=12))
    order = data.draw(st.permutations(range(len(places))))
    cap = max(len(places), 1)
    card = data.draw(st.integers(min_value=-1, max_value=cap))
    dest = data.draw(st.integers(min_value=-1, max_value=nzones))
    bottom = data.draw(st.booleans())

    def state():
        return _zones_of(places, order, nzones, cap)

    Z, ZN, LOC = state()
    expected = steps.move(Z, ZN, LOC, np.array([card], dtype=np.int64), 1, dest, bottom)
    Z2, ZN2, LOC2 = state()
    assert steps.move_card(Z2, ZN2, LOC2, card, dest, bottom) == expected
    if not expected:
        assert ZN2.tolist() == ZN.tolist() and LOC2.tolist() == LOC.tolist()
        assert all(Z2[z, :ZN[z]].tolist() == Z[z, :ZN[z]].tolist() for z in range(nzones))


# ------------------------------------------------ a random bot's draw in place (switch `bot_draws`)
@settings(max_examples=60, deadline=None)
@given(seeds=st.lists(st.integers(min_value=0, max_value=2**63 - 1), min_size=2, max_size=2),
       mode=st.integers(min_value=0, max_value=1),
       counts=st.lists(st.one_of(st.integers(min_value=1, max_value=300), st.integers(min_value=1, max_value=70000)),
                       min_size=1, max_size=40))
def test_pick_inline_draws_as_pick(seeds, mode, counts):
    """`steps.pick_inline` draws what `steps.pick` draws, count after count (past the table's 256 and
    past a twist of the generator: 700 draws), and leaves the generators as it does."""
    from cardlang.native import steps

    MT = np.zeros((2, 625), dtype=np.int64)
    for s, seed in enumerate(seeds):
        steps.reseed(MT[s], seed)
    MT2 = MT.copy()
    for k, count in enumerate(counts * (700 // len(counts) + 1)):
        p = k % 2
        assert steps.pick_inline(MT2, mode, p, count) == steps.pick(MT, mode, p, count)
    assert MT2.tolist() == MT.tolist()
