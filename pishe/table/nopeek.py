"""The no-peek deal: every seat shuffles and locks the deck, and a card is opened only
to the seats that may see it, so that no page, the host's included, knows a card its
seat may not see; every page re-checks the whole deal at its end.

Game-agnostic: the deal works on **positions** 0 to 51 (the game's deck, bottom to top,
as :meth:`~pishe.table.game.Game.new_deal` takes it) and opens position *i* to a set of
seats; which seats may see a card when is the game's own :meth:`hidden_cards`, which the
end check (:func:`check_openings`) asks of the replayed deal. The arithmetic is
ristretto255's, from a well-kept library (:mod:`pishe.table.group`); this module only
combines it (``docs/PROTOCOL.md``, "No-peek dealing"):

1. *Commit.* Each seat taking part draws a 32-byte secret, from which everything it uses
   in the deal is derived (:class:`SeatKeys`: its shuffle lock, its order, one key per
   position, a key pair for the key shares sent to it alone, and an ed25519 key pair that
   signs every message it sends), and sends its commitment (:func:`seat_commitment`) and
   both public keys before any seat sends more. Every page shows the table's check code
   (:func:`check_code`) from every seat's commitment and keys: the same on every page
   unless the host swapped the keys it relays, which friends comparing it catch.
2. *Shuffle round*, seat after seat in seat order: seat *s* takes the deck as the seat
   before left it (the first seat: the cards' public points, :func:`card_points`), locks
   every point with its one lock and puts them in its order (:func:`shuffle_round`).
3. *Lock round*, seat after seat: seat *s* swaps its one lock for one key per position
   (:func:`lock_round`). Position *i* now holds ``(Π_s k_{s,i}) · C_c`` for a card *c*
   that no seat knows.
4. *Opening* position *i* to seat *t*: every other seat sends *t* its key for *i*
   (:func:`key_share`), masked for *t* alone when *t* is one seat (only *t* can take the
   mask off: a pad from the two seats' Diffie–Hellman point, which the host relaying it
   cannot compute), plain when everyone may see the card. *t* takes every key off and
   finds the card (:meth:`Dealer.open`). A seat that plays a card it was opened sends
   every seat's key for it with the move, so the card opens to all at once.
5. *End of deal*: every seat reveals its secret; :func:`check_deal` re-derives every
   seat's keys, redoes both rounds, checks every key share any seat was sent and returns
   the deck by position, which the game's rules then replay
   (:func:`pishe.table.fair.verify_play`), and :func:`check_openings` checks that no card
   was opened to a seat that could not see it then. A seat whose secret does not come
   has aborted the deal (:class:`DealAbortedError`, naming it).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from ..cards import DECK, Card
from ..errors import PisheError
from .fair import check_secret, new_secret, shuffled
from .group import Group, GroupError
from .lang import _

__all__ = ["POSITIONS", "NotFairError", "DealAbortedError", "SeatKeys", "Record", "Dealer",
           "seat_commitment", "check_code", "CODE_SYMBOLS", "card_points", "shuffle_round", "lock_round", "key_share",
           "check_deal", "check_stopped", "check_openings"]

#: Positions of a deck: one per card.
POSITIONS = len(DECK)


class NotFairError(PisheError):
    """Something of the deal does not hold. ``seat`` is the seat it shows to be at fault
    (``None`` when it cannot be told before the secrets are revealed); ``host`` that the
    host's page is named: alone (``seat`` ``None``), or as "the host or that seat" when the
    page cannot tell which of the two changed a message the host relayed."""

    def __init__(self, message: str, seat: Optional[int] = None, host: bool = False):
        super().__init__(message)
        self.seat = seat
        self.host = host


class DealAbortedError(PisheError):
    """The deal cannot be checked: ``seats`` did not reveal their secrets (refused, or left
    with their keys)."""

    def __init__(self, seats: Sequence[int]):
        super().__init__(f"seats {list(seats)} did not reveal their secrets")
        self.seats = tuple(seats)


def _domain(game_id: str, match_id: str, deal: int) -> str:
    return f"{game_id}:nopeek:v1:{match_id}:{deal}"


def seat_commitment(game_id: str, match_id: str, deal: int, seat: int, secret: str, public: str,
                    sign: str) -> str:
    """A seat's commitment to its ``secret`` for deal ``deal`` of match ``match_id``, bound to
    its seat, to the ``public`` key (hex) it announces with it and to the ``sign`` key (hex,
    ed25519) its messages are signed with: hex SHA-256 of ``domain + ":commit:" + seat + ":"
    + public + ":" + sign + ":" + secret``."""
    check_secret(secret, "secret")
    text = f"{_domain(game_id, match_id, deal)}:commit:{seat}:{public}:{sign}:{secret}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()


#: The table check code's symbols: 64 pictures any language names, one per 6 bits.
CODE_SYMBOLS = ("🐶🐱🐭🐰🦊🐻🐼🐨🐯🦁🐮🐷🐸🐵🐔🐧🐦🦆🦉🐴🦄🐝🐛🦋🐌🐞🐢🐍🐙🦀🐠🐬"
                "🐳🦈🐊🦒🐘🦔🌵🌲🌻🌹🍄🌙⭐🔥🌈🍉🍎🍌🍇🍓🍒🍋🥕🌽🍕🎂⚽🎈🔔🚲🚀⛵")
#: Symbols in a check code: 24 bits.
CODE_LENGTH = 4


def check_code(game_id: str, match_id: str, deal: int, record: Record) -> str:
    """The table check code of a deal's try: :data:`CODE_LENGTH` of :data:`CODE_SYMBOLS`,
    spaced, from SHA-256 of the domain and every seat's commitment, public key and signing
    key, in seat order. Every page that was relayed the same commitments shows the same code;
    a host that swapped a seat's keys on the way to some page shows that page another."""
    text = _domain(game_id, match_id, deal) + ":code" + "".join(
        f":{s}:{record.commitments[s]}:{record.publics[s]}:{record.signs.get(s, '')}"
        for s in sorted(record.commitments))
    bits = int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:4], "big") >> (32 - 6 * CODE_LENGTH)
    return " ".join(CODE_SYMBOLS[(bits >> (6 * i)) & 63] for i in reversed(range(CODE_LENGTH)))


