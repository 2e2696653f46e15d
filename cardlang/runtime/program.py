"""What a running game's program offers `State` and `Game`, whichever engine runs it.

Both the compiled program and the reference interpreter subclass `ProgramBase`: they run over one
state layout (`compiler.layout.Layout`) and share the initial state, action labels, the log, the
observation of a seat and the scores. Each engine supplies how the rules run: `_start` (where a
new game begins), `run`, `resume`, and for each choice its alternatives (`Choice`/`Alt` shaped
objects whose `label(st)` gives (text with card marks, the cards marked)).
"""

from __future__ import annotations

from functools import cached_property
from typing import Optional

from ..lang.types import (BOOL, CARD, CARDS, HANDVALUE, LIST, PLAYER, PLAYERS, RANK, RANKS, SUIT, SUITS, TEAM, TEAMS,
                          TEXT, ZONE, ZONES, item_of)
from . import among, card_sets, engine, view
from .actions import alt_of, value_of
from .basics import MAX_EVENTS, Events, RuleError
from .local_slots import round_locals  # noqa: F401  (the engines read it here)
from .log import MARK_RE, absorb, describe, fill_marks, fill_refs, mark, placed_mark, player_name, render_log, secret
from .melds import laid_groups
from .payoffs import final_returns, payoffs_now


def round_begins(s) -> None:
    """Marks where a round begins in the log (the events so far), for `play` to step by rounds."""
    marks = s.rounds_at
    if marks is not None:
        marks.append(len(s.log) + len(s.fresh))


def loops_forever(at, s):
    """Stops a run that would go on forever: its step budget is spent, or the game's rounds are."""
    if s.steps < 0:  # a step: a pass of a loop, a round, a phase played
        raise RuleError(f"the game ran {engine.STEP_BUDGET:,} steps without a decision or an end: "
                        "a rule loops forever or works too long (the run budget of steps)", at)
    raise RuleError(f"the game played {s.game.program.max_rounds:,} rounds without ending, the most one game may "
                    "play (`limit N rounds` sets it)", at)


