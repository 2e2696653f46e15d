"""Simulation: statistics on games whose answer is known exactly, reproducibility, coverage, Ctrl-C."""

import json
import multiprocessing
import os
import sys

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from cardlang.play.simulate import simulate, wilson
from cardlang.compiler.passes import NAMES
from scenario import game, path
from test_runtime_errors import processes

COIN = "examples/coin_flip.cards"
RIGGED = "examples/rigged.cards"
TIMING = ("seconds", "games_per_second")


def needs(module):
    """The module, or a skip on a developer's machine without it; CI installs it, so there it must be."""
    if os.environ.get("CI"):
        return __import__(module)
    return pytest.importorskip(module)


def run(*args):
    return CliRunner().invoke(main, list(args))


def without_timing(stats):
    return {k: v for k, v in stats.items() if k not in TIMING}


def assert_interval_holds(ci, p, games):
    """`p`, the exact answer, lies within the 95% interval, and the interval is as narrow as it should be."""
    low, high = ci
    assert low <= p <= high, (ci, p)
    assert high - low < 4.5 * (max(p * (1 - p), 0.01) / games) ** 0.5


# ------------------------------------------------------------------- known answers
def test_a_fair_coin_gives_each_seat_half_the_wins():
    games = 1000
    stats = simulate(game(COIN, 2), games, seed=11)
    assert stats["games"] == games and not stats["interrupted"]
    assert sum(s["wins"] for s in stats["seats"]) == games
    for s in stats["seats"]:
        assert_interval_holds(s["win_rate_ci95"], 0.5, games)
        assert s["mean_score"] == s["win_rate"]  # without a declared score, a win scores 1
    assert stats["ties"] == {"shared_wins": 0, "no_winner": 0}
    assert stats["decisions"] == {"mean": 1.0, "sd": 0.0, "min": 1, "max": 1}
    assert stats["rounds"] == {"mean": 1.0, "sd": 0.0, "min": 1, "max": 1}
    assert stats["decisions_histogram"] == [[1, games]] or stats["decisions_histogram"] == [(1, games)]
    labels = {a["label"]: a["count"] for a in stats["actions"]}
    assert set(labels) == {"heads", "tails"} and sum(labels.values()) == games


def test_the_coin_flip_covers_every_rule_and_counts_each_branch():
    games = 400
    stats = simulate(game(COIN, 2), games, seed=3)
    by_kind = {(e["kind"], e["label"]): e for e in stats["coverage"]}
    heads, tails = by_kind[("choose", '"heads"')], by_kind[("choose", '"tails"')]
    assert heads["offered"] == tails["offered"] == games
    assert heads["hits"] + tails["hits"] == games
    win = next(e for e in stats["coverage"] if e["kind"] == "if")
    lose = by_kind[("else", "else")]
    assert win["hits"] + lose["hits"] == games
    assert win["hits"] == stats["seats"][0]["wins"]  # the caller wins exactly when the `if` holds
    assert stats["never_reached"] == []
    assert [e["line"] for e in stats["coverage"]] == sorted(e["line"] for e in stats["coverage"])


@pytest.mark.parametrize("players", [2, 3])
def test_a_game_rigged_for_the_first_player(players):
    games = 1200
    stats = simulate(game(RIGGED, players), games, seed=5)
    first, second = stats["positions"][0], stats["positions"][1]
    assert_interval_holds(first["win_rate_ci95"], 3 / 4, games)
    assert_interval_holds(second["win_rate_ci95"], 1 / 4, games)
    assert first["mean_score"] == first["win_rate"] and second["mean_score"] == second["win_rate"]
    if players == 3:
        assert stats["positions"][2]["wins"] == 0
    # the first player is drawn at random: by seat, every seat wins (3/4 + 1/4) / players of the games
    for s in stats["seats"]:
        assert_interval_holds(s["win_rate_ci95"], 1 / players, games)
    shared, nobody = stats["ties"]["shared_wins"], stats["ties"]["no_winner"]
    assert_interval_holds(wilson(shared, games), 1 / 4, games)
    assert_interval_holds(wilson(nobody, games), 1 / 4, games)
    assert shared == second["wins"]  # the second player wins only by sharing
    assert stats["decisions"]["min"] == stats["decisions"]["max"] == players


