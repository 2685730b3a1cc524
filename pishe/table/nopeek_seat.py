"""One page's side of a whole no-peek deal: dealing, playing with opened cards, the end check.

A :class:`NoPeekSeat` joins a :class:`~pishe.table.nopeek.Dealer` (its secret, keys and
record) and a :class:`~pishe.table.partial.PartialDeal` (the game's engine on the cards
opened to it). Every page, the host's included, holds one; the host's page relays every
message to every other page (masked key shares too: only their receiver can read them),
so every page sees the same record. Messages are JSON objects (``docs/PROTOCOL.md``,
"No-peek dealing"):

- ``{"type": "np-commit", "seat", "commitment", "public", "sign"}``: first, from every
  page (``sign``: the ed25519 key its messages are signed with, bound in its commitment);
- ``{"type": "np-shuffle" | "np-lock", "seat", "deck"}``: the two rounds, in seat order;
- ``{"type": "np-keys", "seat", "shares"}``: this page's keys for the positions that have
  become visible to other pages (each page works out which from the public moves and its
  own engine, so no page opens a card because another asked);
- ``{"type": "np-act", "seat", "action", "shares"}``: a move, with every page's key for the
  card it shows (the mover holds them: the card was opened to it), so that it opens to all
  with the move; ``"mark": "timeout"`` or ``"computer"`` when the table made it for a
  person (their clock ran out, or a computer plays their seat), so every page words it so;
- ``{"type": "np-reveal", "seat", "secret"}``: once the deal is over, every page's secret;
- ``{"type": "np-unfair", "seat", "named", "host"}``: this page found the deal not fair
  (naming seat ``named`` or none, and the host or not): the deal ends at once for everyone.

Every message also carries ``heard``, how many messages of each dealing seat (in seat order,
its own included) its page held when it sent it, ``prev``, the transcript hash of that record
(:func:`transcript`), and ``sig``, its page's ed25519 signature of the rest. A page takes a
message only when its signature is its seat's, it is that seat's next, and ``prev`` is the
hash of the same record as this page holds it: a host that changed, dropped or reordered
what it relays, or showed two pages different records, is caught at the next message
(:meth:`NoPeekSeat.receive`), not at the end.

When every secret has come, each page checks the whole deal (:attr:`NoPeekSeat.outcome`):
``"verified"``, or the :class:`~pishe.table.nopeek.NotFairError` /
:class:`~pishe.table.nopeek.DealAbortedError` that names the seat.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Optional, Sequence

from ..errors import IllegalActionError, PisheError
from .fair import DealVerificationError, first_refused, replay, shown_steps, verify_play
from . import said
from .group import Group, GroupError
from .lang import _
from .nopeek import (POSITIONS, DealAbortedError, Dealer, NotFairError, check_code, check_deal,
                     check_openings, check_stopped)
from .partial import PartialDeal

__all__ = ["MARKS", "NoPeekSeat", "DealStoppedError", "EMPTY", "canonical", "chained", "transcript"]

#: The marks of a move the table made for a person: their clock ran out, or a computer plays
#: their seat (``np-act``'s optional ``mark``).
MARKS = ("timeout", "computer")
#: The host's page's seat of the deal.
HOST = 0
#: Key shares in one ``np-keys`` message at most: a guest's message stays under the host's size limit.
SHARES = 24
#: The hash of a seat's messages before its first.
EMPTY = "00" * 32


def canonical(message: dict) -> bytes:
    """``message`` as the one JSON text every page hashes and signs (keys sorted, no spaces)."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chained(digest: str, message: dict) -> str:
    """The hash of a seat's messages after ``message``, from ``digest`` before it."""
    return hashlib.sha256(bytes.fromhex(digest) + canonical(message)).hexdigest()


def transcript(digests: Sequence[str]) -> str:
    """The transcript hash of a record: SHA-256 of every seat's messages' hash, in seat order."""
    return hashlib.sha256(b"".join(bytes.fromhex(d) for d in digests)).hexdigest()


