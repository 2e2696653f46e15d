"""Many seeded games with bots in every seat, and the statistics a designer reads.

Game i of a run uses seed `seed + i`, and the bot in seat s of that game the seed
`(seed + i) * 1009 + s`, so a game's course depends only on its own seed: the run is split into
batches of consecutive games, the batches are played anywhere (this process, local processes, a
Ray cluster), and the per-game results are put back in seed order before any statistic is taken.
The same seed and arguments therefore give the same statistics whatever `jobs` or `cluster` is.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import signal
import sys
import threading
import time
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..runtime.actions import alt_of, value_of
from ..runtime.engine import Game, RuleError
from ..runtime.playout import quiet, seat_playout, untold_choices
from ..runtime.view import place_text
from .bots import RandomBot, decide, make_bot, parse_bot
from .chance import decides
from .coverage import coverage_entries, instrument
from .team_stats import team_entries, team_ties

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


@dataclass(frozen=True)
class GameSpec:
    """What a worker needs to load the same game: the file, the player count, every option value."""

    path: str
    players: int
    options: tuple
    source_hash: str = ""
    # an optional per-game record hook, ("module:factory", args), resolved in the worker (see `play_one`)
    record: tuple = ()
    engine: str = "compiled"  # "native": the workers load the native engine too (from its disk cache)

    @staticmethod
    def of(game: Game, record: tuple = ()) -> "GameSpec":
        return GameSpec(game.path, game.players, tuple(sorted(game.options.items())), game.source_hash,
                        tuple(record), getattr(game, "engine", "compiled"))


_LOADED: dict = {}
NATIVE_BATCH = 16  # random-bot games a batch in this process on the native engine (about 2 ms)


def _load(spec: GameSpec):
    """The game and its coverage counters, loaded once per process."""
    if spec not in _LOADED:
        from ..load import load

        game = load(spec.path, players=spec.players, options=dict(spec.options), engine=spec.engine)
        if spec.source_hash and game.source_hash != spec.source_hash:
            raise RuntimeError(f"{spec.path} changed while the simulation ran")
        _LOADED[spec] = game
    return _LOADED[spec]


def _recorder(record: tuple, game: Game, seed: int):
    """The record hook of one game: `factory(game, seed, *args)` of the named `module:factory`, or None."""
    if not record:
        return None
    import importlib

    where, args = record[0], tuple(record[1]) if len(record) > 1 else ()
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)(game, seed, *args)


# ------------------------------------------------------------------------------- one game
def _native_random(game: Game, bots: Sequence[str]) -> bool:
    """Whether `game` runs natively and every seat is a random bot: its games then run whole in
    machine code (`native.game`), with no coverage, record or action counts."""
    return getattr(game, "native", None) is not None and all(parse_bot(b)[0] == "random" for b in bots)


def _native_one(native, seed: int, n: int) -> Optional[dict]:
    """One random-bot game in machine code, as `play_one` reports it; None where the native run
    stopped (a rule error or a native limit: the compiled engine plays it)."""
    out = native.game(seed, [seed * 1009 + s for s in range(n)])  # (the seeds of `play_one`'s random bots)
    if out is not None:
        out.update(seed=seed, discarded=[0] * n, discarded_why={}, worlds=[0] * n, fallbacks=[0] * n)
    return out


def play_one(game: Game, seed: int, bots: Sequence[str], coverage=None, actions: Optional[Counter] = None,
             record: tuple = ()) -> dict:
    """One game from `seed` with the named bot in each seat (`bots` cycles over the seats).

    Returns winners, scores, decisions, rounds and the first seat to decide. With `coverage` (from
    `cardlang.coverage.instrument`) the game is played on its counting twin and the real moves are
    counted; with `actions`, each action's label is counted (cards shown as `a card`). With `record`
    (see `_recorder`), a hook sees each decision (`decide(state, seat, action)` returns the action to
    play: a measure may restrict a seat's play), each state after a move (`after(state)`), may stop a
    game (`stop`: a cap), and its `result(state)` is the game's `record`.
    """
    rec = _recorder(record, game, seed)
    n = game.players
    if rec is None and coverage is None and _native_random(game, bots):
        out = _native_one(game.native, seed, n)
        if out is not None:  # (None: a rule error or a native limit: the compiled engine plays it below)
            return out
    players = [make_bot(bots[s % len(bots)], seed=seed * 1009 + s) for s in range(n)]
    if coverage is not None:
        coverage.on = True
        state = coverage.game.new_initial_state(seed=seed, log=False)
    else:
        state = game.new_initial_state(seed=seed, log=False)
    first = state.current_player
    if rec is None and all(type(b) is RandomBot for b in players):
        return _play_random(state, seed, players, coverage, actions, first)
    decisions = 0
    # coverage is set aside while a bot decides: its view replays the round in copies of the state
    # (cardlang.runtime.view), and search bots play on such copies; none of that is the game's
    aside = [coverage is not None] * n
    try:
        while not state.is_terminal():
            if rec is not None and rec.stop:
                break
            seat = state.current_player
            if aside[seat]:
                coverage.on = False
            try:
                a = decide(players[seat], state)
            except RuleError as e:
                raise e.in_game(seed, len(state.history), lookahead=True)
            if rec is not None:
                a = rec.decide(state, seat, a)
            if actions is not None:
                actions[_action_key(state, a)] += 1
            if aside[seat]:
                coverage.on = True
            state.apply(a)
            decisions += 1
            if rec is not None:
                rec.after(state)
        scores = state.scores()  # (a `score of p:` can break a rule too)
        returns = state.returns()  # (and a payoff)
        record = rec.result(state) if rec is not None else None
    except RuleError as e:  # also one raised in a bot's search: placed in this game, by its seed
        raise e.in_game(seed, len(state.history))
    finally:
        if coverage is not None:
            coverage.on = False
    out = {"seed": seed, "winners": list(state.winners()), "scores": scores, "returns": returns,
           "decisions": decisions, "rounds": state.round, "first": first if first >= 0 else 0}
    # the worlds the search bots imagined and found impossible (a rule broken, a cap met: bots.py)
    out["discarded"] = [getattr(b, "discarded", 0) for b in players]
    why: dict = {}
    for b in players:
        for reason, count in getattr(b, "discarded_why", {}).items():
            why[reason] = why.get(reason, 0) + count
    out["discarded_why"] = why
    # and the worlds that fit only the round's past, not the whole past the view held (`SeatView.sample`)
    out["worlds"] = [getattr(b, "worlds", 0) for b in players]
    out["fallbacks"] = [getattr(b, "fallbacks", 0) for b in players]
    if rec is not None:
        out["record"] = record
    return out


def _play_random(state, seed: int, players: list, coverage, actions: Optional[Counter], first: int) -> dict:
    """`play_one` when every seat is a random bot: the whole game is played inside the runtime
    (`seat_playout`), each seat drawing from its bot's generator exactly as the bot would, so the
    game and its statistics are those of the bot-by-bot loop. Nothing observes the state but the
    action counts (a label can read who knows a card: the engine keeps knowledge for them, unless
    no key can tell, `_keys_read_knowledge`)."""
    program = state.game.program
    seen = actions is not None and _keys_read_knowledge(program)
    quiet(state, knowledge=seen)
    count = None
    # times[choice][action]: the times taken, for the actions whose key is the action's alone, and
    # (choice, action) -> that key, worked out where the action is first taken (`_KEYS`): kept from
    # game to game (counts back at 0) unless a key can depend on who knows the card
    times, keys = _new_tally(program) if seen else _tally(program)
    told = [0]  # the decisions told one by one (not counted in `times`)
    if actions is not None:
        chooses = state.game.program.chooses

        def count(st, a):  # (an action not yet in `times`: the playout counts those itself)
            k = (st.pending.choice, a)
            if chooses[k[0]].alts[alt_of(a)].pure:
                keys[k] = _action_key(st, a)
                times[k[0]][a] = 1
            else:
                actions[_action_key(st, a)] += 1
                told[0] += 1
    before = len(state.history)
    try:
        decisions = seat_playout(state, [b.rng for b in players], on_decision=count, tally=times)
        scores = state.scores()  # (a `score of p:` can break a rule too)
        returns = state.returns()  # (and a payoff)
    except RuleError as e:
        raise e.in_game(seed, len(state.history))
    finally:
        if coverage is not None:
            coverage.on = False
        if actions is not None:
            rest = len(state.history) - before - told[0]
            for k, key in keys.items():  # (in the order first taken, as the counts were kept before)
                row = times[k[0]]
                n = row[k[1]]
                if n:
                    actions[key] += n
                    rest -= n
                    row[k[1]] = 0
            if rest:  # the decisions of the choices the tally leaves untold (`playout.untold`)
                actions[ANY_CARD] += rest
    return {"seed": seed, "winners": list(state.winners()), "scores": scores, "returns": returns,
            "decisions": decisions, "rounds": state.round, "first": first if first >= 0 else 0}


_KEYS: dict = {}  # (program, choice, action) -> key, for labels that depend only on the action
_TALLIES: dict = {}  # program -> (times, keys) of `_play_random`, from game to game


def _tally(program) -> tuple:
    """The (times, keys) that `_play_random`'s games of `program` share (times back at 0 after each)."""
    t = _TALLIES.get(program)
    if t is None:
        if len(_TALLIES) > 64:
            _TALLIES.clear()
        t = _TALLIES[program] = _new_tally(program)
    return t


def _new_tally(program) -> tuple:
    """Empty (times, keys): a dict of counts by action for each choice, and the keys' texts."""
    return [{} for _ in program.chooses], {}


def _keys_read_knowledge(program) -> bool:
    """Whether an action's key can depend on who knows its card: a card the chooser does not know
    is named by its place, which the key writes `a card` as it writes the card itself, so only a
    card alternative with a label of its own (which may name more than the card) can tell."""
    return any(alt.kind == "card" and alt.label is not None for c in program.chooses for alt in c.alts)


ANY_CARD = "a card"  # what a chosen card is written as in an action's key


def _action_key(state, a: int) -> str:
    """The label of an action, with a chosen card written `a card` so that choices group by rule
    (the key of every action of a choice the tally leaves `untold`: its label names the card alone)."""
    program = state.game.program
    index = state.pending.choice
    key = _KEYS.get((program, index, a))
    if key is not None:
        return key
    if index in untold_choices(program):
        _KEYS[(program, index, a)] = ANY_CARD
        return ANY_CARD
    label = program.label(state, a)
    if program.is_card_action(state, a):
        # the card's name, or its place when the chooser does not know it
        for name in (state.game.deck.label_of(value_of(a), copy=True), place_text(program, state, value_of(a))):
            if name in label:
                label = label.replace(name, ANY_CARD)
                break
    if program.chooses[index].alts[alt_of(a)].pure:
        if len(_KEYS) > 100_000:
            _KEYS.clear()
        _KEYS[(program, index, a)] = label
    return label


# ----------------------------------------------------------------------------------- batches
def run_batch(spec: GameSpec, bots: tuple, first_seed: int, count: int, with_coverage: bool = True) -> dict:
    """Plays games `first_seed` … `first_seed + count - 1`: their results, coverage and action counts."""
    game = _load(spec)
    coverage = instrument(game) if with_coverage else None
    actions: Counter = Counter()
    results = []
    for seed in range(first_seed, first_seed + count):
        results.append(play_one(game, seed, bots, coverage, actions, spec.record))
    hits, offered = coverage.counts() if coverage is not None else ((), ())
    return {"results": results, "hits": hits, "offered": offered, "actions": dict(actions)}


def _in_process(spec: GameSpec, bots: tuple, batches: list, with_coverage: bool):
    """`run_batch` of each batch, in this process: one counting twin for the whole run, each batch's
    counts being what changed while it ran (a batch is one game here: a new twin and counters
    for each was a fifth of a small game's time)."""
    game = _load(spec)
    coverage = instrument(game) if with_coverage else None
    hits, offered = coverage.counts() if coverage is not None else ((), ())
    native = coverage is None and not spec.record and _native_random(game, bots)
    n = game.players
    for first, count in batches:
        actions: Counter = Counter()
        if native:  # (machine code: a game is worth no more than this loop's own Python)
            results = [_native_one(game.native, seed, n) or play_one(game, seed, bots)
                       for seed in range(first, first + count)]
        else:
            results = [play_one(game, seed, bots, coverage, actions, spec.record)
                       for seed in range(first, first + count)]
        batch = {"results": results, "hits": (), "offered": (), "actions": dict(actions)}
        if coverage is not None:
            now_hits, now_offered = coverage.counts()
            batch["hits"] = tuple(n - b for n, b in zip(now_hits, hits))
            batch["offered"] = tuple(n - b for n, b in zip(now_offered, offered))
            hits, offered = now_hits, now_offered
        yield batch


def _batches(games: int, seed: int, size: int) -> list:
    return [(seed + i, min(size, games - i)) for i in range(0, games, size)]


def _worker_start(parent: int) -> None:
    """Runs first in each worker process: Ctrl-C is the parent's to handle, and the worker never
    outlives its parent, however the parent ended (a SIGKILL leaves it no time to stop anything)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):  # the kernel kills the worker when its parent dies
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no libc to call: the watchdog below still stands
            pass
    if os.getppid() != parent:  # the parent died before the worker could ask to die with it
        os._exit(1)
    # elsewhere (and as a second guard): a thread that ends the worker once its parent is gone
    threading.Thread(target=_watch_parent, args=(parent,), name="cardlang-watch-parent", daemon=True).start()


_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PARENT_POLL = 0.5  # seconds between two looks of a worker's watchdog at its parent


def _watch_parent(parent: int) -> None:
    """Ends this process as soon as its parent process is gone (it then has another parent)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)


