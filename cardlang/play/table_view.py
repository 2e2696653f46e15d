"""Renders what one seat may see for the terminal: its cards, the table, the players, the events.

Everything shown comes from `State.observation(seat)` (plus the static shape of the game: its
zones and the types of its variables), so a screen can never show a card its seat does not know.
Nothing here knows a game: the zones and variables are whatever the `.cards` file declares.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

import attrs
from rich import box
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..compiler import ir
from ..play.team_result import number, team_value
from ..lang.untrusted import visible
from ..runtime.log import zone_words

SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
SUIT_LETTERS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
RED_SYMBOLS = frozenset("♥♦")
RED = "bold red"
BLACK = "bold"
HIDDEN = "dim"
JOKER_STYLE = "bold magenta"
# A card label as the deck writes it: a rank (digits or letters) glued to a suit symbol, or Joker.
CARD_RE = re.compile(r"(?<![\w♣♦♥♠])[0-9A-Za-z]{1,3}[♣♦♥♠](?:#\d+)?|\bJoker\b(?:#\d+)?")
SYMBOLS = "♠♣♥♦▒─╭★◀"  # what a terminal must be able to write for the table to use symbols
PILE_SHOWN = 8  # a pile with more cards than this shows its count and its top card only


def ascii_text(text: str) -> str:
    """`10♥` → `10h`: suit symbols as the letters the engine also accepts."""
    for symbol, letter in SUIT_LETTERS.items():
        text = text.replace(symbol, letter)
    return text


@dataclass
class Style:
    """How cards are drawn: suit symbols or letters, and the glyph of a face-down card."""

    ascii: bool = False

    @property
    def hidden(self) -> str:
        return "##" if self.ascii else "▒▒"

    @property
    def turn(self) -> str:
        return "<-" if self.ascii else "◀"

    @property
    def star(self) -> str:
        return "*" if self.ascii else "★"

    @property
    def dot(self) -> str:
        return "." if self.ascii else "·"

    @property
    def sep(self) -> str:
        """Between the parts of a line of facts."""
        return " | " if self.ascii else " · "

    @property
    def more(self) -> str:
        return "..." if self.ascii else "…"

    @property
    def box(self):
        return box.ASCII if self.ascii else box.ROUNDED

    def plain(self, text: str) -> str:
        return ascii_text(text) if self.ascii else text


def card_text(label: Optional[str], style: Optional[Style] = None) -> Text:
    """One card from its label (`10♥`), its suit coloured; `None` (unknown) as a face-down card."""
    style = style or Style()
    if label is None or label == "hidden":
        return Text(style.hidden, style=HIDDEN)
    if label == "Joker":
        return Text(label, style=JOKER_STYLE)
    colour = RED if label[-1:] in RED_SYMBOLS else BLACK
    return Text(style.plain(label), style=colour)


def cards_text(labels: Sequence[Optional[str]], style: Optional[Style] = None) -> Text:
    """Cards side by side; unknown ones as face-down cards."""
    style = style or Style()
    out = Text()
    for i, label in enumerate(labels):
        if i:
            out.append(" ")
        out.append_text(card_text(label, style))
    return out if labels else Text(style.dot, style="dim")


def hand_text(labels: Sequence[Optional[str]], style: Optional[Style] = None) -> Text:
    """A seat's own cards as `[9♥] [K♠]`."""
    out = Text()
    for i, label in enumerate(labels):
        if i:
            out.append(" ")
        out.append("[", style="dim")
        out.append_text(card_text(label, style))
        out.append("]", style="dim")
    return out if labels else Text("no cards", style="dim")


def rich_line(line: str, style: Optional[Style] = None, base: str = "") -> Text:
    """A line of text (a log line, an action label) with every card label in it coloured, and every
    control character of it shown as text (`\\x1b`, `\\n`: a rule file's texts are untrusted)."""
    style = style or Style()
    line = visible(line)
    out = Text(style=base)
    pos = 0
    for m in CARD_RE.finditer(line):
        out.append(style.plain(line[pos:m.start()]))
        out.append_text(card_text(m.group(0), style))
        pos = m.end()
    out.append(style.plain(line[pos:]))
    return out


def card_labels_in(text: str) -> set:
    """Every card label written in a text (for checks that nothing hidden is shown)."""
    return {m.group(0) for m in CARD_RE.finditer(text)}


