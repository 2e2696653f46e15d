"""Native rollouts from a decision: a compiled-engine state converted into native arrays, played on.

The native module of `native/emit.py` plays whole games from their start; a search bot rolls out
from a determinized mid-game world (a compiled-engine `State` waiting at a decision). This module
writes a second native module for a game, whose entry `rollouts(...)` starts at that decision.

**Design: frames.** The compiled engine's state says where it stands by its pending choice, the
op graph's return stack (the call of a phase played from several places) and the loop slots of
`state.v` (a `for each`'s place, a `repeat`'s passes left: `compiler/emit/graph.py`). Native code
has no pc, so the rest of the game from a decision is written out as *frames*, one numba function
each, generated from the IR:
- the frame of choice k plays the choice itself (its legal actions worked out again from the
  state, as `SeatView.determinize` does, and the bot's draw), then the rest of every enclosing
  block up to the end of its phase (or of the round, or of the setup): the rest of a loop's body,
  then the loop's remaining passes (a `for each` from the place its slot holds, a `repeat` for the
  passes its slot holds, a `while` as long as it holds), the rest of an `if`'s branch, of an
  alternative's body, and so on outwards;
- the frame of a phase call site plays the rest after that call, outwards in the same way.
A state's frames are its choice's, then the call site of each phase it is inside (the phase's one
call site, or the one the return stack names), innermost first; `rollouts` plays them in turn and
then the game's next rounds as `play` does. A `return` of END_ROUND or END_GAME from a frame ends
the frames, as it ends the phases that hand it on. Everything else is the native emitter's own
code (`Emitter.body`), so a frame plays exactly what the whole-game module plays.

A rollout stops at the game's end or when a decision is met in round `stop` (as
`runtime.playout`'s `stop_round`), where `ResumeEmitter.before_draw` returns STOPPED; it returns
what the search bots judge a playout by (`progress`: the payoffs as they stand, else the scores,
else the returns), the returns and scores at the end, and its status.

`convert(state)` is the state as arrays (`World`), `restore(world, state)` the arrays written back
into a state (tests check both keep every field); `NativeRollouts` is a game's rollout module.
"""

from __future__ import annotations

import time
from typing import Optional

import numpy as np

from ..compiler import ir
from ..compiler.emit import graph as graph_mod
from .cache import load_module
from .emit import HEADER, Emitter, _ident
from .kinds import NONE, SEQ, NativeUnsupported
from .options import ALL_ON, Optimisations
from .stmt import END_GAME
from .writer import ARGS, FAIL

STOPPED = 4  # the status of a rollout that met a decision of its stop round
U64 = 1 << 64


class Positions:
    """Where each choice and each phase call of a program stands: (owner, position), the owner a
    phase (or "round", "setup") and the position the (statements, index) pairs from the owner's
    body down to the node, outermost first."""

    def __init__(self, program: ir.Program):
        self.choices: dict = {}  # choice index -> (owner, position)
        self.calls: list = []  # (owner, position, the CallPhase node), in the order found
        self.sites: dict = {}  # phase name -> [index into calls]
        self._walk(program.setup, (), "setup")
        self._walk(program.round, (), "round")
        for phase in program.phases.values():
            self._walk(phase.body, (), phase)
        for k, (_, _, st) in enumerate(self.calls):
            self.sites.setdefault(st.phase.name, []).append(k)

    def _walk(self, stmts, prefix, owner) -> None:
        stmts = tuple(stmts)
        for i, st in enumerate(stmts):
            pos = prefix + ((stmts, i),)
            if isinstance(st, ir.Choose):
                self.choices[st.index] = (owner, pos)
                for alt in st.alternatives:
                    self._walk(alt.body, pos, owner)
            elif isinstance(st, ir.CallPhase):
                self.calls.append((owner, pos, st))
            elif isinstance(st, ir.If):
                for _, body in st.branches:
                    self._walk(body, pos, owner)
                self._walk(st.orelse, pos, owner)
            elif isinstance(st, (ir.ForEach, ir.Repeat, ir.While)):
                self._walk(st.body, pos, owner)


