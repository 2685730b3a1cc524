"""Benchmark: Pişti bots, their decision time and their strength.

Run: python bench/pisti_bots.py [--timing-decks N] [--decks N] [--random-decks N] [--seed S]

Prints the stronger bot's (``sampler``'s) time per decision in CPython (mean,
99th percentile, max) over whole decks against greedy seats, then two
tournaments with 95% intervals of the gain per deck: sampler against greedy
and greedy against random. Each shuffle is played twice, the teams swapping
seats. The page's budget is 50 ms a card in Pyodide, 2–3 times slower than
CPython: aim for a 99th percentile of about 15 ms here.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pishe.cards import DECK  # noqa: E402
from pishe.games.pisti import GAME  # noqa: E402
from pishe.games.pisti.cli import tournament  # noqa: E402
from pishe.games.pisti.view import seat_view  # noqa: E402


def decision_times(decks: int, seed: int, bot: str = "sampler") -> list:
    """Seconds per decision of ``bot`` (seats 0 and 2) against greedy (seats 1 and 3)."""
    rng = random.Random(seed)
    times = []
    for n in range(decks):
        cards = list(DECK)
        rng.shuffle(cards)
        deck = GAME.new_deal(cards, n & 3)
        bots = [GAME.new_bot(bot if s % 2 == 0 else "greedy", s, random.Random(rng.getrandbits(64)))
                for s in range(4)]
        while not deck.over:
            seat = deck.turn
            view = seat_view(deck, seat)
            start = time.perf_counter()
            card = bots[seat].choose(view)
            if seat % 2 == 0:
                times.append(time.perf_counter() - start)
            deck.apply(card, seat)
    return times


def report_times(times: list) -> None:
    times = sorted(times)
    n = len(times)
    mean = sum(times) / n
    p99 = times[min(n - 1, int(n * 0.99))]
    print(f"sampler decision time over {n} decisions: mean {mean * 1000:.2f} ms, "
          f"p99 {p99 * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms")


def report_tournament(a: str, b: str, decks: int, seed: int) -> None:
    start = time.perf_counter()
    r = tournament(a, b, decks, seed)
    seconds = time.perf_counter() - start
    print(f"{a} vs {b}: {decks} decks ({decks / seconds:.1f} decks/s), seed {seed}: "
          f"points {r['points'][0]}–{r['points'][1]}, piştis {r['pishti'][0]}–{r['pishti'][1]}, "
          f"gain {r['gain']:+.2f} a deck, 95% interval [{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}]")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timing-decks", type=int, default=50, help="decks timed (0: none)")
    parser.add_argument("--decks", type=int, default=2000, help="decks of sampler vs greedy (even; 0: none)")
    parser.add_argument("--random-decks", type=int, default=2000, help="decks of greedy vs random (even; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.timing_decks:
        report_times(decision_times(args.timing_decks, args.seed))
    if args.decks:
        report_tournament("sampler", "greedy", args.decks, args.seed)
    if args.random_decks:
        report_tournament("greedy", "random", args.random_decks, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
