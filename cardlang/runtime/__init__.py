"""The runtime, which knows no game: cards, decks, poker evaluation, random numbers, `Game` and `State`."""