class DealStoppedError(PisheError):
    """Page ``by`` found the deal not fair and stopped it for everyone: this page takes its
    word that the deal ends (it is dealt again), never its word on which seat was at fault;
    ``host``: that page named the host alone (which every page then says, as that page's
    finding)."""

    def __init__(self, by: int, host: bool = False):
        super().__init__(f"seat {by}'s page found the deal not fair")
        self.by = by
        self.host = host


class NoPeekSeat:
    """Page ``seat``'s side of deal ``deal`` of match ``match_id`` at a table of ``game``.

    ``pages`` maps each game seat to the page that sees for it (a computer's seat to the
    host's page, seat 0; by default every seat is a page): the dealing seats are its values.
    """

    def __init__(self, group: Group, game, match_id: str, deal: int, seat: int, dealer: int,
                 pages: Optional[dict] = None, secret: Optional[str] = None,
                 rng: Optional[random.Random] = None):
        self.game = game
        self.seat = seat
        self.pages = dict(pages) if pages is not None else {s: s for s in range(game.seats)}
        self.dealing = Dealer(group, game.id, match_id, deal, seat, set(self.pages.values()), secret, rng)
        self.partial = PartialDeal(game, dealer)
        #: What this page was shown: the dealing's steps, then one list per move (its own seat's).
        self.shown: list = []
        #: ``None`` while the deal goes on; then ``"verified"``, or the error that says why not.
        self.outcome: Optional[str | PisheError] = None
        self._sent: set = set()          # (position, receiver) this page has sent its key for
        self._secrets: dict = {}
        self._revealed = False
        self._later: list = []           # moves come before this page could take them in
        # Each dealing seat's messages as this page holds them (its own included): the hash
        # after each, the first EMPTY.
        self._chains: dict = {s: [EMPTY] for s in self.seats}
        #: Once a deal stopped mid-deal has every page's secret: what the check of what was dealt
        #: names (:func:`~pishe.table.nopeek.check_stopped`), or ``None``.
        self.culprit: Optional[NotFairError] = None
        #: Once a deal stopped mid-deal has every page's secret: whether that check found nothing
        #: wrong (the page that stopped it had no cause that the deal shows).
        self.cleared = False
        #: The ``np-unfair`` of another page that stopped this deal, as it came, or ``None``.
        self.claim: Optional[dict] = None
        self._stopped = False

    def heard(self, seat: int) -> int:
        """How many of page ``seat``'s messages this page holds (took in, or sent)."""
        return len(self._chains[seat]) - 1

    @property
    def check_code(self) -> Optional[str]:
        """The table check code of this try (:func:`~pishe.table.nopeek.check_code`), once every
        page's commitment has come; ``None`` before."""
        record = self.dealing.record
        if len(record.commitments) < len(self.seats):
            return None
        return check_code(self.game.id, self.dealing.match_id, self.dealing.deal, record)

    @property
    def seats(self) -> tuple:
        """The dealing seats (pages), in seat order."""
        return self.dealing.seats

    @property
    def dealt(self) -> bool:
        """Whether both rounds are done: the deal is in play."""
        return self.dealing.record.locked.get(self.seats[-1]) is not None    # (deck() would read 52 points)

    def awaited(self) -> list:
        """The other pages whose part this page waits on, in seat order: while the deal is in
        play, those whose key for a card its seats may see now has not come; once the deal
        is over and this page knows all it may see, those whose secret has not come."""
        if not self.dealt or self.outcome is not None:
            return []
        visible, _exact = self.partial.openable()
        mine = [t for t in self.pages if self.pages[t] == self.seat]
        unopened = set().union(*(visible[t] for t in mine)) - set(self.partial.known)
        held = self.dealing.held
        waiting = {s for p in unopened for s in self.seats if s != self.seat and s not in held(p)}
        if not waiting and self._revealed:
            waiting = {s for s in self.seats if s not in self._secrets}
        return sorted(waiting)

    def words(self, start: int) -> list:
        """The words for what this page was shown from group ``start`` on (the dealing's is
        group 0, then one per move), from its seat's side: each a
        :class:`~pishe.table.said.Said`; a move the table made when a person's clock ran out
        reads so (:meth:`~pishe.table.game.Game.describe_timeout`)."""
        out = []
        for g in range(start, len(self.shown)):
            action = self.partial.actions[g - 1] if 0 < g <= len(self.partial.actions) else []
            out += said.steps(self.game, self.shown[g], self.seat, {0} if action[2:] == ["timeout"] else ())
        return out

    def unrevealed(self) -> list:
        """The pages whose secret this page waits for at the deal's end, having revealed its
        own (empty before then, and once the deal is checked)."""
        if not self._revealed or self.outcome is not None:
            return []
        return [s for s in self.seats if s not in self._secrets]

    # -- what this page sends ----------------------------------------------------------

    def start(self) -> list:
        """The first message: this page's commitment."""
        c = self.dealing.commitment()
        self.dealing.take_commitment(self.seat, c["commitment"], c["public"], c["sign"])
        return [self._message("np-commit", **c)] + self._rounds()

    def act(self, text: str, mark: Optional[str] = None) -> list:
        """This page's own move (its seat's, or a computer's it plays): the move with every
        key of the cards it shows, ``mark`` (:data:`MARKS`) when the table made it for a
        person; raises the game's refusal (``ValueError`` for a mark that is none), changing
        nothing."""
        if mark is not None and mark not in MARKS:
            raise ValueError(f"a move's mark must be one of {', '.join(MARKS)}")
        mover = self._state().turn
        if self.pages.get(mover) != self.seat or not self.partial.settled(mover):
            raise IllegalActionError(_("It is not your turn."))
        after = self.partial.trial(mover, text)
        moves = len(self.partial.actions) + 1
        everyone = set(self.seats)
        seen_by = self._seen_by(self.partial.visible(after))
        shares = []
        for position in sorted(set(self.partial.known)):
            if (position, None) not in self._sent and seen_by[position] == everyone:
                shares += self.dealing.keys_for(position, moves)
                self._sent.add((position, None))
        self.partial.apply(mover, text, mark)
        marked = {"mark": mark} if mark is not None else {}
        return [self._message("np-act", action=text, shares=shares, **marked)] + self._progress()

    # -- what it is sent ----------------------------------------------------------------

    def receive(self, message: dict) -> list:
        """Another page's message (relayed by the host): the messages this page sends in answer.
        A message this page finds not fair ends the deal here (:attr:`outcome`) and is answered
        with ``np-unfair``, so that it ends at once for everyone."""
        if self.outcome is not None:
            return self._after_stop(message) if self.stopped else []
        try:
            message = _checked(message, self.seats, self._blame)
            self._authentic(message)
            if message["type"] == "np-unfair":
                named_host = message["host"] and message["named"] is None
                self.outcome, self._stopped = DealStoppedError(message["seat"], named_host), True
                self.claim = message
                return self._reveal_stopped()
            return self._receive(message)
        except NotFairError as e:
            found = e
        except (GroupError, ValueError, LookupError):
            # Hex that is no point, a key share for a seat without a key: a page's own making.
            found = NotFairError(_("A seat sent a message the deal cannot read."), **self._blame(message["seat"]))
        return self.stop(found)

    def stop(self, found: NotFairError) -> list:
        """This page found the deal not fair (``found``, naming whom it names): it ends here,
        and, found mid-deal, the ``np-unfair`` message that ends it for everyone (none once
        found by the end check, which every page makes for itself)."""
        if self.outcome is not None:
            return []
        self.outcome = found
        if self._checked_at_end():
            return []
        self._stopped = True
        return [self._message("np-unfair", named=found.seat, host=found.host)] + self._reveal_stopped()

    def _reveal_stopped(self) -> list:
        """The deal stopped mid-deal: this page reveals its secret of it (it is dealt again with
        new ones), so that every page can check what was dealt and name who did not do what it
        committed to (:attr:`culprit`)."""
        if self._revealed:
            return []
        self._revealed = True
        self._secrets[self.seat] = self.dealing.reveal()
        return [self._message("np-reveal", secret=self.dealing.reveal())]

    def _after_stop(self, message) -> list:
        """A message that comes once the deal stopped: only the secrets are taken in, each signed
        by its seat (in any order: a page may have sent messages of the try after it stopped,
        which no page takes in; a secret answers for itself against its seat's commitment); with
        every one in, :attr:`culprit` is found. Nothing is sent, nothing raised."""
        try:
            message = _checked(message, self.seats, self._blame)
            seat = message["seat"]
            if message["type"] != "np-reveal" or seat in self._secrets or not self._signed(message):
                return []
        except (NotFairError, GroupError, ValueError, LookupError):
            return []
        self._secrets[message["seat"]] = message["secret"]
        if len(self._secrets) == len(self.seats):
            dealing = self.dealing
            self.culprit = check_stopped(dealing.group, self.game.id, dealing.match_id, dealing.deal, self.seats,
                                         dealing.record, self._secrets) or self._moves_checked()
            self.cleared = self.culprit is None
        return []

    def _moves_checked(self) -> Optional[NotFairError]:
        """With every secret of a stopped try in and its deck dealt: its moves so far against
        the rules on the cards every secret opens, and every key share against what its
        receiver could see then; the :class:`NotFairError` naming the seat that broke one, or
        ``None``."""
        if not self.dealt:
            return None
        try:
            cards = check_deal(self.dealing.group, self.game.id, self.dealing.match_id, self.dealing.deal,
                               self.seats, self.dealing.record, self._secrets)
            cheat = first_refused(self.game, cards, self.partial.dealer, self.partial.actions)
            if cheat is not None:
                return NotFairError(_("A seat played a move the rules refuse."), self.pages.get(cheat, cheat))
            check_openings(self.game, cards, self.partial.dealer, self.partial.actions, self.dealing.record,
                           self.pages)
        except NotFairError as e:
            return e
        return None

    def revealed(self, seat: int) -> bool:
        """Whether page ``seat``'s secret of this deal has come (or is this page's own, revealed)."""
        return seat in self._secrets

    @property
    def stopped(self) -> bool:
        """Whether the deal ended mid-deal as not fair (found here, or by the page whose
        ``np-unfair`` came), never to be finished: it is dealt again."""
        return self._stopped

    def _checked_at_end(self) -> bool:
        """Whether every secret is in (the end check's turn)."""
        return self._revealed and len(self._secrets) == len(self.seats)

    def _blame(self, seat) -> dict:
        """Who a bad message from ``seat`` names: on the host's page, that seat alone (its page
        sent it straight here); on a guest's page, the host for its own messages, else "the host
        or that seat" (the host relayed it: either may have made it so)."""
        if type(seat) is not int or seat not in self.seats or seat == self.seat:
            return {"host": self.seat != HOST}
        if self.seat == HOST:
            return {"seat": seat}
        return {"host": True} if seat == HOST else {"seat": seat, "host": True}

    def _authentic(self, message: dict) -> None:
        """That ``message`` is its seat's, signed, its next, and sent on the record this page
        holds; then it is added to that record. Raises :class:`NotFairError` naming whoever may
        have made it otherwise (:meth:`_blame`)."""
        seat, kind, record = message["seat"], message["type"], self.dealing.record
        blame = self._blame(seat)
        if seat not in self.seats or seat == self.seat:
            raise NotFairError(_("A message came for a seat that is not in the deal."), **blame)
        if seat in self._secrets:
            raise NotFairError(_("A message came from a seat after its secret."), **blame)
        sign = message["sign"] if kind == "np-commit" and seat not in record.signs else record.signs.get(seat)
        if sign is None:
            raise NotFairError(_("A message came from a seat before its commitment."), **blame)
        if not self._signed(message, sign):
            raise NotFairError(_("A message's signature is not its seat's: the host changed it on the way, or "
                                 "its seat signed it wrong."), **blame)
        heard = message["heard"]
        if heard[self.seats.index(seat)] != len(self._chains[seat]) - 1:
            raise NotFairError(_("A seat's message came out of its order, or twice."), **blame)
        if any(count >= len(self._chains[s]) for s, count in zip(self.seats, heard)) or message["prev"] != transcript(
                [self._chains[s][count] for s, count in zip(self.seats, heard)]):
            raise NotFairError(_("This page and a seat's page were shown different records of the deal."), **blame)
        self._chains[seat].append(chained(self._chains[seat][-1], message))

    def _signed(self, message: dict, sign: Optional[str] = None) -> bool:
        """Whether ``message`` is signed by its seat's key (``sign``, or the one its commitment
        bound in this page's record)."""
        sign = sign if sign is not None else self.dealing.record.signs.get(message["seat"])
        if sign is None:
            return False
        body = {k: v for k, v in message.items() if k != "sig"}
        return self.dealing.group.verify(bytes.fromhex(sign), canonical(body), bytes.fromhex(message["sig"]))

    def abort(self, seats: Sequence[int]) -> None:
        """Pages ``seats`` left the deal for good, with their keys: it ends aborted by them."""
        if self.outcome is None:
            self.outcome = DealAbortedError(tuple(sorted(seats)))

    def _receive(self, message: dict) -> list:
        kind, seat = message["type"], message["seat"]
        if seat not in self.seats or seat == self.seat:
            raise NotFairError(_("A message came for a seat that is not in the deal."))
        if kind == "np-commit" and seat not in self.dealing.record.commitments:
            try:        # a public key must be a point, or no key can be masked for that page
                self.dealing.group.multiply(_ONE, bytes.fromhex(message["public"]))
            except GroupError:
                raise NotFairError(_("A seat sent a message the deal cannot read."), seat) from None
            self.dealing.take_commitment(seat, message["commitment"], message["public"], message["sign"])
            return self._rounds()
        if kind == "np-commit" or seat in (self.dealing.record.shuffled if kind == "np-shuffle"
                                           else self.dealing.record.locked if kind == "np-lock" else ()):
            raise NotFairError(_("A seat sent its part of the dealing twice."), seat)
        if kind in ("np-shuffle", "np-lock"):
            self.dealing.take_round(seat, kind[3:], message["deck"])
            return self._rounds()
        if kind == "np-keys":
            for entry in message["shares"]:
                if entry[1] != seat:
                    raise NotFairError(_("A seat sent a key that is not its own."), seat)
                self.dealing.take(entry)
            return self._progress() + self._catch_up()
        if kind == "np-act":
            # A move waits until this page knows every public card of the deal so far: before,
            # its stand-ins may have sent the deal another way (keys still on their way).
            self._later.append(message)
            return self._catch_up()
        if kind == "np-reveal":
            self._secrets[seat] = message["secret"]
            return self._end()
        raise NotFairError(_("A message came that is not part of the deal."), seat)

    # -- the deal going on ----------------------------------------------------------------

    def _catch_up(self) -> list:
        """Take in the moves that wait, in order, while this page's course is the deal's."""
        out = []
        while self._later and self.dealt and self.partial.openable()[1]:
            out += self._take_move(self._later.pop(0))
        return out

    def _take_move(self, message: dict) -> list:
        seat = message["seat"]
        mover = self._state().turn
        if self.pages.get(mover) != seat:
            raise NotFairError(_("A seat played out of its turn."), seat)
        for entry in message["shares"]:
            if entry[2] is not None:
                raise NotFairError(_("A seat sent a key that is not its own."), seat)
            self.dealing.take(entry)
            if entry[1] == self.seat:      # the mover sent this page's key on: no need to again
                self._sent.add((entry[0], None))
        self._open_what_can_be()
        try:
            self.partial.apply(mover, message["action"], message.get("mark"))
        except PisheError:
            raise NotFairError(_("A seat played a move the rules refuse."), seat) from None
        return self._progress()

    def _rounds(self) -> list:
        """This page's shuffle or lock when its turn in a round has come."""
        record, seats = self.dealing.record, self.seats
        if len(record.commitments) < len(seats):
            return []
        before = seats.index(self.seat)
        out = []
        if self.seat not in record.shuffled and all(s in record.shuffled for s in seats[:before]):
            out.append(self._message("np-shuffle", deck=self.dealing.shuffle()))
        if (self.seat not in record.locked and all(s in record.shuffled for s in seats)
                and all(s in record.locked for s in seats[:before])):
            out.append(self._message("np-lock", deck=self.dealing.lock()))
        if self.dealt and not self.shown:
            out += self._progress()
        return out

    def _open_what_can_be(self) -> None:
        """Learn every card that every page's key has come for (to this page, or to all)."""
        if not self.dealt:
            return
        for position in range(len(self.partial.deck())):
            if position not in self.partial.known:
                card = self.dealing.open(position)
                if card is not None:
                    try:
                        self.partial.learn(position, card)
                    except ValueError:
                        raise NotFairError(_("A card was opened twice in two places.")) from None
                    self._state()

    def _state(self):
        """The deal as this page knows it; a move the cards learnt since make impossible was
        a move with a card its seat did not hold: not fair, by that seat."""
        try:
            return self.partial.state
        except IllegalActionError:
            bad = self._first_impossible()
            raise NotFairError(_("A seat played a card it was not dealt."), self.pages.get(bad, bad)) from None

    def _first_impossible(self):
        state = self.game.new_deal(list(self.partial.deck()), self.partial.dealer)
        for seat, text, *_mark in self.partial.actions:
            try:
                state.apply(self.game.parse_action(text), seat)
            except IllegalActionError:
                return seat
        return None

    def _progress(self) -> list:
        """Open what can be opened, send this page's keys for every position newly visible to
        another page, record what this page is shown once it knows all it may see, and reveal
        its secret once the deal is over."""
        if not self.dealt:
            return []
        self._open_what_can_be()
        self._state()
        visible, _exact = self.partial.openable()
        moves = len(self.partial.actions)
        shares = []
        everyone = set(self.seats)
        for position, seeing in enumerate(self._seen_by(visible)):
            if not seeing:
                continue
            receivers = [None] if seeing == everyone else sorted(seeing - {self.seat})
            for receiver in receivers:
                if (position, receiver) not in self._sent:
                    self._sent.add((position, receiver))
                    shares.append(self.dealing.share(position, receiver, moves))
        out = [self._message("np-keys", shares=shares[i:i + SHARES]) for i in range(0, len(shares), SHARES)]
        self._open_what_can_be()
        state = self._state()
        mine = [t for t in self.pages if self.pages[t] == self.seat]
        if all(self.partial.settled(t) for t in mine):
            self._show(moves)
            if state.over and not self._revealed:
                self._revealed = True
                self._secrets[self.seat] = self.dealing.reveal()
                out.append(self._message("np-reveal", secret=self.dealing.reveal()))
                out += self._end()
        return out

    def _seen_by(self, visible: list) -> list:
        """By position, the dealing pages whose seats may see it (``visible``: by table seat, the
        positions that seat may see, :meth:`Partial.visible`)."""
        seen_by: list[set] = [set() for _ in self.partial.deck()]
        for t, q in self.pages.items():
            if q in self.seats:
                for position in visible[t]:
                    seen_by[position].add(q)
        return seen_by

    def _show(self, moves: int) -> None:
        """What this page's seat is shown up to move ``moves``, once it knows all it may see."""
        if len(self.shown) > moves:
            return
        _, steps = replay(self.game, self.partial.deck(), self.partial.dealer, self.partial.actions, open_deck=False)
        self.shown.extend(shown_steps(self.game, steps[len(self.shown):], self.seat))

    # -- the end ------------------------------------------------------------------------

    def _end(self) -> list:
        if len(self._secrets) < len(self.seats) or self.outcome is not None:
            return []
        record = self.dealing.record
        cards = check_deal(self.dealing.group, self.game.id, self.dealing.match_id, self.dealing.deal, self.seats,
                           record, self._secrets, self.dealing.opened)
        cheat = first_refused(self.game, cards, self.partial.dealer, self.partial.actions)
        if cheat is not None:       # a rule that rests on a hand only that seat's page saw
            raise NotFairError(_("A seat played a move the rules refuse."), cheat)
        check_openings(self.game, cards, self.partial.dealer, self.partial.actions, record, self.pages)
        # The last move's steps (a Pişti deck's count) need every card: shown now, from the deck.
        self.shown = self.shown[:len(self.partial.actions)]
        _state, steps = replay(self.game, cards, self.partial.dealer, self.partial.actions)
        self.shown.extend(shown_steps(self.game, steps[len(self.shown):], self.seat))
        try:
            verify_play(self.game, cards, self.partial.dealer, self.partial.actions, self.shown, self.seat)
        except DealVerificationError as e:
            raise NotFairError(str(e)) from None
        for position, card in enumerate(cards):
            self.partial.learn(position, card)
        self.outcome = "verified"
        return []

    def _message(self, kind: str, **fields) -> dict:
        """This page's message, sent on the record it holds (``heard``, ``prev``) and signed."""
        heard = [len(self._chains[s]) - 1 for s in self.seats]
        body = {"type": kind, "seat": self.seat, **fields, "heard": heard,
                "prev": transcript([self._chains[s][-1] for s in self.seats])}
        message = {**body, "sig": self.dealing.signed(canonical(body))}
        self._chains[self.seat].append(chained(self._chains[self.seat][-1], message))
        return message


