#!/usr/bin/env python3
"""The Python of a Pishe Pasha friends' deal, call by call and part by part (prints figures).

    python bench/friend_calls.py [--deals N] [--cpython]

Plays whole one-deal matches of Pishe Pasha through the very calls the pages' workers make
(pishe.web's host_* and guest_*, every message carried between them at once, each page's
messages sent as Python makes them: pishe.page.outbox), in Pyodide under Node with the
page's group arithmetic (@noble/curves, web/core/group.js), or with --cpython in this
process (libsodium). Only the deal's moves are timed (not its dealing, the join, nor the
reveals and end checks once it is over: bench/nopeek.py times those).

Times are CPU times (the process's: this machine is shared). Printed: each call's time (the
host's page: host_act, host_receive; the guest's: guest_intent, guest_receive, guest_saved), then
the parts inside them, each counted wherever it runs (so parts overlap): the protocol's own receive (Host.receive,
Guest.receive), the no-peek seat (NoPeekSeat._progress: keys sent and cards opened;
nopeek._open: one card opened, its ristretto255 product inverted and multiplied, the
library's work), the engine on the cards known (PartialDeal._play: a replay of the deal,
openable), the deal's steps shown (_show), the page's answers (view, status, save) and
JSON. bench/friend_moves.py puts these calls on the real pages' clock.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

# Runs in Pyodide (or here): run(deals) -> {"moves", "calls": {name: [n, s]}, "parts": {...}}.
_PY = r'''
import collections, json, time

def cpu():
    """The process's CPU time in seconds (Node's, under Pyodide): the machine may be busy."""
    try:
        import js
        return js.cpuMs() / 1000
    except ImportError:
        return time.process_time()


def run(deals):
    import pishe.page, pishe.web as web, pishe.web_friends as friends
    from pishe.table import nopeek, nopeek_seat, partial
    from pishe.table.protocol.guest import Guest
    from pishe.table.protocol.host import Host

    parts, counts = collections.defaultdict(float), collections.Counter()
    timing = [False]                # only the deal's moves are timed

    def timed(owner, name, label):
        inner = getattr(owner, name)
        def wrapper(*args, **kwargs):
            start = cpu()
            try:
                return inner(*args, **kwargs)
            finally:
                if timing[0]:
                    parts[label] += cpu() - start
                    counts[label] += 1
        setattr(owner, name, wrapper)

    for owner, name, label in [
            (Host, "receive", "Host.receive"), (Host, "act", "Host.act"), (Host, "view", "Host.view"),
            (Host, "status", "Host.status"), (Host, "save", "Host.save"),
            (Guest, "receive", "Guest.receive"), (Guest, "move", "Guest.move"), (Guest, "save", "Guest.save"),
            (nopeek_seat.NoPeekSeat, "_progress", "NoPeekSeat._progress"),
            (nopeek_seat.NoPeekSeat, "_show", "NoPeekSeat._show"), (nopeek, "_open", "nopeek._open (a card)"),
            (partial.PartialDeal, "_play", "PartialDeal._play"),
            (partial.PartialDeal, "openable", "PartialDeal.openable"),
            (friends, "_friend_status", "web_friends._friend_status"), (json, "dumps", "json.dumps"),
            (json, "loads", "json.loads")]:
        timed(owner, name, label)
    calls, called = collections.defaultdict(float), collections.Counter()
    out = []
    pishe.page.outbox = lambda to, text: out.append(text)

    def call(name, *args):
        start = cpu()
        answer = json.loads(getattr(web, name)(*args))
        if timing[0]:
            calls[name] += cpu() - start
            called[name] += 1
        return answer

    def carry(to_host, to_guest):
        while to_host or to_guest:
            if any('"np-reveal"' in text for text in to_host + to_guest):
                timing[0] = False     # the deal is over: its end check is not a move's
            while to_host:
                call("host_receive", to_host.pop(0))
                to_guest += out
                out.clear()
            while to_guest:
                call("guest_receive", to_guest.pop(0), False)
                to_host += out
                out.clear()
            if not to_host:
                call("guest_saved")      # the guest's page saves once it has painted

    moves = 0
    for _ in range(deals):
        timing[0] = False
        call("host_open", "one-deal")
        out.clear()
        call("guest_open", None, None)
        hello = list(out)
        out.clear()
        carry(hello, [])
        timing[0] = True
        done = 0
        while True:
            view = json.loads(friends.host_current())["view"]
            if view["deal_result"] or not timing[0]:     # over: its reveals have begun
                break
            host = view["turn"] == 0
            legal = view["legal"] if host else json.loads(friends.guest_saved())["view"]["legal"]
            action = ("give" if "give" in legal and (not host or done < 40) else "keep" if "keep" in legal
                      else "turn" if "turn" in legal else legal[0])
            call("host_act" if host else "guest_intent", action, *([] if host else [False]))
            sent = list(out)
            out.clear()
            carry([] if host else sent, sent if host else [])
            done += 1
        moves += done
    return {"moves": moves, "calls": {k: [called[k], calls[k]] for k in calls},
            "parts": {k: [counts[k], parts[k]] for k in parts}}
'''


def in_pyodide(deals: int) -> dict:
    import nopeek
    import pyodide_run

    return pyodide_run.in_pyodide(_PY, f"import json; json.dumps(run({deals}))", nopeek._noble(ROOT))


def in_cpython(deals: int) -> dict:
    scope: dict = {}
    exec(_PY, scope)
    return scope["run"](deals)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2, help="one-deal matches played (default 2)")
    parser.add_argument("--cpython", action="store_true", help="in this process (libsodium), not in Pyodide")
    args = parser.parse_args(argv)
    figures = in_cpython(args.deals) if args.cpython else in_pyodide(args.deals)
    moves = figures["moves"]
    where = "CPython (libsodium)" if args.cpython else "Pyodide under Node (@noble/curves)"
    total = sum(s for _, s in figures["calls"].values())
    print(f"Pishe Pasha friends' deals in {where}: {args.deals}, {moves} moves, "
          f"{1000 * total / moves:.2f} ms of Python a move (both pages)")
    for title, rows in (("calls", figures["calls"]), ("parts (inside the calls; they overlap)", figures["parts"])):
        print(f"  {title}:")
        for name, (n, s) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
            print(f"    {name:<30} {n:6d} x {1000 * s / n:7.3f} ms = {1000 * s:8.1f} ms   "
                  f"({1000 * s / moves:.2f} ms a move)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
