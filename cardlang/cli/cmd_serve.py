"""`cardlang serve GAMES…`: the web table (docs/web.md). The server itself is `cardlang.web`."""

from __future__ import annotations

import os
import sys
from typing import Optional

import click

from .cmd_check import find_files
from .untrusted import echo

DEFAULT_DB = "cardlang-tables.sqlite"


@click.command("serve")
@click.argument("games", nargs=-1, type=click.Path(exists=True))
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (0.0.0.0: every one).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="The port.")
@click.option("--db", "db", default=DEFAULT_DB, show_default=True, metavar="FILE",
              help="The SQLite file of the tables (made if missing); `:memory:` keeps nothing.")
@click.option("--reload", "reload_", is_flag=True, help="Watch the rule files: new tables use the new rules.")
@click.option("--password", default=None, metavar="PW", help="The lobby asks for this password.")
@click.option("--export", "export", default=None, metavar="FILE.json",
              help="Write every table (transcript, ratings) of --db to FILE.json and exit.")
def serve_command(games, host: str, port: int, db: str, reload_: bool, password: Optional[str],
                  export: Optional[str]) -> None:
    """Serve rule files (or folders of them) as web tables: a lobby, a private link per seat,
    bots in the other seats. See docs/web.md.

    \b
    Examples:
      cardlang serve games/
      cardlang serve my_game.cards --reload --db playtest.sqlite
      cardlang serve --db playtest.sqlite --export playtest.json
    """
    if export is None and not games:
        raise click.UsageError("name the rule files or folders to serve (e.g. `cardlang serve games/`)")
    try:
        from ..web.store import StoreError, open_store
    except ImportError as e:  # pragma: no cover - the `web` extra not installed
        raise click.ClickException(f"`cardlang serve` needs the web extra: pip install 'cardlang[web]' ({e})")
    try:
        store = open_store(db)
    except StoreError as e:
        raise click.ClickException(str(e))
    if export is not None:
        from ..web.replays import NotOurs, write_export

        try:
            count = write_export(export, store)
        except NotOurs as e:
            raise click.ClickException(str(e))
        echo(f"exported {count} table(s) to {export}")
        return
    try:
        import uvicorn

        from ..web.app import Server, make_app
        from ..web.rules import Catalog
    except ImportError as e:  # pragma: no cover
        raise click.ClickException(f"`cardlang serve` needs the web extra: pip install 'cardlang[web]' ({e})")
    paths = list(games)

    def find() -> list:
        """The rule files of the paths given (a folder looked at again each time)."""
        return find_files([p for p in paths if os.path.exists(p)])[0]

    catalog = Catalog(find)
    if not catalog.games:
        raise click.UsageError("no `.cards` file found in " + ", ".join(paths))
    server = Server(catalog, store, password=password, reload=reload_)
    for rules in catalog.games.values():
        for line in rules.problems[:3]:
            echo(f"{rules.id}: {line}", err=True)
    echo(f"cardlang serve: {len(catalog.games)} game(s), {len(server.tables)} table(s) resumed, "
         f"http://{host}:{port}/", err=True)
    sys.stderr.flush()
    uvicorn.run(make_app(server), host=host, port=port, log_level="warning", ws_max_size=64 * 1024,
                ws_ping_interval=20, ws_ping_timeout=20, lifespan="on")
