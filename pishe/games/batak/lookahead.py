"""Playing a Batak deal out on card codes (:data:`.deal.CODE`) with every hand known: the baseline's
rule for every seat (:func:`play_out`), or one seat's best plays against the baseline's rule for the
others (:func:`best_values`), the Hard computer's look-ahead in each deal it samples.

Both run through the rules' own fast paths (:func:`.deal.legal_codes`, :func:`.deal.winning_code`).
"""

from __future__ import annotations

from typing import Callable

from ...cards import DECK
from .deal import CODE, legal_codes, winning_code

__all__ = ["ALL", "play_out", "best_values", "bits"]

#: Every card's code, in order.
ALL = sorted(CODE[c] for c in DECK)
#: For each code, the bits (1 << code) of the higher cards of its suit.
_ABOVE = {c: sum(1 << d for d in ALL if d & 3 == c & 3 and d > c) for c in ALL}


def bits(codes) -> int:
    """The bits (1 << code) of ``codes``."""
    found = 0
    for c in codes:
        found |= 1 << c
    return found


def _baseline_lead(hand: list, trump: int, seen: int) -> int:
    """The baseline's lead on codes (see :func:`.baseline.baseline_lead`); ``seen``: the bits of
    the cards played so far."""
    others = [c for c in hand if c & 3 != trump]
    if not others:
        return hand[0]
    mine = seen
    for c in hand:
        mine |= 1 << c
    for c in others:
        if not _ABOVE[c] & ~mine:
            return c
    lengths = [0, 0, 0, 0]
    for c in others:
        lengths[c & 3] += 1
    suit = lengths.index(max(lengths))
    for c in others:
        if c & 3 == suit:
            return c
    raise AssertionError("no lead")


def _baseline_follow(legal: list, trick: list, trump: int) -> int:
    """The baseline's follow on codes (see :func:`.baseline.baseline_follow`)."""
    n = len(trick)
    for c in legal:
        if winning_code([*trick, c], trump) == n:
            return c
    return legal[0]


def _baseline_card(hand: list, trick: list, trump: int, broken: bool, seen: int) -> int:
    """The baseline's card from ``hand`` (sorted codes) to ``trick``."""
    if not trick:
        return _baseline_lead(hand, trump, seen)
    legal = legal_codes(hand, trick, trump, broken)
    return legal[0] if len(legal) == 1 else _baseline_follow(legal, trick, trump)


def play_out(hands: list, trick: list, leader: int, trump: int, broken: bool, tricks: list, seen: int) -> list:
    """Play a deal to its end with the baseline's rule for every seat, on codes: ``hands`` by seat
    (sorted lists, changed in place), ``trick`` the codes played to the trick in play, led by
    ``leader``, ``tricks`` each seat's tricks so far (changed in place), ``seen`` the bits of the
    cards played before. Returns ``tricks``."""
    seat = (leader + len(trick)) % 4
    trick = list(trick)
    while hands[seat]:
        hand = hands[seat]
        card = _baseline_card(hand, trick, trump, broken, seen)
        hand.remove(card)
        trick.append(card)
        seen |= 1 << card
        if card & 3 == trump:
            broken = True
        if len(trick) == 4:
            leader = (seat + 1) % 4
            seat = (leader + winning_code(trick, trump)) % 4
            tricks[seat] += 1
            trick = []
        else:
            seat = (seat + 1) % 4
    return tricks


def _distinct(legal: list, hand: list, seen: int) -> list:
    """``legal`` (sorted codes) less the cards that play alike: of a run of a suit's cards with
    nothing between them but cards of ``hand`` or played ones (``seen``), the lowest. (A card of
    the trick in play between two of them leaves both losing to it, or both unable to follow.)"""
    kept: list = []
    held = seen | bits(hand)
    for c in legal:
        if kept:
            last = kept[-1]
            if last & 3 == c & 3 and all(held >> d & 1 for d in range(last + 4, c, 4)):
                continue
        kept.append(c)
    return kept


def best_values(hands: list, trick: list, leader: int, trump: int, broken: bool, tricks: list, seen: int,
                me: int, value: Callable[[list], float]) -> dict:
    """For each card ``me`` may play now (it is ``me``'s turn), the best ``value(tricks)`` of the deal's
    end that ``me`` can reach by its later plays, the other seats playing the baseline's way; the
    position as for :func:`play_out` (nothing is changed). Of cards that play alike
    (:func:`_distinct`), only the lowest is given."""
    hand = hands[me]
    return {c: _after(hands, trick, leader, trump, broken, tricks, seen, me, value, c)
            for c in _distinct(legal_codes(hand, trick, trump, broken), hand, seen)}


def _after(hands: list, trick: list, leader: int, trump: int, broken: bool, tricks: list, seen: int, me: int,
           value: Callable[[list], float], card: int) -> float:
    """The best value ``me`` can reach after playing ``card`` now."""
    hands = [h[:] for h in hands]
    tricks = list(tricks)
    hands[me].remove(card)
    trick = [*trick, card]
    seen |= 1 << card
    broken = broken or card & 3 == trump
    seat = me
    while True:
        if len(trick) == 4:
            leader = (seat + 1) % 4
            seat = (leader + winning_code(trick, trump)) % 4
            tricks[seat] += 1
            trick = []
        else:
            seat = (seat + 1) % 4
        hand = hands[seat]
        if not hand:
            return value(tricks)
        if seat == me:
            legal = legal_codes(hand, trick, trump, broken)
            if len(legal) > 1:
                return max(_after(hands, trick, leader, trump, broken, tricks, seen, me, value, c)
                           for c in _distinct(legal, hand, seen))
            card = legal[0]
        else:
            card = _baseline_card(hand, trick, trump, broken, seen)
        hand.remove(card)
        trick.append(card)
        seen |= 1 << card
        if card & 3 == trump:
            broken = True