_POINTS: dict = {}


def card_points(group: Group, game_id: str) -> tuple:
    """The 52 cards' public points, in :data:`~pishe.cards.DECK` order: card *c*'s point is
    RFC 9496's element derivation of SHA-512 of ``game_id + ":card:v1:" + c``."""
    points = _POINTS.get(game_id)
    if points is None:
        points = _POINTS[game_id] = tuple(
            group.card_point(hashlib.sha512(f"{game_id}:card:v1:{card}".encode("ascii")).digest()) for card in DECK)
    return points


@dataclass(frozen=True)
class SeatKeys:
    """Everything one seat uses in one deal, derived from its secret (so that revealing the
    secret at the end lets every page redo that seat's part)."""

    seat: int
    lock: bytes
    unlock: bytes
    private: bytes
    public: bytes
    order: tuple
    keys: tuple
    sign_seed: bytes
    sign_public: bytes

    @classmethod
    def derive(cls, group: Group, game_id: str, match_id: str, deal: int, seat: int, secret: str) -> SeatKeys:
        """Seat ``seat``'s keys from its ``secret`` (64 hex digits): each scalar is SHA-512 of
        ``domain + ":" + label + ":" + seat + ":" + secret`` reduced modulo ℓ (labels
        ``lock``, ``dh``, ``key:<position>``); the order is the table's shuffle
        (:func:`pishe.table.fair.shuffled`) of the positions on ``domain + ":order:" + seat +
        ":" + secret + ":"``; the ed25519 seed is SHA-256 of ``domain + ":sign:" + seat + ":" +
        secret`` (known to all once the secret is revealed: a seat sends nothing after that)."""
        check_secret(secret, "secret")
        domain = _domain(game_id, match_id, deal)

        labels = ["lock", "dh", *(f"key:{i}" for i in range(POSITIONS))]
        lock, private, *keys = group.scalar_each(
            [hashlib.sha512(f"{domain}:{label}:{seat}:{secret}".encode("ascii")).digest() for label in labels])
        sign_seed = hashlib.sha256(f"{domain}:sign:{seat}:{secret}".encode("ascii")).digest()
        return cls(seat, lock, group.invert(lock), private, group.base(private),
                   tuple(shuffled(range(POSITIONS), f"{domain}:order:{seat}:{secret}:")), tuple(keys),
                   sign_seed, group.sign_public(sign_seed))


