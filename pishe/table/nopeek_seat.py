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

Every message also carries the record it was sent on and its page's signature
(:mod:`pishe.table.nopeek_messages`): a host that changed, dropped or reordered what it
relays, or showed two pages different records, is caught at the next message
(:meth:`NoPeekSeat.receive`), not at the end.

When every secret has come, each page checks the whole deal (:attr:`NoPeekSeat.outcome`):
``"verified"``, or the :class:`~pishe.table.nopeek.NotFairError` /
:class:`~pishe.table.nopeek.DealAbortedError` that names the seat.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

from ..errors import IllegalActionError, PisheError
from .fair import DealVerificationError, first_refused, replay, shown_steps, verify_play
from . import said
from .group import Group, GroupError
from .lang import _
from .nopeek import (DealAbortedError, Dealer, NotFairError, check_code, check_deal,
                     check_openings, check_stopped)
from .nopeek_messages import MARKS, Chains, checked
from .partial import PartialDeal

__all__ = ["NoPeekSeat", "DealStoppedError"]

#: Key shares in one ``np-keys`` message at most: a guest's message stays under the host's size limit.
SHARES = 24
#: The scalar 1: a public key times it is itself only if it is a point.
_ONE = bytes([1]) + bytes(31)


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
        #: Each dealing seat's messages as this page holds them, its own included.
        self.chains = Chains(group, self.seats, seat)
        #: Once a deal stopped mid-deal has every page's secret: what the check of what was dealt
        #: names (:func:`~pishe.table.nopeek.check_stopped`), or ``None``.
        self.culprit: Optional[NotFairError] = None
        #: Once a deal stopped mid-deal has every page's secret: whether that check found nothing
        #: wrong (the page that stopped it had no cause that the deal shows).
        self.cleared = False
        #: The ``np-unfair`` of another page that stopped this deal, as it came, or ``None``.
        self.claim: Optional[dict] = None
        self._stopped = False

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
            message = checked(message, self.seats, self.chains.blame)
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
            found = NotFairError(_("A seat sent a message the deal cannot read."), **self.chains.blame(message["seat"]))
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
            message = checked(message, self.seats, self.chains.blame)
            seat = message["seat"]
            if message["type"] != "np-reveal" or seat in self._secrets or not self.chains.signed(
                    message, self.dealing.record.signs.get(seat)):
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
        """With every secret of a stopped try in and its deck dealt: :meth:`_checked_play`'s
        finding, or ``None``."""
        if not self.dealt:
            return None
        try:
            self._checked_play()
        except NotFairError as e:
            return e
        return None

    def _checked_play(self, opened: Optional[dict] = None) -> list:
        """With every secret in: the deck they deal (each page's part checked against its
        commitment, and the cards ``opened`` to this page against it), the moves against the
        rules on its cards, every key share against what its receiver could see then. Raises
        :class:`NotFairError` naming the page that broke one."""
        dealing, partial = self.dealing, self.partial
        cards = check_deal(dealing.group, self.game.id, dealing.match_id, dealing.deal, self.seats,
                           dealing.record, self._secrets, opened)
        cheat = first_refused(self.game, cards, partial.dealer, partial.actions)
        if cheat is not None:       # a rule that rests on a hand only that seat's page saw
            raise NotFairError(_("A seat played a move the rules refuse."), self.pages.get(cheat, cheat))
        check_openings(self.game, cards, partial.dealer, partial.actions, dealing.record, self.pages)
        return cards

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

    def _authentic(self, message: dict) -> None:
        """That ``message`` is from another seat of the deal that has not revealed its secret,
        then that its record takes it (:meth:`~pishe.table.nopeek_messages.Chains.take`)."""
        seat, record = message["seat"], self.dealing.record
        if seat not in self.seats or seat == self.seat:
            raise NotFairError(_("A message came for a seat that is not in the deal."), **self.chains.blame(seat))
        if seat in self._secrets:
            raise NotFairError(_("A message came from a seat after its secret."), **self.chains.blame(seat))
        new = message["type"] == "np-commit" and seat not in record.signs
        self.chains.take(message, message["sign"] if new else record.signs.get(seat))

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
            bad = first_refused(self.game, self.partial.deck(), self.partial.dealer, self.partial.actions)
            raise NotFairError(_("A seat played a card it was not dealt."), self.pages.get(bad, bad)) from None

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
        cards = self._checked_play(self.dealing.opened)
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
        """This page's message, signed, on the record it holds."""
        return self.chains.message(kind, self.dealing.signed, **fields)
