"""The language: grammar, parse, AST, variants, check, flow, diagnostics and their reports."""
