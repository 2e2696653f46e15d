"""What a rule's effect shows, written once for both engines: its log line, or its rule error's text.

The reference interpreter (`compiler/reference.py`, `reference_expr.py`) calls these with the values
it has worked out, the generated code with its own (bound by name in the program's namespace), so a
line of the log or a rule error reads the same whichever engine played it. What an effect does to
the cards and to who knows them stays with each engine (the compiled one writes it inline, for
speed); what a player reads of it is here. (`runtime/steps.py` holds the steps both engines take
whole: a shuffle, a `random` draw.)
"""

from __future__ import annotations

from .basics import RuleError
from .log import deal_text, marks, player_name, zone_words


# ---------------------------------------------------------------------- log lines
def face_up_text(zone: str, count: int) -> str:
    """The log line of `count` cards put face up on the zone named `zone` (its cards marked from 0)."""
    return f"face up on {zone_words(zone)}: {marks(count)}"


def face_up(s, dest: int, moving, names) -> None:
    """Logs the cards `moving` put face up on zone `dest`."""
    s.fresh.append((face_up_text(names[dest], len(moving)), tuple(moving)))


def log_deal(s, n: int, src: int, targets, names) -> None:
    """Logs `deal n from src to targets` (nothing when no card moved)."""
    if n and targets:
        s.fresh.append((deal_text(n, names[src], [names[z] for z in targets]), ()))


def log_reveal(s, cards: tuple, seats, owners) -> None:
    """Logs `reveal cards [to seats]` (every card shown, those the seats knew already too: the line
    is the event); `owners`: each zone's owner (-1: nobody's)."""
    if not cards:
        return
    owner = owners[s.loc[cards[0]]]
    who = f"{player_name(owner)} shows" if owner >= 0 else "shown:"
    tail = "" if seats is None else " to " + ", ".join(player_name(p) for p in seats)
    s.fresh.append((f"{who} {marks(len(cards))}{tail}", tuple(cards)))


def announce(s, text: tuple, speaker, spoken: bool = False) -> None:
    """Logs an announcement, (its text with card marks, the cards marked); `spoken`: said by
    `speaker` (`p says …`; a speaker that is none reads `nobody`)."""
    body, cards = text
    if spoken:
        body = f"{player_name(speaker)}: {body}"
    s.fresh.append((body, cards))


def eliminated(s, p: int) -> None:
    """Logs `eliminate p`."""
    s.fresh.append((f"{player_name(p)} is eliminated", ()))


def sits_out(s, p: int) -> None:
    """Logs `p sits out`."""
    s.fresh.append((f"{player_name(p)} sits out the rest of the round", ()))


def reversed_play(s) -> None:
    """Logs `reverse direction`."""
    s.fresh.append(("play now goes the other way", ()))


def direction_now(s, direction: str) -> None:
    """Logs `direction left|right` that turns play (`direction`: the way it now goes)."""
    s.fresh.append((f"play now goes {direction}", ()))


def game_over(s) -> None:
    """Logs the end of the game and its winners (`state.winner_seats`, already set)."""
    names = ", ".join(player_name(p) for p in s.winner_seats) or "nobody"
    s.fresh.append((f"the game is over; winner{'s' if len(s.winner_seats) > 1 else ''}: {names}", ()))


# --------------------------------------------------------------------- rule errors
def no_such_item(i, size: int, span):
    """The rule error of item `i` of a list of `size` items (items count from 1)."""
    raise RuleError(f"item {i} of a list of {size} (items count from 1)", span)


MAX_RANGE = 65536  # numbers in one range `lo..hi`: a list the rules hold is bounded (memory, time)


def number_range(lo: int, hi: int, span) -> tuple:
    """`lo..hi`: the whole numbers from lo to hi (none when hi < lo); a rule error past MAX_RANGE."""
    if hi - lo >= MAX_RANGE:
        raise RuleError(f"`{lo}..{hi}` holds {hi - lo + 1} numbers; a range holds at most {MAX_RANGE}", span)
    return tuple(range(lo, hi + 1))


def divide_by_zero(span):
    """The rule error of `/` or `%` by zero."""
    raise RuleError("division by zero", span)


def negative_end(top: bool, k: int, span):
    """The rule error of `top k of …` / `bottom k of …` with k below 0."""
    end = "top" if top else "bottom"
    raise RuleError(f"`{end} {k} of …`: a number of cards cannot be negative", span)


def aggregate_empty(kind: str, span):
    """The rule error of `min` or `max` over no item."""
    raise RuleError(f"`{kind}` over nothing", span)


def poker_hand_size(count: int, span):
    """The rule error of a poker hand's value of fewer than 5 or more than 10 cards."""
    raise RuleError(f"a poker hand needs 5 to 10 cards, not {count}", span)


def seat_of_none(span):
    """The rule error of `seat(…)` of no player."""
    raise RuleError("`seat(…)` of no player (none)", span)


def meld_refused(error, span):
    """The rule error of `combination(…)` given what it cannot take (`melds.MeldError`: its text)."""
    raise RuleError(str(error), span) from None


def cannot_deal(n: int, places: int, source: str, holds: int, span):
    """The rule error of a deal of `n` cards to each of `places` places from a zone named `source`
    that holds fewer."""
    raise RuleError(f"cannot deal {n} card(s) to {places} place(s): `{source}` holds {holds}", span)


def swap_none(span):
    """The rule error of `swap` of a card that is none."""
    raise RuleError("`swap` needs two cards, and one of them is none", span)


def no_choice(p, legal, span):
    """The rule error of a `chooses` with no legal choice (`legal` empty) or nobody to choose."""
    if not legal:
        raise RuleError(f"{player_name(p)} must choose but has no legal choice", span)
    raise RuleError("nobody to choose", span)


def numbers_out_of_range(lo: int, hi: int, span):
    """The rule error of a number to choose outside 0..65535 (what an action id holds)."""
    raise RuleError(f"numbers to choose must lie in 0..65535, not {lo}..{hi}", span)
