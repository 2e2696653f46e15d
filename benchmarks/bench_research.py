"""Benchmark the research environments' step against the engine's own `apply` (issue 17).

For each game of games/ (the player counts of bench_engine.py) it plays random games in the
PettingZoo environment (`cardlang.pettingzoo`: each decision is `observe(agent)` and `step(index)`,
what an agent loop does), records their actions, and replays the same actions on the engine twice:
once `apply` alone (`log=False`, as the environment plays), once building, before each action, the
seat's view, its observation vector and its action mask (what `observe` does). Per decision:

- `apply µs`: the engine's own step, actions replayed one after the other;
- `apply/v µs`: the same `apply`, timed in the replay that builds a view before each action (the
  environment's conditions: the garbage collections and colder caches the views bring);
- `step µs`: the environment's `step(index)` (the index made an action id of the seat's view, that
  view's action found in the state, `apply`, the next agent); `step/apply` and `step/apply/v`, the
  target is at most 2;
- `vector µs`: the view, the vector and the mask, built on the engine's replay;
- `observe µs`: the environment's `observe(agent)`, the same work (it should match `vector µs`).

With `--against DIR` (another checkout, e.g. `git archive` of an earlier commit), each run is made
by both trees' own copies of this script in turn, in one invocation, and the table gives both
(before → after), so that a change is measured under the same load.

It also measures the encoder alone on a view already built (`encode µs`: numpy, no loop over the
deck's cards) and the rng hook's cost: a 52-card `rng.shuffle` with and without the chance-source
test (`shuffle µs`). CPU time (`time.process_time`); each figure is the median of `--repeat` runs
(and `step/apply` the median of each run's own ratio).

    python benchmarks/bench_research.py [--games 20] [--repeat 3] [--only red_dog ...] [--json] [--against DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from cardlang.pettingzoo import env as make_env  # noqa: E402
from cardlang.runtime import rng  # noqa: E402
from cardlang.runtime.encoder_view import TableView  # noqa: E402

PLAYERS = {"coucou": 7, "ascenseur": 4, "red_dog": 5, "pioche_poker": 3, "counter_bluff": 2}


def env_games(path: str, players: int, games: int) -> tuple:
    """(CPU seconds in `step`, in `observe`, decisions, [(seed, engine actions)]) of `games` random
    games in the environment."""
    e = make_env(path, players)
    clock = time.process_time
    # two passes over the same games, the first untimed: the compiled engine writes each op the first
    # time play reaches it (emit/program.py), which a fresh environment would otherwise pay in `step`
    for _warm_up in (True, False):
        histories = []
        gc.collect()
        stepping, observing, decisions = _env_pass(e, np.random.default_rng(7), games, histories, clock)
    return stepping, observing, decisions, histories


def _env_pass(e, rs, games: int, histories: list, clock) -> tuple:
    """One pass of `env_games`: (CPU seconds in `step`, in `observe`, decisions)."""
    decisions = 0
    stepping = observing = 0.0  # only the environment's calls: not the agent's own choosing
    for seed in range(games):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            t0 = clock()
            obs = e.observe(agent)
            observing += clock() - t0
            if e.terminations[agent]:
                e.step(None)
                continue
            index = int(rs.choice(np.flatnonzero(obs["action_mask"])))
            t0 = clock()
            e.step(index)
            stepping += clock() - t0
            decisions += 1
        histories.append((seed, list(e._state.history)))
    return stepping, observing, decisions


def replay_apply(game, histories) -> float:
    """CPU seconds of `apply` alone over the recorded games."""
    gc.collect()
    total = 0.0
    for seed, actions in histories:
        st = game.new_initial_state(seed=seed, log=False)
        apply = st.apply
        t0 = time.process_time()
        for a in actions:
            apply(a)
        total += time.process_time() - t0
    return total


def replay_vector(game, encoder, histories) -> tuple:
    """(CPU seconds of the seat's view, vector and mask at every decision of the recorded games, CPU
    seconds of `apply` in that same replay: between views, as in the environment, with the garbage
    collections and the colder caches that building them brings)."""
    gc.collect()
    building = applying = 0.0
    clock = time.process_time
    for seed, actions in histories:
        st = game.new_initial_state(seed=seed, log=False)
        for a in actions:
            t0 = clock()
            view = TableView(st, st.current_player)
            encoder.observation(view)
            encoder.mask(view)
            t1 = clock()
            st.apply(a)
            t2 = clock()
            building += t1 - t0
            applying += t2 - t1
    return building, applying


def encode_only(game, encoder) -> float:
    """Seconds per `encoder.observation(view)` on a mid-game view already built."""
    st = game.new_initial_state(seed=0, log=False)
    r = random.Random(0)
    for _ in range(10):
        if st.is_terminal():
            break
        st.apply(r.choice(st.legal_action_ids()))
    view = TableView(st, st.current_player if not st.is_terminal() else 0)
    timer = timeit.Timer(lambda: encoder.observation(view))
    n, _ = timer.autorange()
    return min(timer.repeat(5, n)) / n


def _plain_shuffle(pile: list, seed: int) -> int:
    """rng.shuffle without the chance-source hook (for the hook's cost)."""
    s = seed
    for product, limit, steps in rng._plan(len(pile)):
        while True:
            s = (s + rng.GAMMA) & rng.MASK
            z = rng.mix(s)
            if z < limit:
                break
        r = z % product
        for i, b in steps:
            j = r % b
            r //= b
            pile[i], pile[j] = pile[j], pile[i]
    return s


def shuffle_cost() -> tuple:
    """(µs of a 52-card shuffle with the hook, µs without), best of 7."""
    pile = list(range(52))
    out = []
    for fn in (rng.shuffle, _plain_shuffle):
        timer = timeit.Timer(lambda: fn(pile, 12345))
        out.append(min(timer.repeat(7, 20000)) / 20000 * 1e6)
    return tuple(out)


def bench(stem: str, players: int, args) -> dict:
    """One game's figures, each the median of `--repeat` runs (each run measures them all in turn)."""
    path = str(ROOT / "games" / f"{stem}.cards")
    e = make_env(path, players)
    runs = []
    for _ in range(args.repeat):
        t_step, t_observe, decisions, histories = env_games(path, players, args.games)
        building, applying = replay_vector(e.game, e.encoder, histories)
        figures = {"step_us": t_step, "observe_us": t_observe, "apply_us": replay_apply(e.game, histories),
                   "vector_us": building, "apply_between_us": applying}
        run = {k: t / decisions * 1e6 for k, t in figures.items()}
        run["step_per_apply"] = run["step_us"] / run["apply_us"]  # within one run: the load is alike
        run["step_per_apply_between"] = run["step_us"] / run["apply_between_us"]
        runs.append(run)
    # the median run of each figure: on a shared machine the load moves between runs
    row = {"game": stem, "players": players, "decisions": decisions,
           **{k: statistics.median(r[k] for r in runs) for k in runs[0]}}
    row["encode_us"] = encode_only(e.game, e.encoder) * 1e6
    row["vector_size"] = e.encoder.size
    row["actions"] = e.encoder.num_actions
    return row


def _one_run(root: Path, stem: str, args) -> dict:
    """One run of one game by the copy of this script in `root` (its own cardlang), as JSON."""
    out = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_research.py"), "--json", "--only", stem,
                          "--repeat", "1", "--games", str(args.games)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["games"][0]


def against(args) -> None:
    """Before (`--against DIR`) and after (this tree), run after run in turn, each figure the median."""
    keys = ("apply_us", "step_us", "step_per_apply", "step_per_apply_between", "vector_us", "observe_us",
            "encode_us")
    print(f"{'game':<14} {'n':>2} " + " ".join(f"{k:>20}" for k in keys))
    for stem, n in PLAYERS.items():
        if args.only and stem not in args.only:
            continue
        runs = {"before": [], "after": []}
        for _ in range(args.repeat):
            runs["before"].append(_one_run(Path(args.against).resolve(), stem, args))
            runs["after"].append(_one_run(ROOT, stem, args))
        med = {side: {k: statistics.median(r[k] for r in rs) for k in keys} for side, rs in runs.items()}
        print(f"{stem:<14} {n:>2} " + " ".join(f"{med['before'][k]:>9.2f} → {med['after'][k]:>8.2f}" for k in keys))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", help="another checkout to measure in turn with this one")
    args = parser.parse_args()
    if args.against:
        against(args)
        return
    rows = [bench(stem, n, args) for stem, n in PLAYERS.items() if not args.only or stem in args.only]
    hooked, plain = shuffle_cost()
    if args.json:
        print(json.dumps({"games": rows, "shuffle_us": {"hook": hooked, "plain": plain}}, indent=2))
        return
    print(f"{'game':<14} {'n':>2} {'decisions':>9} {'apply µs':>9} {'apply/v µs':>10} {'step µs':>8} "
          f"{'step/apply':>10} {'step/apply/v':>12} {'vector µs':>10} {'observe µs':>10} {'encode µs':>9} "
          f"{'size':>5} {'actions':>7}")
    for r in rows:
        print(f"{r['game']:<14} {r['players']:>2} {r['decisions']:>9} {r['apply_us']:>9.1f} "
              f"{r['apply_between_us']:>10.1f} {r['step_us']:>8.1f} {r['step_per_apply']:>10.2f} "
              f"{r['step_per_apply_between']:>12.2f} {r['vector_us']:>10.1f} {r['observe_us']:>10.1f} "
              f"{r['encode_us']:>9.1f} {r['vector_size']:>5} {r['actions']:>7}")
    print(f"\n52-card rng.shuffle: {hooked:.2f} µs with the chance-source hook, {plain:.2f} µs without")


if __name__ == "__main__":
    main()