class _Merged:
    """Batch results as they arrive, in any order."""

    def __init__(self, points: int):
        self.results: list = []
        self.hits = [0] * points
        self.offered = [0] * points
        self.actions: Counter = Counter()

    def add(self, batch: dict) -> int:
        self.results.extend(batch["results"])
        for i, h in enumerate(batch["hits"]):
            self.hits[i] += h
        for i, o in enumerate(batch["offered"]):
            self.offered[i] += o
        self.actions.update(batch["actions"])
        return len(batch["results"])


def simulate(game: Game, games: int, seed: int = 0, bots: Sequence[str] = ("random",),
             progress: Optional[Callable[[int], None]] = None, jobs: int = 1, cluster: Optional[str] = None,
             batch_size: Optional[int] = None, coverage: bool = True, per_game: bool = False,
             record: tuple = ()) -> dict:
    """Plays `games` games (seeds seed, seed+1, …) and gathers the statistics (see `summarize`).

    `jobs` local processes share the work (1: this process); `cluster` runs the batches on Ray
    instead (`local` starts a local Ray instance; otherwise the address of a running cluster).
    `progress(done)` is called as games finish. Ctrl-C stops early: the statistics then cover the
    games finished so far and say `interrupted`. A rule error in a game stops the run: every
    worker is stopped and the `RuleError` raised here names the game's seed and move. With
    `per_game`, the result also lists every game (seed, winners, scores, decisions, rounds, first
    seat to decide, and `record` with a record hook: see `play_one`) in seed order. A game loaded
    with `engine="native"` plays its random-bot games in machine code (`game.native`): the same
    games and statistics, without rule coverage and action counts.
    """
    bots = tuple(bots)
    for b in bots:
        parse_bot(b)
    if len(bots) not in (1, game.players):
        raise ValueError(f"give one bot for all seats or one per seat ({game.players}), not {len(bots)}")
    if getattr(game, "native", None) is not None and not record:
        coverage = False  # (native games run whole in machine code: no rule coverage, no action counts)
    spec = GameSpec.of(game, record)
    jobs = max(1, jobs)
    workers = jobs if cluster is None else max(jobs, 2)
    if batch_size is None:  # in this process, one game a batch: Ctrl-C then loses only the game being played
        in_process = cluster is None and jobs == 1  # (a batch of native games: a few milliseconds)
        one = NATIVE_BATCH if not record and _native_random(game, bots) else 1
        batch_size = one if in_process else max(1, min(64, math.ceil(games / (workers * 8))))
    size = batch_size
    batches = _batches(games, seed, size)
    merged = _Merged(len(game.program.rule_points))
    start = time.perf_counter()
    interrupted = False
    done = 0
    try:
        if cluster is not None:
            stream = _on_ray(cluster, spec, bots, batches, coverage, jobs)
        elif jobs == 1 or len(batches) == 1:
            _LOADED.setdefault(spec, game)
            stream = _in_process(spec, bots, batches, coverage)
        else:
            stream = _on_processes(jobs, spec, bots, batches, coverage)
        try:
            for batch in stream:
                done += merged.add(batch)
                if progress is not None:
                    progress(done)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
    except KeyboardInterrupt:
        interrupted = True
    elapsed = max(time.perf_counter() - start, 1e-9)
    stats = summarize(game, bots, merged, elapsed, interrupted, seed, coverage)
    if per_game:
        stats["per_game"] = sorted(merged.results, key=lambda r: r["seed"])
    return stats


