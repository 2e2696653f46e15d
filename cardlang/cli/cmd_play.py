"""`cardlang play FILE`: people play at the terminal against bots, or each other at one terminal.

Every screen is drawn from `State.observation(seat)` of the seat in front of it, so a person never
sees a card that seat does not know; with several people at one terminal (`--hotseat`) the screen
is cleared and the next person asked to take the seat before a hand is shown. With `--save` the
game is written after every action, and `--resume` continues it exactly: each bot decision is
seeded by the game's seed and the move number, so a resumed game plays on as the uninterrupted one
would have.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import time
from typing import Optional, Sequence

import click
from rich.console import Console
from rich.control import Control
from rich.segment import ControlType, Segment
from rich.text import Text

from ..play.bots import BOTS
from ..play.chance import decides
from .chance_view import step_through
from .cmd_common import (MAX_PAUSE, MAX_SEATS, TAIL_SHOWN, FiniteFloatRange, exit_on_rule_error, load_game,
                         parse_settings, seed_type)
from . import untrusted
from .answers import discard_typeahead, label_numbers, match_answer, means_quit, numbers_only, quit_word
from ..play.savegame import SaveError, check_save_target, load_saved, save_data, write_save
from ..play.replay import option_text
from ..play.team_result import final_teams, number, team_name, team_value, winning
from ..play.seen import common_observation, table_label, table_labels, table_seats
from ..play.table_bots import Bots
from ..runtime.engine import RuleError
from ..play.table_view import (Layout, Style, actions_list, choice_answers, receipts, render_table,
                               rich_line, score_order, scores_table, team_scores_table, terminal_shows_symbols,
                               unanswered)

BOT_PAUSE = 0.8  # seconds between two bot moves when a person watches at a terminal
EVENTS_SHOWN = 14  # events since a person's last move shown on the table; `log` shows them all
SAVE_EVERY = 0.25  # seconds between two saves of a bots-only game (bots replay the same moves anyway)
HELP_LINES = (  # what `?` says after the rules, each line wrapped to the terminal
    "Answer with the number of an action, its label (the start of it is enough) or a card such as 10h.",
    "Commands: ? this help{sep}log every event you saw{sep}t the table again{sep}{leave} to leave the table "
    "(it offers to save the game).",
    "q always leaves, unless q is exactly one of your choices (then quit does); a label or a card "
    "beginning with q (a queen: Qh) is typed in full or by its number.",
)
ERASE_SCROLLBACK = "\x1b[2J\x1b[3J\x1b[H"  # erase the screen, then the scrollback (ED 3), cursor home


class Leave(Exception):
    """The person leaves the table (`quit`, Ctrl-C, or the input closed)."""


class Session:
    """One game at the terminal: whose turn, what to show to whom, saving after every action."""

    def __init__(self, game, state, *, humans: Sequence[int], bots: Bots, console: Console, style: Style,
                 speed: float = 0.0, save_path: Optional[str] = None, hotseat: bool = False,
                 replay_hint: str = "", labels: Optional[list] = None, read=input, echo: bool = False,
                 sleep=time.sleep, discard=discard_typeahead, terminal: bool = False, auto_single: bool = False):
        self.game = game
        self.state = state
        self.humans = list(humans)
        self.bots = bots
        self.console = console
        self.style = style
        self.speed = speed
        self.save_path = save_path
        self.hotseat = hotseat
        self.auto_single = auto_single  # a person's lone legal move is played without asking
        self.replay_hint = replay_hint
        self.read = read
        self.echo = echo
        self.sleep = sleep
        self.discard = discard  # forgets type-ahead when a person's turn begins
        self.terminal = terminal  # the input is a terminal: Ctrl-D there saves, as a closed terminal does
        self.layout = Layout.of(game)
        # the table whose view a save records (seen.py), and each move's label as it saw it
        self.table = table_seats(self.humans, game.players)
        self.labels = list(labels) if labels is not None else None
        # the person in front of the screen: with one person always the same; with several, the
        # last one who played (until the next one takes the seat)
        self.viewer: Optional[int] = self.humans[0] if len(self.humans) == 1 else None
        # per seat, the length of its log when it last moved: the table shows what came after
        self.mark = {s: 0 for s in self.humans}
        # per seat, what it saw arrive in a hand (`table_view.receipts`): (log length then, line),
        # and its observation after the last action, to compare the next one with
        self.received: dict = {s: [] for s in self.humans}
        self.seen: dict = {}
        # the variables a choice sets to the number chosen (a bid), and the round each player last
        # set each by choosing: the table shows a dash, not the starting value, until he has
        self.answers = choice_answers(game.program)
        self.answered: dict = {}
        if self.answers and state.history:  # a resumed game: its past choices, played again
            self.answered = _answered(state, self.answers)

    # ------------------------------------------------------------------ flow
    def run(self) -> int:
        """Plays to the end or until the person leaves; the exit status."""
        previous = _on_hangup(self.hang_up)
        try:
            self.save()
            try:
                while not self.state.is_terminal():
                    seat = self.state.current_player
                    if seat in self.humans:
                        self.human_turn(seat)
                    else:
                        self.bot_turn(seat)
                self.finish()  # (the scores shown there can break a rule too)
            except Leave as e:
                return self.leave(str(e))
            except KeyboardInterrupt:
                return self.leave_interrupted()
            except RuleError as e:
                return self.stop_on_rule_error(e)
            return 0
        finally:
            _on_hangup(previous)

    def hang_up(self, *_):
        """The terminal closed: save (to the default file if none was given) and stop, silently."""
        if self.save_path is None:
            self.save_path = default_save_name(self.game)
        try:
            self.save()
        finally:
            os._exit(129)

    def bot_turn(self, seat: int) -> None:
        self.apply(self.bots.choose(self.state))
        if self.speed > 0 and self.viewer is not None:
            self.draw(self.viewer, status=None)
            self.sleep(self.speed)

    def human_turn(self, seat: int) -> None:
        if self.auto_single:
            legal = self.state.legal_actions()
            if len(legal) == 1:
                self.play_single(seat, legal[0])
                return
        self.discard()  # what was typed while the bots played was not an answer to this turn
        if self.viewer != seat and (self.hotseat or self.viewer is None):
            self.hand_over(seat)
        self.viewer = seat
        self.draw(seat, status=None)
        actions = self.layout.display_order(self.state.legal_actions())
        labels = [a.label for a in actions]
        self.show_actions(labels)
        while True:
            answer = self.ask(f"P{seat} > ")
            command = answer.strip().lower()
            if command in ("?", "help", "h", "rules"):
                self.show_rules(labels)
                continue
            if means_quit(command, labels):
                raise Leave("quit")
            if command == "log":
                self.show_log(seat)
                continue
            if command in ("t", "table"):
                self.draw(seat, status=None)
                self.show_actions(labels)
                continue
            index, reason = match_answer(answer, labels, self.card_of)
            if index is None:
                self.say(reason, "yellow")
                continue
            self.mark[seat] = len(self.state.log or ())
            self.apply(actions[index])
            return

    def play_single(self, seat: int, action) -> None:
        """`--auto-single`: plays the seat's only legal move and says so. Its label is shown only to the
        seat's own person (at a hot seat someone else may be looking); the log has the move, and the
        seat's next table lists it among the events since its last move."""
        label = action.label if self.viewer == seat else None
        self.apply(action)
        note = Text(f"P{seat} had a single legal move, played without asking (--auto-single)", style="dim")
        self.show(note + rich_line(f": {label}", self.style) if label is not None else note)
        if self.speed > 0:
            self.sleep(self.speed)

    def hand_over(self, seat: int) -> None:
        """Clears the screen and the terminal's scrollback (the previous person's hand is in both),
        and waits for the person at `seat` before showing anything of it."""
        self.clear(separator=True, scrollback=True)
        self.console.print(Text(f"P{seat}'s turn. Pass the terminal to P{seat}.", style="bold"))
        self.ask(f"P{seat}, press Enter when only you can see the screen ")
        self.clear()

    def finish(self) -> None:
        state = self.state
        if self.hotseat or self.viewer is None:
            seats = self.humans or list(range(self.game.players))
            self.clear(scrollback=True)  # the last person's hand is in the scrollback
            obs = common_observation(state, seats)
            lines = obs["log"]
            self.show(render_table(obs, self.layout, self.style, events=self._last(lines, self._common_mark(seats)),
                                   earlier=0, viewer=None, header=self.header(), events_title="last events"))
        else:
            self.draw(self.viewer, status="", final=True)
        if self.game.teams:  # partnerships: each team once (play/team_result.py)
            teams = final_teams(self.game, state)
            self.show(team_scores_table(teams, self.style, order=score_order(self.game)))
            winners = winning(teams, state.winners())
            mine = len(self.humans) == 1 and any(t.won and self.humans[0] in t.seats for t in teams)
            you = ", your team," if mine else ""
        else:
            self.show(scores_table(state.scores(), state.winners(), self.style, active=state.active,
                                   order=score_order(self.game)))
            winners = [f"P{w}" for w in state.winners()]
            you = " (you)" if len(self.humans) == 1 and tuple(state.winners())[:1] == (self.humans[0],) else ""
        if not winners:
            self.say("The game is over: nobody wins.", "bold")
        elif len(winners) == 1:
            self.say(f"The game is over: {winners[0]}{you} wins.", "bold")
        else:
            self.say(f"The game is over: {', '.join(winners)} share the win.", "bold")
        self.say(self.replay_hint, "dim")

    def leave(self, why: str) -> int:
        if why == "input closed":  # Ctrl-D at a terminal saves, as a closed terminal does (`hang_up`)
            if self.terminal and self.save_path is None:
                self.save_path = default_save_name(self.game)
            try:
                self.save()
            except OSError as e:
                self.say(f"could not save to {self.save_path}: {e.strerror or e}", "red")
                self.save_path = None
            self.say("")
            self.say("The input closed: leaving the game.", "bold")
            self.say(self.resume_hint(), "dim")
            return 0
        self.save()  # an interruption may have come between a move and its save
        self.say("Leaving the game.", "bold")
        if self.save_path is None:
            self.offer_save()
        self.say(self.resume_hint(), "dim")
        return 0

    def leave_interrupted(self) -> int:
        self.save()
        self.say("")
        self.say("Interrupted.", "bold")
        if self.save_path is None:
            self.offer_save()
        self.say(self.resume_hint(), "dim")
        return 130  # the shell's status for Ctrl-C, saved or not

    def stop_on_rule_error(self, e: RuleError) -> int:
        """A rule cannot be carried out: the game is saved as it stands and the error is one line."""
        e.in_game(self.state.seed, len(self.state.history))
        if self.save_path is None:
            self.save_path = default_save_name(self.game)
        exit_on_rule_error(e, _saved(self.save, self.save_path))

    def offer_save(self) -> None:
        default = default_save_name(self.game)
        try:
            answer = self.ask(f"Save the game to resume it later? File name [{default}], or n: ").strip()
        except (Leave, KeyboardInterrupt):
            self.say("")
            return
        if answer.lower() in ("n", "no"):
            return
        self.save_path = answer or default
        try:
            self.save()
        except OSError as e:
            self.say(f"could not save to {self.save_path}: {e.strerror or e}", "red")
            self.save_path = None

    # --------------------------------------------------------------- helpers
    def save(self) -> None:
        if self.save_path is None:
            return
        if self.labels is None or len(self.labels) != len(self.state.history):  # saved from now on
            self.labels = table_labels(self.state, self.table)
        write_save(self.save_path, save_data(self.state, humans=self.humans, bot=self.bots.name,
                                             labels=self.labels, save_path=self.save_path))

    def apply(self, action: int) -> None:
        """Plays an action and saves; keeps the moves' labels, as the table saw them, for the save file,
        and what each person's seat saw arrive in a hand."""
        line = len(self.state.log or ())
        before = {s: self.seen.get(s) or self.state.view(s).observation() for s in self.humans}
        _note_answer(self.state, action, self.answers, self.answered)
        self.state.apply(action)
        if self.labels is not None and self.save_path is not None:
            self.labels.append(table_label(self.state, self.table, line))
        self.note_receipts(before)
        self.save()

    def note_receipts(self, before: dict) -> None:
        """Keeps, for each person's seat, the cards it saw arrive in a hand during the last action, from
        its views before and after (never from the state: only what the seat knows)."""
        at = len(self.state.log or ())
        for s in self.humans:
            self.seen[s] = self.state.view(s).observation()
            self.received[s] += [(at, line) for line in receipts(before[s], self.seen[s], self.layout)]

    def events(self, seat: int, lines: list, start: int = 0) -> list:
        """Log lines from `start`, each receipt of the seat after the lines of the action it came in."""
        keyed = [((i, 0), line) for i, line in enumerate(lines) if i >= start]
        keyed += [((at, -1), line) for at, line in self.received.get(seat, ()) if at > start]
        return [line for _, line in sorted(keyed, key=lambda k: k[0])]

    def resume_hint(self) -> str:
        if self.save_path:
            return f"The game is saved in {self.save_path}; to go on: cardlang play --resume {_quote(self.save_path)}"
        return "The game was not saved."

    def header(self) -> str:
        who = ", ".join(f"P{s}" for s in self.humans) or "bots only"
        you = f"you are {who}" if len(self.humans) == 1 else f"people: {who}"
        sep = self.style.sep
        text = f"{self.game.title}{sep}{self.game.players} players{sep}{you}"
        # the seed deals every hand: it is shown once the game is over, never while a person plays
        return text + (f"{sep}seed {self.state.seed}" if self.state.is_terminal() else "")

    def draw(self, seat: int, status: Optional[str], final: bool = False) -> None:
        obs = self.state.view(seat).observation()  # the screen, like a bot, gets the seat's view
        obs = unanswered(obs, self.answered, self.answers, self.state.round)
        log = obs["log"]
        start = self.mark.get(seat, 0)
        if final:
            start = min(start, max(0, len(log) - EVENTS_SHOWN))
        events = self.events(seat, log, start)
        earlier = max(0, len(events) - EVENTS_SHOWN)
        events = events[earlier:]
        self.clear()
        title = "since your last move" if start else "so far"
        self.show(render_table(obs, self.layout, self.style, events=events, earlier=earlier,
                               viewer=seat, status=self.status(obs, seat) if status is None else status,
                               header=self.header(),
                               events_title=title))

    def _last(self, lines: list, start: int) -> list:
        return lines[max(start, len(lines) - EVENTS_SHOWN):]

    def _common_mark(self, seats) -> int:
        return min(self.mark.get(s, 0) for s in seats) if seats else 0

    def status(self, obs: dict, seat: int) -> str:
        if self.state.is_terminal():
            return "The game is over."
        current = self.state.current_player
        if current == seat:
            return f"Your turn, P{seat}."
        return f"P{current} is playing{self.style.more}"

    def show_actions(self, labels: list) -> None:
        sep = self.style.sep
        word = quit_word(labels)
        leave = "q quit" if word == "q" else f"{word} to leave"
        if numbers_only(labels):
            self.show(Text("  choose a number: " + ", ".join(labels), style="bold"))
            self.say(f"type the number{sep}? rules and help{sep}log all events{sep}{leave}", "dim", wrap=True)
            return
        numbers = label_numbers(labels)
        if numbers is not None:  # a number answers with itself, so the list has no numbers of its own
            self.show(Text("  choose: ", style="bold") + rich_line(", ".join(labels), self.style))
            example = next(f"{k} for {label}" for k, label in zip(numbers, labels) if k is not None)
            self.say(f"type the number ({example}) or a label{sep}? rules and help{sep}log all events{sep}{leave}",
                     "dim", wrap=True)
            return
        self.show(actions_list(labels, self.style))
        self.say(f"answer with a number or a label{sep}? rules and help{sep}log all events{sep}{leave}", "dim", wrap=True)

    def show_rules(self, labels: Sequence[str] = ()) -> None:
        game = self.game
        symbols = game.symbols
        self.say(f"{game.title}", "bold")
        if symbols.about:
            self.show(rich_line(symbols.about, self.style))
        low, high = symbols.players
        self.say(f"{low} to {high} players; this game has {game.players}. Rules file: {game.path}", "dim")
        for name, decl in symbols.options.items():
            value = game.options.get(name)
            text = f"  option {name} = {option_text(value)}"
            if getattr(decl, "help", None):
                text += f"  ({decl.help})"
            self.say(text, "dim", wrap=True)
        word = quit_word(labels)
        leave = "q, quit or exit" if word == "q" else f"{word} (q is one of your choices now)"
        for line in HELP_LINES:
            self.say(line.format(leave=leave, sep=self.style.sep), "dim", wrap=True)

    def show_log(self, seat: int) -> None:
        for line in self.events(seat, self.state.transcript(seat)):
            self.show(rich_line("  " + line, self.style))

    def card_of(self, text: str) -> Optional[str]:
        try:
            deck = self.game.deck
            return deck.label_of(deck.card_id(text), copy="#" in text)  # `7h#2`: that copy's label
        except (ValueError, IndexError):
            return None

    def ask(self, prompt: str) -> str:
        self.console.print(Text(prompt, style="bold cyan"), end="")
        try:
            answer = self.read()
        except EOFError:
            raise Leave("input closed") from None
        if self.echo:
            self.console.print(answer, markup=False, highlight=False)
        return answer

    def clear(self, separator: bool = False, scrollback: bool = False) -> None:
        """A clean screen at a terminal (and, with `scrollback`, no lines left to scroll back to); in a
        pipe or a log, a separator line where asked."""
        if self.console.is_terminal:
            if scrollback:
                erase_scrollback(self.console)
            else:
                self.console.clear()
        elif separator:
            self.console.print(Text("-" * 40, style="dim"))

    def show(self, renderable) -> None:
        self.console.print(renderable)

    def say(self, text: str, style: str = "", wrap: bool = False) -> None:
        """A line of text, shown as text (a title, an option's help, a path); `wrap`: broken between
        words at the terminal's width (help), else left whole (a file name or a command to copy)."""
        if text is not None:
            self.console.print(Text(untrusted.visible(text), style=style), soft_wrap=not wrap)


