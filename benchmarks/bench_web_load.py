"""The web table under load (issue 30): one `cardlang serve` process, N tables of Coucou with a
simulated person and bots each, on the loopback only; bounded in tables, time and moves.

    python benchmarks/bench_web_load.py                      # 100 tables, 30 s
    python benchmarks/bench_web_load.py --tables 20 --seconds 10

Each table has one person's seat (this script, over a WebSocket) and four `random` bots. The person
waits a think time (0.5 to 1.5 s, seeded) once its turn comes, sends an action, and times it to the
next `view` it is sent (the server has then played the move, written it to SQLite with its commit,
let the bots play up to the person's next turn or the end, and sent the view). A finished table is
replaced by a new one. Reported: p50/p90/p99/max of that time, the moves made (the person's and the
bots'), the server's CPU time a move and its resident memory (RSS) at the end, and the load average
of the machine (other work on it slows the figures: report them with it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = os.path.join(ROOT, "games", "coucou.cards")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def person(base: str, port: int, rng: random.Random, stop: float, times: list, counts: dict) -> None:
    """One simulated person: a table after another until `stop`, timing each action to its next view."""
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while time.monotonic() < stop:
            made = (await http.post("/api/tables", json={
                "game": "coucou", "players": 5, "seed": rng.randrange(2 ** 31), "options": {"tokens": 2},
                "seats": ["person"] + ["bot:random"] * 4})).json()
            counts["tables"] += 1
            token = made["seats"][0]["link"].rsplit("/", 1)[1]
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{token}", max_size=2 ** 22) as ws:
                view = None  # the last view, to act on before reading on
                while time.monotonic() < stop:
                    if view is None or view["over"] or view["to_act"] != [0] or not view["actions"]:
                        if view is not None and view["over"]:
                            break
                        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                        if msg["type"] == "view":
                            view = msg
                        continue
                    await asyncio.sleep(rng.uniform(0.5, 1.5))  # the person thinks
                    if time.monotonic() >= stop:
                        break
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "id": rng.choice(view["actions"])["id"],
                                              "seq": view["seq"]}))
                    while True:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
                        if msg["type"] == "view" and msg["seq"] > view["seq"]:
                            times.append(time.perf_counter() - sent)
                            view = msg
                            break
                        if msg["type"] == "error":
                            counts["errors"] += 1
                            view = None
                            break
                if view is not None:
                    counts["moves"] += view["seq"]


async def run(tables: int, seconds: float, port: int, seed: int) -> tuple:
    base = f"http://127.0.0.1:{port}"
    times: list = []
    counts = {"tables": 0, "moves": 0, "errors": 0}
    stop = time.monotonic() + seconds
    rng = random.Random(seed)
    jobs = [person(base, port, random.Random(rng.randrange(2 ** 31)), stop, times, counts) for _ in range(tables)]
    await asyncio.wait_for(asyncio.gather(*jobs), timeout=seconds + 120)
    return times, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.tables <= 500 or not 1 <= args.seconds <= 600:
        sys.exit("--tables from 1 to 500, --seconds from 1 to 600")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        server = subprocess.Popen([sys.executable, "-m", "cardlang.cli", "serve", GAME, "--db",
                                   os.path.join(tmp, "load.sqlite"), "--port", str(port)],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            import httpx

            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    sys.exit("the server did not start")
                time.sleep(0.2)
            rss_start, cpu_start = rss_mib(server.pid), cpu_seconds(server.pid)
            load_before = os.getloadavg()
            client_cpu = time.process_time()
            times, counts = asyncio.run(run(args.tables, args.seconds, port, args.seed))
            client_cpu = time.process_time() - client_cpu
            cpu = cpu_seconds(server.pid) - cpu_start
            rss = rss_mib(server.pid)
            load_after = os.getloadavg()
        finally:
            server.kill()
            server.wait(timeout=30)
    if not times:
        sys.exit("no action was timed")
    times.sort()
    q = statistics.quantiles(times, n=100, method="inclusive")
    ms = [1000 * x for x in (q[49], q[89], q[98], times[-1])]
    print(f"{args.tables} tables, {args.seconds:g} s: {len(times)} actions timed, {counts['moves']} moves in "
          f"{counts['tables']} tables, {counts['errors']} errors")
    print(f"action -> next view: p50 {ms[0]:.1f} ms, p90 {ms[1]:.1f} ms, p99 {ms[2]:.1f} ms, max {ms[3]:.1f} ms")
    print(f"server: {cpu:.1f} s CPU ({1000 * cpu / max(1, counts['moves']):.2f} ms a move), "
          f"RSS {rss_start:.0f} MiB at start, {rss:.0f} MiB at the end")
    print(f"the simulated people (this process, on the same cores): {client_cpu:.1f} s CPU")
    print(f"load average (1, 5, 15 min): before {', '.join(f'{x:.2f}' for x in load_before)}; "
          f"after {', '.join(f'{x:.2f}' for x in load_after)}; {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
