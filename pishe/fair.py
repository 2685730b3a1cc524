"""The provably fair deal: a deck neither seat controls alone, checked afterwards.

The host draws a secret **seed** and publishes its **commitment** (a hash of
it) before the guest sends its own random **contribution**; the deck is then
derived from both, so the host cannot pick the deck after seeing the
contribution and the guest cannot aim at a deck it cannot see. When the deal
is over the host reveals the seed and the guest checks it with
:func:`verify_deal`: the seed matches the commitment, and replaying the deal
from the derived stocks gives exactly the steps the guest was shown.

The procedure is plain SHA-256 over ASCII text, so any language can redo it
(``docs/PROTOCOL.md`` has a JavaScript version and test vectors):

1. seed and contributions are 32 bytes, written as 64 lowercase hex digits;
2. commitment = hex SHA-256 of ``"pishe-pasha:commit:v1:" + seed``;
3. block *i* (*i* = 0, 1, 2, …) = SHA-256 of
   ``"pishe-pasha:deck:v1:" + seed + ":" + contribution + ":" + str(i)``
   (one ``":" + contribution`` per contribution, in seat order); the blocks
   in a row are a stream of bytes, read 4 at a time as big-endian unsigned
   32-bit numbers *u*;
4. a uniform integer below *n*: the first *u* below ``2**32 - 2**32 % n``,
   taken modulo *n* (a larger *u* is dropped and the next one drawn);
5. Fisher–Yates: start from :data:`pishe.cards.DECK` (clubs A…K, diamonds,
   hearts, spades) and for *i* from 51 down to 1 swap card *i* with card *j*,
   *j* uniform below *i* + 1;
6. seat *s* gets cards ``26*s`` to ``26*s + 25`` as its stock, bottom to top
   (so seat 0 turns card 25 first, seat 1 card 51).
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Iterator, Optional, Sequence

from .cards import DECK, Card
from .deal import GIVE, GIVE_STEP, KEEP, KEPT, RECYCLE, SEATS, TURN, TURNED, Deal, Step
from .errors import IllegalActionError, PisheError

__all__ = [
    "SECRET_BYTES", "InvalidSecretError", "DealVerificationError",
    "new_secret", "check_secret", "commitment", "derive_deck", "derive_stocks", "verify_deal",
]

#: Length of a seed or a contribution in bytes (64 hex digits).
SECRET_BYTES = 32

_COMMIT_PREFIX = "pishe-pasha:commit:v1:"
_DECK_PREFIX = "pishe-pasha:deck:v1:"
_HEX = re.compile(f"[0-9a-f]{{{2 * SECRET_BYTES}}}")
_TWO_32 = 1 << 32
_STOCK_SIZE = len(DECK) // len(SEATS)

# The action a step starts, for each kind of step an action can start.
_ACTION_OF = {TURNED: TURN, RECYCLE: TURN, GIVE_STEP: GIVE, KEPT: KEEP}


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


def commitment(seed: str) -> str:
    """The commitment to ``seed``: hex SHA-256 of ``"pishe-pasha:commit:v1:" + seed``."""
    check_secret(seed, "seed")
    return hashlib.sha256((_COMMIT_PREFIX + seed).encode("ascii")).hexdigest()


def _words(seed: str, contributions: Sequence[str]) -> Iterator[int]:
    """The stream of big-endian 32-bit numbers, SHA-256 in counter mode."""
    prefix = _DECK_PREFIX + seed + "".join(":" + c for c in contributions) + ":"
    counter = 0
    while True:
        block = hashlib.sha256(f"{prefix}{counter}".encode("ascii")).digest()
        for i in range(0, len(block), 4):
            yield int.from_bytes(block[i:i + 4], "big")
        counter += 1


def derive_deck(seed: str, contributions: Sequence[str]) -> list[Card]:
    """The deck fixed by ``seed`` and the guests' ``contributions`` (in seat order)."""
    check_secret(seed, "seed")
    if isinstance(contributions, str) or not contributions:
        raise InvalidSecretError("contributions must be a non-empty list of hex texts")
    for c in contributions:
        check_secret(c, "contribution")
    return _shuffle(_words(seed, contributions))


def _shuffle(words: Iterator[int]) -> list[Card]:
    """Fisher–Yates over :data:`DECK`, each swap drawn from ``words`` by rejection sampling."""
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = _TWO_32 - _TWO_32 % n
        u = next(words)
        while u >= limit:
            u = next(words)
        j = u % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def derive_stocks(seed: str, contributions: Sequence[str]) -> list[list[Card]]:
    """The stocks (bottom to top, one per seat) fixed by ``seed`` and ``contributions``."""
    deck = derive_deck(seed, contributions)
    return [deck[_STOCK_SIZE * s:_STOCK_SIZE * (s + 1)] for s in SEATS]


def verify_deal(commitment_hex: str, seed: str, contributions: Sequence[str],
                leader: int, steps: Sequence[Step], viewer: Optional[int] = None) -> None:
    """Check a finished deal against the seed revealed after it.

    ``commitment_hex`` is the commitment received before contributing,
    ``contributions`` what the guests sent, ``leader`` the seat that led the
    deal, and ``steps`` every step shown during the deal, in order. The deal
    is replayed from the derived stocks with the actions the steps show; every
    step must come out the same and the deal must be over at the end. Steps
    are named in ``viewer``'s words in the error (see :meth:`Step.describe`).

    Returns ``None`` when all of it holds; raises :class:`DealVerificationError`
    saying what does not (and :class:`InvalidSecretError` for a malformed seed).
    """
    if commitment(seed) != commitment_hex:
        raise DealVerificationError("The revealed seed does not match the commitment the host made "
                                    "before you sent your part of the shuffle.")
    deal = Deal.from_stocks(derive_stocks(seed, contributions), leader)
    i = 0
    while i < len(steps):
        step = steps[i]
        action = _ACTION_OF.get(step.kind)
        if action is None or deal.over:
            raise DealVerificationError(
                f"Step {i + 1} ({step.describe(viewer)}) cannot happen at that point of the deal "
                f"fixed at the start.")
        try:
            replayed = deal.apply(action, step.seat)
        except IllegalActionError as e:
            raise DealVerificationError(
                f"Step {i + 1} ({step.describe(viewer)}) is not possible in the deal fixed at the start: "
                f"{e}") from None
        for k, expected in enumerate(replayed[:len(steps) - i]):
            if steps[i + k] != expected:
                raise DealVerificationError(
                    f"Step {i + k + 1}: you were shown {steps[i + k].describe(viewer)!r}, but the "
                    f"deal fixed at the start gives {expected.describe(viewer)!r}.")
        i += len(replayed)
    if not deal.over or i > len(steps):
        raise DealVerificationError("The deal you were shown stops before anyone won it.")
