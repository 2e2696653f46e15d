"""`cardlang serve`: the web table (docs/web.md). The server holds the game; a browser gets its seat's view."""