def _on_processes(jobs, spec, bots, batches, with_coverage):
    """Batch results from `jobs` fresh processes (spawned: nothing inherited but the arguments)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start,
                               initargs=(os.getpid(),))
    finished = False
    todo = iter(batches)
    pending: set = set()

    def submit_more():
        # two batches a worker in the queue, no more: the pool's queue and its wake-up pipe stay short
        for s, c in itertools.islice(todo, max(0, 2 * jobs - len(pending))):
            with _signals_held():  # a signal inside `submit` could leave the pool's wake-up pipe half written
                pending.add(pool.submit(run_batch, spec, bots, s, c, with_coverage))

    try:
        submit_more()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            submit_more()
            for future in done:
                yield future.result()
        finished = True
    finally:
        with _signals_held():  # a second Ctrl-C (or a SIGTERM) must not leave the workers half stopped
            if not finished:  # interrupted or failed: stop the batches still running at once
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.terminate()
            pool.shutdown(wait=True, cancel_futures=True)


_HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _signals_held():
    """Holds SIGINT, SIGTERM and SIGHUP while the workers are stopped: the first that comes in
    between is handled right after, by the handler there was (its default action if none)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list = []
    previous = {}
    for sig in _HELD:
        try:
            previous[sig] = signal.signal(sig, lambda signum, _frame: got.append(signum))
        except (OSError, ValueError):
            pass
    try:
        yield
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before if before is not None else signal.SIG_DFL)
        if got:
            before = previous.get(got[0])
            if callable(before):
                before(got[0], None)
            elif before in (signal.SIG_DFL, None):
                os.kill(os.getpid(), got[0])  # its default action, now that no worker is left


