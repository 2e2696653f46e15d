"""What the people at a table saw together: the log and the moves' labels as all of them read them.

The table of a game is its human seats; when bots play alone, every seat (what a spectator of the
game sees: the public cards only). A card shows in the table's view only if every seat of the
table knew it when the log recorded it; otherwise it is `a card`. With one person the table's view
is that person's; at a hot-seat game it is what was visible to everyone at the terminal. The label
of a move is the line of the log where its player chooses it, as the table read that line, so it
follows whatever the log shows of a choice (knowledge-respecting labels included).
"""

from __future__ import annotations

from typing import Sequence

from ..runtime.basics import RuleError
from ..runtime.rng import replay_chance

CHOOSES = " chooses "  # a choice's log line: `P1 chooses <label>`


def table_seats(humans: Sequence[int], players: int) -> tuple:
    """The seats whose shared view a save records: the people, or every seat when bots play alone."""
    return tuple(sorted(set(humans))) or tuple(range(players))


def common_log(state, seats: Sequence[int]) -> list:
    """The log as all of `seats` may see it: a card that any of them does not know is `a card`."""
    return state.transcript(tuple(seats))


def common_observation(state, seats: Sequence[int]) -> dict:
    """What all of `seats` may see: the observation of the first, less any card another does not know."""
    views = [state.observation(s) for s in seats]
    obs = dict(views[0])

    def merge(values):
        first = values[0]
        if isinstance(first, list):
            return [merge([v[i] for v in values]) for i in range(len(first))]
        return first if all(v == first for v in values) else None

    obs["zones"] = {name: merge([v["zones"][name] for v in views]) for name in obs["zones"]}
    obs["variables"] = {name: merge([v["variables"][name] for v in views]) for name in obs["variables"]}
    obs["player_variables"] = {name: merge([v["player_variables"][name] for v in views])
                               for name in obs["player_variables"]}
    for key in ("facts", "among"):  # what one seat was told, or tracks, is its own: only what all share
        if all(key in v for v in views):
            obs[key] = {name: merge([v[key][name] for v in views]) for name in obs[key]}
        else:
            obs.pop(key, None)
    if "groups" in obs:  # the same groups for every seat: a card only where all of them know it
        obs["groups"] = {name: merge([v["groups"][name] for v in views]) for name in obs["groups"]}
    obs["log"] = common_log(state, seats)
    obs.pop("legal_actions", None)
    return obs


def table_label(state, seats: Sequence[int], line: int) -> str:
    """The label of the move whose choice is log line `line` of `state`, as `seats` read it."""
    return _label(state.transcript(tuple(seats), start=line)[0])


def table_labels(state, seats: Sequence[int]) -> list:
    """The label of every move made in `state`, as the seats `seats` read it (the game is replayed)."""
    data = state.to_json()
    replay = state.game.new_initial_state(seed=data["seed"], stack=data["stack"], draws=data["draws"],
                                          chance=replay_chance(state.rng, data["seed"]))
    lines = []
    for i, action in enumerate(state.history):
        lines.append(len(replay.log))
        try:
            replay.apply(action)
        except RuleError:  # the move a rule stopped the game at (the last): its choice is logged
            if i != len(state.history) - 1:
                raise
    return labels_at(replay, seats, lines)


def labels_at(state, seats: Sequence[int], lines: Sequence[int]) -> list:
    """The labels of the choices at log lines `lines` of `state`, as `seats` read them."""
    log = common_log(state, seats)
    return [_label(log[i]) for i in lines]


def _label(line: str) -> str:
    _, found, label = line.partition(CHOOSES)
    return label if found else line