@dataclass
class Layout:
    """The static shape of a game's table: its zones and the types of its variables."""

    title: str
    zones: dict = field(default_factory=dict)  # name -> (per_player, visibility, kind)
    var_types: dict = field(default_factory=dict)  # global variable -> type name
    pvar_types: dict = field(default_factory=dict)  # per-player variable -> type name
    card_order: dict = field(default_factory=dict)  # card label -> its position in the deck (suit, rank)

    @classmethod
    def of(cls, game) -> "Layout":
        program = game.program
        deck = game.deck
        order = {}
        for card in range(deck.size):
            order[deck.label_of(card)] = (deck.card_suit[card], deck.card_rank[card])
        return cls(
            title=game.title,
            zones=dict(game.symbols.zones),
            var_types={name: t for name, (_, t) in program.var_slots.items()},
            pvar_types={name: t for name, (_, t) in program.pvar_slots.items()},
            card_order=order,
        )

    def display_order(self, actions: Sequence) -> list:
        """The actions in the order a hand is shown, so that the numbers follow it and stay the same
        from turn to turn: the actions whose labels name cards are sorted by those cards (suit, then
        rank, as `sorted_hand`), among the places such actions hold; the others (`pass`, `draw`)
        keep their places; actions naming the same cards keep their order. Only the list shown is
        reordered: each action keeps its id."""
        keys = []
        for action in actions:
            cards = [m.group(0) for m in CARD_RE.finditer(action.label)]
            order = [self.card_order[c.split("#")[0]] for c in cards if c.split("#")[0] in self.card_order]
            keys.append(tuple(order) if order else None)
        places = [i for i, key in enumerate(keys) if key is not None]
        ranked = sorted(places, key=lambda i: keys[i])  # (a stable sort: equal cards keep their order)
        out = list(actions)
        for place, i in zip(places, ranked):
            out[place] = actions[i]
        return out

    def sorted_hand(self, labels: Sequence[Optional[str]]) -> list:
        known = sorted((c for c in labels if c is not None), key=lambda c: self.card_order.get(c, (99, 99)))
        return known + [None] * (len(labels) - len(known))


def words(name: str) -> str:
    """`deals_played` → `deals played`."""
    return name.replace("_", " ")


def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def zone_text(cards: Sequence[Optional[str]], kind: str, style: Style) -> Text:
    """A shared zone: its cards if known, a count for the face-down ones, the top of a big pile."""
    if not cards:
        return Text("empty", style="dim")
    known = [c for c in cards if c is not None]
    if not known:
        return Text(f"{_count(len(cards))} face down", style="dim")
    if kind == "pile" and len(cards) > PILE_SHOWN:
        out = Text(f"{_count(len(cards))}, top ", style="dim")
        top = cards[-1]
        out.append_text(card_text(top, style))
        return out
    out = cards_text(cards if len(known) == len(cards) else known, style)
    if len(known) < len(cards):
        out.append(f"  + {len(cards) - len(known)} face down", style="dim")
    return out


def groups_text(groups: Sequence[Sequence[Optional[str]]], style: Style) -> Text:
    """A zone of groups (`observation()["groups"]`): each group as laid, ` | ` between them, a
    count for the cards the viewer does not know."""
    if not groups:
        return Text(style.dot, style="dim")
    out = Text()
    for i, group in enumerate(groups):
        if i:
            out.append(" | ", style="dim")
        known = [c for c in group if c is not None]
        out.append_text(cards_text(known, style) if known else Text(_count(len(group)), style="dim"))
        if known and len(known) < len(group):
            out.append(f" +{len(group) - len(known)}", style="dim")
    return out


def seat_zone_text(cards: Sequence[Optional[str]], style: Style, count_only: bool = False) -> Text:
    """A player's zone in the players' table: the cards the viewer knows, a count for the rest."""
    if not cards:
        return Text(style.dot, style="dim")
    known = [c for c in cards if c is not None]
    if count_only or not known:
        return Text(_count(len(cards)), style="dim")
    out = cards_text(known, style)
    if len(known) < len(cards):
        out.append(f" +{len(cards) - len(known)}", style="dim")
    return out


def facts_text(told: Optional[Sequence], style: Style) -> Optional[Text]:
    """What a seat was told of the cards of one zone, by place from the bottom: `1: hearts · 3: not 5`
    (None when nothing: `observation()["facts"]`, see runtime/facts.py)."""
    parts = [f"{i}: {style.plain(fact['text'])}" for i, fact in enumerate(told or (), 1) if fact]
    return Text(style.sep.join(parts), style="green") if parts else None


