"""Any `.cards` game as a PettingZoo environment (the AEC API): `env("games/x.cards", players=4, **options)`.

Agents are `player_0 … player_{n-1}` (seat numbers). Each observation is a dict: `observation`,
the fixed-size vector of what that seat knows, and `action_mask`, 1 for its legal actions; both
are built from the seat's view (`runtime.encoder_view.TableView`, the part of `state.view(seat)`
that they read), never from the state. The action space is
`Discrete(n)` over a stable index of the game's action ids. `docs/research.md` gives both layouts.

Every choice in cardlang is one seat's at a time, so no game has simultaneous choices: there is no
parallel-API wrapper to give (PettingZoo's `aec_to_parallel` does not apply to turn-based games).
"""

from __future__ import annotations

import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .load import load
from .research.encoding import MAX_NUMBER, Encoder
from .research.render import ansi
from .runtime.encoder_view import TableView


def env(path: str, players: Optional[int] = None, render_mode: Optional[str] = None, engine: str = "compiled",
        max_number: int = MAX_NUMBER, **options) -> "CardsEnv":
    """The AEC environment of a rule file, for `players` seats and its `options`."""
    return CardsEnv(path, players, render_mode=render_mode, engine=engine, max_number=max_number, **options)


def observation_spaces(encoder: Encoder) -> spaces.Dict:
    """The observation space of one seat: the vector's bounds and the action mask."""
    return spaces.Dict({
        "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (encoder.num_actions,), dtype=np.int8),
    })


class CardsEnv(AECEnv):
    """A `.cards` game for PettingZoo's AEC API (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "cardlang_v0", "is_parallelizable": False}

    def __init__(self, path: str, players: Optional[int] = None, render_mode: Optional[str] = None,
                 engine: str = "compiled", max_number: int = MAX_NUMBER, **options):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load(path, players, options or None, engine=engine)
        self.encoder = Encoder(self.game, max_number)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_spaces(self.encoder) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoder.num_actions) for a in self.possible_agents}
        self._state = None
        self._views: dict = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of `agent` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of `agent` (the same object on every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game, dealt by `seed` (a random one without)."""
        if seed is None:
            seed = random.getrandbits(63)
        # the log is only read by the ansi render: a game without it plays faster
        self._state = self.game.new_initial_state(seed=int(seed), log=self.render_mode is not None)
        self._views = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._after_move()

    def _view(self, seat: int) -> TableView:
        """The seat's view of the game now, as much of it as the vector and the mask need (one per
        seat and step: `runtime/encoder_view.py`)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = TableView(self._state, seat)
        return view

    def observe(self, agent: str) -> dict:
        """What `agent`'s seat knows: its vector and its action mask."""
        view = self._view(self._seat[agent])
        return {"observation": self.encoder.observation(view), "action_mask": self.encoder.mask(view)}

    def step(self, action) -> None:
        """Plays the selected agent's action (its index); a finished agent's step is None."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        view = self._view(self._seat[agent])
        try:
            a = self.encoder.action_of(view.choice, int(action))
        except ValueError:
            a = None
        if a is None or a not in view.legal_action_ids():
            raise ValueError(f"action {int(action)} is not legal for {agent} (see its action_mask)")
        self._state.apply(view.action_in(self._state, a))
        self._views = {}
        self._cumulative_rewards[agent] = 0.0
        self._after_move()

    def _after_move(self) -> None:
        """Selects the seat to decide, or at the end hands out the returns."""
        st = self._state
        if st.is_terminal():
            returns = st.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
                self.terminations[a] = True
            self._accumulate_rewards()
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        else:  # (rewards stay 0 until the end: nothing to clear)
            self.agent_selection = self.possible_agents[st.current_player]

    def render(self) -> Optional[str]:
        """With `render_mode="ansi"`: the table as the seat to play (or seat 0 at the end) sees it."""
        if self.render_mode is None or self._state is None:
            return None
        seat = self._state.current_player if not self._state.is_terminal() else 0
        return ansi(self.game, self._state.view(seat, past=False))

    def close(self) -> None:
        """Nothing to release."""