def shuffle_round(group: Group, keys: SeatKeys, deck: Sequence[bytes]) -> list:
    """A seat's shuffle: ``out[j] = lock · deck[order[j]]``."""
    return group.multiply_each([keys.lock] * POSITIONS, [deck[j] for j in keys.order])


def lock_round(group: Group, keys: SeatKeys, deck: Sequence[bytes]) -> list:
    """A seat's lock: its one lock swapped for one key per position,
    ``out[i] = (lock⁻¹ · key_i) · deck[i]``."""
    return group.multiply_each(group.times_each([keys.unlock] * POSITIONS, keys.keys), list(deck))


#: Diffie–Hellman points by (private key, public key): one product per pair of seats a deal,
#: not one per key share.
_SHARED: dict = {}


def _pad(group: Group, game_id: str, match_id: str, deal: int, private: bytes, public: bytes,
         sender: int, receiver: int, position: int) -> bytes:
    """The mask of one key share from ``sender`` to ``receiver``: SHA-512 of the text
    ``domain:pad:sender:receiver:position:`` and the two seats' Diffie–Hellman point, cut to
    32 bytes. Either seat computes it (its private key, the other's public one); no other."""
    shared = _SHARED.get((private, public))
    if shared is None:
        shared = _SHARED[private, public] = group.multiply(private, public)
        if len(_SHARED) > 256:      # a page meets a few seats a deal: keep this deal's
            _SHARED.pop(next(iter(_SHARED)))
    text = f"{_domain(game_id, match_id, deal)}:pad:{sender}:{receiver}:{position}:".encode("ascii")
    return hashlib.sha512(text + shared).digest()[:32]


def key_share(group: Group, game_id: str, match_id: str, deal: int, keys: SeatKeys, position: int,
              receiver: Optional[int] = None, receiver_public: Optional[bytes] = None) -> str:
    """``keys``' seat's key for ``position`` (hex): plain for everyone (``receiver`` ``None``),
    or masked for ``receiver`` alone."""
    key = keys.keys[position]
    if receiver is None:
        return key.hex()
    if receiver_public is None:
        raise ValueError("a key masked for a page needs that page's public key")
    pad = _pad(group, game_id, match_id, deal, keys.private, receiver_public, keys.seat, receiver, position)
    return bytes(a ^ b for a, b in zip(key, pad)).hex()


