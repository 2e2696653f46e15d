"""examples/contract_bids.cards: bids of a level and a strain chosen together (issue 28, items 1
and 3), on both engines; and the same auction as examples/contract_auction.cards, where a bid is a
number: played call for call on the same deals, both end alike."""

from __future__ import annotations

import random

import cardlang

from scenario import path

BIDS = path("examples/contract_bids.cards")
AUCTION = path("examples/contract_auction.cards")
SYMBOL = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "notrump": "NT"}


def start(engine, seed=0):
    return cardlang.load(BIDS, players=4, engine=engine).new_initial_state(seed=seed)


def labels(st):
    return [a.label for a in st.legal_actions()]


def test_the_first_call_offers_every_bid_by_level_and_strain(engine):
    st = start(engine)
    got = labels(st)
    assert got[0] == "pass" and len(got) == 1 + 35
    assert {"1 clubs", "3 notrump", "7 spades"} <= set(got)
    assert "double" not in got and "redouble" not in got


def test_a_bid_must_be_above_the_last_by_level_then_strain(engine):
    st = start(engine)
    st.apply("1 hearts")
    got = labels(st)
    assert "1 hearts" not in got and "1 clubs" not in got
    assert {"1 spades", "1 notrump", "2 clubs", "double"} <= set(got)
    assert "P0 bids 1 hearts" in st.transcript()
    assert st.observation(2)["variables"]["contract"] == "hearts"


def test_three_passes_end_the_auction_and_the_contract_is_reckoned(engine):
    st = start(engine)
    st.apply("7 notrump")
    st.apply("double")
    st.apply("redouble")  # P2, the bidder's partner
    for _ in range(3):
        st.apply("pass")
    assert st.is_terminal()
    lines = st.transcript()
    assert any(line.startswith("P0 & P2 hold ") and " for 7 notrump: " in line for line in lines)
    r = st.returns()
    assert sum(r) == 0 and abs(r[0]) == 7 * 10 * 4  # redoubled: 40 a level


def _as_auction(label: str) -> str:
    if " " in label and label.split()[0].isdigit():
        level, strain = label.split()
        return f"{level}{SYMBOL[strain]}"
    return label


def test_the_same_calls_end_as_the_number_encoded_auction_does():
    for seed in range(12):
        rng = random.Random(seed)
        a = cardlang.load(BIDS, players=4).new_initial_state(seed=seed)
        b = cardlang.load(AUCTION, players=4).new_initial_state(seed=seed)
        while not a.is_terminal():
            mine = sorted(_as_auction(x) for x in labels(a))
            theirs = sorted(labels(b))
            assert mine == theirs
            # a short auction most of the time: pass more often than not
            acts = a.legal_actions()
            pick = acts[0] if rng.random() < 0.6 else acts[rng.randrange(len(acts))]
            a.apply(pick)
            b.apply(_as_auction(pick.label))
        assert b.is_terminal()
        assert a.returns() == b.returns()
        assert a.winners() == b.winners()
