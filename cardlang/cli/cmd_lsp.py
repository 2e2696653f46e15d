"""`cardlang lsp`: the language server for editors, over stdin and stdout (see docs/editors.md)."""

from __future__ import annotations

import click


@click.command("lsp")
def lsp_command() -> None:
    """Run the language server over stdio (editors start it; see docs/editors.md).

    Needs the `lsp` extra: pip install 'cardlang[lsp]'.
    """
    try:
        from ..tools.lsp import main
    except ImportError as e:
        missing = (e.name or "pygls").split(".")[0]
        raise click.ClickException(f"the language server needs pygls ({missing} is missing): "
                                   "pip install 'cardlang[lsp]'") from None
    main()
