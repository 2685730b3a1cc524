"""Command line: ``python -m pishe tournament …`` and ``python -m pishe play-out``.

``tournament A B --deals N [--seed S] [--json]`` plays Pishe Pasha bot A
against bot B, the two alternating as leader, and reports wins and points.
``tournament --game pisti A B --decks N`` plays Pişti bot A's team against
bot B's, each shuffle twice with the teams swapping seats, and reports points,
piştis and A's gain per deck with its 95% interval.

``play-out`` reads JSON lines on stdin and writes one JSON line per input
line: a new deal from stocks played out by bots, actions applied to a
position, or a position played on by bots; a line with ``"game": "pisti"``
is a Pişti deck with its plays or its bots. A bad line gets
``{"error": "…"}`` and the program goes on; it exits 1 if any line failed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Optional, Sequence

from .games.pasha import GAME
from .games.pasha.bots import FACTORIES
from .cards import parse_cards
from .games.pasha.deal import Deal
from .errors import IllegalActionError, InvalidCardError, InvalidPositionError, PisheError, UnknownGameError
from .games.pasha.play import play_deal
from .games.pasha.position import format_position, parse_position

__all__ = ["main", "tournament", "play_out_line"]


def tournament(a: str, b: str, deals: int, seed: Optional[int] = None, progress=None) -> dict:
    """Play ``deals`` deals of bot ``a`` against bot ``b``; ``a`` leads the even-numbered ones.

    Returns ``{"a", "b", "deals", "wins": [a, b], "points": [a, b]}``.
    ``progress(done)`` is called now and then for long runs.
    """
    if deals < 0:
        raise ValueError("the number of deals cannot be negative")
    rng = random.Random(seed)
    # Each bot sits in both seats in turn: one bot object per bot and seat, with its own generator.
    bots = [[GAME.new_bot(name, seat, random.Random(rng.getrandbits(64))) for seat in (0, 1)]
            for name in (a, b)]
    wins, points = [0, 0], [0, 0]
    for n in range(deals):
        a_seat = n % 2                 # seat 0 leads every fresh deal: A and B take turns there
        seated = [bots[0][0], bots[1][1]] if a_seat == 0 else [bots[1][0], bots[0][1]]
        deal = Deal.shuffled(rng, leader=0)
        play_deal(deal, seated)
        player = 0 if deal.winner == a_seat else 1
        wins[player] += 1
        points[player] += deal.points(1 - deal.winner)
        if progress is not None and n % 500 == 499:
            progress(n + 1)
    return {"a": a, "b": b, "deals": deals, "wins": wins, "points": points}


def _check_keys(line: dict, allowed: set, kind: str) -> None:
    extra = set(line) - allowed
    if extra:
        raise InvalidPositionError(f"unexpected keys for {kind}: {', '.join(sorted(extra))}")


def _bots(names) -> list:
    if not isinstance(names, list) or len(names) != 2:
        raise PisheError("bots must be a list of two bot names")
    return [GAME.new_bot(name, seat, random.Random(seat)) for seat, name in enumerate(names)]


def play_out_line(line: str) -> dict:
    """Answer one input line of ``play-out`` (see the module docs); raises PisheError/ValueError."""
    try:
        data = json.loads(line)
    except ValueError as e:
        raise PisheError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise PisheError("each line must be a JSON object")
    if "game" in data:
        if data["game"] != "pisti":
            raise UnknownGameError(f"unknown game {data['game']!r}: play-out knows pisti "
                                   f"(lines without a game are Pishe Pasha)")
        from .games.pisti.cli import play_out_line as pisti_line
        return pisti_line(data)
    steps = []
    if "stocks" in data:
        _check_keys(data, {"stocks", "leader", "bots"}, "a new deal")
        if not isinstance(data["stocks"], list) or len(data["stocks"]) != 2:
            raise InvalidPositionError("stocks must be a list of two piles")
        leader = data.get("leader", 0)
        if isinstance(leader, bool) or leader not in (0, 1):
            raise InvalidPositionError(f"leader must be seat 0 or 1, not {leader!r}")
        bots = _bots(data.get("bots"))
        try:
            stocks = [parse_cards(s) for s in data["stocks"]]
        except InvalidCardError as e:
            raise InvalidPositionError(str(e)) from None
        deal = Deal.from_stocks(stocks, leader)
        steps += play_deal(deal, bots)
    elif "position" in data:
        deal = parse_position(data["position"])
        steps += deal.this_turn           # forced steps due at the position itself
        if "actions" in data:
            _check_keys(data, {"position", "actions"}, "actions from a position")
            actions = data["actions"]
            if not isinstance(actions, list):
                raise PisheError("actions must be a list")
            for i, action in enumerate(actions):
                try:
                    steps += deal.apply(action)
                except IllegalActionError as e:
                    raise IllegalActionError(f"action {i + 1} ({action!r}): {e}") from None
                except TypeError:
                    raise IllegalActionError(f"action {i + 1} is not an action: {action!r}") from None
        else:
            _check_keys(data, {"position", "bots"}, "bots from a position")
            steps += play_deal(deal, _bots(data.get("bots")))
    else:
        raise PisheError('a line needs "stocks" (a new deal) or "position"')
    return {
        "winner": deal.winner,
        "score": deal.points(1 - deal.winner) if deal.over else None,
        "position": format_position(deal),
        "steps": [s.describe() for s in steps],
    }


def play_out(stdin, stdout) -> int:
    """Run ``play-out`` over streams; returns the exit status."""
    failed = False
    for line in stdin:
        try:
            answer = play_out_line(line)
        except (PisheError, ValueError) as e:
            answer = {"error": str(e)}
            failed = True
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
    return 1 if failed else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pishe", description="Pishe Pasha: bots and positions.")
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help="bot A against bot B over many deals")
    t.add_argument("--game", choices=("pishe-pasha", "pisti"), default="pishe-pasha",
                   help="the game (default pishe-pasha)")
    t.add_argument("a", help=f"bot A: Pishe Pasha's {', '.join(FACTORIES)}; Pişti's random, greedy, …")
    t.add_argument("b", help="bot B")
    t.add_argument("--deals", type=int, help="how many deals (Pishe Pasha)")
    t.add_argument("--decks", type=int, help="how many decks, an even number (Pişti)")
    t.add_argument("--seed", type=int, default=None, help="seed of the shuffles (repeatable runs)")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_parser("play-out", help="JSON lines in, JSON lines out (see the README)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m pishe``; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "play-out":
        return play_out(sys.stdin, sys.stdout)
    if args.game == "pisti":
        return _pisti_tournament(args)
    if args.deals is None:
        print("error: --deals is required", file=sys.stderr)
        return 2
    for name in (args.a, args.b):
        if name not in FACTORIES:
            print(f"error: unknown bot {name!r}: choose one of {', '.join(FACTORIES)}", file=sys.stderr)
            return 2
    if args.deals < 0:
        print("error: --deals cannot be negative", file=sys.stderr)
        return 2
    show = sys.stderr.isatty() and not args.json
    start = time.perf_counter()

    def progress(done: int) -> None:
        print(f"\r{done}/{args.deals} deals", end="", file=sys.stderr, flush=True)

    result = tournament(args.a, args.b, args.deals, args.seed, progress if show else None)
    if show:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    return _report(args, result, start, args.deals, "deals",
                   lambda i: f"{result['wins'][i]:>6} wins  {result['points'][i]:>8} points")


def _report(args, result: dict, start: float, count: int, unit: str, row, *after: str) -> int:
    """Print a tournament's result: its JSON, or a line per bot (``row(i)``) and ``after``."""
    if args.json:
        print(json.dumps(result))
        return 0
    seconds = max(time.perf_counter() - start, 1e-9)
    width = max(len(args.a), len(args.b))
    print(f"{count} {unit} ({count / seconds:.0f} {unit}/s), seed {args.seed}")
    for i, name in enumerate((args.a, args.b)):
        print(f"  {name:<{width}}  {row(i)}")
    for line in after:
        print(line)
    return 0


def _pisti_tournament(args) -> int:
    from .games.pisti.bots import BOTS as PISTI_BOTS
    from .games.pisti.cli import tournament as pisti_tournament

    for name in (args.a, args.b):
        if name not in PISTI_BOTS:
            print(f"error: unknown bot {name!r}: choose one of {', '.join(PISTI_BOTS)}", file=sys.stderr)
            return 2
    if args.decks is None or args.decks < 0 or args.decks % 2:
        print("error: --decks must be an even number (each shuffle is played twice)", file=sys.stderr)
        return 2
    start = time.perf_counter()
    result = pisti_tournament(args.a, args.b, args.decks, args.seed)
    low, high = result["ci95"]
    return _report(args, result, start, args.decks, "decks",
                   lambda i: f"{result['points'][i]:>8} points  {result['pishti'][i]:>6} piştis",
                   f"  {args.a} gains {result['gain']:+.2f} points a deck "
                   f"(95% interval {low:+.2f} to {high:+.2f})")