class ProgramBase:
    """The engine-independent half of a program (see the module's docstring)."""

    payoff = None  # a `runtime.payoffs.PayoffRule` when the game declares its payoff
    lowered = None  # the lowered game (layout, IR, caps) the program was built from, for tools to read
    at_once: dict = {}  # choice index -> `compiler.ir.AtOnce`, for each choice made at once
    plays_whole_games = False  # whether `playout(...)` plays the rest of a game itself (runtime/playout.py)
    reads_knowledge = False  # whether a rule reads who knows a card (then no state is quiet)
    group_slot = None  # the slot of the groups of the zones of groups, if the game has one (runtime/groups.py)
    # a function `(state, action)` that the game's states use as their `apply` (a program's own fast
    # path, which must do what `State.apply` does), or None for `State.apply`
    state_apply = None

    def _init_layout(self, layout) -> None:
        """Copies the layout's tables onto the program, where states and tools read them."""
        self.layout = layout
        self.n, self.deck, self.title = layout.players, layout.deck, layout.title
        self.zone_names, self.zone_owner = layout.zone_names, layout.zone_owner
        self.zone_vis, self.zone_kind = layout.zone_vis, layout.zone_kind
        self.zone_families, self.first_zone = layout.zone_families, layout.first_zone
        self._no_zones = ((),) * len(layout.zone_names)  # (what a new state's zones are made of)
        self.zone_counts = layout.zone_counts  # a numbered family's piles (`column(1)` … `column(N)`)
        self.var_slots, self.pvar_slots = dict(layout.var_slots), dict(layout.pvar_slots)
        self.facts = layout.facts  # what seats are told of cards (`runtime.facts.Facts`), None without `tell`
        self.held = among.held(layout)  # zone -> the seats that do not see its places (runtime/among.py)
        self.teams, self.tvar_slots = layout.teams, dict(layout.tvar_slots)  # partnerships, if any
        self.named_values = layout.named_values  # `values strain: …`: a declared value reads as its name
        self.label_cache = {}  # (choice index, action id) -> label, for alternatives marked pure
        # the caps on one game (the game's own, from its `limit` line, else the engine's defaults)
        self.max_decisions = engine.MAX_DECISIONS
        self.max_rounds = engine.MAX_ROUNDS

    @cached_property
    def card_choices(self) -> frozenset:
        """The indices of the choices with an alternative that picks a card: only their legal
        actions can name a card the deciding seat does not know (views test this first)."""
        return frozenset(i for i, c in enumerate(self.chooses) if any(a.kind == "card" for a in c.alts))

    # ---------------------------------------------------------------- running
    def init_state(self, st) -> None:
        """Fills a new state (cards in the first shared zone, variables at their initial values)
        and runs it to its first decision."""
        n = self.n
        self._start(st)
        v = st.v = [None] * self.nslots
        zones = st.zones = list(map(list, self._no_zones))  # (empty lists, made in C)
        ncards = len(self.deck.card_rank)  # (the deck's size)
        first = self.first_zone
        zones[first] = list(range(ncards))
        st.loc = [first] * ncards
        st.known = [self.zone_vis[first]] * ncards  # (a public first zone: known to all)
        st.facts = None if self.facts is None else [0] * ncards
        st.among = None
        st.active = [True] * n
        st._pending = None  # (what `pending = None` sets)
        st.fresh = Events(0) if st.log is None else Events(MAX_EVENTS)
        st.history = []
        st.terminal = False
        st.winner_seats = ()
        st.round = 0
        st.rounds_at = None if st.log is None else []
        for slot, per_player, init in self.var_inits:
            if per_player:
                for seat in range(n):
                    v[slot + seat] = init(st)
            else:
                v[slot] = init(st)
        self.run(st)

    # --------------------------------------------------------------- labels
    def _label(self, st, info, alt, value) -> tuple:
        if alt.slot is not None:
            st.v[alt.slot] = value
        if alt.card_set is not None:  # a set of cards: its cards, from the source as the choice offered it
            cards_slot, source_slot, low = alt.card_set
            st.v[cards_slot] = card_sets.subset(st.v[source_slot], value, low)
        if alt.label is not None:
            return alt.label(st)
        if alt.kind == "card":
            return mark(0), (value,)
        if alt.kind == "set":
            cards = st.v[alt.card_set[0]]
            return card_sets.words(self.deck, cards, mark, self.layout.combos), tuple(cards)
        if alt.kind == "player":
            return player_name(value), ()
        return str(value), ()

    def label(self, st, a: int) -> str:
        """The label players read for the legal action `a` of the pending choice."""
        pending = st.pending
        info = self.chooses[pending.choice]
        alt = info.alts[alt_of(a)]
        if alt.kind == "card" and not st.known[value_of(a)] >> pending.player & 1:
            return self._unseen_label(st, info, alt, a)  # (never cached: it names a place)
        if alt.card_set is not None and not self._set_known(st, alt, value_of(a), pending.player):
            return self._unseen_set_label(st, alt, value_of(a))
        if alt.pure:
            key = (pending.choice, a)
            text = self.label_cache.get(key)
            if text is None:
                text = self.label_cache[key] = self._render_label(st, info, alt, a)
            return text
        return self._render_label(st, info, alt, a)

    def _render_label(self, st, info, alt, a: int) -> str:
        saved = st.v[alt.slot] if alt.slot is not None else None
        held = st.v[alt.card_set[0]] if alt.card_set is not None else None
        text, cards = self._label(st, info, alt, value_of(a))
        if alt.slot is not None:
            st.v[alt.slot] = saved
        if alt.card_set is not None:
            st.v[alt.card_set[0]] = held
        return fill_marks(self.deck, text, cards, copy=True)

    @staticmethod
    def _set_known(st, alt, value: int, seat: int) -> bool:
        """Whether `seat` knows every card of the set a value of a set alternative stands for."""
        _, source_slot, low = alt.card_set
        return all(st.known[c] >> seat & 1 for c in card_sets.subset(st.v[source_slot], value, low))

    def _unseen_set_label(self, st, alt, value: int) -> str:
        """The label of a set with a card its chooser does not know: each card by its place (`a card
        from the table, 2 of 5`), as a single card's is; never cached."""
        _, source_slot, low = alt.card_set
        return " + ".join(view.place_text(self, st, c) for c in card_sets.subset(st.v[source_slot], value, low))

    def _unseen_label(self, st, info, alt, a: int, logged: bool = False):
        """The label of a card the chooser does not know: its place stands for the card (`take a card
        from P1's hand, 3 of 4`); a label that says more of the card is its place alone. `logged`:
        (text, cards) for the log, where the card shows to those who know it once the step is over
        (it went face up, or to them) and the place to the others."""
        place = view.place_text(self, st, value_of(a))
        if logged and st.pending.choice not in self.at_once:
            z = st.loc[value_of(a)]
            if self.held[z]:  # a hand the others do not see: only its owner and the chooser read where in it
                place = secret(place, (self.layout.all & ~self.held[z]) | 1 << st.pending.player,
                               view.place_text(self, st, value_of(a), where=False))
        if alt.label is not None and (not alt.pure or alt.slot is None):
            return (place, ()) if logged else place
        text = mark(0)
        if alt.label is not None:
            saved = st.v[alt.slot]
            text, _ = self._label(st, info, alt, value_of(a))
            st.v[alt.slot] = saved
        if logged:
            return MARK_RE.sub(lambda m: placed_mark(0, place), text), (value_of(a),)
        return MARK_RE.sub(lambda m: place, text)

    def _log_choice(self, st, a: int) -> None:
        """Logs the pending player's choice of `a` (which sets the alternative's variable)."""
        pending = st.pending
        info = self.chooses[pending.choice]
        alt = info.alts[alt_of(a)]
        if alt.kind == "card" and not st.known[value_of(a)] >> pending.player & 1:
            text, cards = self._unseen_label(st, info, alt, a, logged=True)
        elif alt.card_set is not None and not self._set_known(st, alt, value_of(a), pending.player):
            text, cards = self._unseen_set_label(st, alt, value_of(a)), ()
        elif alt.kind == "set" and alt.label is None:  # the cards alone: each seat reads those it knows (the
            text, cards = self._label(st, info, alt, value_of(a))  # words, `pair of 7s`, would name the rank to all)
            text = ", ".join(mark(i) for i in range(len(cards)))
        else:
            text, cards = self._label(st, info, alt, value_of(a))
        line = f"{player_name(pending.player)} chooses {text}"
        if pending.choice in self.at_once:  # a pick made at once: only its chooser reads what it is
            line = secret(line, 1 << pending.player, f"{player_name(pending.player)} chooses in secret")
        # (a list's own append: one line a decision, which `max_decisions` bounds; None: read at the
        # step's end even where seats lose sight of cards before it, `log.pin`)
        list.append(st.fresh, (line, cards, None))

    def _check_decisions(self, st, span) -> None:
        """After a decision is played: a game past its most decisions stops (so a replay meets it too)."""
        if len(st.history) >= self.max_decisions and not st.terminal:
            raise RuleError(f"the game took {self.max_decisions:,} decisions without ending, the most one game may "
                            "take (`limit N decisions` sets it)", span).in_game(st.seed, len(st.history))

    def is_card_action(self, st, a: int) -> bool:
        """Whether the legal action `a` picks a card."""
        return self.chooses[st.pending.choice].alts[alt_of(a)].kind == "card"

    # ------------------------------------------------------------- observers
    def render_log(self, st, seat, start: int = 0) -> list:
        """The log from entry `start` as lines from `seat`'s view, or omniscient (`seat` None); several
        seats: a card shows if all of them know it."""
        return render_log(self.deck, st, seat, start)

    def text_part(self, st, value, type_: str, cards: list, ranking: Optional[str]) -> str:
        """How a `{…}` part of a text reads: a mark for each card (the card appended to `cards`), a
        hand's category under `ranking`, a value in words; a text's own cards become marks too."""
        if type_ == CARD and value is not None:
            cards.append(value)
            return mark(len(cards) - 1)
        if type_ in (CARDS, ZONE, ZONES):
            ids = (st.zones[value] if type_ == ZONE else [c for z in value for c in st.zones[z]]
                   if type_ == ZONES else value)
            out = []
            for c in ids:
                cards.append(c)
                out.append(mark(len(cards) - 1))
            return ", ".join(out)
        if type_ == HANDVALUE and ranking is not None:
            return describe(self.layout.rankings[ranking][0], value)
        if type_ == BOOL:
            return "true" if value else "false"  # as the language writes them
        if type_ == TEXT:
            return absorb(value, cards)  # a text within a text (a definition's): its cards go with it
        shown = self.value_text(value, type_, None, st)
        if isinstance(shown, list):
            shown = ", ".join("none" if x is None else str(x) for x in shown)
        return "none" if shown is None else str(shown)

    def value_text(self, value, type_: str, seat: Optional[int], st) -> object:
        """A value as players read it (cards `seat` does not know are `hidden`)."""
        if value is None:
            return None
        if type_ == PLAYER:
            return player_name(value)
        if type_ == PLAYERS:
            return [player_name(p) for p in value]
        if type_ == TEAM:  # a team reads as its players: `P0 & P2`
            return " & ".join(player_name(p) for p in self.teams[value])
        if type_ == TEAMS:
            return [self.value_text(k, TEAM, seat, st) for k in value]
        if type_ == CARD:
            return self.deck.label_of(value) if seat is None or st.known[value] >> seat & 1 else "hidden"
        if type_ == CARDS:
            return [self.deck.label_of(c) if seat is None or st.known[c] >> seat & 1 else "hidden" for c in value]
        if type_ == SUIT:
            return self.deck.suits[value] if 0 <= value < len(self.deck.suits) else None
        if type_ == RANK:
            return self.deck.ranks[value] if 0 <= value < len(self.deck.ranks) else None
        if type_ == ZONE:
            return self.zone_names[value]
        if type_ in self.named_values:
            names = self.named_values[type_]
            return names[value] if 0 <= value < len(names) else None
        if type_ == LIST:
            return list(value)
        if type_ in (SUITS, RANKS):  # each item by its name (none stays none)
            item = SUIT if type_ == SUITS else RANK
            return [self.value_text(x, item, seat, st) for x in value]
        if item_of(type_) in self.named_values:  # a list of declared values: each by its name
            return [self.value_text(x, item_of(type_), seat, st) for x in value]
        if type_ == TEXT:
            return fill_refs(self.deck, value, lambda c: seat is None or st.known[c] >> seat & 1)
        return value

    def observe(self, st, seat: int) -> dict:
        """What `seat` may see: its known cards, counts of the others, public variables, its log."""
        deck = self.deck
        zones: dict = {}
        for name, (base, per_player) in self.zone_families.items():
            def cards(z):
                return [deck.label_of(c) if st.known[c] >> seat & 1 else None for c in st.zones[z]]
            if name in self.zone_counts:  # a numbered family: its piles in order, `column(1)` first
                zones[name] = [cards(base + k) for k in range(self.zone_counts[name])]
                continue
            zones[name] = [cards(base + s) for s in range(self.n)] if per_player else cards(base)
        variables = {name: self.value_text(st.v[slot], t, seat, st) for name, (slot, t) in self.var_slots.items()}
        player_vars = {name: [self.value_text(st.v[slot + s], t, seat, st) for s in range(self.n)]
                       for name, (slot, t) in self.pvar_slots.items()}
        obs = {
            "game": self.title,
            "seat": seat,
            "players": self.n,
            "current_player": st.current_player,
            "active": list(st.active),
            "variables": variables,
            "player_variables": player_vars,
            "zones": zones,
            "log": self.render_log(st, seat),
            "winners": [player_name(w) for w in st.winners()],
        }
        if self.facts is not None:  # what the seat was told of cards it does not see (runtime/facts.py)
            told = self.facts.observed
            obs["facts"] = {name: ([told(st, seat, st.zones[base + k]) for k in range(self.zone_counts[name])]
                                   if name in self.zone_counts else
                                   [told(st, seat, st.zones[base + s]) for s in range(self.n)] if per_player
                                   else told(st, seat, st.zones[base]))
                            for name, (base, per_player) in self.zone_families.items()}
        if st.among is not None:  # what the seat knows of places as "one of these" (runtime/among.py)
            one_of = among.observed(st, seat, deck.label_of)
            if one_of is not None:
                obs["among"] = {name: ([one_of(st.zones[base + k]) for k in range(self.zone_counts[name])]
                                       if name in self.zone_counts else
                                       [one_of(st.zones[base + s]) for s in range(self.n)] if per_player
                                       else one_of(st.zones[base]))
                                for name, (base, per_player) in self.zone_families.items()}
        if self.group_slot is not None:  # the zones of groups: each group as laid (runtime/groups.py)
            tags, rule = st.v[self.group_slot], self.layout.melds

            def laid(z):
                return [[deck.label_of(c) if st.known[c] >> seat & 1 else None for c in group]
                        for group in laid_groups(rule, st.zones[z], tags)]
            obs["groups"] = {name: ([laid(base + k) for k in range(self.zone_counts[name])] if name in self.zone_counts
                                    else [laid(base + s) for s in range(self.n)] if per_player else laid(base))
                             for name, (base, per_player) in self.zone_families.items()
                             if name in self.layout.group_zones}
        if self.teams:  # partnerships: who plays with whom, and each team's variables
            obs["teams"] = [[player_name(p) for p in t] for t in self.teams]
            obs["team_variables"] = {name: [self.value_text(st.v[slot + k], t, seat, st) for k in range(len(self.teams))]
                                     for name, (slot, t) in self.tvar_slots.items()}
        if not st.terminal and st.pending.player == seat:
            obs["legal_actions"] = [a.label for a in st.legal_actions()]
        return obs

    def returns(self, st) -> list:
        """What each seat gets at the end (see `runtime.payoffs`); zeros before."""
        if not st.terminal:
            return [0.0] * self.n
        return final_returns(self.payoff, st, self.n)

    def payoffs(self, st) -> Optional[list]:
        """Each seat's declared payoff in the state as it stands, or None when the game declares none."""
        return None if self.payoff is None else payoffs_now(self.payoff, st, self.n)

    def scores(self, st) -> list:
        """Each seat's score (`score of p:`), or its returns when the game declares none."""
        if self.score is None:
            return st.returns()
        slot, f = self.score
        out = []
        for seat in range(self.n):
            st.v[slot] = seat
            out.append(f(st))
        return out
