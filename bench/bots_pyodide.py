"""How long a game's computer takes to decide, in Pyodide (the page's Python) and in CPython.

    python bench/bots_pyodide.py [--game pisti] [--bot NAME ...] [--decks N] [--seed S]

Plays N deals of the game with its computer (or each bot named) in every seat,
first in Pyodide under Node (the pinned runtime build.py fetches, our package
copied into its file system), then in this CPython, timing every decision of
the bot; bots that remember are shown every step, as the page's table does.
Prints mean, median (p50), p99 and maximum per decision in both, over every
decision and over the choices alone (more than one legal action), by the clock
and by the process's CPU time (on a busy machine the clock counts other
programs' time too; in Pyodide the CPU time is Node's, process.cpuUsage), and
Pyodide's ratio to CPython's CPU time measured in the same run.
Pishe Pasha's levels: ``--game pishe-pasha --bot memory-deep --bot memory-4``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyodide_run  # noqa: E402

# Run in both Pythons: the same code, timing bot.choose() with perf_counter.
_PY_TIMING = r'''
import json, random, time
from pishe.table.game import get_game
from pishe.table.match import Match

try:
    # In Pyodide the process's CPU time is Node's (process.cpuUsage, set by _CPU_MS): Python's
    # own process_time() there is the clock, which counts other programs' time on a busy machine.
    from js import cpuMs as cpu_ms
except ImportError:
    def cpu_ms():
        return time.process_time() * 1000

def timings(game_id, bot_name, deals, seed):
    """Every decision's milliseconds, of the clock and of this process's CPU, and whether it
    was a choice: ``[ms, cpu_ms, choice]``."""
    game = get_game(game_id)
    rng = random.Random(seed)
    times = []
    for n in range(deals):
        match = Match(game, None, random.Random(rng.getrandbits(64)))
        bots = [game.new_bot(bot_name or game.computer, s, random.Random(rng.getrandbits(64)))
                for s in range(game.seats)]
        seated = list(enumerate(bots))
        deal = match.deal
        game.show_steps(seated, game.deal_steps(deal), new_deal=True)
        while not deal.over:
            seat = deal.turn
            view = game.view(match, seat)
            choice = len(deal.legal_actions()) > 1
            start, cpu = time.perf_counter(), cpu_ms()
            action = bots[seat].choose(view)
            times.append([(time.perf_counter() - start) * 1000, cpu_ms() - cpu, choice])
            game.show_steps(seated, deal.apply(action, seat))
    return times
'''

# Node's CPU milliseconds for the timing code in Pyodide (cpu_ms there).
_CPU_MS = """
globalThis.cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
"""


def summary(times: list) -> dict:
    """Count, mean, median (p50), p99 and maximum of ``times`` (milliseconds)."""
    ordered = sorted(times)

    def share(p):
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))]
    return {"decisions": len(ordered), "mean": sum(ordered) / len(ordered), "p50": share(0.5),
            "p99": share(0.99), "max": ordered[-1]}


def in_pyodide(game: str, bot: str, deals: int, seed: int) -> list:
    return pyodide_run.in_pyodide(_PY_TIMING, f"import json; json.dumps(timings({game!r}, {bot!r}, {deals}, {seed}))",
                                  setup=lambda scratch: _CPU_MS)


def in_cpython(game: str, bot: str, deals: int, seed: int) -> list:
    scope: dict = {}
    exec(_PY_TIMING, scope)
    return scope["timings"](game, bot, deals, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pisti")
    parser.add_argument("--bot", action="append", default=None,
                        help="a bot of the game, once per bot (default: the page's computer)")
    parser.add_argument("--decks", type=int, default=20, help="deals to play (decks in Pişti)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for bot in args.bot or [None]:
        runs = {"Pyodide": in_pyodide(args.game, bot, args.decks, args.seed),
                "CPython": in_cpython(args.game, bot, args.decks, args.seed)}
        print(f"{args.game}, bot {bot or 'the computer'}, {args.decks} deals, seed {args.seed}: ms per decision")
        rows = {}
        for name, times in runs.items():
            for which, kept in (("all", times), ("choices", [t for t in times if t[2]])):
                # The clock's time, and the CPU's: on a busy machine only the CPU's is this bot's.
                row = summary([ms for ms, _, _ in kept])
                cpu = rows[name, which] = summary([cpu_ms for _, cpu_ms, _ in kept])
                print(f"  {name:<8} {which:<8} {row['decisions']:>6} decisions  mean {row['mean']:7.3f}  "
                      f"p50 {row['p50']:7.2f}  p99 {row['p99']:7.2f}  max {row['max']:7.2f}   "
                      f"CPU: mean {cpu['mean']:7.3f}  p50 {cpu['p50']:7.2f}  p99 {cpu['p99']:7.2f}  "
                      f"max {cpu['max']:7.2f}")
        ratio = rows["Pyodide", "all"]["mean"] / rows["CPython", "all"]["mean"]
        print(f"  Pyodide / CPython, mean CPU time: {ratio:.2f}")


if __name__ == "__main__":
    main()