def _on_ray(address, spec, bots, batches, with_coverage, jobs):
    """Batch results from Ray: `local` starts a local instance with `jobs` CPUs, else connects."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("--cluster needs Ray: pip install 'cardlang[ray]'") from e
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=max(jobs, 1), include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        started = True
    try:
        remote = ray.remote(run_batch)
        pending = [remote.remote(spec, bots, s, c, with_coverage) for s, c in batches]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    batch = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    if isinstance(getattr(e, "cause", None), RuleError):  # the rules' error, not Ray's
                        raise e.cause from None
                    raise
                yield batch
    finally:
        for ref in locals().get("pending", ()):
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


# -------------------------------------------------------------------------------- statistics
def wilson(successes: int, n: int) -> list:
    """The Wilson score 95% interval of a proportion, [low, high] ([0, 1] with no trials)."""
    if n == 0:
        return [0.0, 1.0]
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # (at 0 or n successes the bound is exactly 0 or 1: rounding would leave it a hair inside)
    return [0.0 if successes == 0 else max(0.0, centre - half), 1.0 if successes == n else min(1.0, centre + half)]


def mean_ci(values: Sequence[float]) -> list:
    """The normal 95% interval of a mean, [low, high] ([mean, mean] with fewer than two values)."""
    return _ci(_spread(values), len(values))


def _ci(spread: dict, n: int) -> list:
    """`mean_ci` of the values whose `_spread` is `spread` (n of them)."""
    if n == 0:
        return [0.0, 0.0]
    mean = spread["mean"]
    if n < 2:
        return [mean, mean]
    half = Z95 * spread["sd"] / math.sqrt(n)
    return [mean - half, mean + half]


def _spread(values) -> dict:
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "sd": 0.0, "min": None, "max": None}
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {"mean": mean, "sd": sd, "min": min(values), "max": max(values)}


def summarize(game: Game, bots: Sequence[str], merged: _Merged, elapsed: float, interrupted: bool,
              seed: int, with_coverage: bool = True) -> dict:
    """Every statistic of a run, from per-game results taken in seed order."""
    results = sorted(merged.results, key=lambda r: r["seed"])
    n, played = game.players, len(results)
    step = 1 if game.symbols.direction == "left" else -1
    wins = [0] * n
    by_position = [0] * n
    scores: list = [[] for _ in range(n)]
    position_scores: list = [[] for _ in range(n)]
    payoffs: list = [[] for _ in range(n)]
    position_payoffs: list = [[] for _ in range(n)]
    shared = no_winner = 0
    for r in results:
        winners = r["winners"]
        if len(winners) > 1:
            shared += 1
        elif not winners:
            no_winner += 1
        for w in winners:
            wins[w] += 1
            by_position[((w - r["first"]) * step) % n] += 1
        for s, v in enumerate(r["scores"]):
            scores[s].append(v)
            position_scores[((s - r["first"]) * step) % n].append(v)
        for s, v in enumerate(r["returns"]):
            payoffs[s].append(v)
            position_payoffs[((s - r["first"]) * step) % n].append(v)

    def seat_entry(count, values, returns):
        spread = _spread(values)
        paid = _spread(returns)
        return {"wins": count, "win_rate": count / played if played else 0.0,
                "win_rate_ci95": wilson(count, played), "mean_score": spread["mean"], "score_sd": spread["sd"],
                "min_score": spread["min"], "max_score": spread["max"],
                "mean_payoff": paid["mean"], "payoff_ci95": _ci(paid, len(returns))}

    seats = [{"seat": s, "bot": bots[s % len(bots)], **seat_entry(wins[s], scores[s], payoffs[s])} for s in range(n)]
    positions = [{"position": k, **seat_entry(by_position[k], position_scores[k], position_payoffs[k])}
                 for k in range(n)]
    decisions = _spread([r["decisions"] for r in results])
    rounds = _spread([r["rounds"] for r in results])
    discarded = _discarded(results, n)
    total_actions = sum(merged.actions.values())
    actions = [{"label": label, "count": count, "share": count / total_actions}
               for label, count in sorted(merged.actions.items(), key=lambda kv: (-kv[1], kv[0]))]
    out = {
        "game": game.title,
        "file": game.path,
        "decides": _decides(game),  # false: pure chance, the bots and their decisions mean nothing
        "players": n,
        "options": dict(game.options),
        "seed": seed,
        "bots": [bots[s % len(bots)] for s in range(n)],
        "payoff": game.program.payoff is not None,  # False: a win pays 1, anything else 0
        "score_order": game.symbols.score.order if game.symbols.score is not None else None,
        "utility": game.utility,
        "games": played,
        "interrupted": interrupted,
        "seats": seats,
        "positions": positions,
        "ties": {"shared_wins": shared, "no_winner": no_winner},
        "mean_decisions": decisions["mean"],
        "decisions": decisions,
        "rounds": rounds,
        "decisions_histogram": sorted(Counter(r["decisions"] for r in results).items()),
        "actions": actions,
        "discarded_worlds": discarded,
        "fallback_worlds": _fallbacks(results, n),
    }
    if game.teams:  # partnerships: a team's win counts once, for the team (play/team_stats.py)
        out["teams"] = team_entries(game.teams, results, seat_entry)
        out["team_ties"] = team_ties(game.teams, results)
    if with_coverage:
        entries = coverage_entries(game.program.rule_points, merged.hits, merged.offered)
        out["coverage"] = entries
        out["never_reached"] = [e for e in entries if e["hits"] == 0]
    out["seconds"] = elapsed
    out["games_per_second"] = played / elapsed
    return out


_DECIDES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _decides(game: Game) -> bool:
    """`decides(game.symbols)`, worked out once a game (a walk over its rules)."""
    known = _DECIDES.get(game)
    if known is None:
        known = _DECIDES[game] = decides(game.symbols)
    return known


def _discarded(results: list, n: int) -> dict:
    """The imagined worlds the bots discarded as impossible (see `bots._SearchBot`): in all, by
    seat, the games where any was, and the reasons, most frequent first."""
    per_seat = [0] * n
    games = 0
    why: Counter = Counter()
    for r in results:
        counts = r.get("discarded")
        if counts and any(counts):
            for s, k in enumerate(counts):
                per_seat[s] += k
            games += 1
        if r.get("discarded_why"):
            why.update(r["discarded_why"])
    return {"worlds": sum(per_seat), "games": games, "per_seat": per_seat,
            "reasons": [{"reason": k, "count": v} for k, v in sorted(why.items(), key=lambda kv: (-kv[1], kv[0]))]}


def _fallbacks(results: list, n: int) -> dict:
    """The worlds the search bots imagined (`worlds`) and, of those, the worlds that fit only the
    round's past where the view held more (`fallbacks`: no world of the whole past was found in the
    tries, `SeatView.sample`), in all and by seat."""
    worlds, per_seat = [0] * n, [0] * n
    for r in results:
        for s, k in enumerate(r.get("worlds") or ()):
            worlds[s] += k
        for s, k in enumerate(r.get("fallbacks") or ()):
            per_seat[s] += k
    return {"worlds": sum(worlds), "fallbacks": sum(per_seat), "per_seat": per_seat}


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
