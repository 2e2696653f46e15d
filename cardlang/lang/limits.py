"""Every limit on what a rule file may ask for, in one place, each measured (docs/security.md).

A hostile or mistaken file meets one of these and gets one diagnostic, never a traceback, never a
process that grows without bound. The figures are what cardlang accepts with Python's default
recursion limit (1000) and some margin for the frames of the command that runs it.
"""

from __future__ import annotations

# Bytes of a rule file (E005): the largest game is under 20 KB; a read stops after this many + 1.
MAX_FILE_BYTES = 10 * 1024 * 1024

# Words, numbers and symbols (tokens) of a rule file, E009: parsing takes about 15 µs a token, so a
# file of 10 MiB of `1+1+…` would take over a minute; the largest game has 906 tokens.
MAX_TOKENS = 100_000

# Lines of a rule file, E009: the parser and its error recovery keep a file's lines as a list, about
# 60 bytes a line (a 9 MiB file of 3 million short lines took 190 MB there alone, of `check`'s
# 300 MB); the largest game has 165 lines. Blank and comment lines count.
MAX_LINES = 100_000

# Characters of the `{…}` parts of a file's texts in all (each `{{` or `}}` one), E009: each part is
# parsed as an expression and kept as a node (a 9 MiB text of `{1}`s took 62 s and 1.2 GB, one of
# `{{` 800 MB; 5000 parts take 0.3 s); a part's tokens are at most its characters, so this also bounds
# the tokens parsed. The repository's games have at most 191.
MAX_TEXT_PARTS = 10_000

# Blocks nested in blocks (`if`, `elif`, `else`, `for each`, `repeat`, `while`, a `chooses`
# alternative), E006. The parser's tree builder and the compiler walk them recursively: measured,
# 205 nested `if`s pass and 206 do not when the stack is already 150 calls deep.
MAX_BLOCK_DEPTH = 100

# Operators nested in an expression, E006: each operator of a row `a + b + c` is one level (the row
# is evaluated left to right, each `+` on the result of the ones before), as is each `not`, unary
# `-`, call, index and bracket. Measured at 150 calls deep: sums of 280 terms pass the checker, 281
# do not; `and` rows 210; nested lists 205 levels. Any expression within this limit passes inside
# MAX_BLOCK_DEPTH blocks.
MAX_EXPRESSION_DEPTH = 100

# Seats per game, E029: the compiled game's tables grow faster than the player count (a trivial
# game loads and plays in 1 s and 57 MB at 1000 players, in 56 s and 3.8 GB at 10 000), and E040
# examines every legal count.
MAX_PLAYERS = 100

# Digits of a number written in a file, E008: Python refuses to read an integer of more than 4300
# digits, and no game needs a number of 10^18 or more.
MAX_NUMBER_DIGITS = 18

# Cards in a deck, E020: a choice of a card keeps the card's number in 16 bits of the action id
# (65 536 cards load and play in 0.8 s and 37 MB; 70 000 break the choice of a card).
MAX_DECK_CARDS = 65536

# The most piles a numbered zone family (`zone column: 7 piles`) may have: a choice of a card and
# a pile is one alternative per pile, so the count bounds the choice's size.
MAX_PILES = 64

# Expressions a definition stands for once the definitions it uses are written in, and all the
# rules together once every definition is, E009: a definition is written out where it is used
# (compiler/lower.py), so definitions that each use the next twice double at each level (41 of
# them would be 2^41 expressions). The largest rules written out, a solitaire's, hold 1 746.
MAX_WRITTEN_EXPRESSIONS = 50_000