def test_a_rule_never_offered_is_listed_as_never_reached():
    stats = simulate(game(RIGGED, 3), 200, seed=1)
    assert [(e["kind"], e["label"]) for e in stats["never_reached"]] == [("choose", '"fold" if count(hand(p)) > 1')]
    never = stats["never_reached"][0]
    assert never["hits"] == 0 and never["offered"] == 0 and never["line"] == 32
    assert never["file"].endswith("rigged.cards")
    knock = next(e for e in stats["coverage"] if e["label"] == '"knock"')
    assert knock["hits"] == knock["offered"] == 3 * 200
    branches = [e for e in stats["coverage"] if e["kind"] in ("if", "elif", "else")]
    assert [e["kind"] for e in branches] == ["if", "elif", "else"]
    assert sum(e["hits"] for e in branches) == 200


def test_wilson_interval():
    assert wilson(0, 0) == [0.0, 1.0]
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


# -------------------------------------------------------------------- reproducibility
def test_the_same_seed_gives_the_same_statistics_with_one_or_two_processes():
    g = game("games/coucou.cards", 5)
    bots = ["greedy:4", "random", "greedy:4", "random", "random"]
    one = simulate(g, 30, seed=8, bots=bots, jobs=1)
    two = simulate(g, 30, seed=8, bots=bots, jobs=2)
    small_batches = simulate(g, 30, seed=8, bots=bots, jobs=2, batch_size=1)
    assert without_timing(one) == without_timing(two) == without_timing(small_batches)
    assert one["bots"] == bots and [s["bot"] for s in one["seats"]] == bots
    other = simulate(g, 30, seed=9, bots=bots, jobs=1)
    assert without_timing(other) != without_timing(one)


def test_the_cluster_path_gives_the_same_statistics():
    needs("ray")
    args = ["simulate", path("games/counter_bluff.cards"), "-n", "12", "--seed", "4", "--bots", "ismcts:10,random",
            "--json"]
    local = json.loads(run(*args, "--jobs", "1").output)
    result = run(*args, "--cluster", "local", "--jobs", "2")
    assert result.exit_code == 0, result.output
    on_ray = json.loads(result.output.strip().splitlines()[-1])
    assert without_timing(on_ray) == without_timing(local)


