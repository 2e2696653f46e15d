"""Renders what one seat may see (its observation) as rich text for the terminal."""

from __future__ import annotations

from typing import Optional

from rich.console import Group
from rich.table import Table
from rich.text import Text

RED = "bold red"
BLACK = "bold"


def card_text(label: Optional[str]) -> Text:
    """A card label with its suit coloured; hidden cards as `▒▒`."""
    if label is None or label == "hidden":
        return Text("▒▒", style="dim")
    style = RED if label[-1:] in "♥♦" or label[-1:] in "hd" else BLACK
    return Text(label, style=style)


def cards_text(labels) -> Text:
    out = Text()
    for i, label in enumerate(labels):
        if i:
            out.append(" ")
        out.append_text(card_text(label))
    return out if labels else Text("—", style="dim")


def render_observation(obs: dict, you: Optional[int] = None) -> Group:
    """The table as `obs["seat"]` sees it: zones, players' public variables, whose turn it is."""
    seat = obs["seat"]
    parts = []
    shared = Table.grid(padding=(0, 2))
    shared.add_column(style="cyan")
    shared.add_column()
    for name, cards in obs["zones"].items():
        if cards and isinstance(cards[0], list) or (cards == [] and False):
            continue
        if isinstance(cards, list) and (not cards or not isinstance(cards[0], list)):
            if all(isinstance(c, list) for c in cards) and cards:
                continue
            known = [c for c in cards if c is not None]
            hidden = len(cards) - len(known)
            line = cards_text(known) if known else Text("")
            if hidden:
                line.append(f"  ({hidden} face down)" if known else f"{hidden} face down", style="dim")
            if not cards:
                line = Text("empty", style="dim")
            shared.add_row(name, line)
    parts.append(shared)
    players = Table(box=None, pad_edge=False, show_edge=False)
    players.add_column("seat")
    per_player = {k: v for k, v in obs["zones"].items() if v and isinstance(v[0], list)}
    for name in per_player:
        players.add_column(name)
    for name in obs["player_variables"]:
        players.add_column(name, justify="right")
    for s in range(obs["players"]):
        label = Text(f"P{s}")
        if s == seat:
            label.append(" (you)" if you is not None else " (view)", style="green")
        if not obs["active"][s]:
            label.stylize("strike dim")
        if obs["current_player"] == s:
            label.append(" ◀", style="yellow")
        row = [label]
        for name, zones in per_player.items():
            row.append(cards_text(zones[s]))
        for name, values in obs["player_variables"].items():
            row.append(str(values[s]))
        players.add_row(*row)
    parts.append(players)
    if obs["variables"]:
        parts.append(Text("  ".join(f"{k}: {v}" for k, v in obs["variables"].items()), style="dim"))
    return Group(*parts)