class ResumeEmitter(Emitter):
    """The native emitter of a game's rollout module (see the module's docstring)."""

    def __init__(self, lowered, optimisations: Optimisations = ALL_ON):
        super().__init__(lowered, optimisations)
        self.positions = Positions(self.program)
        g = graph_mod.build(self.program)  # (the loop slots are numbered as the compiled engine's)
        self.vslots = max(g.nslots, 1)
        self.for_index = {id(op.loop): op.index for op in g.ops if isinstance(op, graph_mod.ForStart)}
        self.repeat_slot = {id(op.count): op.slot for op in g.ops if isinstance(op, graph_mod.RepeatStart)}
        self.stop_at = 9 + 2 * self.n  # G[stop_at]: the round a rollout stops at

    def before_draw(self, w, st) -> None:
        """A rollout stops at a decision of its stop round, before the draw (as `random_playout`)."""
        with w.block(f"if G[1] >= G[{self.stop_at}]"):
            w.line(f"return {STOPPED}")

    # ------------------------------------------------------------------ frames
    def rest(self, w, pos, inclusive: bool) -> None:
        """The rest of the owner's body from a position (the node itself too if `inclusive`)."""
        last = len(pos) - 1
        for depth in range(last, -1, -1):
            stmts, i = pos[depth]
            self.body(w, stmts[i if inclusive and depth == last else i + 1:])
            if depth > 0:
                parent_stmts, j = pos[depth - 1]
                self.loop_rest(w, parent_stmts[j])

    def loop_rest(self, w, st) -> None:
        """A loop's remaining passes, its body's rest just played (nothing for an `if` or a choice)."""
        if isinstance(st, ir.ForEach):
            index = self.for_index[id(st)]
            j = w.fresh("j")
            with w.block(f"for {j} in range(V[{index}], TN[{st.seq_slot}])"):
                w.line(f"V[{st.slot}] = TV[{st.seq_slot}, {j}]")
                self.skip_unless(w, st.where)
                self.body(w, st.body)
        elif isinstance(st, ir.Repeat):
            j = w.fresh("j")
            with w.block(f"for {j} in range(V[{self.repeat_slot[id(st.count)]}])"):
                self.spend(w, "1", st)
                self.body(w, st.body)
        elif isinstance(st, ir.While):
            self.x_While(w, st)

    def frames(self) -> int:
        """Writes each frame's function and `frame(f, …)`, which plays frame f; their count."""
        names = []
        nchoices = len(self.program.choices)
        for k in range(nchoices):
            at = self.positions.choices.get(k)
            name = f"frame_{len(names)}"
            if at is None:
                self.function(name, lambda w: w.line(f"return {FAIL}"))
            else:
                self.function(name, lambda w, pos=at[1]: self.rest(w, pos, True))
            names.append(name)
        for _, pos, _ in self.positions.calls:
            name = f"frame_{len(names)}"
            self.function(name, lambda w, pos=pos: self.rest(w, pos, False))
            names.append(name)

        def dispatch(w):
            for f, name in enumerate(names):
                with w.block(f"if f == {f}"):
                    w.line(f"return {name}({ARGS})")
            w.line(f"return {FAIL}")
        self.function("frame", dispatch, "f, " + ARGS)
        return len(names)

    def _progress(self, w) -> None:
        """P: what a search bot judges a playout by (`bots._progress`): the payoffs as they stand,
        else the scores, else the returns (1.0 a winner at the end, else 0.0)."""
        n, program = self.n, self.program
        payoff = program.payoff
        if payoff is not None:
            for s in range(n):
                if not payoff.shared:
                    w.line(f"V[{payoff.slot}] = {s}")
                x = self.i(w, payoff.value)
                self.not_none(w, x, payoff)
                w.line(f"P[{s}] = {x}")
        elif program.score is not None:
            slot, e = program.score
            for s in range(n):
                w.line(f"V[{slot}] = {s}")
                x = self.i(w, e)
                self.not_none(w, x, e)
                w.line(f"P[{s}] = {x}")
        else:
            for s in range(n):
                w.line(f"P[{s}] = 0.0")
            with w.block("if G[5] == 1"):
                j = w.fresh("j")
                with w.block(f"for {j} in range(G[8])"):
                    w.line(f"P[G[9 + {j}]] = 1.0")

    def source(self) -> str:
        """The rollout module's Python source (numba, nopython)."""
        program, layout = self.program, self.layout
        self.function("round_body", lambda w: self.body(w, program.round))
        self.function("final", self._final, ARGS + ", RET")
        self.function("progress", self._progress, ARGS + ", P")
        self.frames()
        n = self.n
        lines = [HEADER.format(title=_ident(layout.title), players=n), "from cardlang.native.steps import seed_into"]
        lines.append(f"NONE = {NONE}")
        for name, value in self.consts.items():
            lines.append(f"{name} = {value}")
        lines.append("")
        lines.extend(self.function_texts())
        sitting = program.sitting_slot
        main = [
            "@njit(cache=True)",
            "def rollouts(Z0, ZN0, LOC0, V0, TV0, TN0, ACT0, KN0, H, FR, chance, seeds, mode, stop, KT, OUT, PR, RT, SC):",
            "    \"\"\"Rollouts from one converted state (see cardlang.native.resume).\"\"\"",
            f"    LG = np.empty({self.legal_cap}, dtype=np.int64)",
            f"    MT = np.zeros(({n + 1}, 625), dtype=np.int64)",
            f"    B = np.zeros(({max(self.sites, 1)}, {self.cap}), dtype=np.int64)",
            f"    G = np.zeros({10 + 2 * n}, dtype=np.int64)",
            f"    RET = np.zeros({n}, dtype=np.float64)",
            f"    P = np.zeros({n}, dtype=np.float64)",
            "    Z, TV = Z0.copy(), TV0.copy()",
            "    ZN, LOC, V, TN, ACT, KN = ZN0.copy(), LOC0.copy(), V0.copy(), TN0.copy(), ACT0.copy(), KN0.copy()",
            "    for i in range(len(chance)):",
            "        if i > 0:  # (a zone's or row's items past its count are never read: only its items copied)",
            "            for z in range(len(ZN0)):",
            "                Z[z, :ZN0[z]] = Z0[z, :ZN0[z]]",
            "            for s in range(len(TN0)):",
            "                TV[s, :TN0[s]] = TV0[s, :TN0[s]]",
            "            ZN[:] = ZN0",
            "            LOC[:] = LOC0",
            "            V[:] = V0",
            "            TN[:] = TN0",
            "            ACT[:] = ACT0",
            "            KN[:] = KN0",
            "        G[:] = 0",
            "        G[0] = chance[i]",
            "        G[1] = H[0]",
            "        G[2] = H[1]",
            f"        G[3] = {self.step_budget}",
            "        G[4] = -1",
            "        G[6] = 1 if mode == 2 else mode",
            f"        G[{self.stop_at}] = stop",
            f"        for s in range({n} if mode == 0 else 1 if mode == 1 or i == 0 else 0):",
            "            seed_into(MT[s], seeds[i, s])",
            "        r = 0",
            "        for k in range(len(FR)):",
            "            r = frame(FR[k], " + ARGS + ")",
            "            if r != 0:",
            "                break",
            *self.rounds_loop("        ", sitting, STOPPED),
            f"        if r == {END_GAME}:",
            f"            r = final({ARGS}, RET)",
            "            if r == 0:",
            f"                r = {END_GAME}",
            f"        if r != {FAIL}:",
            f"            x = progress({ARGS}, P)",
            "            if x != 0:",
            f"                r = {FAIL}",
            "        OUT[i, 0] = r",
            "        OUT[i, 1] = G[1]",
            "        OUT[i, 2] = G[2]",
            "        OUT[i, 3] = G[7]",
            "        OUT[i, 4] = G[8]",
            f"        for s in range({n}):",
            "            OUT[i, 5 + s] = G[9 + s]",
            "            PR[i, s] = P[s]",
            "            RT[i, s] = RET[s]",
            f"            SC[i, s] = G[{9 + n} + s]",
            "    return 0",
        ]
        lines.append("\n".join(main) + "\n")
        return "\n".join(lines)