_HEX64 = re.compile("[0-9a-f]{64}")
_HEX128 = re.compile("[0-9a-f]{128}")
_ONE = bytes([1]) + bytes(31)
#: Each message's fields besides ``type`` and ``seat``, and how to check them.
_FIELDS = {
    "np-commit": {"commitment": "hex", "public": "hex", "sign": "hex"},
    "np-shuffle": {"deck": "deck"}, "np-lock": {"deck": "deck"},
    "np-keys": {"shares": "shares"}, "np-act": {"action": "text", "shares": "shares"},
    "np-reveal": {"secret": "hex"}, "np-unfair": {"named": "seat", "host": "bool"},
}
#: What every message carries besides: the record it was sent on, and its signature.
_SIGNED = {"heard": "heard", "prev": "hex", "sig": "signature"}


def _checked(message, seats: tuple, blame) -> dict:
    """``message`` if it has exactly the fields of its type and :data:`_SIGNED`'s, each of its
    kind (hex of 64 digits, a deck of 52 such, key shares ``[position, sender, receiver or
    null, hex, moves or null]`` of seats in the deal, a count of messages per seat, a
    signature); else :class:`NotFairError`, naming whom ``blame`` names for its seat."""
    seat = message.get("seat") if isinstance(message, dict) else None
    kind = message.get("type") if isinstance(message, dict) else None
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    optional = {"mark"} if kind == "np-act" and message.get("mark") in MARKS else set()
    if fields is None or type(seat) is not int or set(message) != {"type", "seat", *fields, *_SIGNED, *optional}:
        raise NotFairError(_("A seat sent a message the deal cannot read."), **blame(seat))

    def good(value, kind) -> bool:
        if kind == "hex":
            return isinstance(value, str) and bool(_HEX64.fullmatch(value))
        if kind == "signature":
            return isinstance(value, str) and bool(_HEX128.fullmatch(value))
        if kind == "seat":
            return value is None or type(value) is int and value in seats
        if kind == "bool":
            return type(value) is bool
        if kind == "heard":
            return isinstance(value, list) and len(value) == len(seats) and all(
                type(c) is int and 0 <= c for c in value)
        if kind == "text":
            return isinstance(value, str) and 0 < len(value) <= 16
        if kind == "deck":
            return isinstance(value, list) and len(value) == POSITIONS and all(good(v, "hex") for v in value)
        return isinstance(value, list) and len(value) <= POSITIONS * len(seats) and all(
            isinstance(e, list) and len(e) == 5 and type(e[0]) is int and 0 <= e[0] < POSITIONS
            and e[1] in seats and (e[2] is None or e[2] in seats) and good(e[3], "hex")
            and (e[4] is None or type(e[4]) is int) for e in value)

    if not all(good(message[name], kind) for name, kind in {**fields, **_SIGNED}.items()):
        raise NotFairError(_("A seat sent a message the deal cannot read."), **blame(seat))
    return message
