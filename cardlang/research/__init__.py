"""What the research adapters share (`cardlang.pettingzoo`, `cardlang.openspiel`, `cardlang.gymnasium`):
the observation vector and action index (`encoding`), and the chance source that lets OpenSpiel
enumerate shuffles and draws (`chance`). See docs/research.md."""