def _note_answer(state, action, answers: dict, answered: dict) -> None:
    """Before `action` is played: the variables its choice sets to the number chosen are answered by
    its player in this round (`table_view.choice_answers`)."""
    if not answers or state.pending is None:
        return
    index = state.pending.choice
    for name, choices in answers.items():
        if index in choices:
            answered[(name, state.current_player)] = state.round


def _answered(state, answers: dict) -> dict:
    """The answers of a game's past moves (a resumed game), its moves played again."""
    data = state.to_json()
    replay = state.game.new_initial_state(seed=data["seed"], stack=data["stack"], draws=data["draws"])
    answered: dict = {}
    for action in state.history:
        _note_answer(replay, action, answers, answered)
        replay.apply(action)
    return answered


def erase_scrollback(console: Console) -> None:
    """Clears the screen, then the lines scrolled off it (ED 3, `ESC[3J`, which xterm, VTE, tmux and
    the Linux console honour), cursor home: rich's CLEAR control writes ED 2 alone, which leaves
    everything that scrolled off the screen to be read again."""
    control = Control(ControlType.CLEAR, ControlType.HOME)
    control.segment = Segment(ERASE_SCROLLBACK, None, control.segment.control)
    console.control(control)


def _on_hangup(handler):
    """Installs a handler for SIGHUP (the terminal closed) where there is one; the previous handler."""
    import signal
    import threading

    if handler is None or not hasattr(signal, "SIGHUP") or threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.signal(signal.SIGHUP, handler)
    return signal.SIG_DFL if previous is None else previous


