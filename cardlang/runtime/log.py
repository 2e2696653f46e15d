"""The game's log: events of a step, flushed with who knew each card, and rendered for a seat."""

from __future__ import annotations

import functools
import re

from .basics import MAX_EVENTS, Events

# In log texts and labels, `mark(i)` stands for the i-th card of the entry, shown only to those who
# know it. A mark ends with its own character, so that a digit written just after it in a game's
# text (`"{c}1"`) is not read as part of its index.
# A mark may carry, between two PLACE_MARKs, what the seats that do not know the card read instead
# (its place: `a card from P1's hand, 3 of 4`), else they read `a card`.
CARD_MARK, MARK_END, PLACE_MARK = "\x1f", "\x1e", "\x1d"
MARK_RE = re.compile(CARD_MARK + r"(\d+)" + MARK_END + "(?:" + PLACE_MARK + "([^" + PLACE_MARK + "]*)" + PLACE_MARK + ")?")


def mark(i: int) -> str:
    """The mark standing for the i-th card of a log entry or a label."""
    return f"{CARD_MARK}{i}{MARK_END}"


# A text used as a value (a definition's result, a variable) keeps its cards in itself: each card is
# a reference by id, `CARD_REF id MARK_END`, until a text that shows it turns it back into a mark.
CARD_REF = "\x1c"
CARD_REF_RE = re.compile(CARD_REF + r"(\d+)" + MARK_END)


def embed(text: str, cards) -> str:
    """A rendered text (marks and their cards) as a value that carries its cards by id."""
    if not cards:
        return text
    return MARK_RE.sub(lambda m: f"{CARD_REF}{cards[int(m.group(1))]}{MARK_END}", text)


def absorb(text: str, cards: list) -> str:
    """A text value shown inside another text: each card it carries becomes a mark of `cards`."""
    def take(m):
        cards.append(int(m.group(1)))
        return mark(len(cards) - 1)
    return CARD_REF_RE.sub(take, text)


def fill_refs(deck, text: str, shown=lambda c: True) -> str:
    """A text value with each card it carries named (`hidden` where `shown(card)` is false)."""
    return CARD_REF_RE.sub(lambda m: deck.label_of(int(m.group(1))) if shown(int(m.group(1))) else "hidden", text)


# A secret part of a log entry (a pick made at once): the seats of its mask read `text`, the others
# `public`; an omniscient rendering reads `text`. It holds no other secret part.
SECRET_OPEN, SECRET_SEP, SECRET_CLOSE = "\x1a", "\x19", "\x18"
SECRET_RE = re.compile(SECRET_OPEN + r"(\d+)" + SECRET_SEP + "([^" + SECRET_SEP + "]*)" + SECRET_SEP
                       + "([^" + SECRET_CLOSE + "]*)" + SECRET_CLOSE)


def secret(text: str, mask: int, public: str) -> str:
    """A log text that only the seats of `mask` read as `text`; the others read `public`."""
    return f"{SECRET_OPEN}{mask}{SECRET_SEP}{text}{SECRET_SEP}{public}{SECRET_CLOSE}"


def placed_mark(i: int, place: str) -> str:
    """The mark of the i-th card, which seats that do not know it read as `place`."""
    return f"{CARD_MARK}{i}{MARK_END}{PLACE_MARK}{place}{PLACE_MARK}"


def player_name(seat) -> str:
    """How logs and labels name a seat (`P2`), or `nobody`."""
    return "nobody" if seat is None else f"P{seat}"


_FAMILY_RE = re.compile(r"(.*)\((P?)(\d+)\)")


@functools.lru_cache(maxsize=None)
def zone_words(name: str) -> str:
    """How a log line names a zone, as a person says it: `hand(P2)` → `P2's hand`, a numbered pile
    `column(3)` → `column 3`, `draw_pile` → `draw pile` (the engine's names read like code)."""
    m = _FAMILY_RE.fullmatch(name)
    if m is None:
        return name.replace("_", " ")
    family = m.group(1).replace("_", " ")
    return f"P{m.group(3)}'s {family}" if m.group(2) else f"{family} {m.group(3)}"


