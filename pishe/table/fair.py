"""The provably fair deal: a deck no page controls alone, checked afterwards.

The host draws a secret **seed** and publishes its **commitment** (a hash of
it) before any guest sends its own random **contribution**; the deck is then
derived from the seed and every guest's contribution, so the host cannot pick
the deck after seeing the contributions and no guest can aim at a deck it
cannot see. When the deal is over the host reveals the seed and each guest
checks it with :func:`verify_deal`: the seed matches the commitment, and
replaying the deal's actions from the derived deck shows that guest exactly
the steps it was shown, and the very boards (its seat's views, compared by
:func:`board_digest`). Nothing here knows the rules of a game: the replay
goes through the game's own ``new_deal``, ``apply``, ``show_step`` and ``view``.

The procedure is plain SHA-256 over ASCII text, so any language can redo it
(``docs/PROTOCOL.md`` has a JavaScript version and test vectors); ``GAME`` is
the game's id (``pishe-pasha``, ``pisti``):

1. seed and contributions are 32 bytes, written as 64 lowercase hex digits;
2. commitment = hex SHA-256 of ``GAME + ":commit:v1:" + seed``;
3. block *i* (*i* = 0, 1, 2, …) = SHA-256 of
   ``GAME + ":deck:v1:" + seed + ":" + contribution + ":" + str(i)``
   (one ``":" + contribution`` per contribution, in seat order); the blocks
   in a row are a stream of bytes, read 4 at a time as big-endian unsigned
   32-bit numbers *u*;
4. a uniform integer below *n*: the first *u* below ``2**32 - 2**32 % n``,
   taken modulo *n* (a larger *u* is dropped and the next one drawn);
5. Fisher–Yates: start from :data:`pishe.cards.DECK` (clubs A…K, diamonds,
   hearts, spades) and for *i* from 51 down to 1 swap card *i* with card *j*,
   *j* uniform below *i* + 1. The result is the deck, bottom to top, which
   the game deals as its rules say (Pishe Pasha: seat 0's stock is cards 0
   to 25, seat 1's cards 26 to 51; Pişti deals from the top, card 51).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Iterator, Optional, Sequence

from ..cards import DECK, Card
from ..errors import IllegalActionError, PisheError
from .lang import TABLE
from .said import of_error, say, steps as said_steps
from .match import Match

__all__ = [
    "SECRET_BYTES", "InvalidSecretError", "DealVerificationError",
    "new_secret", "check_secret", "commitment", "part_commitment", "shuffled", "derive_deck", "replay", "shown_steps", "board_digest",
    "verify_deal", "verify_play",
]

#: Length of a seed or a contribution in bytes (64 hex digits).
SECRET_BYTES = 32

_HEX = re.compile(f"[0-9a-f]{{{2 * SECRET_BYTES}}}")
_TWO_32 = 1 << 32


class InvalidSecretError(PisheError, ValueError):
    """A seed or contribution that is not 64 lowercase hex digits."""


class DealVerificationError(PisheError):
    """The revealed seed does not account for the deal the guest was shown.

    The message says what does not match, in plain words.
    """


def new_secret(rng: Optional[random.Random] = None) -> str:
    """A fresh seed or contribution: 32 random bytes as 64 hex digits.

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


def commitment(seed: str, game_id: str = "pishe-pasha") -> str:
    """The commitment to ``seed``: hex SHA-256 of ``game_id + ":commit:v1:" + seed``."""
    check_secret(seed, "seed")
    return hashlib.sha256(f"{game_id}:commit:v1:{seed}".encode("ascii")).hexdigest()


def part_commitment(part: str, game_id: str, match_id: str, deal: int, seat: int) -> str:
    """A guest's commitment to its ``part`` of deal ``deal``'s shuffle, for ``seat`` in match
    ``match_id``: hex SHA-256 of ``game_id + ":part:v1:" + match_id + ":" + deal + ":" + seat
    + ":" + part``. Sent before any seat's part is seen, so no seat (a host sitting at a
    guest seat of its own included) can choose its part after seeing another's."""
    check_secret(part, "contribution")
    return hashlib.sha256(f"{game_id}:part:v1:{match_id}:{deal}:{seat}:{part}".encode("ascii")).hexdigest()


def _words(prefix: str) -> Iterator[int]:
    """The stream of big-endian 32-bit numbers, SHA-256 in counter mode."""
    counter = 0
    while True:
        block = hashlib.sha256(f"{prefix}{counter}".encode("ascii")).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def shuffled(items: Sequence, prefix: str) -> list:
    """``items`` in a new order, Fisher–Yates (steps 4 and 5 above) on the stream of
    ``prefix`` (the text before each block's counter): the one shuffle of the table's
    deals, today's and the no-peek deal's seats' own (:mod:`pishe.table.nopeek`)."""
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


def derive_deck(seed: str, contributions: Sequence[str], game_id: str = "pishe-pasha") -> list[Card]:
    """The deck (bottom to top) fixed by ``seed`` and the guests' ``contributions`` (in seat
    order; none when no guest was at the table to shuffle with: the host's deck alone)."""
    check_secret(seed, "seed")
    if isinstance(contributions, str):
        raise InvalidSecretError("contributions must be a list of hex texts")
    for c in contributions:
        check_secret(c, "contribution")
    return shuffled(DECK, f"{game_id}:deck:v1:{seed}" + "".join(":" + c for c in contributions) + ":")


