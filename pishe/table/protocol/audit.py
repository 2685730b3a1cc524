"""A guest's audit of every deal: what its page gave and was shown, checked against the deal.

A guest page keeps a :class:`DealRecord` of each deal: the host's commitment,
this page's part of the shuffle, the list of parts every seat committed to
before any was revealed, the moves, the steps and boards shown. The checks
here read only such records and the host's data, and say in plain words what
does not hold (``None`` when all does); :class:`~.guest.Guest` decides what a
failure means at the table (not fair, aborted) and shows it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

from ..fair import board_digest, part_commitment, verify_deal
from ..lang import TABLE
from ..said import say
from ..match import Match
from . import wire

__all__ = ["DealRecord", "check_parts", "check_fair", "check_deal", "check_final_board", "check_numbers"]


@dataclass
class DealRecord:
    """What the guest knows of one deal: enough to check it once the seed is revealed."""

    number: int
    commitment: str
    contribution: Optional[str]      # None: this page gave no part of this deal's shuffle
    late: bool = False               # first seen already under way: it cannot be checked
    dealt: bool = False              # a view of it has come
    dealer: Optional[int] = None
    contributions: Optional[list] = None
    actions: list = field(default_factory=list)    # [seat, action text, mark if any]
    shown: list = field(default_factory=list)      # the dealing's steps, then one list per action (None: not shown)
    boards: list = field(default_factory=list)     # [moves, board_digest] of every view shown
    scores: Optional[list] = None    # the match's scores as the deal began, as shown
    problem: Optional[str] = None    # the first thing found wrong with it
    checked: bool = False
    parts: Optional[list] = None     # [[seat, commitment], …]: the parts fixed before any was revealed
    sent: bool = False               # this page revealed its part to the host
    away: bool = False               # dealt without this page's part, while it was away

    _FIELDS = ("number", "commitment", "contribution", "late", "dealt", "dealer", "contributions",
               "actions", "shown", "boards", "scores", "problem", "checked", "parts", "sent", "away")

    def to_json(self) -> dict:
        return {name: getattr(self, name) for name in self._FIELDS}

    @classmethod
    def from_json(cls, data: dict) -> DealRecord:
        return cls(wire.deal_number(data["number"], "number"), wire.secret(data["commitment"], "commitment"),
                   wire.optional(wire.secret)(data["contribution"], "contribution"), bool(data["late"]),
                   bool(data["dealt"]), wire.optional(wire.whole)(data["dealer"], "dealer"),
                   wire.optional(wire.items)(data["contributions"], "contributions"),
                   wire.items(data["actions"], "actions"), wire.items(data["shown"], "shown"),
                   wire.items(data["boards"], "boards"), wire.optional(wire.items)(data["scores"], "scores"),
                   wire.optional(wire.text)(data["problem"], "problem"), bool(data["checked"]),
                   wire.optional(wire.part_list)(data["parts"], "parts"), bool(data["sent"]), bool(data["away"]))


def check_parts(seats: list, seat: int, mine: str, parts: list) -> Optional[str]:
    """The list of committed parts the host fixed (``[[seat, commitment], …]``, seat order,
    checked by :func:`.wire.part_list`) against the table: only seats a friend sits at
    (``seats`` as the host announced them) may add a part (a computer's seat, or the
    host's, would be a part the host chose), and this page's own commitment ``mine``
    must be there at its seat unless this page is not in the list at all."""
    roles = {s["seat"]: s["role"] for s in seats}
    if any(roles.get(s) != "guest" for s, _commitment in parts):
        return say(TABLE, "the host added a part of the shuffle for a seat no friend sits at.")
    theirs = dict(parts).get(seat)
    if theirs is not None and theirs != mine:
        return say(TABLE, "the host replaced your part of the shuffle in the list of parts.")
    return None


def check_fair(game_id: str, match_id: str, record: DealRecord, seat: int, fair: dict) -> tuple:
    """The ``fair`` of a view of ``record``'s deal: ``(contributions, problem)``. Every
    contribution must be the one its seat committed to, the list must be the one fixed
    before this page revealed its part (none added, left out, replaced or reordered), and
    this page's own part must be in it if it revealed one."""
    wire.check(set(fair) == {"commitment", "contributions", "parts"},
               "fair must give commitment, contributions and parts")
    committed = wire.secret(fair["commitment"], "commitment")
    parts = wire.part_list(fair["parts"], "parts")
    contributions = [wire.secret(c, "contribution") for c in wire.items(fair["contributions"], "contributions")]
    wire.check(len(contributions) == len(parts), "fair needs one contribution a part")
    if committed != record.commitment:
        return contributions, say(TABLE, "the host dealt the cards from another seed than the one it committed to.")
    for (s, c), part in zip(parts, contributions):
        if part_commitment(part, game_id, match_id, record.number, s) != c:
            return contributions, say(TABLE, "the part of the shuffle of seat {seat} is not the one it committed to.", seat=s)
    if record.parts is not None and parts != record.parts:
        return contributions, say(TABLE, "the host dealt the cards from another list of parts of the shuffle than "
                                 "the one it fixed before you revealed yours.")
    if record.sent and [seat, record.contribution] not in [[s, p] for (s, _commitment), p in zip(parts, contributions)]:
        return contributions, say(TABLE, "the host dealt the cards without using your part of the shuffle.")
    return contributions, None


def check_deal(game, record: DealRecord, seed: str, seat: int, table: dict):
    """Replay ``record``'s deal from the revealed ``seed`` (see :func:`~pishe.table.fair.verify_deal`);
    ``table`` is ``{"length", "results", "names"}``. Returns the replayed state; raises
    :class:`~pishe.table.fair.DealVerificationError` saying what does not hold."""
    state = verify_deal(game, record.commitment, seed, record.contributions, record.dealer,
                        record.actions, record.shown, seat, record.boards, table)
    return state


def check_final_board(record: DealRecord, view: dict, new: list) -> Optional[str]:
    """A view of a deal already checked: no ``new`` move, and the very board it was checked with."""
    if new or (record.boards and board_digest(view) != record.boards[-1][1]):
        return say(TABLE, "after the deal was checked, the host showed you another table for it.")
    return None


def _shape(data, path: tuple, out: dict) -> dict:
    """The types found at each place of JSON ``data`` (a list's items share one place, ``*``)."""
    if isinstance(data, dict):
        for key, value in data.items():
            _shape(value, (*path, key), out)
    elif isinstance(data, list):
        for value in data:
            _shape(value, (*path, "*"), out)
    else:
        out.setdefault(path, set()).add(type(data).__name__)
    return out


@lru_cache(maxsize=None)
def _numbers(game, seat: int) -> tuple:
    """Where the game's own views and steps for ``seat`` hold numbers: the places of a view,
    and of a step by its kind, at which a few whole deals played here (every move drawn at
    random, a board every few moves) only ever held whole numbers (or nothing)."""
    views, steps = {}, {}
    for number in range(3):
        rng = random.Random(number)
        match = Match(game, game.default_length, rng=rng)
        groups = [list(game.deal_steps(match.deal))]
        for moves in range(10 ** 4):
            if moves % 5 == 0 or match.deal.over:      # a view every few moves is enough to see
                _shape(game.view(match, seat).to_json(), (), views)
            for group in groups:
                for step in group:
                    shown = game.show_step(step, seat)
                    if isinstance(shown, dict) and isinstance(shown.get("kind"), str):
                        _shape(shown, (shown["kind"],), steps)
            if match.deal.over:
                break
            groups = [match.apply(rng.choice(list(match.deal.legal_actions())), match.deal.turn)]
    def whole(shapes: dict) -> set:
        return {p for p, kinds in shapes.items() if "int" in kinds and kinds <= {"int", "NoneType"}}

    return whole(views), whole(steps)


def check_numbers(game, seat: int, view: dict, groups: list) -> Optional[str]:
    """Whether every number of a host's ``view`` and steps (``groups``: lists of steps, or
    ``None``) is a number where the game's own views and steps only hold numbers: a count or
    a score the guest's page words itself must not carry the host's text ("Your stock:
    Deal 1 verified cards"). Returns the first place that is not, in words, or ``None``."""
    view_places, step_places = _numbers(game, seat)
    for path, kinds in _shape(view, (), {}).items():
        if path in view_places and not kinds <= {"int", "NoneType"}:
            return "the view's " + ".".join(str(p) for p in path) + " must be a number"
    for group in groups:
        for step in group or ():
            if isinstance(step, dict) and isinstance(step.get("kind"), str):
                for path, kinds in _shape(step, (step["kind"],), {}).items():
                    if path in step_places and not kinds <= {"int", "NoneType"}:
                        return "a step's " + ".".join(str(p) for p in path) + " must be a number"
    return None