# ------------------------------------------------------------------------- the command
def test_simulate_json_carries_every_statistic():
    result = run("simulate", path("games/counter_bluff.cards"), "-n", "6", "--bots", "greedy:4,random",
                 "--seed", "2", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 6 and data["players"] == 2 and data["bots"] == ["greedy:4", "random"]
    for s in data["seats"]:
        low, high = s["win_rate_ci95"]
        assert 0 <= low <= s["win_rate"] <= high <= 1
        assert s["min_score"] <= s["mean_score"] <= s["max_score"] and s["score_sd"] >= 0
    assert [s["bot"] for s in data["seats"]] == ["greedy:4", "random"]
    assert sum(p["wins"] for p in data["positions"]) == sum(s["wins"] for s in data["seats"])
    assert data["mean_decisions"] == data["decisions"]["mean"] > 0 and data["rounds"]["mean"] >= 1
    assert sum(a["count"] for a in data["actions"]) == round(data["mean_decisions"] * 6)
    assert {e["kind"] for e in data["coverage"]} == {"if", "else", "choose"}  # Counter-Bluff has no elif
    assert all(set(e) >= {"line", "kind", "label", "hits"} for e in data["coverage"])
    assert data["never_reached"] == [e for e in data["coverage"] if e["hits"] == 0]


def test_simulate_prints_tables_with_intervals_and_dead_rules():
    result = run("simulate", path(RIGGED), "-n", "50", "--players", "3", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "95% interval" in result.output and "by position" in result.output
    assert "rule coverage: 4 of 5 rules reached" in result.output
    assert 'never reached: ' in result.output and '"fold" if count(hand(p)) > 1' in result.output


def test_bad_bot_names_and_counts_are_usage_errors():
    result = run("simulate", path(COIN), "-n", "2", "--bots", "clever")
    assert result.exit_code == 2 and "unknown bot `clever`" in result.output
    result = run("simulate", path(RIGGED), "-n", "2", "--players", "3", "--bots", "random,random")
    assert result.exit_code == 2 and "one per seat" in result.output
    result = run("simulate", path(COIN), "-n", "2", "--bots", "ismcts:none")
    assert result.exit_code == 2


def test_a_time_budget_is_said_to_make_results_depend_on_the_machine():
    result = CliRunner().invoke(main, ["simulate", path(COIN), "-n", "2", "--jobs", "1", "--bots", "greedy:0.01s",
                                       "--json"])
    assert result.exit_code == 0, result.output
    assert "not reproducible" in result.output


def test_plot_draws_a_png(tmp_path):
    needs("matplotlib")
    target = tmp_path / "coin.png"
    result = run("simulate", path(COIN), "-n", "300", "--jobs", "1", "--plot", str(target))
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


# ---------------------------------------------------------------------------- Ctrl-C
def interrupt_after(n):
    def progress(done):
        if done >= n:
            raise KeyboardInterrupt
    return progress


def test_ctrl_c_keeps_the_statistics_of_the_games_finished():
    g = game(COIN, 2)
    stats = simulate(g, 100, seed=1, progress=interrupt_after(7))
    assert stats["interrupted"] and stats["games"] == 7
    assert sum(s["wins"] for s in stats["seats"]) == 7
    full = simulate(g, 7, seed=1)
    assert without_timing(full) == {**without_timing(stats), "interrupted": False}


def test_ctrl_c_with_processes_stops_them_and_reports_the_batches_done():
    stats = simulate(game("games/coucou.cards", 5), 400, seed=1, jobs=2, batch_size=10, progress=interrupt_after(1))
    assert stats["interrupted"] and 10 <= stats["games"] < 400
    assert multiprocessing.active_children() == []


def test_progress_bar_and_ctrl_c_at_a_terminal():
    pexpect = pytest.importorskip("pexpect")
    command = [sys.executable, "-m", "cardlang.cli", "simulate", path("games/ascenseur.cards"), "-n", "400",
               "--players", "4", "--jobs", "1", "--seed", "3"]
    child = pexpect.spawn(command[0], command[1:], encoding="utf-8", timeout=60, dimensions=(30, 120),
                          env={**os.environ, "TERM": "xterm"})
    child.expect("simulating")
    child.expect(r"[1-9]\d*/400")  # a game has finished
    child.sendintr()
    child.expect(r"(\d+) games, 4 players \(interrupted: the games finished so far\)")
    assert int(child.match.group(1)) >= 1
    child.expect("rule coverage")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


# ------------------------------------------------------------------- coverage, compiled in
def test_nested_choices_count_what_each_offers_and_what_is_taken():
    """Counter-Bluff's loser chooses "inverted round" or "hand over", and on "hand over" the winner
    chooses "normal round" or "inverted round": each alternative is offered as often as its choice
    is reached (the nested choice is compiled first: its index comes before the outer one's)."""
    stats = simulate(game("games/counter_bluff.cards", 2), 60, seed=2)
    chooses = sorted((e for e in stats["coverage"] if e["kind"] == "choose"), key=lambda e: e["line"])
    for e in chooses:
        assert e["offered"] >= e["hits"], e
    at = next(i for i, e in enumerate(chooses) if e["label"] == '"hand over"')
    outer = [chooses[at - 1], chooses[at]]
    inner = chooses[at + 1:at + 3]
    assert [e["label"] for e in outer + inner] == ['"inverted round"', '"hand over"', '"normal round"',
                                                   '"inverted round"']
    reached = outer[0]["hits"] + outer[1]["hits"]
    assert reached > 0 and all(e["offered"] == reached for e in outer)
    assert outer[1]["hits"] > 0 and all(e["offered"] == outer[1]["hits"] for e in inner)
    assert inner[0]["hits"] + inner[1]["hits"] == outer[1]["hits"]


def test_a_bots_own_playouts_do_not_count_and_the_twin_runs_the_fast_code():
    from cardlang.play.bots import decide, make_bot
    from cardlang.play.coverage import instrument

    g = game("games/ascenseur.cards", 3)

    def covered(choose):
        cov = instrument(g)
        cov.on = True
        st = cov.game.new_initial_state(seed=7, log=False)
        while not st.terminal:
            cov.on = False  # as `simulate` does around a bot's decision
            a = choose(st)
            cov.on = True
            st.apply(a)
        cov.on = False
        return cov, list(st.history)

    bot = make_bot("greedy:5", seed=1)
    searched, history = covered(lambda st: decide(bot, st))
    moves = iter(history)
    replayed, _ = covered(lambda st: next(moves))  # the same game, nobody searching
    assert searched.counts() == replayed.counts()
    deal_over = next(i for i, (kind, span, *_) in enumerate(searched.points)
                     if kind == "if" and "deals_played == 20" in open(span.file).read().splitlines()[span.line - 1])
    assert searched.counts()[0][deal_over] == 1  # the game ended once, whatever the playouts did
    program = searched.game.program
    assert program.passes == NAMES and program.refused == []  # the twin runs fused, chained code, as the game


# ------------------------------------------------------------------ signals (issue 27, item 7)
def _children(pid: int) -> dict:
    """The processes whose parent is `pid`: pid -> (state, command line), from /proc."""
    return {child: (state, command) for child, (parent, _, state, command) in processes().items() if parent == pid}


def _running(pids) -> list:
    """Those of `pids` still running (a zombie has ended; gone is gone)."""
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(pid)
        except OSError:
            pass
    return alive


def _stop_a_run_by_signal(args, sig, ignore_sigint=False):
    """Starts `cardlang ARGS…` (with two workers) in a session of its own, sends `sig` to its main
    process alone once both workers are busy; (status, stdout, stderr, seconds to end, workers left)."""
    import signal
    import subprocess
    import time

    def start():
        if ignore_sigint:  # as a shell starts `cmd &`: the process begins with SIGINT ignored
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen([sys.executable, "-m", "cardlang.cli", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=start, env=dict(os.environ, MALLOC_ARENA_MAX="2"))
    kids: dict = {}
    try:
        deadline = time.monotonic() + 90
        while sum("spawn_main" in c for _, c in kids.values()) < 2:
            assert time.monotonic() < deadline and proc.poll() is None, proc.communicate(timeout=5)
            time.sleep(0.2)
            kids = _children(proc.pid)
        time.sleep(1.0)  # the workers busy with their first batches
        sent = time.monotonic()
        os.kill(proc.pid, sig)  # the main process only, not its group
        out, err = proc.communicate(timeout=20)
        took = time.monotonic() - sent
        deadline = time.monotonic() + 5
        while _running(kids) and time.monotonic() < deadline:
            time.sleep(0.1)
        return proc.returncode, out.decode(), err.decode(), took, _running(kids)
    finally:
        for pid in [proc.pid, *_running(kids)]:  # never leave a process behind, even when failing
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        proc.wait()


def _signals():
    import signal

    return [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False), (signal.SIGHUP, False)]


@pytest.mark.skipif(not os.path.isdir("/proc/self") or sys.platform != "linux", reason="reads /proc")
@pytest.mark.parametrize("sig, ignored", _signals(), ids=["SIGINT", "SIGINT-ignored-at-start", "SIGTERM", "SIGHUP"])
def test_a_signal_to_the_main_process_ends_the_run_and_its_workers(sig, ignored):
    import signal

    status, out, err, took, left = _stop_a_run_by_signal(
        ["simulate", path("games/coucou.cards"), "-n", "1000000", "--jobs", "2"], sig, ignore_sigint=ignored)
    assert took < 10, took  # (it was ignored for over 280 s when the shell started it with `&`)
    assert left == [], left
    assert "Traceback" not in err and "leaked" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    if sig == signal.SIGINT:  # Ctrl-C: the tables of the games finished so far, and status 130
        assert status == 130 and "(interrupted: the games finished so far)" in out
        assert lines[0].startswith("interrupted (SIGINT): the results are those of the ")
        assert lines[0].endswith(" games finished of 1,000,000")
    else:
        assert status == 128 + sig and out == ""
        assert lines[0].startswith(f"stopped by {signal.Signals(sig).name} after ") and "1,000,000" in lines[0]


@pytest.mark.skipif(not os.path.isdir("/proc/self") or sys.platform != "linux", reason="reads /proc")
def test_a_signal_ends_compare_and_its_workers_too():
    import signal

    status, out, err, took, left = _stop_a_run_by_signal(
        ["compare", path("games/coucou.cards"), "-n", "1000000", "--jobs", "2", "--skill", "none"], signal.SIGTERM)
    assert took < 10 and left == [] and "Traceback" not in err, (took, left, err)
    assert status == 128 + signal.SIGTERM and err.strip().startswith("stopped by SIGTERM after "), err