# ---------------------------------------------------------------------- states as arrays
class CannotResume(Exception):
    """A state the native rollouts cannot start from (the reason, one line)."""


class World:
    """A state as the rollout module's arrays (`convert`)."""

    __slots__ = ("Z", "ZN", "LOC", "V", "TV", "TN", "ACT", "KN", "H", "FR", "chance",
                 "bools",  # (the slots that held True or False: 1 or 0 natively, given back as bools)
                 "texts")  # (the slots that held a text: its number natively, given back as the text)


class NativeRollouts:
    """A game's rollout module (`ResumeEmitter`), with the tables to convert its states."""

    def __init__(self, game, lowered, optimisations: Optimisations = ALL_ON):
        t0 = time.perf_counter()
        emitter = ResumeEmitter(lowered, optimisations)
        self.source = emitter.source()
        self.tables = tuple(emitter.tables) or (np.zeros(1, dtype=np.int64),)
        self.module = load_module(self.source)
        self.generate_seconds = time.perf_counter() - t0
        self.game = game
        self.players = n = lowered.layout.players
        self.nzones, self.ncards, self.cap = emitter.nzones, emitter.ncards, emitter.cap
        self.vslots = emitter.vslots
        self.seq_slots = frozenset(s for s in range(self.vslots) if emitter.kinds.of(s) == SEQ)
        self.text_slots = emitter.kinds.text_slots
        self.texts = dict(emitter.texts)
        self.text_of = {v: k for k, v in self.texts.items()}
        self.knows = emitter.knows
        positions = emitter.positions
        self.nchoices = len(lowered.ir.choices)
        self.owner_of_choice = {k: owner for k, (owner, _) in positions.choices.items()}
        self.call_owner = [owner for owner, _, _ in positions.calls]
        self.sites = positions.sites
        # a call site by the pc the compiled engine's return stack holds for it (`graph.Call.next`)
        key_of = {(id(st.span), id(st.args), st.phase.name): k for k, (_, _, st) in enumerate(positions.calls)}
        self.site_of_pc = {}
        for op in game.program.graph.ops:
            if isinstance(op, graph_mod.Call):
                k = key_of.get((id(op.span), id(op.args), op.phase.name))
                if k is not None:
                    self.site_of_pc[op.next] = k
        t0 = time.perf_counter()
        self._warm()
        self.start_seconds = time.perf_counter() - t0
        self._out = np.zeros((1, 5 + n), dtype=np.int64)
        self._rt, self._sc = np.zeros((64, n)), np.zeros((64, n), dtype=np.int64)  # (returns, scores: unread here)

    def _warm(self) -> None:
        """Compiles (or loads) the entry with a first rollout of a fresh game."""
        st = self.game.new_initial_state(seed=0, log=False)
        if st.terminal:
            return
        from ..runtime.playout import quiet
        try:
            world = convert(self, quiet(st))
        except CannotResume:  # (this state cannot start a rollout; the entry compiles at the first that can)
            return
        self.rollouts(world, np.zeros(1, dtype=np.int64), np.zeros((1, self.players), dtype=np.int64))

    def frames_of(self, st) -> np.ndarray:
        """The frames a state at a decision resumes by (innermost first: see the module's docstring)."""
        k = st._pending[0]
        owner = self.owner_of_choice.get(k)
        if owner is None:
            raise CannotResume(f"choice {k} has no place in the rules")
        frames = [k]
        stack = list(st.stack)
        while not isinstance(owner, str):
            sites = self.sites.get(owner.name, ())
            if len(sites) == 1:
                site = sites[0]
            elif stack:
                site = self.site_of_pc.get(stack.pop())
                if site is None:
                    raise CannotResume("a return point of the op graph that is no phase call")
            else:
                raise CannotResume(f"phase {owner.name} entered from no known call")
            frames.append(self.nchoices + site)
            owner = self.call_owner[site]
        if stack:
            raise CannotResume("a return stack deeper than the phases")
        return np.array(frames, dtype=np.int64)

    def rollouts(self, world: World, chance, seeds, mode: int = 1, stop: Optional[int] = None) -> dict:
        """Rollouts from one converted world, one per entry of `chance` (each rollout's chance
        int) and row of `seeds` (the bots' generators: mode 0, one per seat as `seat_playout`;
        mode 1, one as `random_playout`; mode 2, one seeded by the first row only, drawn on from
        one rollout to the next, which spares a seeding a rollout): arrays `status` (END_GAME, STOPPED, or FAIL: a rule
        error or native limit, at rules line `line`), `round`, `decisions`, `winners`, `progress`,
        `returns`, `scores`."""
        m, n = len(chance), self.players
        out = np.zeros((m, 5 + n), dtype=np.int64)
        pr, rt, sc = np.zeros((m, n)), np.zeros((m, n)), np.zeros((m, n), dtype=np.int64)
        self.module.rollouts(world.Z, world.ZN, world.LOC, world.V, world.TV, world.TN, world.ACT, world.KN,
                             world.H, world.FR, np.asarray(chance, dtype=np.int64),
                             np.asarray(seeds, dtype=np.int64), mode, engine_never(stop), self.tables,
                             out, pr, rt, sc)
        return {"status": out[:, 0], "round": out[:, 1], "decisions": out[:, 2], "line": out[:, 3],
                "winners": [tuple(row[5:5 + row[4]]) for row in out.tolist()],
                "progress": pr, "returns": rt, "scores": sc}

    def mean(self, world: World, chance: int, rng, stop: Optional[int], count: int = 1):
        """`count` random rollouts (`random_playout`'s draws, from one generator seeded from `rng`;
        the first with the world's own chance, the others with chance drawn from `rng`): the mean
        of their progress rows, or None when every one stopped on a rule error or a native limit."""
        n = self.players
        if count == 1:
            chances = np.array([_signed(chance)], dtype=np.int64)
        else:
            chances = np.array([_signed(chance)] + [_signed(rng.getrandbits(64)) for _ in range(count - 1)],
                               dtype=np.int64)
        seeds = np.full((count, 1), rng.getrandbits(63), dtype=np.int64)  # (mode 2: seeded once)
        out = self._out if count == 1 else np.zeros((count, 5 + n), dtype=np.int64)
        pr = np.zeros((count, n))
        self.module.rollouts(world.Z, world.ZN, world.LOC, world.V, world.TV, world.TN, world.ACT, world.KN,
                             world.H, world.FR, chances, seeds, 2, engine_never(stop), self.tables,
                             out, pr, self._rt[:count] if count <= 64 else np.zeros((count, n)),
                             self._sc[:count] if count <= 64 else np.zeros((count, n), dtype=np.int64))
        ok = out[:, 0] != FAIL
        k = int(ok.sum())
        if k == 0:
            return None
        return (pr[ok].sum(axis=0) / k).tolist() if k < count else (pr.sum(axis=0) / count).tolist()