@dataclass
class Record:
    """What a page saw of one deal's dealing, as JSON data (it all goes to every seat, masked
    shares included): each seat's commitment, public key and signing key, each seat's deck
    after its shuffle and after its lock, and every key share, ``[position, sender, receiver
    or None, hex, moves]`` (``moves``: the number of moves of the deal after which the
    receiver may see the card: the move it comes with counted)."""

    commitments: dict = field(default_factory=dict)
    publics: dict = field(default_factory=dict)
    shuffled: dict = field(default_factory=dict)
    locked: dict = field(default_factory=dict)
    shares: list = field(default_factory=list)
    signs: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The record as JSON data (seats as text keys)."""
        return {"commitments": {str(s): c for s, c in self.commitments.items()},
                "publics": {str(s): p for s, p in self.publics.items()},
                "signs": {str(s): p for s, p in self.signs.items()},
                "shuffled": {str(s): d for s, d in self.shuffled.items()},
                "locked": {str(s): d for s, d in self.locked.items()},
                "shares": [list(s) for s in self.shares]}

    @classmethod
    def from_json(cls, data: dict) -> Record:
        """The inverse of :meth:`to_json`."""
        def by_seat(d):
            return {int(s): v for s, v in d.items()}
        return cls(by_seat(data["commitments"]), by_seat(data["publics"]), by_seat(data["shuffled"]),
                   by_seat(data["locked"]), [tuple(s) for s in data["shares"]], by_seat(data["signs"]))

    def locked_card(self, seats: Sequence[int], position: int) -> Optional[bytes]:
        """The locked deck's point at ``position`` once the last seat has locked, else ``None``
        (one point decoded: a page asks for each card it may open, many times a deal)."""
        last = self.locked.get(seats[-1])
        return None if last is None else bytes.fromhex(last[position])


class Dealer:
    """One seat's side of one no-peek deal: its secret and keys, the record of what it saw,
    and the cards opened to it. The host page holds one for its own seat (and relays the
    messages); each guest page holds one for its seat. Nothing in it is ever an open card
    its seat may not see: it learns a card only by :meth:`open`."""

    def __init__(self, group: Group, game_id: str, match_id: str, deal: int, seat: int, seats: Iterable[int],
                 secret: Optional[str] = None, rng: Optional[random.Random] = None):
        self.group = group
        self.game_id = game_id
        self.match_id = match_id
        self.deal = deal
        self.seat = seat
        #: The seats taking part, in seat order (the order of both rounds).
        self.seats = tuple(sorted(seats))
        if seat not in self.seats:
            raise ValueError(f"seat {seat} is not one of the dealing seats {self.seats}")
        self._secret = check_secret(secret, "secret") if secret is not None else new_secret(rng)
        self._keys = SeatKeys.derive(group, game_id, match_id, deal, seat, self._secret)
        self.record = Record()
        #: The cards opened to this seat, by position.
        self.opened: dict = {}
        self._received: dict = {}      # position -> {sender: key bytes}

    # -- the messages this seat sends ------------------------------------------------

    def commitment(self) -> dict:
        """``{"commitment", "public", "sign"}``: what this seat sends first."""
        public, sign = self._keys.public.hex(), self._keys.sign_public.hex()
        return {"commitment": seat_commitment(self.game_id, self.match_id, self.deal, self.seat, self._secret,
                                              public, sign), "public": public, "sign": sign}

    def signed(self, text: bytes) -> str:
        """This seat's ed25519 signature of ``text`` (hex)."""
        return self.group.sign(self._keys.sign_seed, text).hex()

    def shuffle(self) -> list:
        """This seat's shuffle round (its turn: every seat before it has shuffled), as hex."""
        before = self._before(self.record.shuffled)
        deck = card_points(self.group, self.game_id) if before is None else [bytes.fromhex(p) for p in before]
        out = [p.hex() for p in shuffle_round(self.group, self._keys, deck)]
        self.record.shuffled[self.seat] = out
        return out

    def lock(self) -> list:
        """This seat's lock round (every seat has shuffled, every seat before it has locked)."""
        before = self._before(self.record.locked)
        if before is None:
            before = self.record.shuffled[self.seats[-1]]
        out = [p.hex() for p in lock_round(self.group, self._keys, [bytes.fromhex(p) for p in before])]
        self.record.locked[self.seat] = out
        return out

    def share(self, position: int, receiver: Optional[int], moves: int) -> list:
        """This seat's key for ``position``, for ``receiver`` alone (or for everyone:
        ``None``): the record entry ``[position, sender, receiver, hex, moves]`` to send."""
        public = None if receiver is None else bytes.fromhex(self.record.publics[receiver])
        value = key_share(self.group, self.game_id, self.match_id, self.deal, self._keys, position, receiver, public)
        entry = (position, self.seat, receiver, value, moves)
        self.take(entry)
        return list(entry)

    def reveal(self) -> str:
        """This seat's secret, once the deal is over."""
        return self._secret

    # -- what it is sent -------------------------------------------------------------

    def take_commitment(self, seat: int, commitment: str, public: str, sign: str) -> None:
        """A seat's commitment, public key and signing key."""
        self.record.commitments[seat] = commitment
        self.record.publics[seat] = public
        self.record.signs[seat] = sign

    def take_round(self, seat: int, kind: str, deck: Sequence[str]) -> None:
        """Another seat's deck after its ``"shuffle"`` or ``"lock"``."""
        if len(deck) != POSITIONS:
            raise NotFairError(_("A seat's shuffled or locked deck does not hold 52 cards."), seat)
        (self.record.shuffled if kind == "shuffle" else self.record.locked)[seat] = list(deck)

    def take(self, entry: Sequence) -> None:
        """A key share (a record entry); a share meant for this seat, or for all, is kept to
        open the card."""
        position, sender, receiver, value, _moves = entry
        self.record.shares.append(tuple(entry))
        if receiver is None or receiver == self.seat:
            key = bytes.fromhex(value)
            if receiver is not None and sender != self.seat:
                pad = _pad(self.group, self.game_id, self.match_id, self.deal, self._keys.private,
                           bytes.fromhex(self.record.publics[sender]), sender, self.seat, position)
                key = bytes(a ^ b for a, b in zip(key, pad))
            self._received.setdefault(position, {})[sender] = key

    def keys_for(self, position: int, moves: int) -> list:
        """Every seat's key for ``position``, a card opened to this seat that it now plays in
        the deal's move number ``moves``: record entries ``[position, sender, None, hex,
        moves]`` to send with the move, so that every seat opens the card."""
        held = {**self._received.get(position, {}), self.seat: self._keys.keys[position]}
        entries = [[position, s, None, held[s].hex(), moves] for s in self.seats if s in held]
        for entry in entries:
            self.record.shares.append(tuple(entry))
        return entries

    def held(self, position: int) -> set:
        """The seats whose key for ``position`` this seat has (its own included)."""
        return {*self._received.get(position, {}), self.seat}

    def open(self, position: int) -> Optional[Card]:
        """The card at ``position`` once every seat's key for it has come (``None`` before);
        raises :class:`NotFairError` when the keys do not open a card (a wrong key was sent)."""
        if position in self.opened:
            return self.opened[position]
        held = self._received.get(position, {})
        if any(s not in held for s in self.seats if s != self.seat):
            return None
        locked = self.record.locked_card(self.seats, position)
        if locked is None:
            return None
        mine = held.get(self.seat) or self._keys.keys[position]
        card = _open(self.group, self.game_id, locked, [mine if s == self.seat else held[s] for s in self.seats])
        if card is None:
            raise NotFairError(_("The keys sent to open a card of yours do not open any card: a seat sent a "
                                 "wrong key, or the host changed one on the way."))
        self.opened[position] = card
        return card

    def _before(self, rounds: dict) -> Optional[list]:
        at = self.seats.index(self.seat)
        return None if at == 0 else rounds[self.seats[at - 1]]


