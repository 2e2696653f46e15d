"""Tools for people who write rule files: the formatter, the language server, the highlighter."""