def engine_never(stop: Optional[int]) -> int:
    """The stop round of a rollout to the end (as `runtime.playout.NEVER`)."""
    return (1 << 62) if stop is None else int(stop)


def _signed(x: int) -> int:
    """A 64-bit chance int as int64 (its bits kept: the native generator's view of it)."""
    x &= U64 - 1
    return x - U64 if x >= 1 << 63 else x


def convert(native: NativeRollouts, st) -> World:
    """The arrays of a compiled-engine state waiting at a decision (CannotResume if it cannot be)."""
    if st.terminal or st._pending is None:
        raise CannotResume("the game is over")
    if st.among:
        raise CannotResume("cards that went one of several ways (`state.among`)")
    if st.stacks is not None or st.draws is not None:
        raise CannotResume("a stacked deck or fixed draws")
    if type(st.rng) is not int:
        raise CannotResume("a chance source other than the seed")
    w = World()
    w.FR = native.frames_of(st)
    nz, nc, cap = native.nzones, native.ncards, native.cap
    Z = w.Z = np.zeros((nz, nc), dtype=np.int64)
    ZN = w.ZN = np.zeros(nz, dtype=np.int64)
    for z, cards in enumerate(st.zones):
        k = len(cards)
        if k:
            Z[z, :k] = cards
            ZN[z] = k
    w.LOC = np.array(st.loc, dtype=np.int64)
    w.KN = np.array(st.known, dtype=np.int64)
    w.ACT = np.array(st.active, dtype=np.bool_)
    nv = native.vslots
    V = w.V = np.full(nv, NONE, dtype=np.int64)
    TV = w.TV = np.zeros((nv, cap), dtype=np.int64)
    TN = w.TN = np.zeros(nv, dtype=np.int64)
    v = st.v
    if len(v) > nv:
        raise CannotResume("more slots than the native layout")
    vals = list(v)
    for s in native.seq_slots:  # (lists into their rows; a few slots of a game)
        x = vals[s] if s < len(vals) else None
        if x is None:
            continue
        if type(x) is not tuple or len(x) > cap:
            raise CannotResume(f"slot {s} holds a list the native engine keeps not")
        if x:
            try:
                TV[s, :len(x)] = x
            except TypeError:  # (a list holding none: NONE entries, as the native code writes them)
                try:
                    TV[s, :len(x)] = [NONE if y is None else y for y in x]
                except (TypeError, ValueError, OverflowError):
                    raise CannotResume(f"slot {s} holds a list the native engine keeps not") from None
            except (ValueError, OverflowError):
                raise CannotResume(f"slot {s} holds a list the native engine keeps not") from None
        TN[s] = len(x)
        vals[s] = 0  # (a list slot's V is not read natively: it says the list is not none)
    bools = w.bools = []
    texts = w.texts = []
    for s, x in enumerate(vals):  # (the rest must be ints, bools, texts or none)
        t = type(x)
        if t is not int and x is not None:
            if t is str:  # (a text variable's, or a phase's text parameter's, as its number: `text_id`)
                k = native.texts.get(x)
                if k is None:
                    raise CannotResume(f"slot {s} holds a text the native module does not know")
                vals[s] = k
                texts.append(s)
            elif t is bool:
                bools.append(s)
            else:
                raise CannotResume(f"slot {s} holds a value the native engine keeps not ({t.__name__})")
    try:  # (one conversion in C)
        V[:len(vals)] = [NONE if x is None else x for x in vals]
    except OverflowError:
        raise CannotResume("a slot holds a number past 64 bits") from None
    w.H = np.array([st.round, len(st.history)], dtype=np.int64)
    w.chance = _signed(st.rng)
    return w