def _open(group: Group, game_id: str, locked: bytes, keys: Sequence[bytes]) -> Optional[Card]:
    """The card whose point is ``locked`` with every key in ``keys`` taken off, or ``None``."""
    product = keys[0]
    for k in keys[1:]:
        product = group.times(product, k)
    try:
        point = group.multiply(group.invert(product), locked)
    except GroupError:
        return None
    points = card_points(group, game_id)
    return DECK[points.index(point)] if point in points else None


def check_deal(group: Group, game_id: str, match_id: str, deal: int, seats: Sequence[int], record: Record,
               secrets: dict, opened: Optional[dict] = None, complete: bool = True) -> list:
    """The end-of-deal check of one page: every seat's secret against its commitment and
    public key, both rounds of every seat redone from its secret and compared with the decks
    it sent, every key share (masked or plain) compared with the key its sender's secret
    gives, and ``opened`` (the cards this page was opened, by position) compared with the
    deck. Returns the deck by position (the cards, bottom to top, the game dealt from).

    Raises :class:`DealAbortedError` naming the seats whose secret is missing, and
    :class:`NotFairError` naming the seat that did not do what it committed to. With
    ``complete`` false (a deal stopped mid-deal, :func:`check_stopped`), the rounds are checked
    as far as they went, and nothing is returned."""
    seats = tuple(sorted(seats))
    missing = [s for s in seats if secrets.get(s) is None]
    if missing:
        raise DealAbortedError(missing)
    keys = {}
    for s in seats:
        secret = secrets[s]
        try:
            check_secret(secret, "secret")
        except PisheError:
            raise NotFairError(_("A seat revealed something that is not a secret."), s) from None
        if seat_commitment(game_id, match_id, deal, s, secret, record.publics.get(s, ""),
                           record.signs.get(s, "")) != record.commitments.get(s):
            raise NotFairError(_("A seat's revealed secret is not the one it committed to."), s)
        keys[s] = SeatKeys.derive(group, game_id, match_id, deal, s, secret)
        if keys[s].public.hex() != record.publics[s] or keys[s].sign_public.hex() != record.signs[s]:
            raise NotFairError(_("A seat's key for the cards sent to it alone is not its secret's."), s)
    deck = list(card_points(group, game_id))
    order = list(range(POSITIONS))          # order[i]: the card (DECK index) at position i
    for kind, rounds, redo in (("shuffle", record.shuffled, shuffle_round), ("lock", record.locked, lock_round)):
        for s in seats:
            sent = rounds.get(s)
            if sent is None and not complete:
                break                       # the deal stopped before this seat's turn
            if sent is None or [p.hex() for p in redo(group, keys[s], deck)] != list(sent):
                raise NotFairError(_("A seat did not shuffle the deck as its secret says (or the host changed "
                                     "its deck on the way).") if kind == "shuffle"
                                   else _("A seat did not lock the deck as its secret says (or the host changed "
                                          "its deck on the way)."), s)
            deck = [bytes.fromhex(p) for p in sent]
            if kind == "shuffle":
                order = [order[j] for j in keys[s].order]
    for position, sender, receiver, value, _moves in record.shares:
        if sender not in keys or not isinstance(position, int) or position not in range(POSITIONS):
            raise NotFairError(_("A key was sent for a seat or a card that is not in the deal."))
        public = None if receiver is None else keys[receiver].public if receiver in keys else None
        if receiver is not None and public is None:
            raise NotFairError(_("A key was sent for a seat or a card that is not in the deal."))
        if key_share(group, game_id, match_id, deal, keys[sender], position, receiver, public) != value:
            raise NotFairError(_("A key sent to open a card is not the one its seat's secret gives (its seat "
                                 "sent a wrong one, or the host changed it on the way)."), sender)
    if not complete:
        return []
    cards = [DECK[i] for i in order]
    for position, card in (opened or {}).items():
        if cards[position] != card:
            raise NotFairError(_("A card you were opened is not the one the deal put there."))
    return cards


