"""The search bots' rollouts on the native engine (issue 29): a determinized world converted into
native arrays and played out in machine code (`native/resume.py`), else on the compiled engine.

`Rollouts(mode)` is one bot's choice: "native" (on the native engine when the game has one,
`cardlang.load(..., engine="native")`), "python" (always `runtime.playout.random_playout`), or
"auto" (native when the game was loaded with the native engine: the default). Where a world cannot
resume natively (the game has no native program, a construct of its rules, a state the native
engine keeps not), the rollout is played on the compiled engine and the reason is said once, in one
line on stderr, and kept in `note`. The native rollout draws from its own generator (seeded from the
bot's), so it is not the compiled rollout draw for draw; the game it plays is the same.
"""

from __future__ import annotations

import sys
from typing import Optional

from ..runtime.playout import random_playout

MODES = ("auto", "native", "python")
_SAID: set = set()  # the notes already said (once a process)


class Rollouts:
    """How a bot plays its rollouts out (see the module's docstring)."""

    def __init__(self, mode: str = "auto"):
        if mode not in MODES:
            raise ValueError(f"rollouts are one of {', '.join(MODES)}, not `{mode}`")
        self.mode = mode
        self.note: Optional[str] = None  # why a rollout was played in Python (the last reason)
        self.native_count = 0  # rollouts played natively
        self.python_count = 0  # rollouts played on the compiled engine
        self._game = None
        self._native = None

    def _say(self, why: str) -> None:
        self.note = f"native rollouts: {why}; rolling out on the compiled engine"
        if self.note not in _SAID:
            _SAID.add(self.note)
            print(self.note, file=sys.stderr)

    def _native_of(self, game):
        if game is not self._game:
            self._game, self._native = game, None
            if self.mode == "python" or (self.mode == "auto" and getattr(game, "native", None) is None):
                return None
            from ..native.resume import CannotResume, rollouts_for  # (numba: only when it is used)

            try:
                self._native = rollouts_for(game)
            except CannotResume as e:
                self._say(str(e))
        return self._native

    def native_for(self, game) -> bool:
        """Whether this game's rollouts are played natively (its rollout module built if need be)."""
        return self._native_of(game) is not None

    def play(self, det, rng, stop: Optional[int], count: int = 1):
        """Plays the world `det` (quiet, at a decision) out at random until the end or round `stop`:
        natively, `count` rollouts and the mean of their progress (`bots._progress` of each end state;
        `det` left as it was), or None once `det` itself was played out once on the compiled engine
        (RuleError: an impossible world)."""
        native = None if det.terminal or (stop is not None and det.round >= stop) else self._native_of(det.game)
        if native is not None:
            from ..native.resume import CannotResume, convert

            try:
                world = convert(native, det)
            except CannotResume as e:
                self._say(str(e))
            else:
                after = native.mean(world, det.rng, rng, stop, count)
                if after is not None:
                    self.native_count += count
                    return after
        random_playout(det, rng, stop)
        self.python_count += 1
        return None
