"""`cardlang fmt`: one canonical layout for a rule file, rebuilt from the parser's own tokens.

The formatter never rewrites what a file says: it takes the tokens Lark reads (so every word keeps
its kind and its text) and only chooses the white space between them: four spaces per block, one
space around operators and none inside brackets, one blank line between top-level blocks (and at
most one anywhere), lines longer than `WIDTH` broken inside brackets or, failing that, with `\\`.
Comments stay where they were: a comment line before the statement it precedes, at the depth of
the block it was written in; a comment at the end of a line on that line (comments that their
authors lined up in a column stay lined up).
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..lang.parse import parse, parser
from ..lang.soft_keywords import as_names, forced_names

WIDTH = 100
INDENT = "    "
CONTINUATION = INDENT * 2  # a wrapped line's rest, deeper than a block so the two are not confused

_OPEN = {"LPAR", "LSQB", "LBRACE"}
_CLOSE = {"RPAR", "RSQB", "RBRACE"}
_NO_SPACE_BEFORE = _CLOSE | {"COMMA", "COLON", "ACE_LOW"}
_CALLABLE = {"NAME", "ANY", "COUNT", "SELECT", "SUM", "MIN", "MAX"}  # `f(x)`, `count(x)`: no space
_INDEXABLE = {"NAME", "RPAR", "RSQB", "PLAYERS", "SEATS", "TEAMS"}  # `xs[1]`, `f(x)[1]`, `[1, 2][k]`, `seats[k]`
_BREAK_BEFORE = {"AND", "OR", "IF", "ELSE", "WHERE", "MORETHAN"}  # where a long line may go on


class FormatError(Exception):
    """The file cannot be formatted (it does not parse); carries the parser's diagnostics."""

    def __init__(self, diagnostics: list):
        self.diagnostics = list(diagnostics)
        super().__init__(diagnostics[0].message if diagnostics else "cannot format")


@attrs.define
class _Line:
    """One statement or declaration as read, with the comments and blank lines before it."""

    level: int
    toks: list = attrs.Factory(list)  # of (type, text, starts a new physical line)
    before: list = attrs.Factory(list)  # None for a blank line, or (indent width, comment)
    trailing: Optional[tuple] = None  # (column of `#` as written, comment)
    inner: dict = attrs.Factory(dict)  # token index -> [(on a line of its own, comment)] after it
    width: int = 0  # the indentation it was written with


def _width(text: str) -> int:
    expanded = text.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _read(source: str) -> tuple:
    """The logical lines of a file that parses, and the comments after the last one."""
    lines: list = []
    cur: Optional[_Line] = None
    level, prev_end = 0, 0
    forced = forced_names(source) or {}  # keywords the file uses as names (`var team = 0`)
    ip = parser().parse_interactive(as_names(source, forced), start="start")
    for t in ip.iter_parse():
        if t.start_pos in forced:
            t = t.update(value=forced[t.start_pos])
        if t.type == "_INDENT":
            level += 1
            continue
        if t.type == "_DEDENT":
            level -= 1
            continue
        if t.type in ("_NL", "$END"):
            if cur is not None:
                lines.append(cur)
                cur = None
            continue
        gap_start, gap = prev_end, source[prev_end:t.start_pos]
        prev_end = t.end_pos
        if cur is None:
            line_start = source.rfind("\n", 0, t.start_pos) + 1
            cur = _Line(level, before=_between(gap, lines, source, gap_start),
                        width=len(source[line_start:t.start_pos].expandtabs(8)))
        elif "#" in gap:
            cur.inner[len(cur.toks) - 1] = [(k > 0, seg[seg.index("#"):].rstrip())
                                            for k, seg in enumerate(gap.split("\n")) if "#" in seg]
        cur.toks.append((t.type, str(t), "\n" in gap))
    if cur is not None:  # pragma: no cover - the parser always ends a file with _NL
        lines.append(cur)
    after = _between(source[prev_end:], lines, source, prev_end)
    return lines, after


def _between(gap: str, lines: list, source: str, start: int) -> list:
    """The comment lines and blank lines of the white space between two statements; a comment on
    the same line as the statement before becomes its trailing comment."""
    segments = gap.split("\n")
    first = segments[0]
    if lines and "#" in first:
        line_start = source.rfind("\n", 0, start) + 1
        column = len(source[line_start:start + first.index("#")].expandtabs(8))
        lines[-1].trailing = (column, first[first.index("#"):].rstrip())
    elif not lines and first.strip():
        segments = [""] + segments  # the file starts with a comment: it is a line of its own
    out: list = []
    for seg in segments[1:-1] if len(segments) > 1 else []:
        text = seg.strip()
        if not text:
            out.append(None)
        elif text.startswith("#"):
            out.append((_width(seg), text))
    last = segments[-1] if len(segments) > 1 else ""
    if last.strip().startswith("#"):  # only at the end of the file
        out.append((_width(last), last.strip()))
    return out