def restore(native: NativeRollouts, w: World, st) -> None:
    """Writes a world's arrays back into the state `st`: zones, places, who knows each card, who is
    in play, slots, round, chance."""
    st.zones = [w.Z[z, :w.ZN[z]].tolist() for z in range(native.nzones)]
    st.loc = w.LOC.tolist()
    st.known = w.KN.tolist()
    st.active = w.ACT.tolist()
    seqs = native.seq_slots
    v = []
    bools = set(w.bools)
    texts = native.text_slots | set(w.texts)
    for s in range(len(w.V)):
        if s in seqs:
            v.append(None if w.V[s] == NONE else tuple(None if y == NONE else y for y in w.TV[s, :w.TN[s]].tolist()))
            continue
        x = int(w.V[s])
        if x == NONE:
            v.append(None)
        elif s in texts and x in native.text_of:
            v.append(native.text_of[x])
        elif s in bools:
            v.append(bool(x))
        else:
            v.append(x)
    st.v = v
    st.round = int(w.H[0])
    st.rng = w.chance & (U64 - 1)


def rollouts_for(game) -> NativeRollouts:
    """The rollout module of a game loaded with `engine="native"`, built (or loaded from the disk
    cache) when first asked for and kept on `game.native`; raises CannotResume saying why not (the
    game has no native program, or its rollout module is refused)."""
    native = getattr(game, "native", None)
    if native is None:
        note = getattr(game, "native_note", None)
        raise CannotResume(note or "the game was not loaded with the native engine (engine=\"native\")")
    made = getattr(native, "_rollouts", None)
    if made is None:
        try:
            made = NativeRollouts(game, native.lowered, native.optimisations)
        except NativeUnsupported as e:
            made = CannotResume(f"{e.construct} at rules line {e.line} is not supported in rollouts")
        except Exception as e:  # numba refused the generated code: a defect of the emitter, said in one line
            made = CannotResume(f"the rollout module did not compile ({type(e).__name__})")
        native._rollouts = made
    if isinstance(made, CannotResume):
        raise made
    return made
