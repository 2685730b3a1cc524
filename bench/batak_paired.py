"""Benchmark: paired trials of Batak's Hard, one setting against another on the same shuffles.

Run: python bench/batak_paired.py [--deals N] [--seed S] [--set NAME=VALUE ...] [--save FILE] [--against FILE]

Plays Hard (``HardBot`` with the ``--set`` keyword arguments) at one seat against three
baselines, each shuffle four times with Hard in each seat (as ``python -m pishe tournament``
does, so the same seed gives the same shuffles), and prints its gain a deal over the
baselines' average with its 95% interval. ``--save`` keeps the gain of each shuffle;
``--against`` a file saved so, from another setting or another version of the code, prints
the paired difference of the gains, shuffle by shuffle, and its 95% interval: far narrower
than the two intervals apart.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pishe.games.batak.baseline import BaselineBot  # noqa: E402
from pishe.games.batak.cli import interval, shuffle_gains  # noqa: E402
from pishe.games.batak.hard import HardBot  # noqa: E402
from pishe.table.game import get_game  # noqa: E402


def hard_gains(deals: int, seed: int, hard, started=None) -> list:
    """The gain over the baselines' average on each shuffle of ``deals`` deals (four a shuffle) of
    ``hard(seat, rng)`` at one seat against three baselines, each shuffle with it in each seat, the
    bots' generators drawn as the tournament draws them; ``started`` as :func:`shuffle_gains` takes it."""
    rng = random.Random(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    seatings = [[hard(s, random.Random(bot_rng.getrandbits(64))) if s == at
                 else BaselineBot(s, random.Random(bot_rng.getrandbits(64))) for s in range(4)] for at in range(4)]
    return shuffle_gains(get_game("batak"), seatings, rng, deals // 4, started=started)[1]


def gains(deals: int, seed: int, settings: dict) -> list:
    """Hard's (``HardBot`` with ``settings``) gain on each shuffle of ``deals`` deals."""
    return hard_gains(deals, seed, lambda seat, rng: HardBot(seat, rng, **settings))


def main() -> None:
    """Print the trial, and the paired difference when asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=800)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--save")
    parser.add_argument("--against")
    args = parser.parse_args()
    settings = {name: json.loads(value) for name, value in (s.split("=", 1) for s in args.set)}
    start = time.process_time()
    found = gains(args.deals, args.seed, settings)
    mean, low, high = interval(found)
    print(f"hard {settings} {args.deals} deals seed {args.seed}: gain {mean:+.3f} a deal "
          f"(95% interval {low:+.3f} to {high:+.3f})  [{time.process_time() - start:.0f} s]")
    if args.save:
        Path(args.save).write_text(json.dumps(found))
    if args.against:
        mean, low, high = interval([a - b for a, b in zip(found, json.loads(Path(args.against).read_text()))])
        print(f"paired against {args.against}: {mean:+.3f} a deal (95% interval {low:+.3f} to {high:+.3f})")


if __name__ == "__main__":
    main()
