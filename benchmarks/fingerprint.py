"""A behaviour fingerprint of the engine, to show that speed work changes no game.

For every file in games/ and examples/ and several player counts, it plays seeded random games
with the log on, and hashes everything a player or a test could see: the actions, each seat's
transcript, observations along the way, scores and winners. It also checks that a `log=False`
playout and a clone taken mid-game play exactly the same game. One line per (file, players).

Run it with the engine before and after a change and compare the outputs:

    python benchmarks/fingerprint.py [--seeds 20] > before.txt
    (change the engine)
    python benchmarks/fingerprint.py [--seeds 20] > after.txt && diff before.txt after.txt

To fingerprint a saved copy of the engine, put the copy first on PYTHONPATH (this script does not
add the checkout to sys.path).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

import cardlang

ROOT = Path(__file__).resolve().parent.parent


def play(game, seed: int, log: bool, clone_at: int | None = None):
    rng = random.Random(seed * 7919 + 1)
    st = game.new_initial_state(seed=seed, log=log)
    seen = []
    n = 0
    while not st.terminal:
        if log and n % 7 == 0:
            seat = st.current_player
            seen.append(st.observation(seat))
            seen.append([(int(a), a.label) for a in st.legal_actions()])
        if clone_at is not None and n == clone_at:
            st = st.clone()
        st.apply(rng.choice(st.legal_action_ids()))
        n += 1
    out = {"history": list(st.history), "winners": list(st.winners()), "scores": st.scores(),
           "returns": st.returns()}
    if log:
        out["seen"] = seen
        out["transcripts"] = [st.transcript(None)] + [st.transcript(s) for s in range(game.players)]
        out["final"] = [st.observation(s) for s in range(game.players)]
    return out


def fingerprint(path: str, players: int, seeds: int) -> str:
    game = cardlang.load(path, players=players)
    h = hashlib.sha256()
    for seed in range(seeds):
        full = play(game, seed, log=True)
        fast = play(game, seed, log=False)
        cloned = play(game, seed, log=False, clone_at=len(full["history"]) // 2)
        for k in ("history", "winners", "scores"):
            if fast[k] != full[k] or cloned[k] != full[k]:
                return f"MISMATCH seed {seed} {k} (log=False or clone plays another game)"
        h.update(json.dumps(full, sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("files", nargs="*", help="default: games/*.cards and examples/*.cards")
    args = ap.parse_args(argv)
    files = args.files or sorted(str(p.relative_to(ROOT)) for d in ("games", "examples")
                                 for p in (ROOT / d).glob("*.cards"))
    for f in files:
        symbols, diags = cardlang.check_file(str(ROOT / f))
        if symbols is None or any(d.is_error for d in diags):
            print(f"{f}: does not check")
            continue
        low, high = symbols.players
        for n in sorted({low, min(high, low + 2), min(high, 7)}):
            try:
                print(f"{f} {n}: {fingerprint(str(ROOT / f), n, args.seeds)}", flush=True)
            except Exception as e:  # a failure is a fingerprint too
                print(f"{f} {n}: {type(e).__name__}: {e}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
