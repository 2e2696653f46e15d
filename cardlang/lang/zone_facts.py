"""What the choice check knows about the zones along a block: how many cards each holds at every
legal player count, and which hold cards drawn at random from the whole deck; what a statement
does to that, and what a loop may change. A mixin of `NonEmpty`."""

from __future__ import annotations

import functools
from typing import Optional

import attrs

from . import ast, statements
from .flow import _key
from .choice_theory import _num
from .statements import UnknownStatement

@attrs.define
class Facts:
    """How many cards zones hold ({key: {player count: (low, high)}}) and which hold random cards of
    the whole deck. A key is ("z", name) or ("p", name, key of whose) (("p", name, "*"): everyone's)."""

    sizes: dict = attrs.Factory(dict)
    random: frozenset = frozenset()
    all_in: bool = False  # every player is surely still in (the first round, before any elimination)

    def copy(self) -> "Facts":
        """An independent copy."""
        return Facts(dict(self.sizes), self.random, self.all_in)


def _hull(a, b):
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _join(states: list) -> Facts:
    """What holds after one of several branches ran."""
    first, rest = states[0], states[1:]
    sizes = {}
    for key, by_n in first.sizes.items():
        if all(key in s.sizes for s in rest):
            merged = {n: v for n, v in by_n.items()}
            for s in rest:
                merged = {n: _hull(v, s.sizes[key].get(n)) for n, v in merged.items()}
            if any(v is not None for v in merged.values()):
                sizes[key] = {n: v for n, v in merged.items() if v is not None}
    random = first.random
    for s in rest:
        random &= s.random
    return Facts(sizes, random, all(s.all_in for s in states))


def _names_players(e) -> bool:
    """Whether an expression counts on who is still in (`players`, `count(players)`, `next of p`)."""
    if isinstance(e, (ast.Players, ast.Neighbour)):
        return True
    if not isinstance(e, ast.Expr):
        return False
    for f in attrs.fields(type(e)):
        v = getattr(e, f.name)
        if isinstance(v, ast.Expr) and _names_players(v):
            return True
        if isinstance(v, tuple) and any(_names_players(x) for x in v if isinstance(x, ast.Expr)):
            return True
    return False


def _literal(whose) -> bool:
    """Whether the key of a zone's owner or pile is a number written out (`column(2)`)."""
    return isinstance(whose, tuple) and len(whose) == 2 and whose[0] == "Number"


def _to_players(dest) -> bool:
    return isinstance(dest, ast.Call) and len(dest.args) == 1 and isinstance(dest.args[0], ast.Players)


def _eliminates_in(stmts) -> bool:
    """Whether statements may put a player out: `eliminate`, or a phase played (which may)."""
    for st in stmts:
        if isinstance(st, (ast.Eliminate, ast.CallPhase)):
            return True
        if any(_eliminates_in(body) for body in statements.child_blocks(st)):
            return True
    return False