def _saved(save, path: str) -> str:
    """Saves a game a rule stopped (`save()`); the note for its error line: where, or why not."""
    try:
        save()
    except (OSError, RuleError) as e:
        return f"not saved: {getattr(e, 'strerror', None) or e}"
    return f"saved in {path}"


def _quote(path: str) -> str:
    return shlex.quote(path)


SAVE_NAME_SHAPE = "GAME-YYYYMMDD-HHMMSS.save.json"  # as the docs and `play --help` write it


def default_save_name(game) -> str:
    """`SAVE_NAME_SHAPE`: the game's title in lower case, words joined by `-`, and the time
    (`my-game-20261201-092145.save.json`), not the seed (it deals every hand)."""
    stem = re.sub(r"[^a-z0-9]+", "-", game.title.lower()).strip("-") or "game"
    return f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.save.json"


def replay_command(game, seed: int, settings: dict, bot: str = "random") -> str:
    """The command that deals the same game again (with the same bots)."""
    parts = ["cardlang", "play", _quote(game.path), "--players", str(game.players), "--seed", str(seed)]
    for name, value in settings.items():
        parts += ["--set", _quote(f"{name}={option_text(value)}")]
    if bot != "random":
        parts += ["--bot", _quote(bot)]
    return " ".join(parts)


