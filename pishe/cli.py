"""Command line: ``python -m pishe tournament …`` and ``python -m pishe play-out``.

The command line names no game: it plays the games the registry finds
(:func:`pishe.table.game.games`), through its own tournament and play-out or the
table's (:class:`pishe.table.cli.CommandLine`).
A game is named by its id or its family's, and a variant by its name in the
family (``--game pisti --variant 2``; ``{"game": "pisti", "variant": "2"}``) or by
its parameters (``--seats 2``; ``{"seats": 2}``); without a name, the first
registered game (Pishe Pasha).

``tournament [--game G] A B --deals N [--seed S] [--json]`` plays bot A
against bot B and reports the result (``--decks`` is the same option, in
Pişti's word): Pishe Pasha's wins and points, A and B alternating as leader;
Pişti's points, piştis and A's gain per deck with its 95% interval, A's
side and B's swapping seats on every shuffle.

``play-out`` reads JSON lines on stdin and writes one JSON line per input
line: Pishe Pasha's new deal from stocks played out by bots, actions applied
to a position, or a position played on by bots; a line with ``"game": "pisti"``
is a Pişti deck with its plays or its bots. A bad line gets
``{"error": "…"}`` and the program goes on; it exits 1 if any line failed.

The command line speaks the language its environment asks for (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``: "tr_TR.UTF-8" is Turkish; see
:func:`pishe.lang.from_environment`), or ``--lang``'s: its help, its errors and
a tournament's report (argparse's own few words, "usage:", stay English).
``play-out``'s answers are data for programs: English in every environment.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Optional, Sequence

from .errors import PisheError, UnknownGameError
from .table.cli import CommandLine
from .table.game import Game, find_game, games
from .lang import LANGUAGES, _, from_environment, language, set_language

__all__ = ["main", "play_out_line"]


def _params(name: str) -> set:
    """The names of the parameters the variants of game ``name`` take ("seats")."""
    return {key for game in games() if game.family_id == name for key in game.params}


def play_out_line(line: str) -> dict:
    """Answer one input line of ``play-out`` (see the module docs); raises PisheError/ValueError."""
    try:
        data = json.loads(line)
    except RecursionError:
        raise PisheError("the line is nested too deeply") from None
    except ValueError as e:
        raise PisheError(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise PisheError("each line must be a JSON object")
    name = data.pop("game", games()[0].id)
    if not isinstance(name, str):
        raise UnknownGameError(f"unknown game {name!r}")
    params = {key: data.pop(key) for key in _params(name) if key in data}
    variant = data.pop("variant", None)
    if variant is not None and not isinstance(variant, str):
        raise UnknownGameError(f"the variant must be a name, not {str(variant)[:40]!r}")
    return CommandLine(find_game(name, params, variant)).play_out(data)


def play_out(stdin, stdout) -> int:
    """Run ``play-out`` over streams; returns the exit status."""
    failed = False
    for line in stdin:
        try:
            answer = play_out_line(line)
        except (PisheError, ValueError) as e:
            answer = {"error": str(e)}
            failed = True
        except RecursionError:
            answer = {"error": "the line is nested too deeply"}
            failed = True
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
    return 1 if failed else 0


def _parser() -> argparse.ArgumentParser:
    known = games()
    families = list(dict.fromkeys(g.family_id for g in known))
    parser = argparse.ArgumentParser(prog="python -m pishe", description=_("The card table's bots and positions."))
    parser.add_argument("--lang", choices=LANGUAGES,
                        help=_("the language of the help, the errors and the report (default: the environment's)"))
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tournament", help=_("bot A against bot B over many deals"))
    t.add_argument("--game", choices=families, default=known[0].family_id,
                   help=_("the game (default {game})").format(game=known[0].family_id))
    variants = "; ".join(f"{g.family_id} {g.variant}" for g in known if g.variant)
    t.add_argument("--variant", help=_("the game's variant, by its name ({variants})").format(variants=variants))
    t.add_argument("--seats", type=int, help=_("the number of seats, for a game played by more than one number"))
    first: dict[str, Game] = {}                                    # each family's first variant
    for game in known:
        first.setdefault(game.family_id, game)
    bots = "; ".join(f"{g.name}: {', '.join(g.bots)}" for g in first.values())
    t.add_argument("a", help=_("bot A ({bots})").format(bots=bots))
    t.add_argument("b", help=_("bot B"))
    t.add_argument("--deals", "--decks", dest="deals", type=int, help=_("how many deals (or decks: the same option)"))
    t.add_argument("--seed", type=int, default=None, help=_("seed of the shuffles (repeatable runs)"))
    t.add_argument("--json", action="store_true", help=_("print one JSON object"))
    sub.add_parser("play-out", help=_("JSON lines in, JSON lines out (see the README)"))
    return parser


def _language_asked(argv: Sequence[str]) -> str:
    """``--lang``'s language, else the environment's (:func:`~pishe.lang.from_environment`)."""
    asked = argparse.ArgumentParser(add_help=False)
    asked.add_argument("--lang")
    known, _rest = asked.parse_known_args(argv)
    return known.lang if known.lang in LANGUAGES else from_environment()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m pishe``; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    before = language()
    set_language(_language_asked(argv))
    try:
        return _run(_parser().parse_args(argv))
    finally:
        set_language(before)


def _run(args: argparse.Namespace) -> int:
    if args.command == "play-out":
        set_language("en")          # data for programs: the same in every environment
        return play_out(sys.stdin, sys.stdout)
    try:
        game = find_game(args.game, {} if args.seats is None else {"seats": args.seats}, args.variant)
    except UnknownGameError as e:
        return _refuse(str(e))
    option = f"--{game.deal_name.lower()}s"       # --deals, or Pişti's --decks: the same option
    if args.deals is None:
        return _refuse(_("{option} is required").format(option=option))
    for name in (args.a, args.b):
        if name not in game.bots:
            return _refuse(_("unknown bot {name}: choose one of {bots}").format(name=repr(name),
                                                                                 bots=", ".join(game.bots)))
    show = sys.stderr.isatty() and not args.json

    def progress(done: int) -> None:
        print(f"\r{done}/{args.deals}", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    try:
        result = CommandLine(game).tournament(args.a, args.b, args.deals, args.seed, progress if show else None)
    except (PisheError, ValueError) as e:
        return _refuse(str(e))
    if show:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    if args.json:
        print(json.dumps(result))
        return 0
    seconds = max(time.perf_counter() - start, 1e-9)
    print(_("{deal} × {count} ({rate} a second), seed {seed}").format(
        deal=game.deal_word(), count=args.deals, rate=f"{args.deals / seconds:.0f}", seed=args.seed))
    for line in CommandLine(game).tournament_lines(result):
        print(line)
    return 0


def _refuse(message: str) -> int:
    print(_("error: {message}").format(message=message), file=sys.stderr)
    return 2