class ZoneFacts:
    """The zone facts' transfer functions (mixed into `NonEmpty`, which has `sym`, `flow`, `counts`
    and `_card_source`)."""

    def _zone_key(self, e, scopes) -> Optional[tuple]:
        """The key of a zone expression (None when it is not one zone the walk can name)."""
        if isinstance(e, ast.Name) and not any(e.name in sc for sc in scopes):
            sym = self.sym.table.get(e.name)
            if sym is not None and sym.kind == "zone":
                return ("z", e.name)
        if isinstance(e, ast.Call) and len(e.args) == 1 and not any(e.func in sc for sc in scopes):
            sym = self.sym.table.get(e.func + "()") or self.sym.table.get(e.func)
            if sym is not None and sym.kind == "pzone" and self.sym.types.get(id(e)) == "zone":
                return ("p", e.func, _key(e.args[0]))
            if e.func in self.sym.zone_counts:
                # one pile of a numbered family: kept as a player's zone is, by the key of its
                # number (a pile numbered otherwise may be the same one: `_set` widens the others)
                return ("p", e.func, _key(e.args[0]))
        return None

    @staticmethod
    def _size(facts: Facts, key, n: int):
        by_n = facts.sizes.get(key)
        if by_n is None and key[0] == "p":
            by_n = facts.sizes.get(("p", key[1], "*"))
        return None if by_n is None else by_n.get(n)

    def _set(self, facts: Facts, key, new: dict) -> None:
        """Sets the sizes of one zone ({n: (lo, hi) or None}); a player's zone widens the others'."""
        new = {n: v for n, v in new.items() if v is not None}
        if key[0] == "p" and key[2] != "*":
            for other in [k for k in facts.sizes if k[0] == "p" and k[1] == key[1] and k != key
                          and not (_literal(k[2]) and _literal(key[2]))]:  # (two numbers: two piles)
                merged = {n: _hull(v, new.get(n)) for n, v in facts.sizes[other].items()}
                facts.sizes[other] = {n: v for n, v in merged.items() if v is not None}
        if new:
            facts.sizes[key] = new
        else:
            facts.sizes.pop(key, None)
        facts.random = facts.random - {key}

    def _forget_all(self, facts: Facts) -> None:
        facts.sizes.clear()
        facts.random = frozenset()
        facts.all_in = False

    def _count_at(self, e, scopes, n: int, facts: Facts):
        """A number of cards known before play at n players (`count(players)` only while every
        player is surely in), else None."""
        if not facts.all_in and _names_players(e):
            return None
        v = self.flow._fold(e, scopes, n)
        return v if _num(v) else None

    def _taking(self, cards, facts: Facts, scopes, cardvars: dict):
        """What a `move` takes: (the source's key or None, {n: (lo, hi)} cards taken), or None if unknown."""
        counts = self.counts
        if isinstance(cards, ast.EndCard):
            src = self._zone_key(cards.zone, scopes)
            if src is None:
                return None
            out = {}
            for n in counts:
                size = self._size(facts, src, n) or (0, self.flow.deck_sizes[n])
                if cards.count is None:
                    out[n] = (min(1, size[0]), min(1, size[1]))
                else:
                    k = self._count_at(cards.count, scopes, n, facts)
                    out[n] = (min(k, size[0]), min(k, size[1])) if k is not None and k >= 0 else (0, size[1])
            return src, out
        if isinstance(cards, ast.Name) and cards.name in cardvars:
            src = cardvars[cards.name]
            return (src, {n: (1, 1) for n in counts}) if src is not None else None
        key = self._zone_key(cards, scopes)
        if key is not None:
            out = {}
            for n in counts:
                size = self._size(facts, key, n)
                out[n] = size or (0, self.flow.deck_sizes[n])
            return key, out
        if isinstance(cards, ast.Binary) and cards.op == "except":
            inner = self._taking(cards.left, facts, scopes, cardvars)
            if inner is None or inner[0] is None:
                return None
            return inner[0], {n: (max(0, lo - 1), hi) for n, (lo, hi) in inner[1].items()}
        return None

    def _move(self, st: ast.Move, facts: Facts, scopes, cardvars: dict) -> None:
        if isinstance(st.cards, ast.AllCards):
            dest = self._zone_key(st.zone, scopes)
            self._forget_all(facts)
            if dest is not None:
                for name, (per_player, _, _) in self.sym.zones.items():
                    key = ("p", name, "*") if per_player or name in self.sym.zone_counts else ("z", name)
                    facts.sizes[key] = {n: (0, 0) for n in self.counts}
                    for j in range(1, self.sym.zone_counts.get(name, 0) + 1):  # each pile, by its number
                        facts.sizes[("p", name, ("Number", j))] = {n: (0, 0) for n in self.counts}
                facts.sizes[dest] = {n: (self.flow.deck_sizes[n],) * 2 for n in self.counts}
            return
        dest = self._zone_key(st.zone, scopes)
        taken = self._taking(st.cards, facts, scopes, cardvars)
        if dest is None or taken is None:
            self._forget_all(facts)
            return
        src, amount = taken
        if src == dest:
            return
        # cards from the top of a shuffled deck into an empty zone are a random draw of the deck
        was_random = src in facts.random and (isinstance(st.cards, ast.EndCard) or self._zone_key(st.cards, scopes))
        dest_empty = all(self._size(facts, dest, n) == (0, 0) for n in self.counts)
        new_src, new_dest = {}, {}
        for n in self.counts:
            t = amount[n]
            s = self._size(facts, src, n)
            d = self._size(facts, dest, n)
            if s is not None:
                new_src[n] = (max(0, s[0] - t[1]), max(0, s[1] - t[0]))
            if d is not None:
                new_dest[n] = (d[0] + t[0], d[1] + t[1])
        keep_random = src in facts.random and isinstance(st.cards, ast.EndCard)
        self._set(facts, src, new_src)
        self._set(facts, dest, new_dest)
        if keep_random:
            facts.random = facts.random | {src}
        if was_random and dest_empty:
            facts.random = facts.random | {dest}

    def _deal(self, st: ast.Deal, facts: Facts, scopes) -> None:
        src = self._zone_key(st.source, scopes)
        dest = st.dest
        everyone = None
        if isinstance(dest, ast.Call) and len(dest.args) == 1:
            sym = self.sym.table.get(dest.func + "()") or self.sym.table.get(dest.func)
            a = dest.args[0]
            if sym is not None and sym.kind == "pzone" and (
                    isinstance(a, ast.Seats) or (isinstance(a, ast.Players) and a.stop is None)):
                everyone = dest.func
        single = self._zone_key(dest, scopes) if everyone is None else None
        if src is None or (everyone is None and single is None):
            self._forget_all(facts)
            return
        random = src in facts.random
        new_src = {}
        targets = [k for k in facts.sizes if k[0] == "p" and k[1] == everyone] if everyone else [single]
        if everyone and ("p", everyone, "*") not in targets:
            targets.append(("p", everyone, "*"))
        before = {k: {n: self._size(facts, k, n) for n in self.counts} for k in targets}
        empty = all(v == (0, 0) for k in targets for v in before[k].values())
        for n in self.counts:
            k = self._count_at(st.count, scopes, n, facts) if st.count is not None else None
            m = self.flow._zones_dealt(dest, n)
            s = self._size(facts, src, n)
            if st.count is None and s is not None and m and (facts.all_in or not _to_players(dest)):
                # `deal all`: the zone empties; each place gets its share, one more for the first ones
                new_src[n] = (0, 0)
                for key in targets:
                    d = before[key][n]
                    before[key][n] = (d[0] + s[0] // m, d[1] - (-s[1] // m)) if d is not None else None
                continue
            if k is None or k < 0 or m is None:
                new_src[n] = (0, 0) if st.count is None else (0, s[1]) if s is not None else None
                for key in targets:
                    before[key][n] = None
                continue
            # to `players`, as many zones as players still in: all of them only while everyone surely is
            few = m if facts.all_in or not _to_players(dest) else 1
            if s is not None:
                new_src[n] = (max(0, s[0] - k * m), max(0, s[1] - k * few))
            for key in targets:
                d = before[key][n]
                before[key][n] = (d[0] + k, d[1] + k) if d is not None else None
        self._set(facts, src, new_src)
        for key in targets:
            if everyone:
                facts.sizes[key] = {n: v for n, v in before[key].items() if v is not None}
                facts.random = facts.random - {key}
            else:
                self._set(facts, key, before[key])
        if random:
            facts.random = facts.random | {src} | (frozenset(targets) if empty else frozenset())

    @functools.singledispatchmethod
    def _apply(self, st, facts: Facts, scopes, cardvars: dict) -> None:
        """What a statement itself does to the zones' sizes (its blocks are `NonEmpty._block`'s to
        walk). One case per statement class; a statement without one is refused."""
        raise UnknownStatement(st, "the zone facts of the choice check")

    @_apply.register(ast.Pass)
    @_apply.register(ast.Passes)
    @_apply.register(ast.Set)
    @_apply.register(ast.Add)
    @_apply.register(ast.Let)
    @_apply.register(ast.Reveal)  # (who knows cards, not where they are)
    @_apply.register(ast.Hide)
    @_apply.register(ast.TellFace)
    @_apply.register(ast.TellWhich)
    @_apply.register(ast.ForgetOrder)
    @_apply.register(ast.Announce)
    @_apply.register(ast.Reverse)
    @_apply.register(ast.SetDirection)
    @_apply.register(ast.EndGame)
    @_apply.register(ast.EndRound)
    @_apply.register(ast.Break)  # (what follows it in its block is not reached: joining there is safe)
    @_apply.register(ast.PutIn)  # (chips, not cards)
    @_apply.register(ast.Betting)
    @_apply.register(ast.Award)
    @_apply.register(ast.If)  # (the statements with blocks move no card themselves)
    @_apply.register(ast.ForEach)
    @_apply.register(ast.Repeat)
    @_apply.register(ast.While)
    @_apply.register(ast.Choose)
    def _moves_no_card(self, st, facts: Facts, scopes, cardvars: dict) -> None:
        pass

    @_apply.register(ast.Move)
    @_apply.register(ast.Lay)  # (a move face up: which group the cards join changes no count)
    def _apply_move(self, st: ast.Move, facts: Facts, scopes, cardvars: dict) -> None:
        self._move(st, facts, scopes, cardvars)

    @_apply.register
    def _apply_deal(self, st: ast.Deal, facts: Facts, scopes, cardvars: dict) -> None:
        self._deal(st, facts, scopes)

    @_apply.register
    def _apply_shuffle(self, st: ast.Shuffle, facts: Facts, scopes, cardvars: dict) -> None:
        key = self._zone_key(st.zone, scopes)
        if key is not None and (key in facts.random or all(
                self._size(facts, key, n) == (self.flow.deck_sizes[n],) * 2 for n in self.counts)):
            facts.random = facts.random | {key}

    @_apply.register
    def _apply_swap(self, st: ast.Swap, facts: Facts, scopes, cardvars: dict) -> None:
        a, b = self._zone_key(st.left, scopes), self._zone_key(st.right, scopes)
        if a is None or b is None or a[0] == "p" or b[0] == "p":
            self._forget_all(facts)
        else:
            sa, sb = facts.sizes.pop(a, None), facts.sizes.pop(b, None)
            if sb is not None:
                facts.sizes[a] = sb
            if sa is not None:
                facts.sizes[b] = sa
            facts.random = facts.random - {a, b}

    @_apply.register(ast.Eliminate)  # (the eliminated player's cards are put away)
    def _apply_anything(self, st, facts: Facts, scopes, cardvars: dict) -> None:
        self._forget_all(facts)

    @_apply.register
    def _apply_call(self, st: ast.CallPhase, facts: Facts, scopes, cardvars: dict) -> None:
        """A phase played: what it may change is lost, the rest still holds (the phase's own choices
        are decided where it is walked, from what holds where it is played)."""
        changed = self._phase_changes(st.name)
        if changed is None:
            self._forget_all(facts)
            return
        kept = self._drop(facts, (set(changed), set()))
        facts.sizes, facts.random = kept.sizes, kept.random
        if _eliminates_in(self.sym.phases[st.name].body):  # (or a phase it plays: `puts_out` says so)
            facts.all_in = False

    def _phase_changes(self, name) -> Optional[list]:
        """The zone families a phase may change, through the phases it plays too (None: any, or a
        phase the walk cannot follow: unknown, or one that plays itself, E023)."""
        cache = self._phase_changes_cache
        if name in cache:
            return cache[name]
        cache[name] = None  # (while it is worked out: a circle of calls changes anything)
        phase = self.sym.phases.get(name) if name else None
        if phase is None:
            return None
        touched = self._touched(phase.body, [{p.name: None for p in phase.params}], None, {}, set())
        cache[name] = None if touched is None else sorted(touched[0] | touched[1])
        return cache[name]

    @functools.singledispatchmethod
    def _changes(self, st, scopes, cardvars: dict) -> Optional[list]:
        """The zones a statement itself may change: zone keys, or a family's name for all its zones;
        None for any zone (or one the walk cannot name). One case per statement class, as `_apply`."""
        raise UnknownStatement(st, "the zone facts of the choice check")

    @_changes.register(ast.Pass)
    @_changes.register(ast.Passes)
    @_changes.register(ast.Set)
    @_changes.register(ast.Add)
    @_changes.register(ast.Let)
    @_changes.register(ast.Reveal)
    @_changes.register(ast.Hide)
    @_changes.register(ast.TellFace)
    @_changes.register(ast.TellWhich)
    @_changes.register(ast.ForgetOrder)
    @_changes.register(ast.Announce)
    @_changes.register(ast.Reverse)
    @_changes.register(ast.SetDirection)
    @_changes.register(ast.EndGame)
    @_changes.register(ast.EndRound)
    @_changes.register(ast.Break)
    @_changes.register(ast.PutIn)
    @_changes.register(ast.Betting)
    @_changes.register(ast.Award)
    @_changes.register(ast.If)
    @_changes.register(ast.ForEach)
    @_changes.register(ast.Repeat)
    @_changes.register(ast.While)
    @_changes.register(ast.Choose)
    def _changes_no_zone(self, st, scopes, cardvars: dict) -> Optional[list]:
        return []

    @_changes.register(ast.Move)
    @_changes.register(ast.Lay)
    def _changes_move(self, st: ast.Move, scopes, cardvars: dict) -> Optional[list]:
        if isinstance(st.cards, ast.AllCards):
            return None
        taken = self._taking(st.cards, Facts(), scopes, cardvars)
        return None if taken is None else [taken[0], self._zone_key(st.zone, scopes)]

    @_changes.register
    def _changes_deal(self, st: ast.Deal, scopes, cardvars: dict) -> Optional[list]:
        d = st.dest
        if isinstance(d, ast.Call) and len(d.args) == 1 and self._zone_key(d, scopes) is None:
            return [d.func, self._zone_key(st.source, scopes)]  # (to several players: all their zones)
        return [self._zone_key(d, scopes), self._zone_key(st.source, scopes)]

    @_changes.register
    def _changes_shuffle(self, st: ast.Shuffle, scopes, cardvars: dict) -> Optional[list]:
        return [self._zone_key(st.zone, scopes)]

    @_changes.register(ast.Swap)
    @_changes.register(ast.Eliminate)
    def _changes_any(self, st, scopes, cardvars: dict) -> Optional[list]:
        return None

    @_changes.register
    def _changes_call(self, st: ast.CallPhase, scopes, cardvars: dict) -> Optional[list]:
        return self._phase_changes(st.name)

    def _touched(self, stmts, scopes, var: Optional[str], cardvars: dict, seen: set):
        """The zones a block may change: (names, names changed only as `z(var)`), or None for any."""
        names, mine = set(), set()

        def note(key) -> bool:
            if key is None:
                return False
            if key[0] == "p" and var is not None and key[2] == ("Name", var):
                mine.add(key[1])
            else:
                names.add(key[1])
            return True

        for st in stmts:
            changed = self._changes(st, scopes, cardvars)
            if changed is None:
                return None
            for key in changed:
                if isinstance(key, str):
                    names.add(key)
                elif not note(key):
                    return None
            inner_vars = dict(cardvars)
            if isinstance(st, ast.Choose):
                for alt in st.alternatives:
                    if alt.kind == "card":
                        inner_vars[alt.var] = self._card_source(alt.source, scopes)[0]
            elif isinstance(st, ast.ForEach):
                inner_vars[st.var] = self._zone_key(st.source, scopes)
            for body in statements.child_blocks(st):
                inner = self._touched(body, scopes, var, inner_vars, seen)
                if inner is None:
                    return None
                names |= inner[0]
                mine |= inner[1]
        return names, mine

    def _drop(self, facts: Facts, touched) -> Facts:
        """`facts` without what a loop that changes `touched` may have changed."""
        if touched is None:
            return Facts()
        names = touched[0] | touched[1]
        out = Facts({k: v for k, v in facts.sizes.items() if k[1] not in names},
                    frozenset(k for k in facts.random if k[1] not in names))
        return out

    def _fresh_player(self, facts: Facts, var: str) -> Facts:
        """Facts at the start of a pass of `for each var in players`: `z(var)` is everyone's `z`."""
        out = facts.copy()
        for key in [k for k in out.sizes if k[0] == "p" and k[2] == ("Name", var)]:
            del out.sizes[key]
        out.random = frozenset(k for k in out.random if not (k[0] == "p" and k[2] == ("Name", var)))
        for key in [k for k in facts.sizes if k[0] == "p" and k[2] == "*"]:
            out.sizes[("p", key[1], ("Name", var))] = facts.sizes[key]
            if key in facts.random:
                out.random = out.random | {("p", key[1], ("Name", var))}
        return out
