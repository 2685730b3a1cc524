"""Benchmark: deals per second of always-give self-play, through the real engine and views.

Run: python bench/engine.py [--deals N] [--rounds R]

The machines are noisy, so each round times the engine and, right after, a
minimal single-function implementation of the same rules and policy (the
yardstick the engine issue names: about 4,000 deals/s on these machines), and
prints the ratio. The minimal version lives only here: it is a yardstick,
not a second engine, and it is checked against the engine's results first.

A second line times the same deals as a search's play-outs run them: Deal.play with
the policy reading the deal, no views (what the bots' look-ahead costs a deal).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from pishe import BOTS, Deal, play_deal  # noqa: E402
from pishe.games.pasha.deal import deal_stocks  # noqa: E402


def minimal_always_give(stocks):
    """Both seats always give: the whole deal in one loop over (rank, suit) pairs."""
    stocks = [[(c.rank, c.suit) for c in s] for s in stocks]
    piles, tops, me = [[], []], {"C": 0, "D": 0, "H": 0, "S": 0}, 0
    while True:
        stock, mine, theirs = stocks[me], piles[me], piles[1 - me]
        while True:
            while mine and tops[mine[-1][1]] + 1 == mine[-1][0]:
                rank, suit = mine.pop()
                tops[suit] = rank
            if not mine and not stock:
                return me, len(stocks[1 - me]) + len(theirs)
            if mine and theirs and abs(mine[-1][0] - theirs[-1][0]) == 1:
                theirs.append(mine.pop())
                continue
            if not stock:
                stock.extend(reversed(mine))
                mine.clear()
            rank, suit = card = stock.pop()
            if tops[suit] + 1 == rank:
                tops[suit] = rank
            elif theirs and abs(rank - theirs[-1][0]) == 1:
                theirs.append(card)
            else:
                mine.append(card)
                break
        me = 1 - me


def engine_always_give(stocks):
    deal = Deal.from_stocks(stocks, 0)
    play_deal(deal, [BOTS["always-give"]] * 2)
    return deal.winner, deal.points(1 - deal.winner)


def engine_play_out(stocks):
    """A search's play-out: the deal moved by Deal.play, the policy reading the deal itself
    (legal_actions() lists give first, as LookAhead.play_on takes it), no views."""
    deal = Deal.from_stocks(stocks, 0)
    deal.play(lambda seat: deal.legal_actions()[0])
    return deal.winner, deal.points(1 - deal.winner)


def rate(play, all_stocks) -> float:
    start = time.process_time()
    for stocks in all_stocks:
        play(stocks)
    return len(all_stocks) / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    all_stocks = [deal_stocks(rng) for _ in range(args.deals)]
    for stocks in all_stocks[:300]:
        assert engine_always_give(stocks) == minimal_always_give(stocks) == engine_play_out(stocks), \
            "the yardstick disagrees"
    engine, play_outs, minimal, ratios, play_out_ratios = [], [], [], [], []
    for _ in range(args.rounds):
        engine.append(rate(engine_always_give, all_stocks))
        play_outs.append(rate(engine_play_out, all_stocks))
        minimal.append(rate(minimal_always_give, all_stocks))
        ratios.append(engine[-1] / minimal[-1])
        play_out_ratios.append(play_outs[-1] / minimal[-1])
    print(f"always-give self-play, {args.deals} deals x {args.rounds} rounds, Python {sys.version.split()[0]}")
    print(f"  engine  (views, steps, checks): median {statistics.median(engine):7.0f} deals/s")
    print(f"  minimal (one function)        : median {statistics.median(minimal):7.0f} deals/s")
    print(f"  engine / minimal, same round  : median {statistics.median(ratios):.2f}")
    print(f"  engine, play-outs (no views)  : median {statistics.median(play_outs):7.0f} deals/s")
    print(f"  play-outs / minimal           : median {statistics.median(play_out_ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
