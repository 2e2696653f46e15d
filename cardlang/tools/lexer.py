"""A Pygments lexer for `.cards` rule files (registered as the `cards` lexer, so that Pygments, rich
and documentation tools colour them). Its keyword lists are generated from the grammar."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

from .keyword_lists import CONSTANTS, KEYWORDS, OPERATORS


class CardsLexer(RegexLexer):
    """cardlang rule files: comments, texts with `{expression}` parts, keywords, names, numbers."""

    name = "cardlang"
    aliases = ["cards", "cardlang"]
    filenames = ["*.cards"]
    mimetypes = ["text/x-cardlang"]
    url = "https://github.com/cardlang/cardlang"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"\\(?=[ \t\f]*\r?\n)", Text),  # a line that goes on
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "text"),
            (r"\b(phase|define)(\s+)([A-Za-z_]\w*)", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            include("expression"),
        ],
        "expression": [
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(OPERATORS, suffix=r"\b"), Operator.Word),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (r"[0-9]+\b", Number.Integer),
            (r"[A-Za-z_]\w*", Name),
            (r"==|!=|<=|>=|\.\.|[<>=+\-*/%]", Operator),
            (r"[()\[\]{},:]", Punctuation),
        ],
        "text": [
            (r'\\.|\{\{|\}\}', String.Escape),
            (r"\{", String.Interpol, "interpolation"),
            (r'"', String.Double, "#pop"),
            (r'[^"\\{}\n]+', String.Double),
            (r"\}", String.Double),
            (r"\n", Whitespace, "#pop"),  # a text with no closing quote ends at the line's end
        ],
        "interpolation": [
            (r"\}", String.Interpol, "#pop"),
            (r"[ \t]+", Whitespace),
            (r'"', String.Double, "text"),
            include("expression"),
        ],
    }