def _space(prev: tuple, cur: tuple) -> bool:
    """Whether one space separates two tokens."""
    (ptype, ptext, _), (ctype, ctext, _) = prev, cur
    if ptype in _OPEN or ctype in _NO_SPACE_BEFORE or ptype == "MINUS":
        return False
    if ptext == ".." or ctext == "..":
        return False
    if ctype == "LPAR" and ptype in _CALLABLE:
        return False
    if ctype == "LSQB" and ptype in _INDEXABLE:
        return False
    return True


def _tight(toks: list, i: int) -> bool:
    """`A=1` in a `values` declaration: a rank, `=` and its number are written together."""
    if toks[i][0] == "EQUAL":
        return toks[i - 1][0] == "RANK"
    return i >= 2 and toks[i - 1][0] == "EQUAL" and toks[i - 2][0] == "RANK"


def _text(tok: tuple) -> str:
    if tok[0] == "AT_ONCE":
        return "at once"
    return ", ace low" if tok[0] == "ACE_LOW" else tok[1]


def _join(toks: list) -> str:
    out = []
    for i, tok in enumerate(toks):
        if i and _space(toks[i - 1], tok) and not _tight(toks, i):
            out.append(" ")
        out.append(_text(tok))
    return "".join(out)


def _depths(toks: list) -> list:
    """The bracket depth before each token."""
    depth, out = 0, []
    for tok in toks:
        if tok[0] in _CLOSE:
            depth -= 1
        out.append(depth)
        if tok[0] in _OPEN:
            depth += 1
    return out


def _pieces(toks: list, cuts: list) -> list:
    bounds = [0] + cuts + [len(toks)]
    return [toks[a:b] for a, b in zip(bounds, bounds[1:])]


def _physical(indent: str, pieces: list, depths: list, cuts: list) -> list:
    """The lines of a statement cut before the given tokens (a cut outside brackets ends with `\\`)."""
    out = []
    for k, piece in enumerate(pieces):
        text = (indent if k == 0 else indent + CONTINUATION) + _join(piece)
        if k < len(cuts) and depths[cuts[k]] == 0:
            text += " \\"
        out.append(text)
    return out


def _closers(toks: list) -> list:
    """For each token, the index of the bracket that closes the innermost bracket around it (the
    last token's index outside brackets)."""
    out = [len(toks) - 1] * len(toks)
    groups: list = [[]]  # the tokens inside each bracket still open
    for i, tok in enumerate(toks):
        if tok[0] in _CLOSE and len(groups) > 1:
            for j in groups.pop():
                out[j] = i
        groups[-1].append(i)
        if tok[0] in _OPEN:
            groups.append([])
    return out


def _wrap(indent: str, toks: list) -> list:
    """A statement as one line if it fits, else cut where it reads best: outside brackets if it can
    be (before `and`, `or`, `if`, `else`, `where`, `>`), else after a comma of a bracket that runs
    past the limit; the fewest lines, then the most even ones."""
    one = indent + _join(toks)
    if len(one) <= WIDTH:
        return [one]
    depths = _depths(toks)
    closers = _closers(toks)
    ends = []  # where each token ends on the one-line layout
    for i in range(len(toks)):
        ends.append(len(indent + _join(toks[: i + 1])))
    candidates = [i for i in range(1, len(toks))
                  if (toks[i][0] in _BREAK_BEFORE and i > 1)
                  or (toks[i - 1][0] == "COMMA" and depths[i] > 0 and ends[closers[i]] > WIDTH)]
    if not candidates:
        return [one]  # a long text or a long list of words: nothing to break
    shallow = min(depths[i] for i in candidates)
    candidates = [i for i in candidates if depths[i] == shallow]
    best: dict = {0: ((0, 0, 0), [])}  # cut before token i -> (cost, cuts) of everything before it
    points = [0] + candidates
    for b in candidates + [len(toks)]:
        options = []
        for a in points:
            if a >= b or a not in best:
                continue
            cost, cuts = best[a]
            text = (indent if a == 0 else indent + CONTINUATION) + _join(toks[a:b]) + (" \\" if b < len(toks) and shallow == 0 else "")
            over = max(0, len(text) - WIDTH)
            options.append(((cost[0] + over, cost[1] + 1, max(cost[2], len(text))), cuts + ([b] if b < len(toks) else [])))
        best[b] = min(options)
    cuts = best[len(toks)][1]
    return _physical(indent, _pieces(toks, cuts), depths, cuts)


