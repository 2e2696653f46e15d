"""The engine's small types, which every stage around it names: the action, the errors, the end.

They live apart from `engine` so that views, bots and commands can name them without importing the
state machine (and without an import circle through `view`)."""

from __future__ import annotations

from typing import Optional

TERMINAL = -4  # current_player once the game is over (OpenSpiel's value)
MAX_EVENTS = 200_000  # lines of one game's log; past it the game is judged to run away
MAX_LOG_CHARS = 50_000_000  # characters of one game's log, its lines together (the run budget of the log)


class RuleError(Exception):
    """A rule that cannot be carried out as the game stands (dealing from an empty pile, a loop).

    `message` says what went wrong; `file`, `line` and `col` where in the rules (None when not
    known); `seed` and `move` how to get there again: the game dealt with `seed`, after `move`
    actions (0: before the first decision). `str()` is the one line the commands print,
    `FILE:LINE:COL: rule error: message (seed S, move M)`, with what is known of it.
    """

    def __init__(self, message: str, span=None, *, file: Optional[str] = None, line: Optional[int] = None,
                 col: Optional[int] = None, seed: Optional[int] = None, move: Optional[int] = None):
        super().__init__(message)
        self.message = message
        if span is not None:
            file, line, col = span.file, span.line, span.column
        self.file, self.line, self.col = file, line, col
        self.seed, self.move = seed, move
        self.lookahead = False  # raised in a bot's search, on a copy of the game played ahead
        self.state = None  # the state the error stopped, when a caller may want to save it (never pickled)

    def __reduce__(self):
        fields = {k: v for k, v in self.__dict__.items() if k != "state"}
        return (type(self), (self.message,), fields)

    def located(self, span) -> "RuleError":
        """This error, placed at `span` (a `Span`) unless it already knows its place."""
        if self.line is None and span is not None:
            self.file, self.line, self.col = span.file, span.line, span.column
        return self

    def in_game(self, seed: Optional[int], move: Optional[int], lookahead: bool = False) -> "RuleError":
        """This error, with the seed and move number that reproduce it (`lookahead`: a bot deciding
        that move met it while it played the game ahead on copies)."""
        self.seed, self.move = seed, move
        self.lookahead = self.lookahead or lookahead
        return self

    def report(self, *notes: str) -> str:
        """The one line for a person: place, message, seed and move, then `notes` (`saved in …`)."""
        if self.line is not None:
            where = f"{self.file}:{self.line}:{self.col or 1}: " if self.file else f"line {self.line}: "
        else:
            where = f"{self.file}: " if self.file else ""
        tail = [f"seed {self.seed}"] if self.seed is not None else []
        if self.move is not None:
            tail.append(f"move {self.move}")
        if self.lookahead:
            tail.append("met by a bot playing ahead")
        tail = ", ".join(tail)
        if notes:
            tail = "; ".join([tail, *notes] if tail else notes)
        return f"{where}rule error: {self.message}" + (f" ({tail})" if tail else "")

    def __str__(self) -> str:
        return self.report()


class Events(list):
    """The events of a run not yet in the log, with room for `room` more, and `chars` characters more
    for the whole log: a rule that logs without end (an announcement in a loop, a long text shown
    again and again) stops with a rule error before it fills the memory."""

    __slots__ = ("room", "chars")

    def __init__(self, room: int, chars: int = MAX_LOG_CHARS):
        self.room = room  # (born empty: no `list.__init__` to call, one call fewer a clone)
        self.chars = chars  # characters the log may still take (carried from one step's events to the next)

    def append(self, event) -> None:
        if len(self) >= self.room:
            raise RuleError(f"the game's log passed {MAX_EVENTS:,} events: a rule runs away")
        self.chars -= len(event[0])
        if self.chars < 0:
            raise RuleError(f"the game's log passed {MAX_LOG_CHARS:,} characters: past the run budget of the log")
        list.append(self, event)


class IllegalActionError(ValueError):
    """An action that is not among the current player's legal actions; the state is unchanged."""


class Action(int):
    """A legal action: its stable id (an int) and the label players read (`action.label`)."""

    def __new__(cls, id: int, label: str):
        obj = int.__new__(cls, id)
        obj.label = label
        return obj

    @property
    def id(self) -> int:
        return int(self)

    def __repr__(self) -> str:
        return f"Action({int(self)}, {self.label!r})"


def values_to_choose(seq, span=None) -> tuple:
    """What a choice of a value (a rank, a suit, a declared value, a number of a list) offers from
    `seq`: each value once, in its order. An action keeps its value in 16 bits, so anything else
    than a whole number from 0 to 65535 (none, a negative number) stops the game with a rule error."""
    out = tuple(dict.fromkeys(seq))
    for x in out:
        if type(x) is not int or not 0 <= x <= 0xFFFF:
            raise RuleError(f"a choice offers {'none' if x is None else x}: values to choose are 0..65535", span)
    return out
