"""A saved game as a readable transcript, from one seat's view or omniscient.

The game is replayed move by move from its save (rules file, options, players, seed, actions); a
seat's view writes the cards that seat did not know as `a card`, exactly as it saw the log while
playing, and shows what the seat held at each of its decisions.
"""

from __future__ import annotations

from typing import Optional

from ..runtime.engine import RuleError
from .savegame import initial_chance
from .team_result import final_teams, team_name, team_value, winning
from .team_result import number as plain


def describe(game, data, sep: str = " · ", seed: bool = True) -> str:
    """One line naming the game: title, players, seed (unless `seed` is false), options."""
    options = ", ".join(f"{k}={_value(v)}" for k, v in game.options.items())
    text = f"{game.title}{sep}{game.players} players" + (f"{sep}seed {data.seed}" if seed else "")
    return text + (f"{sep}{options}" if options else "")


def replay_lines(game, data, seat: Optional[int] = None, sep: str = " · ") -> list:
    """The whole saved game (a checked `save_schema.Save`) as lines of text: the log, and for a seat
    its hand at its decisions.

    `seat=None` is omniscient. The lines end with the final scores and the winners, or with where
    the game stopped when it was saved before its end. The seed deals every hand, so a seat's view
    of a game still in progress does not show it.
    """
    state = game.new_initial_state(seed=data.seed, stack=data.stack, draws=data.draws, chance=initial_chance(data))
    private = [name for name, (per_player, visibility, _) in game.symbols.zones.items()
               if per_player and visibility == "private"]
    lines = [""]  # the line naming the game, once it is known whether the game is over
    if seat is None:
        lines.append("Every card shown (omniscient).")
    else:
        lines.append(f"Seen by P{seat}: the cards P{seat} did not know are written `a card`.")
    lines.append("")
    shown = 0
    for number, action in enumerate(data.actions, 1):
        log = state.transcript(seat, start=shown)  # only what is new: a long game replays in linear time
        lines += log
        shown += len(log)
        if seat is not None and state.current_player == seat:
            obs = state.observation(seat)
            held = []
            for name in private:
                cards = [c or "a card" for c in obs["zones"][name][seat]]
                held.append(f"{name.replace('_', ' ')} {' '.join(cards) if cards else 'empty'}")
            choices = " | ".join(a.label for a in state.legal_actions())
            lines.append(f"  > P{seat} to choose (move {number}), {'; '.join(held) or 'no cards'}: {choices}")
        try:
            state.apply(int(action))
        except RuleError as e:  # the game a rule stopped: what it showed up to there goes with the error
            e.transcript = lines + state.transcript(seat, start=shown)
            raise
    lines += state.transcript(seat, start=shown)
    lines[0] = describe(game, data, sep, seed=seat is None or state.is_terminal())
    lines.append("")
    if state.is_terminal() and game.teams:  # partnerships: each team once
        lines += _team_lines(game, state)
    elif state.is_terminal():
        scores = state.scores()
        order = game.symbols.score.order if game.symbols.score is not None else None
        lines.append("Final scores: " + ", ".join(f"P{s} {plain(v)}" for s, v in enumerate(scores))
                     + (f" ({order} wins)" if order else ""))
        winners = [f"P{w}" for w in state.winners()]
        if not winners:
            lines.append("Nobody wins.")
        elif len(winners) == 1:
            lines.append(f"Winner: {winners[0]}")
        else:
            lines.append(f"Winners: {', '.join(winners)}")
    else:
        lines.append(f"The game stops here, after {len(data.actions)} moves; P{state.current_player} is to play.")
    return lines


def _team_lines(game, state) -> list:
    """The end of a game with partnerships: each team's players and score (and payoff), who won."""
    teams = final_teams(game, state)
    order = game.symbols.score.order if game.symbols.score is not None else None
    lines = ["Final scores by team: " + ", ".join(f"{team_name(t)} {team_value(t, t.score)}" for t in teams)
             + (f" ({order} wins)" if order else "")]
    if teams[0].payoff is not None:
        lines.append("Payoffs by team: " + ", ".join(f"{team_name(t)} {team_value(t, t.payoff)}" for t in teams))
    winners = winning(teams, state.winners())
    lines.append(f"Winner: {winners[0]}" if len(winners) == 1 else
                 f"Winners: {', '.join(winners)}" if winners else "Nobody wins.")
    return lines


def option_text(value) -> str:
    """An option's value as `--set` takes it (`true`, `20`, `20,30,40` for a list)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


_value = option_text
