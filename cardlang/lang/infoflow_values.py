"""The taint of an expression for the information-flow check (W004, `lang/infoflow.py`): which
sources a value is computed from, given the local names and the facts (what is shown)."""

from __future__ import annotations

from typing import Optional

from . import ast
from .flow import _mentions as ast_mentions
from .infoflow_model import (ALL, CARDISH, EMPTY, NOTHING, Binding, Source, Val, _scalar, _seen, _shown_to,
                             show)


class Expressions:
    """The expression half of `InfoFlow` (a mixin: it has `sym`, `types`, `_tick` and `_over`)."""

    def _family(self, e) -> Optional[str]:
        if isinstance(e, ast.Name) and e.name in self.sym.zones and not self.sym.zones[e.name][0]:
            return e.name
        if isinstance(e, ast.Call) and e.func in self.sym.zones and (
                self.sym.zones[e.func][0] or e.func in self.sym.zone_counts):  # (a player's, or a pile)
            return e.func
        return None

    def _pile(self, e, env: dict):
        """The key of the number of one pile of a numbered family written as a literal (`column(2)`),
        else None: what changes in that pile leaves what is known of the others."""
        if isinstance(e, ast.Call) and e.func in self.sym.zone_counts and len(e.args) == 1:
            key = self._canon(e.args[0], env)
            return key if key[:1] == ("lit",) else None
        return None

    def _canon(self, e, env: dict):
        """A key for what an expression stands for, equal for the same player or zone written alike."""
        if isinstance(e, ast.Name):
            if e.name in env:
                return env[e.name].alias
            if e.name in self.sym.zones:
                return ("zone", e.name, None)
            return ("g", e.name)
        if isinstance(e, ast.Call):
            args = tuple(self._canon(a, env) for a in e.args)
            if e.func in self.sym.zones and len(args) == 1:
                return ("zone", e.func, args[0])
            return ("call", e.func, args)
        if isinstance(e, ast.Neighbour):
            return (e.side, self._canon(e.player, env))
        if isinstance(e, ast.EndCard):
            return ("end", e.end, self._canon(e.zone, env), self._canon(e.count, env) if e.count else None)
        if isinstance(e, (ast.Seats, ast.Number)) or (isinstance(e, ast.Players) and e.start is None and e.stop is None):
            return ("lit", getattr(e, "value", type(e).__name__))
        return ("expr", id(e))

    def _zone(self, e: ast.Expr, family: str, owner_expr, env: dict, facts: frozenset) -> Val:
        per_player, visibility, _ = self.sym.zones[family]
        owner = self._canon(owner_expr, env) if owner_expr is not None else None
        if visibility == "public":  # (unless cards were just moved into it face down)
            down = [f[2] for f in facts if f[0] == "down" and f[1] == ("zone", family, owner)]
            return Val(frozenset().union(*down))
        if ("zone", family, owner) in facts or ("zone", family, ALL) in facts:
            return NOTHING
        if isinstance(owner_expr, ast.Name) and owner_expr.name in env:
            over = env[owner_expr.name].over
            if over is not None and ("zone", family, over) in facts:
                return NOTHING
        private = visibility in ("private", "facing away") and self.types.get(id(owner_expr)) == "player"
        viewers = _shown_to(("zone", family, owner), facts)
        away = visibility == "facing away"  # (seen by every seat but its owner: `Source.mine`)
        return Val(frozenset({Source(family, owner if private else None, show(e, env), private and not away, viewers,
                                     away)}))

    def _ev(self, e, env: dict, facts: frozenset) -> Val:
        """The taint of an expression where `env` binds the local names and `facts` says what is shown."""
        self._tick()
        if e is None or isinstance(e, (ast.Number, ast.Bool, ast.NoneLit, ast.Seats, ast.AllCards, ast.CardLit,
                                ast.EveryonePassed)):
            return NOTHING  # (a card literal: cards the rules name, wherever they are)
        if isinstance(e, ast.Text):
            return _scalar(*(self._ev(p, env, facts) for p in e.parts if isinstance(p, ast.Expr)))
        if isinstance(e, ast.Name):
            if e.name in env:
                b = env[e.name]
                if b.alias in facts:
                    return Val(EMPTY, b.val.shape)
                return _seen(b.val, _shown_to(b.alias, facts))
            if e.name in self.sym.zones:
                return self._zone(e, e.name, None, env, facts)
            key = ("g", e.name)
            if key in facts:  # (`reveal drawn`, and nothing set since)
                return NOTHING
            return _seen(Val(self.globals.get(e.name, EMPTY)), _shown_to(key, facts))
        if isinstance(e, ast.ListExpr):
            items = [self._ev(i, env, facts) for i in e.items]
            if self.types.get(id(e)) in CARDISH:  # a list of cards: its length is written in the rules
                return Val(frozenset().union(*(i.ident for i in items)), frozenset().union(*(i.shape for i in items)))
            return _scalar(*items)
        if isinstance(e, ast.Call):
            return self._ev_call(e, env, facts)
        if isinstance(e, ast.Index):
            base, index = self._ev(e.base, env, facts), self._ev(e.index, env, facts)
            return Val(base.ident | index.all, base.shape | index.all)
        if isinstance(e, ast.Unary):
            return _scalar(self._ev(e.operand, env, facts))
        if isinstance(e, ast.Binary):
            return self._ev_binary(e, env, facts)
        if isinstance(e, ast.Conditional):
            cond = self._ev(e.cond, env, facts).all
            v = self._ev(e.then, env, facts).join(self._ev(e.otherwise, env, facts))
            return Val(v.ident | cond, v.shape | cond)
        if isinstance(e, ast.Neighbour):
            return _scalar(self._ev(e.player, env, facts))
        if isinstance(e, ast.EndCard):
            z, n = self._ev(e.zone, env, facts), self._ev(e.count, env, facts)
            if self.types.get(id(e.zone)) in CARDISH:
                key = self._canon(e, env)
                if key in facts:  # `reveal top of talon`, and nothing moved since
                    return Val(EMPTY, z.shape | n.all)
                return _seen(Val(z.ident | n.all, z.shape | n.all), _shown_to(key, facts))
            return _scalar(z, n)
        if isinstance(e, ast.Players):
            return _scalar(self._ev(e.start, env, facts), self._ev(e.stop, env, facts))
        if isinstance(e, ast.Aggregate):
            return self._ev_aggregate(e, env, facts)
        if isinstance(e, ast.FaceUp):  # which cards every seat knows is seen by every seat
            return Val(self._ev(e.card, env, facts).shape)
        if isinstance(e, ast.PositionOf):
            return _scalar(self._ev(e.card, env, facts), self._ev(e.zone, env, facts))
        if isinstance(e, ast.GroupOf):  # (which cards lie with it: told by the card, all laid face up)
            return _scalar(self._ev(e.card, env, facts))
        if isinstance(e, ast.Range):  # (its length and its numbers are what its ends are)
            return _scalar(self._ev(e.low, env, facts), self._ev(e.high, env, facts))
        return NOTHING  # (`piles of column`: numbers the rules write)

    def _ev_call(self, e: ast.Call, env: dict, facts: frozenset) -> Val:
        args = [self._ev(a, env, facts) for a in e.args]
        s = self.sym
        if e.func in s.zones and s.zones[e.func][0] and e.func not in env and len(e.args) == 1:
            who = args[0].all
            z = self._zone(e, e.func, e.args[0], env, facts)
            return Val(z.ident | who, z.shape | who)
        if e.func in s.zone_counts and e.func not in env and len(e.args) == 1:  # one pile of a family
            k = args[0].all
            z = self._zone(e, e.func, e.args[0], env, facts)  # (a pile is shown on its own)
            return Val(z.ident | k, z.shape | k)
        if e.func in s.defines and len(e.args) == len(s.defines[e.func].params):
            d = s.defines[e.func]
            inner = {}
            for p, a, x in zip(d.params, args, e.args):
                over = env[x.name].over if isinstance(x, ast.Name) and x.name in env else None
                inner[p.name] = Binding(a, self._canon(x, env), over, show(x, env))
            return self._ev(d.body, inner, facts)
        if e.func == "count" and args and self.types.get(id(e.args[0])) in CARDISH:
            return Val(args[0].shape)
        face = self._face_read(e.func)
        if face is not None and len(e.args) == 1 and ("face", face, self._canon(e.args[0], env)) in facts:
            return Val(args[0].shape)  # (`tell players the rank of c`: every seat knows it)
        if e.func in ("random",) and args:
            return args[0]
        return _scalar(*args)

    def _face_read(self, func: str) -> Optional[str]:
        """The face of a card a function of one card reads: "rank" (`rank`, an order, points, values),
        "suit" (`suit`, `colour`), or None."""
        if func in ("suit", "colour"):
            return "suit"
        sym = self.sym.table.get(func)
        if func == "rank" or func in self.sym.orders or func in self.sym.values or (sym is not None and sym.kind == "points"):
            return "rank"
        return None

    def _leaves_out_one(self, where, var: str, src: Val, env: dict, facts: frozenset) -> bool:
        """Whether an aggregate's `where` only leaves out a card taken from the same cards (`d != c`):
        how many remain does not depend on which card it is."""
        if not (isinstance(where, ast.Binary) and where.op in ("!=", "is not")):
            return False
        for mine, other in ((where.left, where.right), (where.right, where.left)):
            if isinstance(mine, ast.Name) and mine.name == var and not ast_mentions(other, var):
                return self.types.get(id(other)) == "card" and self._ev(other, env, facts).ident <= src.ident
        return False

    def _ev_binary(self, e: ast.Binary, env: dict, facts: frozenset) -> Val:
        left, right = self._ev(e.left, env, facts), self._ev(e.right, env, facts)
        if e.op in ("is", "is not", "==", "!=") and isinstance(e.right, ast.NoneLit):
            return Val(left.shape)
        if e.op in ("+", "except") and self.types.get(id(e)) in CARDISH:
            if e.op == "except" and right.ident <= left.ident:
                # leaving out cards taken from the same place: how many remain does not depend on them
                return Val(left.ident, left.shape | right.shape)
            return Val(left.ident | right.ident, left.shape | right.all)
        return _scalar(left, right)

    def _ev_aggregate(self, e: ast.Aggregate, env: dict, facts: frozenset) -> Val:
        src = self._ev(e.source, env, facts)
        cards = self.types.get(id(e.source)) in CARDISH
        inner = dict(env)
        inner[e.var] = Binding(Val(src.ident) if cards else Val(src.all), ("agg", id(e)), self._over(e.source, env))
        if cards and self._leaves_out_one(e.where, e.var, src, env, facts):
            where = EMPTY  # (`select d in hand(p) where d != c`, c of hand(p): as `hand(p) except c`)
        else:
            where = self._ev(e.where, inner, facts).all if e.where is not None else EMPTY
        body = self._ev(e.body, inner, facts).all if e.body is not None else EMPTY
        many = src.shape if cards else src.all
        if e.kind in ("any", "count", "sum", "min", "max"):
            return Val(many | where | body)
        if e.kind == "select":
            return Val(src.ident | where, src.shape | where) if cards else Val(src.all | where)
        return Val(src.ident | body | where, src.shape | where) if cards else Val(src.all | body | where)
