"""What every deal's check shares: secrets, the one shuffle, and the replay of a deal.

A no-peek deal (:mod:`pishe.table.nopeek`) ends with every page's secret revealed; each
page then opens the whole deck and replays the deal through the game's own rules
(:func:`verify_play`): every move must be possible in the deck fixed at the start, and
every step it was shown must be that deal's. Nothing here knows the rules of a game: the
replay goes through the game's own ``new_deal``, ``apply`` and ``show_step``.

The shuffle is plain SHA-256 over ASCII text, so any language can redo it
(``docs/PROTOCOL.md`` has test vectors):

1. secrets are 32 bytes, written as 64 lowercase hex digits;
2. block *i* (*i* = 0, 1, 2, …) = SHA-256 of ``prefix + str(i)``; the blocks in a row are
   a stream of bytes, read 4 at a time as big-endian unsigned 32-bit numbers *u*;
3. a uniform integer below *n*: the first *u* below ``2**32 - 2**32 % n``, taken modulo
   *n* (a larger *u* is dropped and the next one drawn);
4. Fisher–Yates: for *i* from the last index down to 1 swap item *i* with item *j*, *j*
   uniform below *i* + 1.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Iterator, Optional, Sequence

from ..cards import Card
from ..errors import IllegalActionError, PisheError
from .lang import TABLE
from .said import of_error, say, steps as said_steps

__all__ = [
    "SECRET_BYTES", "InvalidSecretError", "DealVerificationError",
    "new_secret", "check_secret", "shuffled", "replay", "shown_steps", "verify_play",
]

#: Length of a secret in bytes (64 hex digits).
SECRET_BYTES = 32

_HEX = re.compile(f"[0-9a-f]{{{2 * SECRET_BYTES}}}")
_TWO_32 = 1 << 32


class InvalidSecretError(PisheError, ValueError):
    """A secret that is not 64 lowercase hex digits."""


class DealVerificationError(PisheError):
    """The deck opened at the end does not account for the deal the page was shown.

    The message says what does not match, in plain words.
    """


def new_secret(rng: Optional[random.Random] = None) -> str:
    """A fresh secret: 32 random bytes as 64 hex digits.

    ``rng`` defaults to the system's cryptographic source; pass a seeded
    :class:`random.Random` only for repeatable tests.
    """
    rng = rng if rng is not None else random.SystemRandom()
    return rng.randbytes(SECRET_BYTES).hex()


def check_secret(value, name: str = "secret") -> str:
    """Return ``value`` if it is 64 lowercase hex digits; else raise :class:`InvalidSecretError`."""
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise InvalidSecretError(f"the {name} must be {2 * SECRET_BYTES} lowercase hex digits")
    return value


def _words(prefix: str) -> Iterator[int]:
    """The stream of big-endian 32-bit numbers, SHA-256 in counter mode."""
    counter = 0
    while True:
        block = hashlib.sha256(f"{prefix}{counter}".encode("ascii")).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def shuffled(items: Sequence, prefix: str) -> list:
    """``items`` in a new order, Fisher–Yates (steps 3 and 4 above) on the stream of
    ``prefix`` (the text before each block's counter): the one shuffle of the table, each
    no-peek seat's own (:mod:`pishe.table.nopeek`)."""
    words = _words(prefix)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _TWO_32 - _TWO_32 % n
        u = next(words)
        while u >= limit:
            u = next(words)
        j = u % n
        out[i], out[j] = out[j], out[i]
    return out


def replay(game, deck: Sequence[Card], dealer: int, actions: Sequence, *, open_deck: bool = True) -> tuple:
    """The deal ``game`` deals from ``deck`` with ``dealer``, after ``actions``
    (``[seat, action text]``, with the log's mark after them if any): ``(state,
    steps)``, ``steps`` holding the dealing's steps first, then one list per action.
    Raises the game's :class:`~pishe.errors.IllegalActionError` at the first action
    it refuses. ``open_deck=False``: ``deck`` holds stand-ins for cards not opened yet, so
    only the rules a page can check are (``Game.replay``)."""
    state = game.new_deal(list(deck), dealer)
    steps = [list(game.deal_steps(state))]
    for seat, text, *_mark in actions:
        action = game.parse_action(text)
        steps.append(state.apply(action, seat) if open_deck else game.replay(state, action, seat))
    return state, steps


def first_refused(game, deck: Sequence[Card], dealer: int, actions: Sequence) -> Optional[int]:
    """The seat whose move of ``actions`` the rules of ``game`` refuse first on ``deck`` (every
    card open: a following rule that rests on a hand no other page saw), or ``None``."""
    state = game.new_deal(list(deck), dealer)
    for seat, text, *_mark in actions:
        try:
            state.apply(game.parse_action(text), seat)
        except IllegalActionError:
            return seat
    return None


def shown_steps(game, steps: Sequence, seat: int) -> list:
    """``steps`` (as :func:`replay` groups them) as ``seat`` was shown them: one list per group."""
    return [[shown for shown in (game.show_step(s, seat) for s in group) if shown is not None]
            for group in steps]


def verify_play(game, deck: Sequence[Card], dealer: int, actions: Sequence, shown: Sequence, seat: int):
    """Check a finished deal of ``game`` dealt from ``deck`` (opened by the no-peek deal's end
    check) by ``dealer``: every move of ``actions`` (``[seat, text]``, a mark after them
    allowed) replayed through the game's rules, and every step ``seat`` was ``shown`` (the
    dealing's, then one list per move, as the game's ``show_step`` gave them) compared.
    Returns the replayed state; raises :class:`DealVerificationError` saying what does not hold."""
    if len(shown) != len(actions) + 1:
        raise DealVerificationError(say(TABLE, "The moves you were shown do not match the steps you were shown."))
    # Move by move, so that what is reported is the first thing that differs (a card that
    # differs soon makes a later move impossible, which would hide the card).
    state = game.new_deal(list(deck), dealer)
    for k, mine in enumerate(shown):
        if k == 0:
            group = game.deal_steps(state)
        else:
            mover, text, *_mark = actions[k - 1]
            try:
                group = state.apply(game.parse_action(text), mover)
            except IllegalActionError as e:
                raise DealVerificationError(say(TABLE, "A move you were shown is not possible in the deal fixed at "
                                              "the start: {error}", error=of_error(e))) from None
        (theirs,) = shown_steps(game, [group], seat)
        for was, should in zip(mine, theirs):
            if was != should:
                raise DealVerificationError(
                    say(TABLE, "You were shown {shown!r}, but the deal fixed at the start gives {should!r}.",
                        shown=_words_of(game, was, seat), should=_words_of(game, should, seat)))
        if len(mine) != len(theirs):
            raise DealVerificationError(
                say(TABLE, "The steps of the deal you were shown are not those of the deal fixed at the start.")
                if k == 0 else say(TABLE, "The steps of move {move} you were shown are not those of the deal fixed "
                                 "at the start.", move=k))
    if not state.over:
        raise DealVerificationError(say(TABLE, "The deal you were shown stops before it was over."))
    return state


def _words_of(game, shown, seat: int) -> str:
    try:
        return said_steps(game, [shown], seat)[0]
    except PisheError:
        return str(shown)[:80]