def _layout(line: _Line) -> list:
    """The physical lines of one statement, without its trailing comment."""
    indent = INDENT * line.level
    if not line.inner:
        return _wrap(indent, line.toks)
    # Comments inside brackets: keep the line breaks as written, so each comment stays by its code.
    cuts = [i for i, tok in enumerate(line.toks) if i and tok[2]]
    depths = _depths(line.toks)
    out = []
    bounds = [0] + cuts + [len(line.toks)]
    for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
        text = (indent if k == 0 else indent + CONTINUATION) + _join(line.toks[a:b])
        if k < len(cuts) and depths[cuts[k]] == 0:
            text += " \\"
        comments = line.inner.get(b - 1, [])
        if comments and not comments[0][0]:
            text += "  " + comments.pop(0)[1]
        out.append(text)
        out.extend(indent + CONTINUATION + c for _, c in comments)
    return out


def _comment_level(width: int, low: int, high: int, widths: dict) -> int:
    """The block a comment line belongs to, from how far it was indented: the deepest block, between
    the statement after it and the one before it, that it is indented at least as far as."""
    for level in range(high, low, -1):
        if widths.get(level, 4 * level) <= width:
            return level
    return low


def _opens(line: _Line) -> bool:
    return bool(line.toks) and line.toks[-1][0] == "COLON"


def _is_block(line: _Line) -> bool:
    return line.level == 0 and line.toks[0][0] in ("SETUP", "ROUND", "PHASE")


def _before(items: list, line: Optional[_Line], prev: Optional[_Line], widths: dict) -> list:
    """The comment and blank lines before a statement (or at the end of the file), laid out."""
    low = line.level if line is not None else 0
    high = (prev.level + (1 if _opens(prev) else 0)) if prev is not None else low
    placed = [None if item is None else (_comment_level(item[0], low, max(low, high), widths), item[1])
              for item in items]
    if prev is not None and line is not None and (_is_block(line) or (line.level == 0 and prev.level > 0)):
        # a blank line between top-level blocks, after the comments that end the block above
        first = next((k for k, item in enumerate(placed) if item is None or item[0] == 0), len(placed))
        if first == len(placed) or placed[first] is not None:
            placed.insert(first, None)
    out: list = []
    for item in placed:
        if item is None:
            if out and out[-1] == "" or prev is None and not out:
                continue  # at most one blank line; none at the start of the file
            if prev is not None and _opens(prev) and not out:
                continue  # none right after a block's header
            out.append("")
        else:
            out.append(INDENT * item[0] + item[1])
    return out


def _align_trailing(code: list, lines: list) -> list:
    """The column of each statement's trailing comment: two spaces after the code, or, for a run of
    consecutive statements whose comments were written in one column, that column for all."""
    columns = [None] * len(lines)
    i = 0
    while i < len(lines):
        if lines[i].trailing is None:
            i += 1
            continue
        j = i + 1
        while (j < len(lines) and lines[j].trailing is not None and not lines[j].before
               and lines[j].trailing[0] == lines[i].trailing[0]):
            j += 1
        if j - i > 1:
            column = max([lines[i].trailing[0]] + [len(code[k][-1]) + 2 for k in range(i, j)])
            for k in range(i, j):
                columns[k] = column
        else:
            columns[i] = len(code[i][-1]) + 2
        i = j
    return columns


def format_source(source: str, path: str = "<text>") -> str:
    """The canonical layout of a rule file's text; raises `FormatError` if it does not parse."""
    source = source.removeprefix("\ufeff").replace("\r\n", "\n")  # (the formatted file has no byte order mark)
    if not source.endswith("\n"):
        source += "\n"
    module, diagnostics = parse(source, path)
    if module is None:
        raise FormatError([d for d in diagnostics if d.is_error] or diagnostics)
    lines, after = _read(source)
    code = [_layout(line) for line in lines]
    columns = _align_trailing(code, lines)
    out: list = []
    widths: dict = {0: 0}  # the indentation each open block was written with
    prev = None
    for k, line in enumerate(lines):
        out += _before(line.before, line, prev, widths)
        widths = {lv: w for lv, w in widths.items() if lv < line.level}
        widths[line.level] = line.width
        body = list(code[k])
        if line.trailing is not None:
            body[-1] = body[-1].ljust(columns[k]) + line.trailing[1]
        out += body
        prev = line
    out += _before(after, None, prev, widths)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"
