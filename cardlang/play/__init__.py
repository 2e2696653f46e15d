"""Around the engine: bots, simulation, rule coverage, saved games and replays."""
