"""`cardlang play` of a game nobody decides (pure chance): the game is dealt and played out by
chance alone, and the terminal shows it a round at a time, Enter for the next.

What is shown is what every seat sees (the log from the view the seats share), never a hidden card
(`State.transcript(seats)`); the rounds are where the engine marked them (`State.rounds_at`).
"""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.text import Text

from ..lang.untrusted import visible
from ..play.table_view import Style, scores_table

PROMPT = "Enter: next round, a: all the rest, q: stop > "


def steps(state) -> list:
    """The shared transcript cut into steps: the setup with the first round, then a round each."""
    seats = list(range(state.game.players))
    lines = state.transcript(seats)
    starts = [i for i in (state.rounds_at or ()) if 0 < i <= len(lines)]
    cuts = sorted(set(starts[1:]))
    out, start = [], 0
    for cut in cuts + [len(lines)]:
        out.append(lines[start:cut])
        start = cut
    return [chunk for chunk in out if chunk]


def step_through(game, state, console: Console, style: Style, read: Callable[[str], str] = input,
                 replay_hint: str = "", echo: bool = False) -> None:
    """Shows a finished game nobody decided, a round at a time, then its scores and winners
    (`echo`: the input is not a terminal, so what was read is written after the prompt)."""
    chunks = steps(state)
    console.print(Text(f"{visible(game.title)}: nobody decides in this game, chance plays it "
                       f"({len(chunks)} rounds). Press Enter for each round.", style="bold"))
    for k, chunk in enumerate(chunks):
        console.print(Text(f"round {k + 1}", style="bold"))
        for line in chunk:
            console.print(line, markup=False, highlight=False)
        if k == len(chunks) - 1:
            break
        try:
            answer = read(PROMPT).strip().lower()
        except EOFError:
            answer = "a"  # the input closed: the rest at once
        if echo:
            console.print(answer, markup=False, highlight=False)
        if answer in ("q", "quit", "exit"):
            console.print(f"Stopped after round {k + 1} of {len(chunks)}.", markup=False)
            break
        if answer in ("a", "all"):
            for rest in chunks[k + 1:]:
                for line in rest:
                    console.print(line, markup=False, highlight=False)
            break
    console.print(scores_table(state.scores(), state.winners(), style, active=state.active))
    winners = [f"P{w}" for w in state.winners()]
    verdict = ("nobody wins" if not winners else f"{winners[0]} wins" if len(winners) == 1
               else f"{', '.join(winners)} share the win")
    console.print(Text(f"The game is over: {verdict}.", style="bold"))
    if replay_hint:
        console.print(replay_hint, markup=False, style="dim")
