"""The process in which `test_fuzz.py` runs each example: within a memory limit of its own (RLIMIT_AS),
and killed by the test when an example takes longer than its time-out, so that an input that hangs
the parser (a regular expression that backtracks, in C, where no signal reaches it) fails the test
instead of hanging it."""

from __future__ import annotations

import multiprocessing
import os
import resource
import time
import traceback

MEMORY = 400 * 1024 * 1024  # address space of the worker: an example that needs more gets a MemoryError


def _start() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    from cardlang.lang.parse import parser

    parser()  # (built or read once, not counted in the first example's time)


def check_and_format(path: str) -> tuple:
    """(CPU seconds, a problem or None): `check` of the file and `fmt` of its text."""
    from cardlang.cli.cmd_check import check_files
    from cardlang.lang.codes import CODES
    from cardlang.tools.fmt import FormatError, format_source

    start = time.process_time()
    try:
        report = check_files([path])
        for d in report.diagnostics:
            if d.code not in CODES or d.code == "E900" or "\n" in d.message:  # E900: the checker failed
                return time.process_time() - start, f"{d.code}: {d.message}"
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        try:
            if not isinstance(format_source(text, path), str):
                return time.process_time() - start, "fmt gave no text"
        except FormatError as e:
            if not e.diagnostics or any(d.code not in CODES for d in e.diagnostics):
                return time.process_time() - start, f"fmt: {e.diagnostics}"
    except BaseException:  # noqa: BLE001 - the finding itself: any exception is reported as text
        return time.process_time() - start, traceback.format_exc()[-3000:]
    return time.process_time() - start, None


class Worker:
    """One limited process that runs examples; `run` returns what the function returned, and fails
    when the process does not answer within `timeout` seconds (the process is then replaced)."""

    def __init__(self):
        self._pool = None

    def _get(self):
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(1, initializer=_start)
        return self._pool

    def run(self, function, *args, timeout: float):
        stretch = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))  # a busy machine: more time
        pending = self._get().apply_async(function, args)
        try:
            return pending.get(timeout * stretch)
        except multiprocessing.TimeoutError:
            self.close()
            raise AssertionError(f"no answer within {timeout * stretch:.0f} s: the input hangs") from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
