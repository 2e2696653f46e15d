"""`cardlang play FILE`: a person plays one seat at the terminal against bots."""

from __future__ import annotations

import click
from rich.console import Console

from .bots import make_bot
from .cmd_common import load_game
from .table_view import render_observation


@click.command("play")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", type=int, default=None, help="Number of players (default: the smallest allowed).")
@click.option("--seat", type=int, default=0, show_default=True, help="The seat you play (0 is the first).")
@click.option("--seed", type=int, default=None, help="Seed for a reproducible deal (default: random).")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a game option (repeatable).")
@click.option("--bots-only", is_flag=True, help="Bots play every seat; print the whole transcript.")
@click.option("--bot", "bot_name", default="random", show_default=True, help="The bot for the other seats.")
def play_command(path, players, seat, seed, settings, bots_only, bot_name) -> None:
    """Play a game at the terminal against bots.

    You see only what your seat may see: your own hidden cards, the cards shown to you and the
    public table. Answer with the number of an action or its label; `q` quits.
    """
    import random as _random

    game = load_game(path, players, settings)
    if not 0 <= seat < game.players:
        click.echo(f"error: --seat must be from 0 to {game.players - 1}", err=True)
        raise SystemExit(2)
    if seed is None:
        seed = _random.randrange(1 << 31)
    try:
        bots = [make_bot(bot_name, seed=seed * 31 + s) for s in range(game.players)]
    except KeyError as e:
        click.echo(f"error: {e.args[0]}", err=True)
        raise SystemExit(2)
    state = game.new_initial_state(seed=seed)
    console = Console(highlight=False)
    if bots_only:
        while not state.is_terminal():
            state.apply(bots[state.current_player].choose(state))
        for line in state.transcript():
            console.print(line)
        _final(console, state)
        return
    console.print(f"[bold]{game.title}[/bold] — {game.players} players, you are P{seat}, seed {seed}")
    shown = 0
    while not state.is_terminal():
        log = state.transcript(seat)
        for line in log[shown:]:
            console.print(f"  {line}", style="dim")
        shown = len(log)
        if state.current_player != seat:
            state.apply(bots[state.current_player].choose(state))
            continue
        console.print(render_observation(state.observation(seat), you=seat))
        actions = state.legal_actions()
        for i, a in enumerate(actions, 1):
            console.print(f"  [bold]{i}[/bold]. {a.label}")
        while True:
            try:
                answer = click.prompt("your choice", prompt_suffix=" > ", default="", show_default=False)
            except click.Abort:
                console.print("\nleaving the game")
                return
            answer = answer.strip()
            if answer.lower() in ("q", "quit"):
                console.print("leaving the game")
                return
            chosen = _pick(actions, answer)
            if chosen is not None:
                state.apply(chosen)
                break
            console.print(f"  please answer a number from 1 to {len(actions)} or an action's label")
    for line in state.transcript(seat)[shown:]:
        console.print(f"  {line}", style="dim")
    _final(console, state)


def _pick(actions, answer: str):
    if answer.isdigit() and 1 <= int(answer) <= len(actions):
        return actions[int(answer) - 1]
    for a in actions:
        if a.label.lower() == answer.lower():
            return a
    return None


def _final(console, state) -> None:
    scores = state.scores()
    console.print("final scores: " + ", ".join(f"P{s}: {v}" for s, v in enumerate(scores)))
    winners = ", ".join(f"P{w}" for w in state.winners()) or "nobody"
    console.print(f"[bold]winner{'s' if len(state.winners()) > 1 else ''}: {winners}[/bold]")
