"""Benchmark: Pişti's bots and levels, their strength and the Hard level's decision time.

Run: python bench/pisti_bots.py [--decks N] [--seed S] [--levels [--rows A:B ...] [--chunk C] [--seats 2]
                                 [--skip K]]
                                 [--strength] [--timing-decks N]

``--levels`` prints the README's table of the levels: each row tournaments
adding up to N decks (each shuffle played twice, the teams swapping seats),
played C decks at a time, row after row in turn (a run stopped early has the
same decks in every row), and A's gain a deck with its 95% interval: Hard (``sampler``) and Easy against
Medium (``greedy``), Hard and Medium against ``skipper`` (greedy passing up a
capture one time in six), Hard with the sampler's old certain inference
(``sampler-certain``: a seat that did not take the pile holds none of the
top's rank) against ``skipper``, and greedy against random; with ``--seats 2``,
Pişti for two (A in seat 0, then in seat 1). ``--skip K`` goes on from a run
stopped after K chunks: it plays chunk K + 1 on, the same decks as the run not
stopped, and its lines count only its own chunks.

``--strength`` prints Hard's strength against its samples: the sampler with
its samples and budget scaled, each against greedy on the same shuffles with
the same generators, its gain with its interval, the gain's difference to
the first row with that difference's interval (paired by shuffle, so much
narrower than either), and its CPU time per decision (mean and 99th
percentile, its own seats' decisions, this CPython; the page's Pyodide is
``bench/bots_pyodide.py``'s ratio slower).

``--inference`` prints Hard's strength against how far it weighs the other
seats' plays: the sampler dealing each sample's hands up to T times (1: not
weighing them, Hard before) and at most A times a decision, each against
greedy on the same shuffles with the same generators, as ``--strength`` does.

``--timing-decks N`` times Hard's decisions alone over N decks against greedy
(CPU time of this process, so other programs on the machine do not count).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from math import sqrt

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pishe.cards import DECK  # noqa: E402
from pishe.games.pisti.bots import BOTS, SamplerBot  # noqa: E402
from pishe.games.pisti.cli import tournament  # noqa: E402
from pishe.games.pisti.deal import Deck  # noqa: E402
from pishe.games.pisti.view import GAME_IDS, seat_view  # noqa: E402
from pishe.table.cli import interval  # noqa: E402
from pishe.table.game import get_game  # noqa: E402

#: The README's rows: (A, B).
LEVEL_ROWS = (("sampler", "greedy"), ("easy", "greedy"), ("sampler", "skipper"), ("greedy", "skipper"),
              ("sampler-certain", "skipper"), ("greedy", "random"))
#: The sampler's samples, budget and most samples scaled by these.
SCALES = (0.25, 0.5, 1, 2, 4)
#: The sampler's tries a sample and attempts a decision (1: Hard before it weighed the seats'
#: plays; 1200 attempts never bind: 24 tries × 48 samples).
INFERENCE = ((1, 160), (8, 96), (8, 160), (8, 1200), (24, 1200))


def certain(seat, rng):
    """The sampler whose inference is certain: every pass means the seat holds none of the rank."""
    return SamplerBot(seat, rng, certain=True)


def scaled(scale: float):
    """A factory of samplers whose samples, budget and most samples are ``scale`` times the default."""
    def factory(seat, rng):
        return SamplerBot(seat, rng, samples=max(2, round(16 * scale)), budget=round(3200 * scale),
                          max_samples=max(2, round(48 * scale)))
    return factory


FACTORIES = {**BOTS, "sampler-certain": certain}


def timed(bot, times: list):
    """``bot``, its ``choose`` adding each decision's CPU seconds to ``times``."""
    choose = bot.choose

    def timed_choose(view):
        start = time.process_time()
        card = choose(view)
        times.append(time.process_time() - start)
        return card
    bot.choose = timed_choose
    return bot