def and_list(items) -> str:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def deal_text(n: int, source: str, targets) -> str:
    """The log line of `deal n from source to targets` (engine zone names): `dealt 3 cards from talon
    to P3's hand`, `dealt 1 card each from talon to P0's, P4's and P3's hand`."""
    count = f"{n} card{'s' if n > 1 else ''}" + (" each" if len(targets) > 1 else "")
    places = [zone_words(t) for t in targets]
    owned = [_FAMILY_RE.fullmatch(t) for t in targets]
    if len(targets) > 1 and all(m is not None and m.group(2) for m in owned) \
            and len({m.group(1) for m in owned}) == 1:  # one zone of each player: `P0's, P4's and P3's hand`
        family = owned[0].group(1).replace("_", " ")
        places = [f"P{m.group(3)}'s" for m in owned]
        return f"dealt {count} from {zone_words(source)} to {and_list(places)} {family}"
    return f"dealt {count} from {zone_words(source)} to {and_list(places)}"


def marks(count: int, start: int = 0) -> str:
    """`count` card marks, numbered from `start`, separated by commas."""
    return ", ".join(mark(i) for i in range(start, start + count))


def flush(s) -> None:
    """Moves this step's events to the log, each card with the seats that know it by now.

    Called at the end of a step and before anything that makes players forget cards (a shuffle, a
    hide), so that a card played face up and then shuffled away in the same step stays shown. A
    state without a log (a quiet one: `runtime.playout.quiet`) only forgets them.
    """
    if s.log is None:
        s.fresh = Events(0)
        return
    known = s.known
    for event in s.fresh:
        text, cards = event[0], event[1]
        shown = event[2] if len(event) > 2 else None  # (see `pin`)
        if shown:
            s.log.append((text, cards, tuple(known[c] | m for c, m in zip(cards, shown))))
        else:
            s.log.append((text, cards, tuple(known[c] for c in cards)))
    s.fresh = Events(MAX_EVENTS - len(s.log), s.fresh.chars)


def pin(s) -> None:
    """Before seats lose sight of cards in the middle of a step (`runtime.among.merge`): each event of
    the step so far keeps its cards shown to those who know them now, except the line of the step's
    choice (marked with a third part, None), which is read once the step is over: whether a seat saw
    which card was chosen is what the rest of the step tells."""
    if s.log is None or not s.fresh:
        return
    known = s.known
    for i, event in enumerate(s.fresh):
        if len(event) > 2 and event[2] is None:
            continue
        was = event[2] if len(event) > 2 else (0,) * len(event[1])
        s.fresh[i] = (event[0], event[1], tuple(known[c] | m for c, m in zip(event[1], was)))


def flush_up_to_error(s) -> None:
    """The events of a run a rule error stops go to the log: its transcript shows what led there."""
    if s.log is not None and s.fresh:
        flush(s)


def fill_marks(deck, text: str, cards, copy: bool = False) -> str:
    """`text` with each card mark replaced by its card's label (an omniscient rendering); `copy`:
    a card of a face with copies says which copy it is (the labels of choices, which must differ)."""
    return MARK_RE.sub(lambda m: deck.label_of(cards[int(m.group(1))], copy=copy), text)


def render_log(deck, st, seat, start: int = 0) -> list:
    """The log from entry `start` as lines from `seat`'s view (cards it did not know are their place
    or `a card`), or omniscient (`seat` None); several seats: a card shows if all of them know it."""
    need = None if seat is None else 1 << seat if isinstance(seat, int) else sum(1 << s for s in set(seat))
    out = []
    for text, cards, masks in (st.log or ())[start:]:
        def show(m, cards=cards, masks=masks):
            i = int(m.group(1))
            if need is None or masks[i] & need == need:
                return deck.label_of(cards[i])
            return m.group(2) or "a card"
        if SECRET_OPEN in text:  # (a pick made at once: its chooser's, or everyone's once all have chosen)
            text = SECRET_RE.sub(lambda m: m.group(2) if need is None or int(m.group(1)) & need == need
                                 else m.group(3), text)
        out.append(MARK_RE.sub(show, text))
    return out


def describe(ranking, value) -> str:
    """The words for a hand value of `ranking` (its category)."""
    for attr in ("describe", "category_of"):
        if hasattr(ranking, attr):
            return str(getattr(ranking, attr)(value)).replace("_", " ")
    return str(value)
