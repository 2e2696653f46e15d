"""What the commands share: parsing `--set NAME=VALUE`, the `--root DIR` option, loading a game with
one-line errors."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import TYPE_CHECKING, Optional

import click

from ..lang.diagnostics import CardlangError, render_text
from ..lang.files import ROOT_ENV
from ..runtime.basics import RuleError
from ..load import load
from .untrusted import echo

if TYPE_CHECKING:  # the engine is loaded by `load`, not by `cardlang check`
    from ..runtime.engine import Game

TAIL_SHOWN = 200  # lines of a transcript shown when a rule stops a game (`replay` has them all)
ROOT_HELP = ("Let `extends` reach rule files anywhere under DIR (by default only the file's own folder and "
             "its subfolders, or the `root` of a cardlang.toml; see docs/security.md).")
_ROOT_KEY = "cardlang.root"


# the bounds of the numeric options (issue 27): a value outside is one usage line, never a traceback or a hang
MAX_GAMES = 10_000_000  # games of a run: a few hours of the fastest game on one core
MAX_JOBS = 256  # local processes
SEED_BOUND = 1 << 63  # a seed is from -2**63 to 2**63 - 1: every game of a run then fits a save (`MAX_SEED`)
MAX_PAUSE = 60.0  # seconds of `--speed`
MAX_SEATS = 1000  # players and seats: as many as a save holds


class FiniteFloatRange(click.FloatRange):
    """A FloatRange that refuses `nan` and `inf` too (click's own lets `nan` through every bound)."""

    def convert(self, value, param, ctx):
        import math

        rv = super().convert(value, param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return rv


def seed_type() -> click.IntRange:
    """The type of a `--seed`."""
    return click.IntRange(-SEED_BOUND, SEED_BOUND - 1)


def games_type() -> click.IntRange:
    """The type of a number of games (`-n`, `--max-games`)."""
    return click.IntRange(1, MAX_GAMES)


def jobs_type() -> click.IntRange:
    """The type of `--jobs`."""
    return click.IntRange(1, MAX_JOBS)


def parse_settings(values) -> dict:
    """`--set tokens=3 --set blind=true` → {"tokens": "3", "blind": "true"} (converted by the game)."""
    out = {}
    for item in values or ():
        if "=" not in item:
            raise click.BadParameter(f"`{item}` is not NAME=VALUE", param_hint="--set")
        name, value = item.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _remember_root(ctx: click.Context, param, value: Optional[str]) -> Optional[str]:
    if value is not None:
        ctx.meta[_ROOT_KEY] = os.path.abspath(value)
        # worker processes (simulate) load the file again: they find the root in their environment
        before = os.environ.get(ROOT_ENV)
        os.environ[ROOT_ENV] = ctx.meta[_ROOT_KEY]
        ctx.call_on_close(lambda: os.environ.__setitem__(ROOT_ENV, before) if before is not None
                          else os.environ.pop(ROOT_ENV, None))
    return value


def root_option() -> click.Option:
    """`--root DIR` for a command that loads a rule file; `load_game` then uses it."""
    return click.Option(["--root"], type=click.Path(exists=True, file_okay=False), default=None, metavar="DIR",
                        expose_value=False, callback=_remember_root, help=ROOT_HELP)


def given_root() -> Optional[str]:
    """The `--root` of the command running, if any."""
    ctx = click.get_current_context(silent=True)
    return ctx.find_root().meta.get(_ROOT_KEY) if ctx is not None else None


def load_game(path: str, players: Optional[int], settings, passes=None, engine: str = "compiled") -> "Game":
    """Loads a game for a command (`passes`: the compiled engine's, as `load` takes them); a bad
    file prints its diagnostics, a bad count, option or pass one line. With `engine="native"`, a
    game the native engine cannot run says so in one line and runs on the compiled engine."""
    try:
        game = load(path, players=players, options=parse_settings(settings), root=given_root(), passes=passes,
                    engine=engine)
        if getattr(game, "native_note", None):
            echo(game.native_note, err=True)
        return game
    except CardlangError as e:
        if e.diagnostics:
            for d in e.diagnostics:
                click.echo(render_text(d, e.sources), err=True)
            raise SystemExit(1)
        echo(f"error: {e.message}", err=True)
        raise SystemExit(2)
    except RuleError as e:  # a rule worked out as the game loads (which deck, at this player count)
        exit_on_rule_error(e)


def exit_on_rule_error(error: RuleError, *notes: str):
    """Ends a command on a rule error: its one line (place, message, seed, move, `notes`), status 1."""
    echo(error.report(*notes), err=True)
    raise SystemExit(1)


# ------------------------------------------------------------------ signals
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """A signal stopped a run (SIGINT, SIGTERM or SIGHUP): a KeyboardInterrupt, which every run
    (`play.simulate`) already takes as its cue to stop its workers and keep what finished."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class SignalStop:
    """What `stopping_on_signals` saw: the first signal that came, or None."""

    signum: Optional[int] = None

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum is not None else ""

    @property
    def status(self) -> int:
        """The exit status of a run a signal stopped: 128 + its number, as the shell gives."""
        return 128 + (self.signum or 0)

    def by_request(self) -> bool:
        """Whether it was SIGINT (Ctrl-C): the person asked for the results so far; SIGTERM or SIGHUP
        (the terminal gone) just end the run."""
        return self.signum == getattr(signal, "SIGINT", None)


@contextlib.contextmanager
def stopping_on_signals():
    """While a run goes on, each of SIGINT, SIGTERM and SIGHUP stops it: `Stopped` is raised in the
    main thread, and the run stops its workers (`play.simulate`). SIGINT stops it even when this
    process was started with it ignored (a shell's `cmd &`): a run with workers must never be left
    to go on when someone asks it to stop. Yields a `SignalStop`; the handlers before are put back."""
    stop = SignalStop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum, _frame):
        if stop.signum is None or stop.signum == getattr(signal, "SIGINT", None):
            stop.signum = signum  # (a SIGTERM after a Ctrl-C says how the run ended)
        raise Stopped(signum)

    previous = {}
    for sig in STOP_SIGNALS:
        try:
            previous[sig] = signal.signal(sig, handler)
        except (OSError, ValueError):  # not allowed here: that signal keeps what it did
            pass
    try:
        yield stop
    finally:
        for sig, before in previous.items():
            signal.signal(sig, before if before is not None else signal.SIG_DFL)


def say_stopped(stop: SignalStop, done: int, total: int) -> None:
    """The one line that says a signal stopped a run after `done` games of `total` (on stderr; nothing
    if it cannot be written: the terminal may be gone)."""
    if stop.by_request():
        text = f"interrupted (SIGINT): the results are those of the {done:,} games finished of {total:,}"
    else:
        text = f"stopped by {stop.name} after {done:,} games of {total:,} (no results are shown)"
    try:
        click.echo(text, err=True)
    except (OSError, ValueError):
        pass
