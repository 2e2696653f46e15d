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

What every adapter of this package does (`docs/research.md`, "Common behaviour"):
- an action outside the agent's mask ends the episode: every agent terminates, the offender is
  given `illegal_reward` (-1 by default) and `infos[agent]["illegal_action"] = True`, the others 0,
  as PettingZoo's `TerminateIllegalWrapper` does;
- a game over before anyone decides (`examples/war.cards`) is an episode over at once: after
  `reset` the agents are live with all-zero masks and `infos[agent]["game_over"] = True`, and the
  next step, whatever its action, ends it with the game's returns;
- `max_cycles=N` truncates every agent after N moments of play (a moment: one decision, or one
  whole choice made at once), with rewards 0; `None` (the default) never truncates;
- `render_mode="human"` prints the table to stdout, `"ansi"` returns it.
"""

from __future__ import annotations

import random
import sys
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .load import load
from .research.encoding import MAX_NUMBER, Encoder
from .research.render import ansi
from .runtime.at_once import choosers_now, pending_picks, turn_of
from .runtime.encoder_view import TableView


RENDER_MODES = ["human", "ansi"]


def env(path: str, players: Optional[int] = None, render_mode: Optional[str] = None, engine: str = "compiled",
        max_number: int = MAX_NUMBER, illegal_reward: float = -1.0, max_cycles: Optional[int] = None,
        **options) -> "CardsEnv":
    """The AEC environment of a rule file, for `players` seats and its `options`."""
    return CardsEnv(path, players, render_mode=render_mode, engine=engine, max_number=max_number,
                    illegal_reward=illegal_reward, max_cycles=max_cycles, **options)


def check_render_mode(render_mode: Optional[str]) -> None:
    """Refuses a render mode the adapters do not offer."""
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")


def check_max_cycles(max_cycles: Optional[int]) -> Optional[int]:
    """`max_cycles` as an int (None: no limit); a count below 1 is refused."""
    if max_cycles is None:
        return None
    if int(max_cycles) < 1:
        raise ValueError(f"max_cycles must be at least 1, not {max_cycles!r}")
    return int(max_cycles)


def show(render_mode: Optional[str], game, view) -> Optional[str]:
    """A render of `view`: None without a mode, the text with "ansi", printed to stdout with "human"."""
    if render_mode is None:
        return None
    text = ansi(game, view)
    if render_mode == "ansi":
        return text
    sys.stdout.write(text)
    sys.stdout.flush()
    return None


def legal_index(encoder: Encoder, view, action) -> Optional[int]:
    """The engine's action id of index `action` in `view` when it is legal there, else None."""
    try:
        a = encoder.action_of(view.choice, int(action))
    except (ValueError, TypeError):
        return None
    return a if a in view.legal_action_ids() else None


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

    metadata = {"render_modes": RENDER_MODES, "name": "cardlang_v0", "is_parallelizable": False}

    def __init__(self, path: str, players: Optional[int] = None, render_mode: Optional[str] = None,
                 engine: str = "compiled", max_number: int = MAX_NUMBER, illegal_reward: float = -1.0,
                 max_cycles: Optional[int] = None, **options):
        super().__init__()
        check_render_mode(render_mode)
        self.illegal_reward = float(illegal_reward)
        self.max_cycles = check_max_cycles(max_cycles)
        self.game = load(path, players, options or None, engine=engine)
        self.encoder = Encoder(self.game, max_number)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_spaces(self.encoder) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoder.num_actions) for a in self.possible_agents}
        self._state = None
        self._views: dict = {}
        self._moments = 0  # moments of play so far (for `max_cycles`)
        self._over_at_reset = False  # a game over before anyone decides: the next step ends it

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
        self._moments = 0
        self._over_at_reset = self._state.is_terminal()
        if self._over_at_reset:  # live agents, all-zero masks: the next step ends the episode
            self.infos = {a: {"game_over": True} for a in self.agents}
        else:
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
        self._cumulative_rewards[agent] = 0.0
        if self._over_at_reset:  # (the action is not read: nobody decides this game)
            self._over_at_reset = False
            self._after_move()
            return
        view = self._view(self._seat[agent])
        a = legal_index(self.encoder, view, action)
        if a is None:
            self._end_illegal(agent)
            return
        self._state.apply(view.action_in(self._state, a))
        self._views = {}
        if not pending_picks(self._state):  # a moment ends: not amid a choice made at once
            self._moments += 1
        self._after_move()

    def _end_illegal(self, agent: str) -> None:
        """Ends the episode after `agent`'s illegal action, as TerminateIllegalWrapper does."""
        for a in self.agents:
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.terminations[a] = True
        self.infos[agent] = {**self.infos[agent], "illegal_action": True}
        self._accumulate_rewards()

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
        elif self.max_cycles is not None and self._moments >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        else:  # (rewards stay 0 until the end: nothing to clear)
            self.agent_selection = self.possible_agents[st.current_player]

    def render(self) -> Optional[str]:
        """The table as the seat to play (or seat 0 at the end) sees it: returned with
        `render_mode="ansi"`, printed with "human"."""
        if self._state is None:
            return None
        seat = self._state.current_player if not self._state.is_terminal() else 0
        return show(self.render_mode, self.game, self._state.view(seat, past=False))

    def close(self) -> None:
        """Nothing to release."""


