"""Benchmark: what Batak's Hard would gain told the hidden hands, phase by phase (a test only).

Run: python bench/batak_oracle.py [--deals N] [--seed S] [--told WHEN ...]

Plays Hard at one seat against three baselines on the tournament's shuffles (as
bench/batak_paired.py does), once as it is and once for each WHEN, in which it searches the
true deal in place of its sampled deals: ``auction`` (its bids and trumps), ``play`` (every
card), ``early``, ``mid``, ``late`` (its cards of tricks 1-5, 6-9, 10-13), ``defending`` (its
cards while another seat declares), ``all`` (auction and play). Prints each one's gain a deal,
its paired difference from Hard as it is (95% interval) and how often Hard declared. Never the
page's computer: this Hard reads the hands.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from batak_paired import hard_gains  # noqa: E402

from pishe.games.batak.cli import interval  # noqa: E402
from pishe.games.batak.deal import CODE  # noqa: E402
from pishe.games.batak.hard import HardBot  # noqa: E402

WHEN = ("auction", "play", "early", "mid", "late", "defending", "all")


class ToldHard(HardBot):
    """Hard searching the true deal (the last of ``matches``) where ``told`` says, its samples elsewhere."""

    def __init__(self, seat: int, rng: random.Random, told: str, matches: list):
        super().__init__(seat, rng)
        self.told, self.matches = told, matches

    def _truth(self) -> list:
        return [sorted(CODE[c] for c in hand) for hand in self.matches[-1].deal.hands]

    def _worlds(self, view) -> list:
        if self.told in ("auction", "all"):
            return [self._truth()] * self.bid_samples
        return super()._worlds(view)

    def play_deals(self, view, count: int) -> list:
        """The true deal ``count`` times when told in this trick, else the sampled deals."""
        done = 13 - len(view.hand)
        told = {"play": True, "all": True, "early": done < 5, "mid": 5 <= done < 9, "late": done >= 9,
                "defending": view.declarer != view.seat}.get(self.told, False)
        return [self._truth()] * count if told else super().play_deals(view, count)


def trial(deals: int, seed: int, told: str) -> tuple:
    """Hard's gain on each shuffle, and on each deal whether Hard declared, told ``told``
    (``""``: as it is)."""
    matches: list = []
    gains = hard_gains(deals, seed, lambda seat, rng: ToldHard(seat, rng, told, matches), started=matches.append)
    # Each shuffle is dealt with Hard at seat 0, 1, 2, then 3.
    return gains, [match.deal.declarer == n % 4 for n, match in enumerate(matches)]


def main() -> None:
    """Print Hard as it is and told each WHEN asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--told", action="append", choices=WHEN)
    args = parser.parse_args()
    base, declared = trial(args.deals, args.seed, "")
    mean, low, high = interval(base)
    print(f"hard as it is, {args.deals} deals seed {args.seed}: gain {mean:+.3f} ({low:+.3f} to {high:+.3f}), "
          f"declaring {sum(declared) / len(declared):.0%} of deals")
    for told in args.told or ["auction", "play", "all"]:
        gains, declared = trial(args.deals, args.seed, told)
        mean, low, high = interval([a - b for a, b in zip(gains, base)])
        print(f"told {told}: gain {sum(gains) / len(gains):+.3f}, paired {mean:+.3f} ({low:+.3f} to {high:+.3f}), "
              f"declaring {sum(declared) / len(declared):.0%} of deals")


if __name__ == "__main__":
    main()
