"""Any `.cards` game as a Gymnasium environment: one seat against the built-in bots.

`env("games/x.cards", seat=0, opponents="random", players=4, **options)`. The observation is a dict,
`observation` (the seat's vector) and `action_mask` (its legal actions), both from the seat's view;
the action space is `Discrete(n)` over the game's action index (`docs/research.md`). The other seats
are played by bots (`random`, `greedy`, `ismcts:200`…, one name for all or one per other seat, in
seat order), each deciding from its own seat's view. The reward is the seat's return at the end, 0
before. An action outside the mask ends the episode with `illegal_reward` and
`info["illegal_action"]`, as in every adapter of this package (`docs/research.md`).

`reset` plays the bots up to the seat's first decision. A game over before it (the seat never
decides, or not in this deal) is an episode over at once: `reset`'s info has `"game_over": True`
(its mask is all zeros) and the next `step`, whatever its action, returns the seat's return with
`terminated=True`; a step after that, as after any end, raises until `reset`.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence, Union

import gymnasium

from .load import load
from .play.bots import decide, make_bot
from .pettingzoo import RENDER_MODES, check_render_mode, legal_index, observation_spaces, show
from .research.encoding import MAX_NUMBER, Encoder
from .runtime.encoder_view import TableView


def env(path: str, seat: int = 0, opponents: Union[str, Sequence[str]] = "random", players: Optional[int] = None,
        render_mode: Optional[str] = None, engine: str = "compiled", max_number: int = MAX_NUMBER,
        illegal_reward: float = -1.0, **options) -> "CardsEnv":
    """The single-seat environment of a rule file (see the module's docstring)."""
    return CardsEnv(path, seat, opponents, players, render_mode=render_mode, engine=engine,
                    max_number=max_number, illegal_reward=illegal_reward, **options)


class CardsEnv(gymnasium.Env):
    """One seat of a `.cards` game, the others played by bots (see the module's docstring)."""

    metadata = {"render_modes": RENDER_MODES}

    def __init__(self, path: str, seat: int = 0, opponents: Union[str, Sequence[str]] = "random",
                 players: Optional[int] = None, render_mode: Optional[str] = None, engine: str = "compiled",
                 max_number: int = MAX_NUMBER, illegal_reward: float = -1.0, **options):
        check_render_mode(render_mode)
        self.game = load(path, players, options or None, engine=engine)
        n = self.game.players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not one of the game's {n} seats")
        self.seat = seat
        others = [s for s in range(n) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"{len(others)} opponents to name, not {len(names)}")
        for name in names:
            make_bot(name)  # an unknown bot's name fails here, not at the first reset
        self._bot_names = dict(zip(others, names))
        self.encoder = Encoder(self.game, max_number)
        self.observation_space = observation_spaces(self.encoder)
        self.action_space = gymnasium.spaces.Discrete(self.encoder.num_actions)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self._state = None
        self._over_at_reset = False  # the game ended before the seat's first decision
        self._bots: dict = {}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple:
        """A new game (dealt from `seed`, and the bots seeded from it), played up to the seat's turn."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2 ** 62))
        bot_seeds = random.Random(game_seed)
        self._bots = {s: make_bot(name, seed=bot_seeds.getrandbits(32)) for s, name in self._bot_names.items()}
        self._state = self.game.new_initial_state(seed=game_seed, log=self.render_mode is not None)
        self._play_others()
        obs, info = self._observe()
        self._over_at_reset = self._state.is_terminal()
        if self._over_at_reset:
            info["game_over"] = True
        return obs, info

    def _play_others(self) -> None:
        """The bots play until the seat decides or the game ends."""
        st = self._state
        while not st.is_terminal() and st.current_player != self.seat:
            st.apply(decide(self._bots[st.current_player], st))

    def _observe(self) -> tuple:
        view = TableView(self._state, self.seat)
        mask = self.encoder.mask(view)
        return {"observation": self.encoder.observation(view), "action_mask": mask}, {"action_mask": mask}

    def step(self, action) -> tuple:
        """Plays the seat's action (its index), then the bots: (observation, reward, terminated,
        truncated, info)."""
        st = self._state
        if st is None or st.is_terminal():
            if st is not None and self._over_at_reset:  # the step that ends an episode over at reset
                self._over_at_reset = False
                obs, info = self._observe()
                return obs, float(st.returns()[self.seat]), True, False, {**info, "game_over": True}
            raise RuntimeError("the episode is over: call reset()")
        view = TableView(st, self.seat)
        a = legal_index(self.encoder, view, action)
        if a is None:
            obs, info = self._observe()
            self._state = None
            return obs, self.illegal_reward, True, False, {**info, "illegal_action": True}
        st.apply(view.action_in(st, a))
        self._play_others()
        obs, info = self._observe()
        done = st.is_terminal()
        reward = float(st.returns()[self.seat]) if done else 0.0
        return obs, reward, done, False, info

    def render(self) -> Optional[str]:
        """The table as the seat sees it: returned with `render_mode="ansi"`, printed with "human"."""
        if self._state is None:
            return None
        return show(self.render_mode, self.game, self._state.view(self.seat, past=False))
