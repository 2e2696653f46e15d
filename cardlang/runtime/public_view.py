"""What every seat knows: the public view of a state, for a spectator (the web table's `/s/` link).

Built from the knowledge model as a seat's view is (`runtime.view`): a card is public when every
seat knows it (`State.known` has every seat's bit). The cards that are not public are dealt again
in a fixed order into their places (`view._canonical`, as for a seat that knows none of them), so
two states that differ only in cards some seat does not know, or in picks made at once still
secret, give the same public view. What single seats were told of cards (`facts`) or track
(`among`) is dropped, every pick made at once is masked, and no legal action is kept (a spectator
decides nothing). The observation is then read as a seat that knows exactly the public cards, and
the log is the one all seats share (`State.transcript(all seats)`).
"""

from __future__ import annotations

from .view import _canonical


def public_copy(state):
    """A copy of `state` that holds only what every seat knows (see the module's note)."""
    n = state.game.players
    everyone = (1 << n) - 1
    known = state.known
    placed = [c for pile in state.zones for c in pile if known[c] & everyone != everyone]
    # `seat` n is no seat: no facts nor tracked cards are its own, every pick made at once is another's
    s = _canonical(state, sorted(placed), n, placed)
    s.known = [everyone if k & everyone == everyone else 0 for k in s.known]
    s.facts = None if s.facts is None else [0] * len(s.known)  # (what one seat was told: not public)
    s.among = None
    return s


def public_observation(state) -> dict:
    """The observation a spectator may have: only public cards, the values the public copy holds
    (cards in them that are not public as `hidden`), the log as all seats read it."""
    n = state.game.players
    s = public_copy(state)
    obs = state.game.program.observe(s, 0)  # (seat 0 of the copy knows exactly the public cards)
    obs["seat"] = None
    obs.pop("facts", None)
    obs.pop("legal_actions", None)
    obs["log"] = state.transcript(tuple(range(n))) if state.log is not None else []
    return obs
