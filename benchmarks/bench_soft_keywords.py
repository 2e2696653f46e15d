"""What soft keywords cost the parser (docs/language.md, "Words of the language as names"), in CPU time.

    python benchmarks/bench_soft_keywords.py        # 20 parses of each file

A file that uses no keyword as a name is parsed once, as before (plus the check that no word was cut
in two); a file that does is parsed again item by item where it failed. Printed: the CPU time of one
parse of games/red_dog.cards with Lark alone and with `soft_parse`, and of the test files that use
every keyword of the grammar as a variable and as a local (tests/test_soft_keywords.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def cpu_ms(f, runs: int) -> float:
    f()
    start = time.process_time()
    for _ in range(runs):
        f()
    return (time.process_time() - start) / runs * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--runs", type=int, default=20)
    args = ap.parse_args()
    from cardlang.lang.grammar import parser
    from cardlang.lang.soft_keywords import soft_parse
    from test_soft_keywords import role_file

    p = parser()
    red_dog = (ROOT / "games" / "red_dog.cards").read_text()
    print(f"red_dog.cards ({len(red_dog)} chars): Lark {cpu_ms(lambda: p.parse(red_dog, start='start'), args.runs):.1f} ms,"
          f" soft_parse {cpu_ms(lambda: soft_parse(red_dog, 'start'), args.runs):.1f} ms")
    for role in ("variable", "local"):
        text = role_file(role)
        forced = len(soft_parse(text, "start")[1])
        print(f"every keyword as a {role} ({len(text)} chars, {forced} words read as names): "
              f"soft_parse {cpu_ms(lambda: soft_parse(text, 'start'), max(1, args.runs // 5)):.0f} ms")


if __name__ == "__main__":
    main()
