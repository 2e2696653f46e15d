"""How long `cardlang lsp` takes to publish the diagnostics of a 200-line file after an edit, warm.

    python benchmarks/bench_lsp.py              # 50 edits after 5 to warm up
    python benchmarks/bench_lsp.py -n 100 --budget 0.1

The file is games/counter_bluff.cards with phases added to make 200 lines. Two figures: in process
(`cardlang.tools.analysis.analyse`, what the server runs on each change), and over the wire (a
pygls client starts `cardlang lsp` as a subprocess, sends `didChange` with the whole text and waits
for `publishDiagnostics`: JSON-RPC, pipes and the conversion included). Each edit changes a number
in the file, so that every change is checked for real. Wall-clock times grow with the machine's load;
the CPU time per edit (of this process, and of the server process, read from /proc) does not, and is
printed too. A benchmark, not a test: `--budget` (seconds, for the median over the wire) only sets
the exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def two_hundred_lines() -> str:
    text = (ROOT / "games" / "counter_bluff.cards").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    k = 0
    while len(lines) < 196:
        lines += ["", f"phase extra_{k}(n: number):", f"    if n > {k}:", "        pass"]
        k += 1
    lines += [""] * (200 - len(lines))
    return "\n".join(lines[:200]) + "\n"


def edits(text: str, count: int) -> list:
    return [text.replace("option target = 200", f"option target = {201 + i}") for i in range(count)]


def in_process(texts: list, warm: int) -> list:
    from cardlang.tools.analysis import analyse

    path = str(ROOT / "games" / "bench_200.cards")
    previous = None
    times, cpu = [], []
    for i, text in enumerate(texts):
        start, start_cpu = time.perf_counter(), time.process_time()
        previous = analyse(text, path, previous=previous)
        if i >= warm:
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        assert not [d for d in previous.diagnostics if d.is_error], previous.diagnostics
    return times, cpu


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (Linux), or NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def over_the_wire(texts: list, warm: int) -> list:
    from lsprotocol import types as lsp
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    client = LanguageClient("bench", "1")
    arrived = asyncio.Event()

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params):
        arrived.set()

    await client.start_io(sys.executable, "-m", "cardlang.cli", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = from_fs_path(str(ROOT / "games" / "bench_200.cards"))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri, language_id="cards", version=1, text=texts[0])))
    await asyncio.wait_for(arrived.wait(), 60)
    times = []
    pid = client._server.pid
    for i, text in enumerate(texts):
        if i == warm:
            start_cpu = _cpu_of(pid)
        arrived.clear()
        start = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=i + 2),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        await asyncio.wait_for(arrived.wait(), 60)
        if i >= warm:
            times.append(time.perf_counter() - start)
    server_cpu = (_cpu_of(pid) - start_cpu) / max(1, len(times))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times, server_cpu


def summary(name: str, times: list) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{name:<14} median {statistics.median(ms):6.1f} ms   p95 {p95:6.1f} ms   min {ms[0]:6.1f} ms   ({len(ms)} edits)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--edits", type=int, default=50)
    ap.add_argument("--warm", type=int, default=5, help="edits first, not counted")
    ap.add_argument("--budget", type=float, default=0.1)
    args = ap.parse_args()
    text = two_hundred_lines()
    texts = edits(text, args.edits + args.warm)
    print(f"a file of {text.count(chr(10))} lines, {len(text)} characters")
    local, cpu = in_process(texts, args.warm)
    print(summary("in process", local) + f"   CPU median {statistics.median(cpu) * 1000:.1f} ms")
    wire, server_cpu = asyncio.run(over_the_wire(texts, args.warm))
    print(summary("over the wire", wire) + f"   server CPU {server_cpu * 1000:.1f} ms per edit")
    sys.exit(0 if statistics.median(wire) <= args.budget else 1)


if __name__ == "__main__":
    main()
