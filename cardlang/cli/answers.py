"""What a person types at the table: an action's number, its label or the start of it, a card such as
`10h`, or a word that leaves the table (`q`, `quit`, `exit`)."""

from __future__ import annotations

import re
import sys
from typing import Optional, Sequence

from ..play.table_view import CARD_RE, ascii_text

QUIT_WORDS = ("q", "quit", "exit")


def match_answer(answer: str, labels: Sequence[str], card_of=None) -> tuple[Optional[int], str]:
    """The index of the action an answer names, or None and a short reason.

    An answer is the action's number in the list, its label (suit symbols or letters, any case),
    the unambiguous start of a label, or a card that exactly one label names (`7s`, `7♠`).
    """
    n = len(labels)
    choices = f"1 to {n}" if n > 1 else "1"
    text = answer.strip()
    numbers = label_numbers(labels)
    if numbers is not None:  # `2` is "bid 2", never the second entry
        named = ", ".join(str(k) for k in numbers if k is not None)
        choices = f"a number ({named})"
        if re.fullmatch(r"[+-]?\d+", text):
            if int(text) in numbers:
                return numbers.index(int(text)), ""
            return None, f"`{text}` is not a number you may choose: {named}"
    if numbers_only(labels):  # the choice is a number: the answer is that number, not a place in a list
        if text in labels:
            return labels.index(text), ""
        return None, f"`{text}` is not a number you may choose: {', '.join(labels)}"
    if not text:
        return None, f"type {choices if numbers is not None else f'the number of your choice ({choices})'}, or ? for help"
    if re.fullmatch(r"[+-]?\d+", text):
        k = int(text)
        if 1 <= k <= n:
            return k - 1, ""
        return None, f"{k} is not on the list: answer {choices}"
    key = _norm(text)
    normed = [_norm(label) for label in labels]
    exact = [i for i, label in enumerate(normed) if label == key]
    if len(exact) == 1:
        return exact[0], ""
    starts = [i for i, label in enumerate(normed) if label.startswith(key)]
    if len(starts) == 1:
        return starts[0], ""
    if len(starts) > 1:
        shown = ", ".join(labels[i] for i in starts[:4]) + (" and more" if len(starts) > 4 else "")
        return None, f"`{text}` could be {shown}: type more of it, or its number"
    ranks = _ranks_of_answer(text)
    if ranks is not None:  # `7 7`: the set of cards of those ranks, when one label alone holds them
        naming = [i for i, label in enumerate(labels) if _ranks_of_label(label) == ranks]
        if len(naming) == 1:
            return naming[0], ""
        if len(naming) > 1:
            shown = ", ".join(labels[i] for i in naming[:4]) + (" and more" if len(naming) > 4 else "")
            return None, f"`{text}` could be {shown}: type the cards (`7s 7h`), or its number"
    if card_of is not None:
        card = card_of(text)
        if card is not None:
            naming = [i for i, label in enumerate(labels) if card in {m.group(0) for m in CARD_RE.finditer(label)}]
            if len(naming) == 1:
                return naming[0], ""
            if not naming:
                return None, f"{text} is not a card you can choose now"
    return None, f"`{text}` is not one of your choices: answer {choices} or a label (? for help)"


_RANK_WORD = re.compile(r"(?i)[0-9]{1,2}|[a-z]")


def _ranks_of_answer(text: str) -> Optional[list]:
    """The ranks an answer of two ranks or more names (`7 7`, `k k k`), in order; else None."""
    words = text.split()
    if len(words) < 2 or not all(_RANK_WORD.fullmatch(w) for w in words):
        return None
    return sorted("10" if w.upper() == "T" else w.upper() for w in words)


def _ranks_of_label(label: str) -> Optional[list]:
    """The ranks of the cards a label names (`pair of 7s: 7♠ 7♥` names 7 and 7), in order."""
    cards = [m.group(0).split("#")[0] for m in CARD_RE.finditer(label)]
    return sorted(c[:-1].upper() for c in cards if c[-1:] in "♣♦♥♠") if len(cards) >= 2 else None


def numbers_only(labels: Sequence[str]) -> bool:
    """Whether every label is a plain whole number (a `chooses a number` without `as "…"`)."""
    return bool(labels) and all(re.fullmatch(r"-?\d+", label) for label in labels)


_NUMBER_RE = re.compile(r"(?<![\w♣♦♥♠.])[+-]?\d+(?![\w♣♦♥♠.])")


def label_numbers(labels: Sequence[str]) -> Optional[list]:
    """For a choice of numbers (`bid 0`, `bid 1`, … maybe beside `pass`), the number each label names
    (None for a label without one); None when the labels are not such a choice.

    A label names a number when, its cards left out (`7♠` is a card, not a 7), it holds exactly one
    whole number; the choice is one of numbers when at least two labels name distinct numbers.
    """
    out: list = []
    for label in labels:
        found = _NUMBER_RE.findall(CARD_RE.sub(" ", label))
        if len(found) > 1:
            return None
        out.append(int(found[0]) if found else None)
    named = [k for k in out if k is not None]
    if len(named) < 2 or len(set(named)) != len(named):
        return None
    return out


def means_quit(answer: str, labels: Sequence[str]) -> bool:
    """Whether an answer asks to leave: `q`, `quit` or `exit` always does, unless it is exactly what a
    choice's label reads (a rank `Q` offered on its own): then it is that answer, and another of the
    words leaves. A card (`Q♠`), a rank inside a label or the start of a label never stops `q` from
    leaving: those are typed in full (`qs`, `queen`) or by their number."""
    word = answer.strip().lower()
    return word in QUIT_WORDS and all(_norm(label) != word for label in labels)


def quit_word(labels: Sequence[str]) -> str:
    """The shortest word that leaves the table at this choice."""
    return next((w for w in QUIT_WORDS if means_quit(w, labels)), "quit")


def discard_typeahead(stream=None) -> None:
    """Forgets what was typed before a person's turn began (at a terminal; elsewhere nothing)."""
    stream = stream or sys.stdin
    try:
        if not stream.isatty():
            return
        import termios

        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (ImportError, AttributeError, ValueError, OSError):  # not a POSIX terminal: nothing to discard
        pass


def _norm(text: str) -> str:
    return " ".join(ascii_text(text).lower().split())
