"""Stage 1, parse: the transformer's methods for the declarations of a file (game, players,
options, deck, zones, variables, teams, scores, payoffs, phases), a part of `parse._ToAst` kept in a
module of its own. Each method is named as its grammar rule and builds its `ast` node with its span
(`self.S(meta)`, `self.T(token)`: the transformer's)."""

from __future__ import annotations

from typing import Optional

import attrs
from lark import Token, Transformer, v_args

from . import ast
from .text_literals import unquote


def type_name(name, item) -> Optional[str]:
    """A declared type as written: `suit`, or `list of kind` (a list of declared values: the checker
    tells whether the words name a type)."""
    if name is None:
        return None
    return f"{name} of {item}" if item is not None else str(name)


@attrs.define(frozen=True)
class _DeckRank:
    """A rank of `deck ranks …`, maybe with how players read it (`DrawTwo "Draw Two"`)."""

    name: str
    label: Optional[str]


@v_args(meta=True)
class _Declarations(Transformer):
    """The declarations' rules of the transformer, a private part of `parse._ToAst` (which inherits
    them): callbacks named after the grammar's rules, as the transformer's own."""

    # -- declarations
    def game_decl(self, meta, c):
        return ast.GameDecl(self.S(meta), unquote(c[0]))

    def about_decl(self, meta, c):
        return ast.AboutDecl(self.S(meta), unquote(c[0]))

    def extends_decl(self, meta, c):
        return ast.ExtendsDecl(self.S(meta), tuple((unquote(t), self.T(t)) for t in c))

    def players_decl(self, meta, c):
        low = int(c[0])
        return ast.PlayersDecl(self.S(meta), low, int(c[1]) if c[1] is not None else low)

    def limit_decl(self, meta, c):
        return ast.LimitDecl(self.S(meta), tuple(c))

    def limit_item(self, meta, c):
        return (int(c[0]), str(c[1]), self.S(meta))

    def direction_decl(self, meta, c):
        return ast.DirectionDecl(self.S(meta), str(c[0]), self.T(c[0]))

    def signed_int(self, meta, c):
        return -int(c[1]) if len(c) == 2 else int(c[0])

    def literal(self, meta, c):
        v = c[0]
        if isinstance(v, Token):
            if v.type == "STRING":
                v = unquote(v)
            elif v.type == "TRUE":
                v = True
            elif v.type == "FALSE":
                v = False
        return (v, self.S(meta))

    def option_list(self, meta, c):
        return (tuple(c), self.S(meta))

    def reverse_stmt(self, meta, c):
        return ast.Reverse(self.S(meta))

    def direction_stmt(self, meta, c):
        return ast.SetDirection(self.S(meta), str(c[0]), self.T(c[0]))

    def option_range(self, meta, c):
        return ("range", c[0], c[1])

    def option_choices(self, meta, c):
        return ("choices", tuple(v for v, _ in c))

    def option_decl(self, meta, c):
        name, (default, dspan), domain, help_ = c
        low = high = choices = None
        if domain is not None:
            if domain[0] == "range":
                low, high = domain[1], domain[2]
            else:
                choices = domain[1]
        return ast.OptionDecl(
            self.S(meta), str(name), default, low, high, choices,
            unquote(help_) if help_ is not None else None, self.T(name), dspan,
        )

    def deck_item(self, meta, c):
        count, word, *rest = c
        label = rest.pop()  # the placeholder of [STRING]
        ranks = tuple(str(t) for t in rest if t is not None)
        option = str(count) if count.type == "NAME" else None  # `with shoe decks`: the option `shoe`
        return ast.DeckExtra(self.S(meta), 1 if option else int(count), str(word), ranks,
                             unquote(label) if label is not None else None, option)

    def deck_count(self, meta, c):
        return c[0]

    def deck_with(self, meta, c):
        return tuple(c)

    def deck_suit(self, meta, c):
        return (str(c[0]), str(c[1]) if c[1] is not None else None, self.S(meta))

    def deck_named(self, meta, c):
        return ast.DeckSpec(self.S(meta), str(c[0]), (), (), c[1] or ())

    def deck_custom(self, meta, c):
        extras = c[-1] or ()
        ranks = [t for t in c[:-1] if isinstance(t, _DeckRank)]
        suits = [t for t in c[:-1] if isinstance(t, tuple)]
        labels = tuple(r.label for r in ranks) if any(r.label for r in ranks) else ()
        return ast.DeckSpec(self.S(meta), None, tuple(r.name for r in ranks), tuple(n for n, _, _ in suits), extras,
                            tuple((short, span) for _, short, span in suits), labels)

    def deck_rank(self, meta, c):
        return _DeckRank(str(c[0]), unquote(c[1]) if c[1] is not None else None)

    def deck_only_named(self, meta, c):
        """`deck with 4 Wild, 2 Skip`: a deck of named cards only, no ranks, no suits."""
        return ast.DeckSpec(self.S(meta), None, (), (), c[0], ())

    def deck_if(self, meta, c):
        first, cond, rest = c
        tail = rest.choices if isinstance(rest, ast.DeckDecl) else ((None, rest),)
        return ast.DeckDecl(self.S(meta), ((cond, first),) + tail)

    def deck_decl(self, meta, c):
        spec = c[0]
        if isinstance(spec, ast.DeckDecl):
            return ast.DeckDecl(self.S(meta), spec.choices)
        return ast.DeckDecl(self.S(meta), ((None, spec),))

    def order_decl(self, meta, c):
        return ast.OrderDecl(self.S(meta), str(c[0]), tuple((str(t), self.T(t)) for t in c[1:]), self.T(c[0]))

    def points_decl(self, meta, c):
        return ast.PointsDecl(self.S(meta), str(c[0]), tuple(c[1:]), self.T(c[0]))

    def points_item(self, meta, c):
        return (str(c[0]), c[1], self.T(c[0]))

    def ranking_decl(self, meta, c):
        name, order, *cats, ace = c
        return ast.RankingDecl(
            self.S(meta), str(name), str(order), tuple((str(t), self.T(t)) for t in cats),
            ace is not None, self.T(name), self.T(order),
        )

    def values_decl(self, meta, c):
        return ast.ValuesDecl(self.S(meta), str(c[0]), tuple(c[1:]), self.T(c[0]))

    def named_values_decl(self, meta, c):
        return ast.NamedValuesDecl(self.S(meta), str(c[0]), tuple((str(t), self.T(t)) for t in c[1:]), self.T(c[0]))

    def value_item(self, meta, c):
        return (str(c[0]), c[1], self.S(meta))

    def melds_decl(self, meta, c):
        return ast.MeldsDecl(self.S(meta), tuple(c))

    def combinations_decl(self, meta, c):
        return ast.CombinationsDecl(self.S(meta), str(c[0]), self.T(c[0]), tuple(c[1:]))

    def meld_attr(self, meta, c):
        words = [t for t in c if t is not None]
        number = next((int(t) for t in words if t.type == "INT"), None)
        names = [str(t) for t in words if t.type != "INT"]
        order = names.pop() if number is not None and len(names) > 1 else None
        return (" ".join(names), number, order, self.S(meta))

    def zone_attr(self, meta, c):
        return (" ".join(str(t) for t in c), self.S(meta))

    def zone_count_attr(self, meta, c):
        return (f"{c[0]} {c[1]}", self.S(meta))

    def zone_decl(self, meta, c):
        return ast.ZoneDecl(self.S(meta), str(c[0]), tuple(c[1:]), self.T(c[0]))

    def var_decl(self, meta, c):
        return ast.VarDecl(self.S(meta), str(c[0]), type_name(c[1], c[2]), c[3], False, self.T(c[0]))

    def player_var_decl(self, meta, c):
        return ast.VarDecl(self.S(meta), str(c[0]), type_name(c[1], c[2]), c[3], True, self.T(c[0]))

    # -- partnerships
    def teams_across(self, meta, c):
        return ast.TeamsDecl(self.S(meta), int(c[0]))

    def teams_listed(self, meta, c):
        return ast.TeamsDecl(self.S(meta), None, tuple(c))

    def team_seats(self, meta, c):
        return (tuple(int(x) for x in c), self.S(meta))

    def team_var_decl(self, meta, c):
        return ast.VarDecl(self.S(meta), str(c[0]), type_name(c[1], c[2]), c[3], False, self.T(c[0]), True)

    def team_score_decl(self, meta, c):
        return ast.ScoreDecl(self.S(meta), str(c[0]), c[1], str(c[2]) if c[2] is not None else None, True)

    def team_payoff_decl(self, meta, c):
        return ast.PayoffDecl(self.S(meta), str(c[0]), c[1], c[2] is not None, False, True)

    def partner_of(self, meta, c):
        return ast.PartnerOf(self.S(meta), c[0])

    def team_of(self, meta, c):
        return ast.TeamOf(self.S(meta), c[0])

    def teams(self, meta, c):
        return self._named("teams", meta) or ast.Teams(self.S(meta))

    def params(self, meta, c):
        return tuple(c)

    def param(self, meta, c):
        return ast.Param(self.S(meta), str(c[0]), type_name(c[1], c[2]))

    def define_decl(self, meta, c):
        return ast.DefineDecl(self.S(meta), str(c[0]), c[1] or (), c[2], self.T(c[0]))

    def score_decl(self, meta, c):
        return ast.ScoreDecl(self.S(meta), str(c[0]), c[1], str(c[2]) if c[2] is not None else None,
                             among_seats=c[3] is not None)

    def among_seats(self, meta, c):
        return True

    def score_order(self, meta, c):
        return c[0]

    def payoff_decl(self, meta, c):
        return ast.PayoffDecl(self.S(meta), str(c[0]), c[1], c[2] is not None)

    def zero_sum(self, meta, c):
        return True

    def shared_payoff_decl(self, meta, c):
        return ast.PayoffDecl(self.S(meta), None, c[0], False, True)

    def setup_decl(self, meta, c):
        return ast.BlockDecl(self.S(meta), "setup", "setup", (), c[0], self.S(meta))

    def round_decl(self, meta, c):
        return ast.BlockDecl(self.S(meta), "round", "round", (), c[0], self.S(meta))

    def phase_decl(self, meta, c):
        return ast.BlockDecl(self.S(meta), "phase", str(c[0]), c[1] or (), c[2], self.T(c[0]))
