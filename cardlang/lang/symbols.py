"""What the checker learns of a game: each declared name (`Symbol`) and the whole (`Symbols`)."""

from __future__ import annotations

from typing import Optional

import attrs

from . import ast
from .diagnostics import Span


@attrs.define
class Symbol:
    """A declared name: what it is (`kind`), its type, and its declaration."""

    kind: str  # option, var, pvar, zone, pzone, order, ranking, define, phase, local, rank, suit, colour, const, points, value
    type: str
    decl: object = None
    span: Optional[Span] = None
    used: bool = False


@attrs.define
class Symbols:
    """Everything the checker learned about a game: declarations by name, and the procedure."""

    title: str = "untitled"
    about: str = ""
    players: tuple = (2, 2)
    direction: str = "left"
    table: dict = attrs.Factory(dict)  # name -> Symbol (global names)
    options: dict = attrs.Factory(dict)
    deck: Optional[ast.DeckDecl] = None
    orders: dict = attrs.Factory(dict)
    rankings: dict = attrs.Factory(dict)
    zones: dict = attrs.Factory(dict)  # name -> (per_player, visibility, kind)
    zone_counts: dict = attrs.Factory(dict)  # name of a numbered family (`7 piles`) -> its number of piles
    group_zones: set = attrs.Factory(set)  # zones of groups (`groups`): cards go in by `lay` (lang/check_groups.py)
    vars: dict = attrs.Factory(dict)  # name -> Symbol
    pvars: dict = attrs.Factory(dict)
    defines: dict = attrs.Factory(dict)
    phases: dict = attrs.Factory(dict)
    setup: Optional[ast.BlockDecl] = None
    round: Optional[ast.BlockDecl] = None
    score: Optional[ast.ScoreDecl] = None
    payoff: Optional[ast.PayoffDecl] = None  # `payoff of p: …` or `shared payoff: …` (None: 1 a win, 0 a loss)
    limits: dict = attrs.Factory(dict)  # "decisions" / "rounds" -> the cap a `limit` line sets
    types: dict = attrs.Factory(dict)  # id(expression node) -> its type, for the compiler
    values: dict = attrs.Factory(dict)  # `values` declarations by name (also in `table`, as orders)
    named_values: dict = attrs.Factory(dict)  # `values strain: clubs …` by name: each a type (lang/check_values.py)
    melds: Optional[ast.MeldsDecl] = None
    combinations: Optional[ast.CombinationsDecl] = None  # a climbing game's kinds of play (lang/check_melds.py)
    combination_kinds: dict = attrs.Factory(dict)  # kind -> its number (runtime/climbing.py), once checked
    passes: bool = False  # the rules say `p passes`: the lowering keeps the passes in a row
    facts: bool = False  # the game tells seats facts of cards (`tell …`): states keep `facts` (runtime/facts.py)
    teams: Optional[ast.TeamsDecl] = None  # the partnerships (see lang/check_teams.py)
    tvars: dict = attrs.Factory(dict)  # per-team variables: name -> Symbol
    meld_rule: dict = attrs.Factory(dict)  # sets, runs (min, order), ace, deadwood: see check_melds
    pots: dict = attrs.Factory(dict)  # `pot` declarations by name (lang/check_pots.py)