def value_text(value, type_: Optional[str], style: Style) -> Text:
    """A variable's value: cards coloured, suits with their symbol, `none` as a dash."""
    if value is None:
        return Text("—" if not style.ascii else "-", style="dim")
    if isinstance(value, bool):
        return Text("yes" if value else "no")
    if type_ == "suit" and isinstance(value, str):
        symbol = SUIT_SYMBOLS.get(value)
        if symbol and not style.ascii:
            out = Text(symbol + " ", style=RED if symbol in RED_SYMBOLS else BLACK)
            out.append(value)
            return out
        return Text(value)
    if type_ == "card" and isinstance(value, str):
        return card_text(value, style)
    if isinstance(value, list):
        if type_ == "cards":
            return cards_text(value, style)
        return Text(", ".join(str(v) for v in value) or "—")
    return rich_line(str(value), style)


def render_table(obs: dict, layout: Layout, style: Optional[Style] = None, *, events: Sequence[str] = (),
                 events_title: str = "last events", earlier: int = 0, viewer: Optional[int] = None,
                 status: Optional[str] = None, header: Optional[str] = None) -> RenderableType:
    """The table as seat `obs["seat"]` sees it.

    `viewer` is the seat whose own cards are shown as a hand (None: a public view, e.g. between two
    people at one terminal). `events` are log lines to show (from the same observation's log);
    `earlier` how many older ones were left out.
    """
    style = style or Style()
    seat = obs["seat"]
    parts: list = []
    parts.append(Rule(Text(visible(header or layout.title), style="bold"), characters="-" if style.ascii else "─",
                      style="dim"))

    zones = obs["zones"]
    laid = obs.get("groups") or {}  # the zones of groups, group by group (runtime/groups.py)
    per_player = [n for n in zones if layout.zones.get(n, (False,))[0]]
    shared = [n for n in zones if n not in per_player]

    # the seat's own cards first, then the shared zones and the variables that are not a player
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column()
    if viewer is not None:
        for name in per_player:
            cards = zones[name][seat]
            visibility = layout.zones[name][1]
            if visibility == "public" or (visibility == "hidden" and not any(c is not None for c in cards)):
                continue  # public ones are in the players' table
            shown = layout.sorted_hand(cards) if visibility == "private" else list(cards)
            grid.add_row(Text(f"your {words(name)}", style="bold green"), hand_text(shown, style))
            told = facts_text((obs.get("facts") or {}).get(name, [None] * (seat + 1))[seat], style)
            if told is not None:  # what the seat was told of cards it does not see (a hand facing away)
                grid.add_row(Text("  you were told", style="green"), told)
    for name in shared:
        kind = layout.zones.get(name, (0, 0, "pile"))[2]
        if zones[name] and isinstance(zones[name][0], list):  # a numbered family: a row per pile
            for k, pile in enumerate(zones[name], 1):
                grid.add_row(f"{words(name)} {k}", zone_text(pile, kind, style))
            continue
        if name in laid:  # a zone of groups: its groups as laid
            grid.add_row(words(name), groups_text(laid[name], style))
            continue
        grid.add_row(words(name), zone_text(zones[name], kind, style))
    badges: dict = {}
    for name, value in obs["variables"].items():
        type_ = layout.var_types.get(name)
        if type_ == "player":
            if isinstance(value, str) and value.startswith("P") and value[1:].isdigit():
                badges.setdefault(int(value[1:]), []).append(words(name))
            continue
        if type_ == "players" and isinstance(value, list):
            for p in value:
                if isinstance(p, str) and p.startswith("P") and p[1:].isdigit():
                    badges.setdefault(int(p[1:]), []).append(words(name))
            continue
        grid.add_row(words(name), value_text(value, type_, style))
    if grid.row_count:
        parts.append(grid)

    # one row per player: badges (dealer…), their zones, their public variables
    players = Table(box=style.box, pad_edge=True, show_edge=True, header_style="bold", expand=False)
    players.add_column("player", no_wrap=True)
    for name in per_player:
        players.add_column(words(name))
    for name in obs["player_variables"]:
        players.add_column(words(name), justify="right")
    teams = obs.get("teams") or []  # partnerships: each seat's team, and its team's variables
    team_of = {p: k for k, members in enumerate(teams) for p in members}
    if teams:
        players.add_column("team")
        for name in obs["team_variables"]:
            players.add_column(words(name), justify="right")
    winners = set(obs.get("winners") or ())
    for s in range(obs["players"]):
        label = Text(f"P{s}", style="bold")
        if s == viewer:
            label.append(" you", style="green")
        for badge in badges.get(s, ()):
            label.append(f" {badge}", style="yellow")
        if not obs["active"][s]:
            label.append(" out", style="dim")
            label.stylize("dim")
        if f"P{s}" in winners:
            label.append(f" {style.star} winner", style="bold yellow")
        if obs["current_player"] == s:
            label.append(f" {style.turn}", style="bold yellow")
        row: list = [label]
        for name in per_player:
            # the viewer's own private cards are shown above, as a hand
            own_hand = s == viewer and layout.zones[name][1] == "private"
            if name in laid and not own_hand:
                row.append(groups_text(laid[name][s], style))
                continue
            row.append(seat_zone_text(zones[name][s], style, count_only=own_hand))
        for name, values in obs["player_variables"].items():
            row.append(value_text(values[s], layout.pvar_types.get(name), style))
        if teams:
            k = team_of[f"P{s}"]
            row.append(Text(" & ".join(teams[k])))
            for values in obs["team_variables"].values():
                row.append(value_text(values[k], None, style))
        players.add_row(*row)
    parts.append(players)

    if events or earlier:
        parts.append(Text(events_title, style="bold cyan"))
        if earlier:
            parts.append(Text(f"  {style.more} {earlier} earlier (type `log` to see them)", style="dim"))
        for line in events:
            parts.append(rich_line("  " + line, style))
    if status:
        parts.append(Text(status, style="bold"))
    return Group(*parts)


