"""A rich console that shows every text as text (the boundary of `cli/untrusted.py`).

Markup is off (a label `[link=file:///etc/passwd]` is those characters), every plain string it
is given is made visible (`lang.untrusted.visible`, one line) before it is laid out, so that
widths hold; and, as a last net, every character it writes that is not rich's own styling goes
through `visible` too: a `Text` built anywhere cannot carry an escape sequence to the terminal.
Rich's own colours and its clearing of the screen still work.
"""

from __future__ import annotations

from typing import Iterable

from rich.console import Console
from rich.segment import Segment

from ..lang.untrusted import visible


class SafeConsole(Console):
    """A rich `Console` that shows every text as text: no markup, no emoji codes, and no control
    character of a text reaches the terminal (only the console's own styles and controls)."""

    def __init__(self, **kwargs):
        for key in ("markup", "emoji", "highlight"):
            kwargs.setdefault(key, False)
        super().__init__(**kwargs)

    def render_str(self, text: str, **kwargs):
        """A plain string as rich text, each control character of it made visible first: a string
        printed is one line (a label, a log line, a path); several lines are several prints."""
        return super().render_str(visible(text), **kwargs)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        # the last net, over whatever was laid out (a `Text` made anywhere, a table cell): each
        # segment of text made visible, its line ends kept; a control segment is rich's own
        # (clearing the screen, moving the cursor) and kept as it is
        return super()._render_buffer(
            segment if segment.control else Segment(visible(segment.text, newlines=True), segment.style, None)
            for segment in buffer)