# ------------------------------------------------------------------ the parallel API
def parallel_env(path: str, players: Optional[int] = None, render_mode: Optional[str] = None,
                 engine: str = "compiled", max_number: int = MAX_NUMBER, illegal_reward: float = -1.0,
                 max_cycles: Optional[int] = None, **options) -> "CardsParallelEnv":
    """The parallel environment of a rule file: a step is one move of the seats that decide at once."""
    return CardsParallelEnv(path, players, render_mode=render_mode, engine=engine, max_number=max_number,
                            illegal_reward=illegal_reward, max_cycles=max_cycles, **options)


class CardsParallelEnv(_Spaces, ParallelEnv):
    """A `.cards` game for PettingZoo's parallel API.

    A step plays what the seats deciding now choose: at a choice made at once (`each player p in
    … chooses at once`), every seat of it that has not chosen, each from the view it has when its
    turn comes (which holds nothing of the others' picks); at any other choice, the one seat to
    decide. The other agents' actions are not read (their `action_mask` is all zeros, and
    `infos[agent]["acting"]` is False), so a game without choices made at once is stepped one
    agent at a time. Observations and action indices are those of the AEC `env`.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "cardlang_parallel_v0"}

    def __init__(self, path: str, players: Optional[int] = None, render_mode: Optional[str] = None,
                 engine: str = "compiled", max_number: int = MAX_NUMBER, illegal_reward: float = -1.0,
                 max_cycles: Optional[int] = None, **options):
        self._aec = CardsEnv(path, players, render_mode=render_mode, engine=engine, max_number=max_number,
                             illegal_reward=illegal_reward, max_cycles=max_cycles, **options)
        self.game, self.encoder, self.render_mode = self._aec.game, self._aec.encoder, render_mode
        self.illegal_reward, self.max_cycles = self._aec.illegal_reward, self._aec.max_cycles
        self._steps = 0
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
        self._steps = 0
        infos = self._infos()
        if self._state.is_terminal():  # a game nobody decides: over at once, the next step ends it
            for info in infos.values():
                info["game_over"] = True
        return self._observe(), infos

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
        illegal = []
        for seat in choosers_now(st):
            agent = self.possible_agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} decides now and was given no action")
            view = st.view(seat, past=False)
            a = legal_index(self.encoder, view, actions[agent])
            if a is None:
                illegal.append(agent)
                break  # the episode ends here: the later choosers' actions are not read
            st.apply(view.action_in(st, a))
        self._steps += 1
        done = st.is_terminal() or bool(illegal)
        if illegal:
            rewards = {a: self.illegal_reward if a in illegal else 0.0 for a in self.agents}
        else:
            returns = st.returns() if done else [0.0] * self.game.players
            rewards = {a: float(returns[self.possible_agents.index(a)]) for a in self.agents}
        observations, infos = self._observe(), self._infos()
        for agent in illegal:
            infos[agent]["illegal_action"] = True
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, not done and self.max_cycles is not None
                                    and self._steps >= self.max_cycles)
        if done or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Optional[str]:
        """The table as the first seat deciding now (or seat 0) sees it: returned with
        `render_mode="ansi"`, printed with "human"."""
        if self._state is None:
            return None
        acting = choosers_now(self._state)
        seat = acting[0] if acting else 0
        return show(self.render_mode, self.game, self._state.view(seat, past=False))

    def close(self) -> None:
        """Nothing to release."""