def actions_list(labels: Iterable[str], style: Optional[Style] = None) -> Table:
    """The legal actions as a numbered list, in the labels the `.cards` file gives them."""
    style = style or Style()
    labels = list(labels)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold")
    grid.add_column()
    columns = 3 if len(labels) > 12 else 2 if len(labels) > 6 else 1
    rows = (len(labels) + columns - 1) // columns
    if columns > 1:
        for _ in range(columns - 1):
            grid.add_column(justify="right", style="bold")
            grid.add_column()
    for r in range(rows):
        cells: list = []
        for c in range(columns):
            i = c * rows + r
            if i < len(labels):
                cells += [f"  {i + 1}.", rich_line(labels[i], style)]
            else:
                cells += ["", ""]
        grid.add_row(*cells)
    return grid


def scores_table(scores: Sequence, winners: Iterable[int], style: Optional[Style] = None,
                 active: Optional[Sequence[bool]] = None, order: Optional[str] = None) -> Table:
    """Final scores, one row per seat, the winners marked. With the score's `order` ("lowest" or
    "highest": which score wins), the header says so and a column gives each seat's place."""
    style = style or Style()
    winners = set(winners)
    table = Table(box=style.box, header_style="bold")
    table.add_column("player")
    table.add_column("score" if order is None else f"score ({order} wins)", justify="right")
    if order is not None:
        table.add_column("place", justify="right")
    table.add_column("")
    places = score_places(scores, order) if order is not None else None
    for s, value in enumerate(scores):
        mark = Text(f"{style.star} winner", style="bold yellow") if s in winners else Text("")
        if active is not None and not active[s] and s not in winners:
            mark = Text("out", style="dim")
        cells = [f"P{s}", str(number(value))] + ([str(places[s])] if places is not None else []) + [mark]
        table.add_row(*cells)
    return table


def team_scores_table(teams: Sequence, style: Optional[Style] = None, order: Optional[str] = None) -> Table:
    """Final scores of a game with partnerships (`play.team_result.TeamResult`s): one row a team,
    its players, its score (with its place, under a score's `order`), its payoff when the game
    declares one beside its score, the winning teams marked."""
    style = style or Style()
    table = Table(box=style.box, header_style="bold")
    table.add_column("team")
    table.add_column("players")
    table.add_column("score" if order is None else f"score ({order} wins)", justify="right")
    shared = all(len(set(t.score)) == 1 for t in teams)  # places need one score a team
    places = score_places([t.score[0] for t in teams], order) if order is not None and shared else None
    if places is not None:
        table.add_column("place", justify="right")
    payoff = teams[0].payoff is not None
    if payoff:
        table.add_column("payoff", justify="right")
    table.add_column("")
    for k, t in enumerate(teams):
        mark = Text(f"{style.star} winner", style="bold yellow") if t.won else Text("")
        cells = [f"T{t.number}", " & ".join(f"P{s}" for s in t.seats), team_value(t, t.score)]
        cells += ([str(places[k])] if places is not None else []) + ([team_value(t, t.payoff)] if payoff else [])
        table.add_row(*cells, mark)
    return table