def check_stopped(group: Group, game_id: str, match_id: str, deal: int, seats: Sequence[int], record: Record,
                  secrets: dict) -> Optional[NotFairError]:
    """The check of a deal stopped mid-deal as not fair, once every seat revealed its secret
    for it (it is dealt again with new ones): the first seat whose commitment, rounds so far or
    key shares its secret does not give, as a :class:`NotFairError` naming it, or ``None``."""
    try:
        check_deal(group, game_id, match_id, deal, seats, record, secrets, complete=False)
    except NotFairError as e:
        return e
    return None


def check_openings(game, cards: Sequence[Card], dealer: int, actions: Sequence, record: Record,
                   pages: Optional[dict] = None) -> None:
    """That no card was opened to a seat that could not see it: for every key share, the
    replayed deal (``cards`` by position, ``actions`` as :func:`pishe.table.fair.replay`
    takes them) after the share's number of moves must not hide its card from its receiver
    (from every seat, for a share to all), by the game's own ``hidden_cards``. ``pages``
    maps a game seat to the dealing seat whose page sees for it (a computer's seat to the
    host's; by default each seat its own). Raises :class:`NotFairError` naming the receiver."""
    pages = pages or {s: s for s in range(game.seats)}
    state = game.new_deal(list(cards), dealer)
    hidden_after = [[game.hidden_cards(state, s) for s in range(game.seats)]]
    for seat, text, *_mark in actions:
        state.apply(game.parse_action(text), seat)
        hidden_after.append([game.hidden_cards(state, s) for s in range(game.seats)])
    for position, sender, receiver, _value, moves in record.shares:
        if moves is None or not isinstance(moves, int) or moves not in range(len(hidden_after)):
            raise NotFairError(_("A key was sent for a seat or a card that is not in the deal."), sender)
        receivers = set(pages.values()) if receiver is None else {receiver}
        if any(all(cards[position] in hidden_after[moves][s] for s in pages if pages[s] == q) for q in receivers):
            raise NotFairError(_("A card was opened to a seat that could not see it then."), receiver)