@click.command("play")
@click.argument("path", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--players", type=click.IntRange(1, MAX_SEATS), default=None,
              help="Number of players (default: the smallest allowed).")
@click.option("--seat", "seats", type=click.IntRange(0, MAX_SEATS - 1), multiple=True,
              help="The seat you play, 0 being the first (default 0); repeat it for several people.")
@click.option("--seed", type=seed_type(), default=None, help="Seed for a reproducible deal (default: random).")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a game option (repeatable).")
@click.option("--bots-only", is_flag=True, help="Bots play every seat; print the whole transcript.")
@click.option("--bot", "bot_name", default=None, metavar="NAME",
              help=f"The bot for the seats no person plays: {', '.join(sorted(BOTS))}, or NAME:BUDGET "
                   "(default: random).")
@click.option("--hotseat", is_flag=True,
              help="Several people at one terminal: every seat (or each --seat) is a person; the screen "
                   "and the terminal's scrollback are cleared between them.")
@click.option("--speed", type=FiniteFloatRange(min=0, max=MAX_PAUSE), default=None, metavar="SECONDS",
              help=f"Pause after each bot move (default {BOT_PAUSE} at a terminal, 0 otherwise).")
@click.option("--auto-single", "auto_single", is_flag=True,
              help="Play a person's move without asking when it is the only legal one (the table says so).")
