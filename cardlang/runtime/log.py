"""The game's log: events of a step, flushed with who knew each card, and rendered for a seat."""

from __future__ import annotations

import re
from typing import Optional

# In log texts and labels, `mark(i)` stands for the i-th card of the entry, shown only to those who
# know it. A mark ends with its own character, so that a digit written just after it in a game's
# text (`"{c}1"`) is not read as part of its index.
CARD_MARK, MARK_END = "\x1f", "\x1e"
MARK_RE = re.compile(CARD_MARK + r"(\d+)" + MARK_END)


def mark(i: int) -> str:
    """The mark standing for the i-th card of a log entry or a label."""
    return f"{CARD_MARK}{i}{MARK_END}"


def player_name(seat) -> str:
    """How logs and labels name a seat (`P2`), or `nobody`."""
    return "nobody" if seat is None else f"P{seat}"


def marks(count: int, start: int = 0) -> str:
    """`count` card marks, numbered from `start`, separated by commas."""
    return ", ".join(mark(i) for i in range(start, start + count))


def flush(s) -> None:
    """Moves this step's events to the log, each card with the seats that know it by now.

    Called at the end of a step and before anything that makes players forget cards (a shuffle, a
    hide), so that a card played face up and then shuffled away in the same step stays shown.
    """
    known = s.known
    for text, cards in s.fresh:
        s.log.append((text, cards, tuple(known[c] for c in cards)))
    s.fresh = []


def fill_marks(deck, text: str, cards) -> str:
    """`text` with each card mark replaced by its card's label (an omniscient rendering)."""
    return MARK_RE.sub(lambda m: deck.label_of(cards[int(m.group(1))]), text)


def render_log(deck, st, seat: Optional[int]) -> list:
    """The log as lines from `seat`'s view (cards it did not know are `a card`), or omniscient."""
    out = []
    for text, cards, masks in st.log or ():
        def show(m, cards=cards, masks=masks):
            i = int(m.group(1))
            if seat is None or masks[i] >> seat & 1:
                return deck.label_of(cards[i])
            return "a card"
        out.append(MARK_RE.sub(show, text))
    return out


def describe(ranking, value) -> str:
    """The words for a hand value of `ranking` (its category)."""
    for attr in ("describe", "category_of"):
        if hasattr(ranking, attr):
            return str(getattr(ranking, attr)(value)).replace("_", " ")
    return str(value)