def paired_strength(factories: list, decks: int, seed: int) -> list:
    """Each factory's team against greedy on the same shuffles: by factory, the per-shuffle
    pair differences (A − greedy over the shuffle's two decks) and A's decision times."""
    rng = random.Random(seed)
    pairs = [[] for _ in factories]
    times = [[] for _ in factories]
    for n in range(decks // 2):
        cards = list(DECK)
        rng.shuffle(cards)
        dealer = (3 + n) & 3
        seeds = [rng.getrandbits(64) for _ in range(8)]
        for i, factory in enumerate(factories):
            pair = 0
            for a_team in (0, 1):
                bots = [timed(factory(s, random.Random(seeds[4 * a_team + s])), times[i]) if s & 1 == a_team
                        else BOTS["greedy"](s, random.Random(seeds[4 * a_team + s])) for s in range(4)]
                deck = Deck.deal(cards, dealer)
                while not deck.over:
                    seat = deck.turn
                    deck.apply(bots[seat].choose(seat_view(deck, seat)), seat)
                got = deck.team_points()
                pair += got[a_team] - got[1 - a_team]
            pairs[i].append(pair)
    return list(zip(pairs, times))


def percentile(times: list, share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def weighing(tries: int, attempts: int):
    """A factory of samplers dealing each sample up to ``tries`` times, ``attempts`` a decision."""
    def factory(seat, rng):
        return SamplerBot(seat, rng, tries=tries, attempts=attempts)
    return factory


def report_strength(decks: int, seed: int, rows=SCALES, factory=scaled, reference=1,
                    title="samples ×") -> None:
    results = paired_strength([factory(*row) if isinstance(row, tuple) else factory(row) for row in rows],
                              decks, seed)
    print(f"Hard (sampler) against greedy by {title}, {decks} decks, seed {seed}, the same shuffles:")
    print(f"| {title} | gain a deck (95%) | − {reference} (95%) | CPU ms a decision: mean, p99 |")
    print("|---|---|---|---|")
    reference = results[rows.index(reference)][0]
    for scale, (pairs, times) in zip(rows, results):
        gain, (low, high) = interval(pairs)
        d_gain, (d_low, d_high) = interval([a - b for a, b in zip(pairs, reference)])
        print(f"| {scale} | {gain:+.2f} ({low:+.2f} to {high:+.2f}) | {d_gain:+.2f} ({d_low:+.2f} to {d_high:+.2f}) "
              f"| {1000 * sum(times) / len(times):.1f}, {1000 * percentile(times, 0.99):.1f} |", flush=True)


def combine(chunks: list) -> tuple:
    """Gain a deck and its 95% interval from tournaments of equal size (their mean, and the
    standard errors their intervals give, added in quadrature)."""
    k = len(chunks)
    gain = sum(r["gain"] for r in chunks) / k
    se = sqrt(sum(((r["ci95"][1] - r["ci95"][0]) / (2 * 1.96)) ** 2 for r in chunks)) / k
    return gain, gain - 1.96 * se, gain + 1.96 * se


def report_levels(decks: int, seed: int, chunk: int, rows=LEVEL_ROWS, seats: int = 4, skip: int = 0) -> None:
    """The rows in chunks of ``chunk`` decks of ``seats`` players, taken in turn, each chunk its
    own seed, so that a run stopped early still gives every row the same number of decks; a
    line per round."""
    print(f"Levels, {seats} seats, up to {decks} decks a row in chunks of {chunk}, seed {seed}"
          f"{f', the first {skip} chunks skipped' if skip else ''}:", flush=True)
    results = {row: [] for row in rows}
    seconds = dict.fromkeys(rows, 0.0)
    game = get_game(GAME_IDS[seats])
    for k in range(skip, decks // chunk):
        for a, b in rows:
            start = time.perf_counter()
            results[a, b].append(tournament(game, a, b, chunk, seed * 100_000 + k, bots=FACTORIES))
            seconds[a, b] += time.perf_counter() - start
        print(f"after {(k + 1 - skip) * chunk} decks a row{f' (chunks {skip + 1} to {k + 1})' if skip else ''}:")
        print("| A | B | decks | gain of A a deck | 95% interval | decks/s |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            gain, low, high = combine(results[row])
            done = len(results[row]) * chunk
            print(f"| {row[0]} | {row[1]} | {done} | {gain:+.2f} | {low:+.2f} to {high:+.2f} | "
                  f"{done / seconds[row]:.0f} |", flush=True)


def report_times(decks: int, seed: int) -> None:
    times = paired_strength([scaled(1)], decks, seed)[0][1]
    mean = sum(times) / len(times)
    print(f"Hard's CPU time over {len(times)} decisions: mean {mean * 1000:.2f} ms, "
          f"p99 {percentile(times, 0.99) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=2000, help="decks a row (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", action="store_true", help="the levels' table")
    parser.add_argument("--rows", nargs="+", metavar="A:B", help="the levels' rows (default: all)")
    parser.add_argument("--chunk", type=int, default=500, help="decks a chunk of the levels' table (even)")
    parser.add_argument("--skip", type=int, default=0, help="chunks of the levels' table already played")
    parser.add_argument("--seats", type=int, choices=(4, 2), default=4, help="the levels' table for 4 or 2 players")
    parser.add_argument("--strength", action="store_true", help="Hard's strength against its samples")
    parser.add_argument("--inference", action="store_true",
                        help="Hard's strength against how far it weighs the seats' plays")
    parser.add_argument("--timing-decks", type=int, default=0, help="decks whose Hard decisions are timed")
    args = parser.parse_args(argv)
    if args.decks % 2 or args.chunk % 2:
        parser.error("--decks and --chunk must be even (each shuffle is played twice)")
    if args.timing_decks:
        report_times(args.timing_decks, args.seed)
    if args.levels:
        rows = LEVEL_ROWS if args.rows is None else [tuple(r.split(":")) for r in args.rows]
        report_levels(args.decks, args.seed, args.chunk, rows, args.seats, args.skip)
    if args.strength:
        report_strength(args.decks, args.seed)
    if args.inference:
        report_strength(args.decks, args.seed, INFERENCE, weighing, INFERENCE[0], "(tries, attempts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