@click.option("--ascii", "use_ascii", is_flag=True, help="Suits as letters (10h, As) and plain lines.")
@click.option("--color/--no-color", "color", default=None, help="Colours on or off (default: if the terminal has them).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game to this JSON file after every action.")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), default=None,
              help="Continue a game saved with --save (PATH may then be left out).")
def play_command(path, players, seats, seed, settings, bots_only, bot_name, hotseat, speed, auto_single, use_ascii,
                 color, save_path, resume_path) -> None:
    """Play a game at the terminal against bots, or with friends at one terminal (--hotseat).

    You see only what your seat may see: your own hidden cards, the cards shown to you and the
    public table. Answer with the number of an action or its label (a choice of numbers, such as
    bids, with the number itself); `?` shows the rules, `q` (or `quit`, `exit`) leaves, offering
    to save (when `q` is exactly one of your choices, `quit` leaves). With --save FILE the game is
    saved after every action; resume it with `cardlang play --resume FILE`, replay it with
    `cardlang replay FILE`. A terminal that closes, or Ctrl-D at it, without --save leaves the game
    in GAME-YYYYMMDD-HHMMSS.save.json in the current folder (the game's title and the time, never
    the seed), the name `q` offers too. A rule error ends the game with one line naming the rule,
    the seed and the move, after saving it there (exit status 1).
    """
    import random as _random

    console = _console(color, use_ascii)
    style = Style(ascii=use_ascii or not terminal_shows_symbols())
    if resume_path is not None:
        given = [name for name, v in (("--players", players), ("--seed", seed), ("--set", settings)) if v]
        if given:
            _fail(f"{', '.join(given)} cannot be changed when resuming: they come from the save")
        try:
            game, state, data = load_saved(resume_path, path)
        except SaveError as e:
            _fail(str(e), status=1)
        except RuleError as e:  # the saved game stops on a rule error: the save reproduces it
            exit_on_rule_error(e, f"saved in {resume_path}")
        seed = state.seed
        humans = list(dict.fromkeys(seats)) or list(data.humans)
        if hotseat and not seats:
            humans = list(range(game.players))
        hotseat = hotseat or len(humans) > 1
        bots_only = bots_only or not humans
        bot_name = bot_name or data.bot
        save_path = save_path or resume_path
        # the labels are the table's: a table with other people (or a version-1 save) has them worked out again
        same_table = data.version >= 2 and table_seats(humans, game.players) == table_seats(data.humans, game.players)
        saved_labels = list(data.labels) if same_table else None
        settings_shown = {k: v for k, v in game.options.items() if v != game.symbols.options[k].default}
    else:
        if path is None:
            _fail("give a rules file (cardlang play games/NAME.cards) or --resume SAVE")
        game = load_game(path, players, settings)
        if seed is None:
            seed = _random.randrange(1 << 31)
        try:
            state = game.new_initial_state(seed=seed)
        except RuleError as e:  # before the first decision: a save of no moves reproduces it
            where = save_path or default_save_name(game)
            exit_on_rule_error(e.in_game(seed, 0), _saved(lambda: write_save(where, save_data(
                e.state, humans=() if bots_only else seats or [0], bot=bot_name or "random", labels=[],
                save_path=where)), where))
        if hotseat and not seats:
            humans = list(range(game.players))
        else:
            humans = list(dict.fromkeys(seats)) or [0]
        hotseat = hotseat or len(humans) > 1
        bot_name = bot_name or "random"
        saved_labels = []
        settings_shown = parse_settings(settings)
        settings_shown = {k: game.options[k] for k in settings_shown}
    for s in humans:
        if not 0 <= s < game.players:
            _fail(f"--seat must be from 0 to {game.players - 1}, not {s}")
    if save_path is not None:  # refused before the game starts: a save replaces only a save (or writes anew)
        try:
            check_save_target(save_path)
        except OSError as e:
            _fail(str(e))
    try:
        bots = Bots(bot_name, seed)
    except KeyError as e:
        _fail(e.args[0])
    replay_hint = (f"Replay it: cardlang replay {_quote(save_path)} (--all shows every card)" if save_path
                   else f"Play the same deal again: {replay_command(game, seed, settings_shown, bot_name)}")
    if bots_only:
        try:
            _bots_only(game, state, bots, console, save_path, speed or 0.0, bot_name, style)
        except OSError as e:
            _fail(f"could not save the game to {save_path}: {e.strerror or e}", status=1)
        return
    if not decides(game.symbols):  # pure chance: nothing to ask, the game is shown a round at a time
        step_through(game, state, console, style, replay_hint=replay_hint, echo=not _stdin_is_terminal())
        return
    if speed is None:
        speed = BOT_PAUSE if console.is_terminal else 0.0
    session = Session(game, state, humans=humans, bots=bots, console=console, style=style, speed=speed,
                      save_path=save_path, hotseat=hotseat, replay_hint=replay_hint, labels=saved_labels,
                      echo=not _stdin_is_terminal(), terminal=_stdin_is_terminal(), auto_single=auto_single)
    if resume_path is not None:
        session.say(f"Resuming {game.title} from {resume_path}: {len(state.history)} moves played.", "bold")
    try:
        status = session.run()
    except OSError as e:
        _fail(f"could not save the game: {e.strerror or e}", status=1)
    if status:
        raise SystemExit(status)


