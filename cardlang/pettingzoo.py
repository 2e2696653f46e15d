"""Any `.cards` game as a PettingZoo environment (the AEC API): `env("games/x.cards", players=4, **options)`.

Agents are `player_0 … player_{n-1}` (seat numbers). Each observation is a dict: `observation`,
the fixed-size vector of what that seat knows, and `action_mask`, 1 for its legal actions; both
are built from the seat's view (`runtime.encoder_view.TableView`, the part of `state.view(seat)`
that they read), never from the state. The action space is
`Discrete(n)` over a stable index of the game's action ids. `docs/research.md` gives both layouts.

A choice made at once (`each player p in … chooses at once`) is a turn of each of its seats in the
AEC API, as OpenSpiel's turn-based simultaneous wrapper presents it: each sees none of the others'
pending picks. `parallel_env(…)` gives the parallel API, where one step plays every seat that decides
at once (see `CardsParallelEnv`).
"""

from __future__ import annotations

import random
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .load import load
from .research.encoding import MAX_NUMBER, Encoder
from .research.render import ansi
from .runtime.at_once import choosers_now, turn_of
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


class _Spaces:
    """Each agent's spaces, as both kinds of environment give them (`observation_spaces`, `action_spaces`)."""

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of `agent` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of `agent` (the same object on every call)."""
        return self.action_spaces[agent]


class CardsEnv(_Spaces, AECEnv):
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


# ------------------------------------------------------------------ the parallel API
def parallel_env(path: str, players: Optional[int] = None, render_mode: Optional[str] = None,
                 engine: str = "compiled", max_number: int = MAX_NUMBER, **options) -> "CardsParallelEnv":
    """The parallel environment of a rule file: a step is one move of the seats that decide at once."""
    return CardsParallelEnv(path, players, render_mode=render_mode, engine=engine, max_number=max_number, **options)


class CardsParallelEnv(_Spaces, ParallelEnv):
    """A `.cards` game for PettingZoo's parallel API.

    A step plays what the seats deciding now choose: at a choice made at once (`each player p in
    … chooses at once`), every seat of it that has not chosen, each from the view it has when its
    turn comes (which holds nothing of the others' picks); at any other choice, the one seat to
    decide. The other agents' actions are not read (their `action_mask` is all zeros, and
    `infos[agent]["acting"]` is False), so a game without choices made at once is stepped one
    agent at a time. Observations and action indices are those of the AEC `env`.
    """

    metadata = {"render_modes": ["ansi"], "name": "cardlang_parallel_v0"}

    def __init__(self, path: str, players: Optional[int] = None, render_mode: Optional[str] = None,
                 engine: str = "compiled", max_number: int = MAX_NUMBER, **options):
        self._aec = CardsEnv(path, players, render_mode=render_mode, engine=engine, max_number=max_number, **options)
        self.game, self.encoder, self.render_mode = self._aec.game, self._aec.encoder, render_mode
        self.possible_agents = self._aec.possible_agents
        self.observation_spaces, self.action_spaces = self._aec.observation_spaces, self._aec.action_spaces
        self.agents = []
        self._state = None

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple:
        """A new game, dealt by `seed` (a random one without): (observations, infos)."""
        if seed is None:
            seed = random.getrandbits(63)
        self._state = self.game.new_initial_state(seed=int(seed), log=self.render_mode is not None)
        self.agents = self.possible_agents[:]
        if self._state.is_terminal():  # a game nobody decides: over at once
            observations, infos = self._observe(), self._infos()
            self.agents = []
            return observations, infos
        return self._observe(), self._infos()

    def _observe(self) -> dict:
        """Each agent's vector and mask, from its view when its turn at the present moment comes."""
        out = {}
        for agent in self.agents:
            seat = self.possible_agents.index(agent)
            view = turn_of(self._state, seat).view(seat, past=False) if seat in choosers_now(self._state) \
                else self._state.view(seat, past=False)
            out[agent] = {"observation": self.encoder.observation(view), "action_mask": self.encoder.mask(view)}
        return out

    def _infos(self) -> dict:
        acting = choosers_now(self._state)
        return {a: {"acting": self.possible_agents.index(a) in acting} for a in self.agents}

    def step(self, actions: dict) -> tuple:
        """Plays the actions of the agents deciding now (see the class): (observations, rewards,
        terminations, truncations, infos)."""
        st = self._state
        for seat in choosers_now(st):
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} decides now and was given no action")
            view = st.view(seat, past=False)
            try:
                a = self.encoder.action_of(view.choice, int(actions[agent]))
            except ValueError:
                a = None
            if a is None or a not in view.legal_action_ids():
                raise ValueError(f"action {int(actions[agent])} is not legal for {agent} (see its action_mask)")
            st.apply(view.action_in(st, a))
        done = st.is_terminal()
        returns = st.returns() if done else [0.0] * self.game.players
        rewards = {a: float(returns[self.possible_agents.index(a)]) for a in self.agents}
        observations, infos = self._observe(), self._infos()
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Optional[str]:
        """With `render_mode="ansi"`: the table as the first seat deciding now (or seat 0) sees it."""
        if self.render_mode is None or self._state is None:
            return None
        acting = choosers_now(self._state)
        seat = acting[0] if acting else 0
        return ansi(self.game, self._state.view(seat, past=False))

    def close(self) -> None:
        """Nothing to release."""
