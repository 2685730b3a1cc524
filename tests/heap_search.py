"""The host's page's memory, searched for the open forms of cards: run as a program, the host
alone in its own interpreter, as the page's worker runs alone in its tab.

It reads (stdin, JSON) a list of tables: each one's settings and every call the test made on
its ``Host``. It imports every module the page may use and notes what each object then holds
(the public tables made at import: the interned cards, ``DECK``, the games' tables of every
card; the cards' points). For each table, in a process forked for it (the same heap to begin
with), it makes that host again and replays the calls (the host is deterministic in its
generator, its match id and what it was sent): that process holds the host's page and
nothing of any other page's, and knows no deck. Then it walks every object the garbage
collector tracks and every object each of them refers to (the host's objects, every
module's, any cache) and reports, by card, where it found one in an open form that no object
held before the host was made:

- the card itself (a reference to its one ``Card`` object), except in the engine's deck and
  state, which it checks to be the stand-ins the host page's knowledge alone fixes (a fresh
  engine given only the cards opened to it plays the same deck and state);
- its text ("7H");
- its point (the 32 bytes it is locked from) or the point's hex.

``plant`` (a card's text, or ``null``) leaves one copy of each form in a module-level list
first: the test's proof that the search finds what it looks for. It prints a line a table,
``{"save", "found": {card: [form, …]}, "known": [card, …], "openable": [card, …]}``
(``known``: the cards opened to the host's page's engine; ``openable``: those its keys open).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import pkgutil
import random
import sys
import traceback
import types
from typing import Optional

_LEAK: list = []        # where ``plant`` puts its copies (a module-level cache, as a leak could)


def _fields(value) -> Optional[dict]:
    """A game's own object's fields (its ``__dict__`` or slots), or ``None`` for anything else."""
    if isinstance(value, type) or not type(value).__module__.startswith("pishe.games"):
        return None
    if hasattr(value, "__dict__"):
        return value.__dict__
    slots = [n for k in type(value).__mro__ for n in getattr(k, "__slots__", ())]
    return {n: getattr(value, n) for n in slots if hasattr(value, n)} if slots else None


def _dump(value):
    """A comparable dump of an engine's state (its cards by text)."""
    from pishe.cards import Card

    if isinstance(value, Card):
        return str(value)
    if isinstance(value, dict):
        return {repr(_dump(k)): _dump(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_dump(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    fields = _fields(value)
    if fields is not None:
        return {type(value).__name__: _dump(fields)}
    return value if isinstance(value, (int, str, bool, type(None))) else repr(value)


def _engine_objects(roots) -> set:
    """The ids of the containers that make up the engine's deck and state (lists, dicts,
    the games' own state objects), not what they refer to beyond (the game, modules)."""
    ids, todo = set(), list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in ids:
            continue
        fields = _fields(obj)
        if not (isinstance(obj, (list, tuple, dict, set, frozenset)) or fields is not None):
            continue
        ids.add(id(obj))
        if fields is not None:
            if hasattr(obj, "__dict__"):
                ids.add(id(obj.__dict__))
            todo.extend(fields.values())
        elif isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        else:
            todo.extend(obj)
    return ids


def main() -> None:
    tables = json.loads(sys.stdin.read())
    import pishe.games
    import pishe.table
    from pishe.cards import DECK, Card
    from pishe.table.group import group
    from pishe.table.nopeek import card_points

    # Every module the page may use, imported first: their tables are public (made at import).
    for package in (pishe.table, pishe.games):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith(".cli"):
                importlib.import_module(module.name)
    texts = {str(c): str(c) for c in DECK}
    by_point = {}                           # public: any page computes them
    for game_id in {table["game"] for table in tables}:
        by_point.update(zip(card_points(group(), game_id), texts))

    def forms(holder):
        """``(card, form, id)`` of each open form of a card ``holder`` refers to."""
        for obj in gc.get_referents(holder):
            kind = type(obj)
            if kind is Card:
                yield str(obj), "card", id(obj)
            elif kind is str and obj in texts:
                yield obj, "text", id(obj)
            elif kind is str and len(obj) == 64:
                try:
                    point = bytes.fromhex(obj)
                except ValueError:
                    continue
                if point in by_point:
                    yield by_point[point], "hex", id(obj)
            elif kind is bytes and len(obj) == 32 and obj in by_point:
                yield by_point[obj], "point", id(obj)

    # What this interpreter holds before any host exists (the modules' public tables: the
    # interned cards, DECK, the games' tables of every card, the points): each holder with
    # the very objects it held then. Pinned, so that no new object takes an old one's id.
    gc.collect()
    pinned = gc.get_objects()
    baseline = {id(h): {i for _card, _form, i in forms(h)} for h in pinned}
    mine = {id(pinned), id(baseline), id(texts), id(by_point)}

    # Each table's host in a process of its own, forked from this one: the same heap to begin
    # with, and nothing of the other host's.
    for at in range(len(tables)):
        child = os.fork()
        if child == 0:
            try:
                box = [tables[at]]
                tables.clear()
                _search(box, forms, baseline, mine)
            except BaseException:
                traceback.print_exc()
                os._exit(1)
            sys.stdout.flush()
            os._exit(0)
        _pid, status = os.waitpid(child, 0)
        if status != 0:
            sys.exit(1)


def _search(box: list, forms, baseline: dict, mine: set) -> None:
    """Make the host of the table in ``box`` again, search the heap, print what was found."""
    from pishe.cards import DECK
    from pishe.table.group import group
    from pishe.table.nopeek import card_points
    from pishe.table.nopeek_seat import NoPeekSeat
    from pishe.table.partial import PartialDeal
    from pishe.table.protocol import Host

    data = box.pop()
    points = card_points(group(), data["game"])
    host = Host(data["game"], data["length"], random.Random(data["seed"]), data["guest_seats"])
    host.match_id = data["match_id"]
    for name, *args in data["calls"]:
        getattr(host, name)(*args)
    if data["plant"] is not None:
        at = [str(c) for c in DECK].index(data["plant"])
        _LEAK.extend([points[at][:16] + points[at][16:], points[at].hex(), "".join(list(data["plant"])), DECK[at]])
    del data
    gc.collect()
    # The host page's engine, found as any object is: the one PartialDeal in the heap. Its deck
    # and state must be those a fresh engine given only the cards opened to it plays.
    (partial,) = [o for o in gc.get_objects() if type(o) is PartialDeal]
    fresh = PartialDeal(host.game, partial.dealer)
    for position, card in partial.known.items():
        fresh.learn(position, card)
    fresh.actions = [list(a) for a in partial.actions]
    assert fresh.deck() == partial.deck() and _dump(fresh.state) == _dump(partial.state), \
        "the engine's deck is not the stand-ins of what the page knows"
    del fresh
    engine = _engine_objects([partial.deck(), partial.state])
    mine |= {id(engine)}
    gc.collect()
    found: dict = {}
    for holder in gc.get_objects():
        if id(holder) in mine or isinstance(holder, (types.FrameType, types.CodeType)):
            continue
        held = baseline.get(id(holder), ())
        for card, form, i in forms(holder):
            if i not in held and not (form == "card" and id(holder) in engine):
                found.setdefault(card, set()).add(form)
    # Last (opening changes what the page holds): which cards its keys open now.
    (seat,) = [o for o in gc.get_objects() if type(o) is NoPeekSeat]
    openable = [str(card) for card in map(seat.dealing.open, range(len(DECK))) if card is not None]
    print(json.dumps({"save": host.save(), "found": {c: sorted(f) for c, f in found.items()},
                      "known": [str(c) for c in partial.known.values()], "openable": openable}))


if __name__ == "__main__":
    main()