def _bots_only(game, state, bots: Bots, console: Console, save_path, speed: float, bot_name: str,
               style: Optional[Style] = None) -> None:
    plain = (style or Style()).plain  # --ascii (or a terminal without suit symbols): 10h, not 10♥
    table = table_seats((), game.players)  # nobody sits: the save records what every seat saw
    labels = table_labels(state, table)  # kept without --save too: a rule error saves the game
    last_save = [0.0]

    def save(now=False):
        # at most every SAVE_EVERY seconds while the bots play (each save writes every move so far),
        # and at once at the end or a break: a save lost in between is the same bots' same moves
        if save_path and (now or time.monotonic() - last_save[0] >= SAVE_EVERY):
            write_save(save_path, save_data(state, humans=(), bot=bot_name, labels=labels, save_path=save_path))
            last_save[0] = time.monotonic()

    save(now=True)
    shown = 0
    try:
        while not state.is_terminal():
            action = bots.choose(state)
            line = len(state.log)
            state.apply(action)
            labels.append(table_label(state, table, line))
            save(now=speed > 0 or state.is_terminal())
            if speed:
                for line in state.transcript(start=shown):
                    console.print(plain(line), markup=False, highlight=False)
                shown = len(state.log)
                time.sleep(speed)
        scores = state.scores()  # (a `score of p:` can break a rule too)
        teams = final_teams(game, state) if game.teams else None  # (and a payoff)
    except RuleError as e:
        total = len(state.log)  # a line of the transcript per event of the log
        if total - shown > TAIL_SHOWN:
            console.print(f"… {total - shown - TAIL_SHOWN:,} lines before these (cardlang replay shows them all)",
                          markup=False, highlight=False)
            shown = total - TAIL_SHOWN
        for line in state.transcript(start=shown):
            console.print(plain(line), markup=False, highlight=False)
        e.in_game(state.seed, len(state.history))
        path = save_path or default_save_name(game)
        exit_on_rule_error(e, _saved(lambda: write_save(path, save_data(state, humans=(), bot=bot_name, labels=labels,
                                                                        save_path=path)), path))
    except KeyboardInterrupt:
        save(now=True)
        console.print()
        console.print("Interrupted.", markup=False)
        if save_path:
            console.print(f"The game is saved in {save_path}; to go on: cardlang play --resume {_quote(save_path)}",
                          markup=False, soft_wrap=True)
        raise SystemExit(130)
    for line in state.transcript(start=shown):
        console.print(plain(line), markup=False, highlight=False)
    if teams:
        _print_teams(console, game, state, teams)
        return
    console.print("final scores: " + ", ".join(f"P{s}: {number(v)}" for s, v in enumerate(scores))
                  + (f" ({score_order(game)} wins)" if score_order(game) else ""), markup=False)
    winners = ", ".join(f"P{w}" for w in state.winners()) or "nobody"
    console.print(Text(f"winner{'s' if len(state.winners()) > 1 else ''}: {winners}", style="bold"))


def _print_teams(console: Console, game, state, teams: list) -> None:
    """The end of a bots-only game with partnerships: each team once, its score (and payoff), who won."""
    console.print("final scores by team: " + ", ".join(f"{team_name(t)}: {team_value(t, t.score)}" for t in teams)
                  + (f" ({score_order(game)} wins)" if score_order(game) else ""), markup=False)
    if teams[0].payoff is not None:
        console.print("payoffs by team: " + ", ".join(f"{team_name(t)}: {team_value(t, t.payoff)}" for t in teams),
                      markup=False)
    winners = winning(teams, state.winners())
    console.print(Text(f"winner{'s' if len(winners) > 1 else ''}: {', '.join(winners) or 'nobody'}", style="bold"))


def _console(color: Optional[bool], use_ascii: bool) -> Console:
    return untrusted.console(color, ascii_only=use_ascii)  # every text of the game shown as text


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _fail(message: str, status: int = 2):
    untrusted.echo(f"error: {message}", err=True)
    raise SystemExit(status)