def replay(game, deck: Sequence[Card], dealer: int, actions: Sequence) -> tuple:
    """The deal ``game`` deals from ``deck`` with ``dealer``, after ``actions``
    (``[seat, action text]``, with the log's mark after them if any): ``(state,
    steps)``, ``steps`` holding the dealing's steps first, then one list per action.
    Raises the game's :class:`~pishe.errors.IllegalActionError` at the first action
    it refuses."""
    state = game.new_deal(list(deck), dealer)
    steps = [list(game.deal_steps(state))]
    for seat, text, *_mark in actions:
        steps.append(state.apply(game.parse_action(text), seat))
    return state, steps


def shown_steps(game, steps: Sequence, seat: int) -> list:
    """``steps`` (as :func:`replay` groups them) as ``seat`` was shown them: one list per group."""
    return [[shown for shown in (game.show_step(s, seat) for s in group) if shown is not None]
            for group in steps]


def board_digest(view: dict) -> str:
    """A short fingerprint of a seat's view as JSON data: what a guest keeps of every board
    it was shown, to compare with the replayed deal's once the seed is revealed."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def verify_deal(game, commitment_hex: str, seed: str, contributions: Sequence[str], dealer: int,
                actions: Sequence, shown: Sequence, seat: int, boards: Sequence = (),
                match: Optional[dict] = None):
    """Check a finished deal of ``game`` against the seed revealed after it.

    ``commitment_hex`` is the commitment received before contributing,
    ``contributions`` every guest's part in seat order, ``dealer`` the seat
    that dealt, ``actions`` every action of the deal (``[seat, text]``, a mark
    after them allowed) and ``shown`` what ``seat`` was shown: the dealing's
    steps, then one list of steps per action, each step as the game's
    ``show_step`` gave it (``None`` for a move whose steps it was not shown, played while
    it was away: the move is still replayed). ``boards`` are ``[moves, digest]`` pairs: the
    :func:`board_digest` of the seat's view as shown after that many moves;
    checking them needs ``match``, ``{"length", "results", "names"}``: the
    match's length, each earlier deal's points by team and the seats' names
    the views were made with. The deal is replayed from the derived deck;
    every step and board must come out the same and the deal must be over
    at the end.

    Returns the replayed deal's state when all of it holds; raises
    :class:`DealVerificationError` saying what does not (and
    :class:`InvalidSecretError` for a malformed seed).
    """
    if commitment(seed, game.id) != commitment_hex:
        raise DealVerificationError(say(TABLE, "The revealed seed does not match the commitment the host made "
                                      "before you sent your part of the shuffle."))
    return verify_play(game, derive_deck(seed, contributions, game.id), dealer, actions, shown, seat,
                       boards, match)


def verify_play(game, deck: Sequence[Card], dealer: int, actions: Sequence, shown: Sequence, seat: int,
                boards: Sequence = (), match: Optional[dict] = None):
    """The second half of :func:`verify_deal`, for a ``deck`` already known to be the deal's
    (derived from the revealed seed, or opened by the no-peek deal's end check): every move
    replayed through the game's rules, every step and board ``seat`` was shown compared.
    Returns the replayed state; raises :class:`DealVerificationError`."""
    if len(shown) != len(actions) + 1:
        raise DealVerificationError(say(TABLE, "The moves you were shown do not match the steps you were shown."))
    # Move by move, so that what is reported is the first thing that differs (a card that
    # differs soon makes a later move impossible, which would hide the card).
    replayed = None
    if match is None:
        state = game.new_deal(list(deck), dealer)
    else:
        replayed = Match.resume(game, match["length"], match["results"], deck)
        state = replayed.deal
    boards = sorted(boards)
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
        if mine is None:        # a move played while this page was away: replayed, its steps not shown
            mine = theirs
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
        _check_boards(game, replayed, seat, match, [d for n, d in boards if n == k], k)
    if not state.over:
        raise DealVerificationError(say(TABLE, "The deal you were shown stops before it was over."))
    return state


def _check_boards(game, replayed, seat: int, match, digests: list, moves: int) -> None:
    """The boards shown after ``moves`` moves against the replayed match's view of ``seat``."""
    if not digests:
        return
    if replayed is None:
        raise ValueError("checking the boards needs the match they were shown in")
    should = board_digest(game.view(replayed, seat, match["names"]).to_json())
    if any(d != should for d in digests):
        raise DealVerificationError(
            say(TABLE, "The table you were shown before the first move (its cards, counts, turn, buttons or scores) "
              "is not the one the deal fixed at the start gives.") if moves == 0
            else say(TABLE, "The table you were shown after move {move} (its cards, counts, turn, buttons or scores) "
                   "is not the one the deal fixed at the start gives.", move=moves))


def _words_of(game, shown, seat: int) -> str:
    try:
        return said_steps(game, [shown], seat)[0]
    except PisheError:
        return str(shown)[:80]
