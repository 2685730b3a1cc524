#!/usr/bin/env python3
"""What the no-peek deal costs in the page's Python (Pyodide, @noble/curves) and in CPython
(libsodium).

    python bench/nopeek.py [--game pisti] [--deals N] [--seed S] [--before REF]

Plays N whole deals of the game at a table of one page per seat (pishe.table.nopeek_seat,
the code the pages run), every message relayed to every other page in memory as the host
does, first in Pyodide under Node (the pinned runtime build.py fetches, our package copied
into its file system, web/core/group.js on @noble/curves as the page's worker loads it),
then in this CPython on libsodium. One process does every page's work one after another,
so "deck ready" is every page's share added up, an upper bound of the real path (pages
work at once where the rounds allow). Measured in the process's CPU time (these machines
are shared: their clocks also run while others work), medians over the deals:

  shuffle+lock   one page's two rounds (issue 20: <= 1 s a seat);
  deck ready     from the first commitment until every page knows its first cards, all
                 pages' work added up (<= 3 s after the last seat joins, four seats);
  a move         the work every page does for one move (the mover's keys, the keys for
                 what the move shows, taking the cards in): its largest and its median;
  end check      one page's check of the whole deal (<= 1 s a page).

Each figure is measured twice in one run: on this checkout's code and on ``--before``'s
(a git revision, ``main`` unless given: its ``pishe`` and ``web/core/group.js``, taken out
with ``git archive``), and printed with their ratio, after / before (issue 28: signing
every message and checking its transcript hash must keep a move one message round).

Prints figures; no test asserts a time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
import pyodide_run  # noqa: E402

# Run in both Pythons: the same code, the group each one has (pishe.table.group.group()).
_PY_TIMING = r'''
import json, random, statistics, time
from pishe.table import nopeek
from pishe.table.game import get_game
from pishe.table.group import group
from pishe.table.nopeek_seat import NoPeekSeat

try:                    # the process's CPU time: these machines are shared, their clocks run for others too
    from js import cpuMs as _cpu
except ImportError:
    def _cpu():
        return time.process_time() * 1000

def now():
    return _cpu()

def ms(since):
    return now() - since

class Timed(NoPeekSeat):
    """A page that adds up its time in its two rounds and in its end check."""
    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.rounds = self.check = 0.0
        dealing, timed = self.dealing, self
        for name in ("shuffle", "lock"):
            plain = getattr(dealing, name)
            def run(plain=plain):
                t = now(); out = plain(); timed.rounds += ms(t); return out
            setattr(dealing, name, run)
    def _end(self):
        t = now(); out = super()._end(); self.check += ms(t); return out

def one_deal(game, rng):
    g = group()
    pages = {q: Timed(g, game, "ab" * 16, 1, q, 0, rng=rng) for q in range(game.seats)}
    queue, moves = [], []
    def send(messages):
        queue.extend(messages)
        while queue:
            m = queue.pop(0)
            for q, p in pages.items():
                if q != m["seat"]:
                    queue.extend(p.receive(m))
    t = now()
    for p in pages.values():
        send(p.start())
    ready = ms(t)
    while True:
        state = pages[0].partial.state
        if state.over:
            break
        page = pages[state.turn]
        text = game.action_text(rng.choice(list(page.partial.state.legal_actions())))
        t = now()
        send(page.act(text))
        moves.append(ms(t))
    assert all(p.outcome == "verified" for p in pages.values()), [p.outcome for p in pages.values()]
    return {"rounds": [p.rounds for p in pages.values()], "ready": ready, "moves": moves,
            "check": [p.check for p in pages.values()]}

def run(game_id, deals, seed):
    game = get_game(game_id)
    rng = random.Random(seed)
    nopeek.card_points(group(), game.id)          # the cards' points, once a page
    return [one_deal(game, rng) for _ in range(deals)]
'''

def _noble(root: Path):
    def setup(scratch: Path) -> str:
        """The worker's group (``root``'s web/core/group.js on @noble/curves) as
        globalThis.pisheGroup, and the process's CPU time as globalThis.cpuMs, before Pyodide
        starts."""
        curves = build.unpack_noble(scratch / "noble")
        group = (root / "web" / "core" / "group.js").as_uri()
        return (f"const {{ makeGroup }} = await import({json.dumps(group)});\n"
                f"globalThis.pisheGroup = makeGroup(await import({json.dumps(curves.as_uri())}));\n"
                "globalThis.cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };\n")
    return setup


def _call(game: str, deals: int, seed: int) -> str:
    return f"import json; json.dumps(run({game!r}, {deals}, {seed}))"


def in_pyodide(root: Path, game: str, deals: int, seed: int) -> list:
    """The deals in Pyodide, on ``root``'s code."""
    return pyodide_run.in_pyodide(_PY_TIMING, _call(game, deals, seed), _noble(root), root)


def in_cpython(root: Path, game: str, deals: int, seed: int) -> list:
    """The deals in a CPython of their own, on ``root``'s code."""
    code = (f"import sys; sys.path.insert(0, {str(root)!r})\n{_PY_TIMING}\n"
            f"print(json.dumps(run({game!r}, {deals}, {seed})))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def checkout(revision: str, into: Path) -> Path:
    """``revision``'s ``pishe`` and ``web/core/group.js`` under ``into`` (git archive)."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "pishe", "web/core/group.js"],
                         capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    return into


def figures(runs: list) -> dict:
    """Medians over the deals (milliseconds)."""
    def median(values):
        values = sorted(values)
        return values[len(values) // 2]
    return {"shuffle+lock, one page": median([r for run in runs for r in run["rounds"]]),
            "deck ready, every page's work added": median([run["ready"] for run in runs]),
            "a move, every page's work: median": median([m for run in runs for m in run["moves"]]),
            "a move, every page's work: largest": median([max(run["moves"]) for run in runs]),
            "end check, one page": median([c for run in runs for c in run["check"]])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="pisti")
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default="main", help="the git revision to compare with (default: main)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        before = checkout(args.before, Path(folder))
        rows = {}
        for label, run in (("Pyodide (noble)", in_pyodide), ("CPython (libsodium)", in_cpython)):
            rows[label] = [figures(run(root, args.game, args.deals, args.seed)) for root in (before, ROOT)]
    print(f"no-peek deal, {args.game}, one page a seat, {args.deals} deals, seed {args.seed}: ms, medians; "
          f"before = {args.before}, after = this checkout")
    for label, (old, new) in rows.items():
        print(f"  {label}")
        for name in old:
            print(f"    {name:<38} before {old[name]:9.1f}   after {new[name]:9.1f}   "
                  f"ratio {new[name] / old[name]:5.2f}")
    print("  targets: shuffle+lock <= 1000 a seat, deck ready <= 3000, end check <= 1000 a page")


if __name__ == "__main__":
    main()