def terminal_shows_symbols(stream=None) -> bool:
    """Whether the output's encoding can write suit symbols and box lines."""
    stream = stream or sys.stdout
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SYMBOLS.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def score_order(game) -> Optional[str]:
    """Which score wins, as the game's `score of p: …, lowest wins` (or `highest wins`) says; None
    when its score does not decide who wins."""
    score = game.symbols.score
    return score.order if score is not None else None


def score_places(scores: Sequence, order: str) -> list:
    """Each seat's place by its score, 1 the best (the lowest score when `order` is "lowest"); tied
    seats share a place and the next place is skipped (1, 1, 3)."""
    sign = -1 if order == "lowest" else 1
    return [1 + sum(1 for w in scores if sign * w > sign * v) for v in scores]


def known_places(obs: dict) -> dict:
    """Where the observation's seat knows each card to be: label -> (zone name, owner seat or None)
    (a numbered pile's number stands in the owner's place)."""
    out = {}
    for name, cards in obs["zones"].items():
        if cards and isinstance(cards[0], list):  # a zone of each player, or a numbered family
            for k, pile in enumerate(cards):
                for c in pile:
                    if c is not None:
                        out[c] = (name, k)
        else:
            for c in cards:
                if c is not None:
                    out[c] = (name, None)
    return out


def receipts(before: dict, after: dict, layout: Layout) -> list:
    """What a seat saw arrive in a player's hidden zones (a hand) between two of its observations
    (`State.view(seat).observation()`): `P0's hand gets 9♠`. Its own private zones: every card that
    came (it sees them all); another player's: a card it knew to be in a zone that is not public (a
    card it gave him, or both saw in an exchange), never one it learns there only now (a `reveal`,
    which the log tells). Only what the observations hold, so only what the seat knows."""
    seat = after["seat"]
    was = known_places(before)
    lines = []
    for name, (per_player, visibility, _) in layout.zones.items():
        if not per_player or visibility == "public" or name not in after["zones"]:
            continue
        for r, cards in enumerate(after["zones"][name]):
            old = Counter(c for c in before["zones"][name][r] if c is not None)
            new = []
            for c in cards:
                if c is None:
                    continue
                if old[c]:
                    old[c] -= 1
                    continue
                place = was.get(c)
                seen_coming = place is not None and place != (name, r) and layout.zones[place[0]][1] != "public"
                if (r == seat and visibility == "private") or seen_coming:
                    new.append(c)
            if new:
                lines.append(f"{zone_words(f'{name}(P{r})')} gets {', '.join(layout.sorted_hand(new))}")
    return lines


def choice_answers(program) -> dict:
    """The per-player variables a choice sets to the number chosen (`p chooses a number n …: set
    bid(p) = n`): variable name -> the indexes of those choices. Until a player has answered such a
    choice in the current round, his value is the variable's starting value, not an answer (a bid
    of 0 nobody made): the table shows a dash (`unanswered`)."""
    names = {base: name for name, (base, _) in program.pvar_slots.items()}
    out: dict = {}
    for choose in program.ir.choices:
        for alt in choose.alternatives:
            if alt.kind != "number":
                continue
            for node in _nodes(alt.body):
                if (isinstance(node, ir.Assign) and isinstance(node.target, ir.PlayerVarTarget)
                        and isinstance(node.value, ir.Slot) and node.value.slot == alt.slot
                        and node.target.base in names):
                    out.setdefault(names[node.target.base], set()).add(choose.index)
    return out


def _nodes(value):
    """Every IR node in a value (a node, or tuples of them), depth first."""
    if isinstance(value, (tuple, list)):
        for item in value:
            yield from _nodes(item)
    elif attrs.has(type(value)):
        yield value
        for f in attrs.fields(type(value)):
            yield from _nodes(getattr(value, f.name))


def unanswered(obs: dict, answered: dict, answers: dict, round_: int) -> dict:
    """The observation with a dash (None) for each per-player variable of `answers` (`choice_answers`)
    a player has not set by his choice in round `round_` (`answered`: (name, seat) -> round)."""
    if not answers:
        return obs
    values = dict(obs["player_variables"])
    for name in answers:
        if name in values:
            values[name] = [v if answered.get((name, s)) == round_ else None for s, v in enumerate(values[name])]
    return dict(obs, player_variables=values)
