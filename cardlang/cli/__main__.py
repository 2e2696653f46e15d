"""`python -m cardlang.cli`: the command line."""

from . import main

main()
