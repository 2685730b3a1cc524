"""Benchmark: Batak's bots and levels, their strength against the baseline and Hard's decision time.

Run: python bench/batak_bots.py [--deals N] [--seed S] [--timing-deals N]

Prints, for Batak (every seat for itself), each bot at one seat against three baselines
(``N`` deals, each shuffle dealt four times with the bot in each seat), its points a deal
over the baselines' average with its 95% interval; for Eşli Batak, each bot's team against
the baselines' (each shuffle twice, the sides swapping seats); then Hard's CPU time per
decision in this CPython (its own seat's decisions, bids and trumps included: median, 99th
percentile, maximum). Pyodide's time: ``python bench/bots_pyodide.py --game batak --bot hard``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pishe.games.batak.cli import tournament  # noqa: E402
from pishe.table.game import get_game  # noqa: E402
from pishe.table.match import Match  # noqa: E402

ROWS = (("batak", "hard"), ("batak", "easy"), ("batak", "random"), ("batak-esli", "hard"), ("batak-esli", "easy"))


def decision_times(deals: int, seed: int) -> list:
    """Hard's CPU milliseconds per decision at seat 0 of ``deals`` deals against three baselines."""
    game = get_game("batak")
    rng = random.Random(seed)
    times = []
    for _ in range(deals):
        match = Match(game, None, random.Random(rng.getrandbits(64)))
        bots = [game.new_bot("hard" if s == 0 else "baseline", s, random.Random(rng.getrandbits(64)))
                for s in range(4)]
        while not match.deal.over:
            seat = match.deal.turn
            view = game.view(match, seat)
            start = time.process_time()
            action = bots[seat].choose(view)
            if seat == 0:
                times.append((time.process_time() - start) * 1000)
            match.apply(action, seat)
    return sorted(times)


def main() -> None:
    """Print the tournaments and the timing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timing-deals", type=int, default=100)
    args = parser.parse_args()
    for game_id, bot in ROWS:
        start = time.process_time()
        result = tournament(get_game(game_id), bot, "baseline", args.deals, args.seed)
        low, high = result["ci95"]
        print(f"{game_id:<11} {bot:<7} vs baseline  {result['deals']:>5} deals  gain {result['gain']:+.2f} a deal "
              f"(95% interval {low:+.2f} to {high:+.2f})  points {result['points']}  "
              f"[{time.process_time() - start:.0f} s]", flush=True)
    times = decision_times(args.timing_deals, args.seed)
    at = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    print(f"hard's decisions: {len(times)}, CPU ms median {at(0.5):.1f}, p99 {at(0.99):.1f}, max {times[-1]:.1f} "
          "(CPython)")


if __name__ == "__main__":
    main()
