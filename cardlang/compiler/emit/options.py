"""What the emitter writes, as frozen values it is given: the switches chosen (`Options`) and the
kind of run a unit is written for (`Run`).

Three of the ten passes of `compiler/passes/` rewrite the op graph; the other seven are switches
of the emitter, one field of `Options` each, named as the pass is on the command line
(`--passes`, `CARDLANG_PASSES`). An emitter is made for one `Options` and one `Run` and never
changes them: a unit written another way (not chained, a whole-game run, a quiet state's) is
written by another emitter (`Program.emitter`).
"""

from __future__ import annotations

import attrs

SWITCHES = ("chaining", "paste", "inline", "playout", "rounds", "quiet", "frames")


@attrs.frozen
class Options:
    """The emitter's switches (each, what it writes when on; off, the plain way):

    - `chaining`: where an op goes on to a constant pc, the op found there is written in place (up
      to `chain_lines` lines, `chain_depth` deep, never an op already on its way), so one call runs
      from a decision to the next; off, `return pc` (`Emitter.goto`).
    - `paste`: a loop's, a filter's and a define's values live in Python locals (the symbol table
      says which local holds which slot) and a define's body is written where it is used; off,
      every such value goes through its slot of `state.v` and a define is a helper function.
    - `inline`: what a statement works out first (a `set`'s value, an `if`'s test, a `for each`'s
      seats), when it is an aggregate, is written in place as its loop, its value left in a local;
      off, it is a call of the aggregate's helper function (`ExprEmitter.first`).
    - `playout`: whole-game runs: a playout nothing observes plays the rest of the game in one
      generated run, each op written again with the playout's draw in place of each choice's stop
      (`choose.write_pick`); off, playouts play a decision at a time (`Program.playout`).
    - `rounds`: a whole-game run plays each round it begins as one function of plain statements
      (`emit/rounds.py`); off, it goes op by op.
    - `quiet`: a whole-game run of a quiet state (nothing will observe it) is written without the
      writes of who knows which card (`state.known`), which only views, labels and the log read.
    - `frames`: a game played a decision at a time plays each round it begins in one generator
      (`emit/frames.py`), which stops at each decision and goes on from there at the next `apply`,
      its loops' places still in locals; off, each `apply` goes back in through the ops.

    And, not a pass, for readers (`cardlang dump`): `names`, each slot's index written as its name
    (`v[dealer_0]`, a parameter of the function with the index as its default) instead of a number
    (`v[0]`). The code does the same either way; a call copies one default a slot it reads, which
    costs the API loop about 2.5% (`benchmarks/bench_playouts.py`), so games run with numbers.
    """

    chaining: bool = True
    paste: bool = True
    inline: bool = True
    playout: bool = True
    rounds: bool = True
    quiet: bool = True
    frames: bool = True
    chain_lines: int = 160  # the lines a chained op may write before it stops pasting
    chain_depth: int = 12  # the ops pasted one inside the other
    names: bool = False  # slot indexes written as names, for readers (see above)

    @classmethod
    def of(cls, passes, names: bool = False) -> "Options":
        """The options of the passes named (a switch not named is off); `names`: see above."""
        return cls(**{name: name in passes for name in SWITCHES}, names=names)


@attrs.frozen
class Run:
    """The kind of run a unit is written for: `pick` None for the op-by-op code a decision at a
    time; else a whole-game run (`Program.playout`), drawing as `pick` says ("seat", "random",
    "script"), telling its decisions as `tally` says (None, "on" or "tally": `choose.write_told`),
    and `quiet`: for a quiet state, without knowledge (the `quiet` switch on)."""

    pick: str | None = None
    tally: str | None = None
    quiet: bool = False


DECISIONS = Run()  # the op-by-op code: a decision at a time
