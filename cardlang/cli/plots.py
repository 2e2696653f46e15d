"""`--plot`: win rates with their 95% intervals, and the distribution of game length (matplotlib)."""

from __future__ import annotations


def plot_simulation(stats: dict, path: str) -> None:
    """Draws a simulation's statistics (as `simulate` returns them) to an image file."""
    import matplotlib

    from .untrusted import plot_text

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (seats_ax, positions_ax, length_ax) = plt.subplots(1, 3, figsize=(15, 4.5))
    fair = 1 / stats["players"]
    for ax, rows, key, title in ((seats_ax, stats["seats"], "seat", "win rate by seat"),
                                 (positions_ax, stats["positions"], "position", "win rate by position from the first player")):
        xs = list(range(len(rows)))
        rates = [r["win_rate"] for r in rows]
        low = [r["win_rate"] - r["win_rate_ci95"][0] for r in rows]
        high = [r["win_rate_ci95"][1] - r["win_rate"] for r in rows]
        ax.bar(xs, rates, yerr=[low, high], capsize=4, color="#4c72b0")
        ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"1/{stats['players']}")
        names = [f"P{r['seat']}\n{plot_text(r['bot'])}" if key == "seat" else str(r["position"]) for r in rows]
        ax.set_xticks(xs, names, fontsize=8)
        ax.set_ylim(0, min(1.0, max(r["win_rate_ci95"][1] for r in rows) * 1.15 + 0.02))
        ax.set_ylabel("win rate (95% interval)")
        ax.set_title(title)
        ax.legend(loc="upper right", fontsize=8)
    histogram = stats["decisions_histogram"]
    values = [v for v, _ in histogram]
    counts = [c for _, c in histogram]
    bins = min(40, max(1, len(values)))
    length_ax.hist(values, weights=counts, bins=bins, color="#55a868")
    length_ax.set_xlabel("decisions per game")
    length_ax.set_ylabel("games")
    length_ax.set_title(f"game length (mean {stats['decisions']['mean']:.1f} decisions, "
                        f"{stats['rounds']['mean']:.1f} rounds)")
    fig.suptitle(f"{plot_text(stats['game'])}: {stats['games']} games, {stats['players']} players, seed {stats['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
