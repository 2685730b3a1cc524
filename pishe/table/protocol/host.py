"""The host's side of a friends' table: the one engine, and what each guest is sent.

The host's page runs the one authoritative match of any game in a :class:`Host`. Every
deal is dealt no-peek (docs/PROTOCOL.md, "No-peek dealing"): every page at the table
shuffles and locks the deck, a card opens only with the keys of every page, so no page,
the host's included, knows a card its seats may not see; the host's page relays every
page's message to the others, keeps the deal's log, and runs the match on the cards
opened to it (its own seat's, and those of the computers it plays).

Guests reach the host over connections, which the page numbers as it likes
(``conn``); a guest names its seat by the token the host gave it. Every call
returns an :class:`~.wire.Outcome` whose ``send`` holds ``(conn, text)``
pairs; a message the host cannot accept gets an ``error`` reply to its
connection and changes nothing.
"""

from __future__ import annotations

import json
import random
import secrets
from typing import Optional

from ...errors import PisheError
from ..lang import _
from ..seating import Seating
from . import wire
from .host_seats import HostSeats, NotAGuestSeatError
from .host_table import _GuestSeat, _HostDeal
from .nopeek_deal import dealer_of, np_match_id, replay_seat
from .wire import (DEAL_OVER, HOST_SEAT, MATCH_OVER, PLAYING, MAX_GUEST_MESSAGE, VERSION, CorruptSaveError,
                   NotConnectedError, Outcome, OutOfOrderMessageError, ReplayedMessageError, SeatTakenError,
                   UnknownTokenError, WrongPhaseError, removed_deal)

__all__ = ["Host", "NotAGuestSeatError", "SeatLeftError"]


class SeatLeftError(wire.ProtocolError):
    """A page that left its seat sent a message about it: a seat that left cannot act again."""


class Host(HostSeats):
    """The host's side of a table: the one engine, and the messages to and from the guests.

    ``game_id`` is the game (``"pishe-pasha"``, ``"pisti"``), ``length`` its
    match length (the game's default if ``None``), ``guest_seats`` the seats
    kept for friends (every seat but the host's in a two-seat game; the rest
    are played by the game's computer). ``rng`` draws the seeds and the seat
    tokens (the system's cryptographic source unless a seeded generator is
    given, for tests). A deal is dealt no-peek once every guest seat has a page.

    Its jobs live in its bases: the table's state (:class:`~.host_table.HostTable`), the
    no-peek deal's driver (:class:`~.host_deal.DealDriver`), the seats, clocks and views
    (:class:`~.host_seats.HostSeats`); here the connection (hello, tokens, sequence
    numbers, the guests' messages), the deals' turns and the saves.
    """

    # -- the host's own moves and the deals' turns ------------------------------------

    def act(self, action) -> Outcome:
        """The host's action, in its text form (``give``, ``7H``).

        Raises :class:`~.wire.WrongPhaseError` while the cards are not dealt, and
        the game's :class:`~pishe.errors.IllegalActionError` for a move the
        rules do not allow now; either way nothing changes.
        """
        self._check_playing()
        return self._play(self.seat, action)

    def play_again(self, length: Optional[str] = None, clock: Optional[int] = None) -> Outcome:
        """Once the match is over, a new match of the same game with the same friends in the
        same seats: of ``length`` with ``clock`` seconds per move (``None``: no clock), the
        host's settings changed during the match, or with ``length`` ``None`` the same length
        and clock. Every connected guest is welcomed to it (a new match id, the welcome
        naming its length and clock) and the first deal is dealt with it.
        Raises :class:`~.wire.WrongPhaseError` before the match is over, and as
        :meth:`__init__` does for a length or clock that is not one; either way nothing changes."""
        if self._pending is not None or not self._match.over:
            raise WrongPhaseError(_("The match is not over."))
        if length is None:
            length, clock = self.length, self.seating.clock
        self._check_settings(length, clock)
        self.length = length
        self.match_id = secrets.token_hex(16)
        self.match, self._played, self._bots = None, None, {}
        self.seating = Seating([HOST_SEAT, *self.guests], clock)
        self._pending = _HostDeal(1)
        self.named, self._claims, self._unchecked, self._refuted = {}, {}, {}, None      # counted for a match
        for guest in self.guests.values():
            guest.joining = False
            guest.away = guest.away and guest.conn is None      # who is here plays
        welcomes = [(g.conn, m) for s, g in self.guests.items() if g.conn is not None for m in self._state(s)]
        return Outcome(welcomes + self._np_ready().send, [])

    def next_deal(self) -> Outcome:
        """Start dealing the next deal: every page at the table is sent its first try."""
        self._check_between_deals()
        return self._start_next_deal()

    def _start_next_deal(self) -> Outcome:
        """A new deal; a friend who came while a computer played their seat takes it now."""
        for guest in self.guests.values():
            if guest.joining and guest.conn is not None:
                guest.away = guest.joining = False
        self._pending = _HostDeal(self._in_play.number + 1)
        return self._np_ready()


    # -- the connection: the guests' messages ---------------------------------------

    def disconnect(self, conn=1) -> None:
        """Connection ``conn`` closed: keep everything; its guest resumes by saying hello again."""
        for guest in self.guests.values():
            if guest.conn == conn:
                guest.conn = None

    def receive(self, message, conn=1) -> Outcome:
        """Handle one message from a guest's page on connection ``conn``; never raises for
        anything a guest sends.

        A message that is refused changes nothing and is answered by one
        ``error`` message, whose reason is also in :attr:`Outcome.error`.
        """
        seq, guest = None, None
        try:
            # A guest's first hello may not know the game yet: it learns it from the welcome.
            data = wire.parse(message, MAX_GUEST_MESSAGE, wire.GUEST_MESSAGES, None)
            kind, game_id = data["type"], data.get("game")
            if "game" not in data or game_id != self.game.id and not (kind == "hello" and game_id is None):
                raise wire.WrongGameError(f"the message is not about {self.game.id} "
                                          f"(game {wire.quote(game_id)})")
            if kind == "hello":
                values = wire.fields(data, wire.GUEST_MESSAGES[kind])
                return self._hello(conn, values["token"])
            seq = wire.whole(data.get("seq"), "seq")   # a replay is named as such before anything else
            seat, guest = self._guest_on(conn)
            self._check_seq(guest, seq)
            if guest.left:
                raise SeatLeftError(_("You left the table: a computer plays this seat for good."))
            values = wire.fields(data, wire.GUEST_MESSAGES[kind])
            if kind == "np":
                outcome = self._np_receive(seat, values["deal"], values["tries"], values["message"])
            elif kind == "take-over":
                self.take_over(seat)
                outcome = self._presence()
            elif kind == "name":
                guest.name = values["name"]
                outcome = self._presence()
            elif kind == "leave":
                guest.left, guest.token = True, None
                self.take_over(seat)
                outcome = self._seat_given_up()
            else:
                self._check_between_deals(values["deal"])
                outcome = self._start_next_deal()
        except PisheError as e:
            if guest is None:       # refused before its seq was read: still say what comes next
                guest = next((g for g in self.guests.values() if g.conn == conn), None)
            reason = wire.sentence(e)
            reply = wire.write(self.game.id, "error", reason=reason, code=wire.error_code(e), ref=seq,
                               next_seq=guest.next_seq if guest is not None else None)
            return Outcome([(conn, reply)], [], reason)
        guest.next_seq += 1
        return outcome

    def _guest_on(self, conn) -> tuple:
        for seat, guest in self.guests.items():
            if guest.conn == conn:
                return seat, guest
        raise NotConnectedError(_("Say hello first: the connection is not open."))

    def _hello(self, conn, token: Optional[str]) -> Outcome:
        # One connection, one seat: a page seated on it cannot leave its seat for another.
        held = next((s for s, g in self.guests.items() if g.conn == conn), None)
        if token is None:
            if held is not None:
                raise SeatTakenError(_("This connection already holds seat {seat}.").format(seat=held))
            # A connection numbered as a guest seat is that seat's invite (the page numbers
            # each seat's channel by its seat): its page sits there if the seat is free.
            free = [s for s, g in self.guests.items() if g.token is None and not g.left]
            seat = conn if conn in free else next(iter(free), None)
            if seat is None:
                seat = next((s for s, g in self.guests.items() if g.conn is None and not g.left), None)
            if seat is None:
                raise SeatTakenError("Every guest seat is taken by a page that is still connected."
                                     if len(self.guests) > 1 else
                                     "The guest seat is taken by a page that is still connected.")
            self.guests[seat].token = self.rng.randbytes(16).hex()
        else:
            seat = next((s for s, g in self.guests.items() if g.token == token), None)
            if seat is None:
                raise UnknownTokenError("This table did not issue that seat token, or another page "
                                        "has taken the seat since.")
            if held is not None and held != seat:
                raise SeatTakenError(_("This connection already holds seat {seat}.").format(seat=held))
        self.disconnect(conn)
        self.guests[seat].conn = conn
        # A friend new to a seat dealt to a computer (deal_now) takes it from the next deal; so
        # does one back to a seat whose cards the host's page was opened (a try dealt again
        # after its page went, its computer in the seat), and a new page (no token) whose first
        # deal would come after the match's first: it holds nothing of the deals before, and a
        # page new to a match takes deal 1, or a later one only at a seat a computer played.
        late = (token is None and self.match is not None and self.phase != MATCH_OVER
                and (self._deal.number > 1 or self.phase == DEAL_OVER))
        joining = late or ((token is None or self._np_hosts(seat)) and self.guests[seat].away
                           and self.phase == PLAYING)
        self.guests[seat].joining = joining
        self.guests[seat].away = joining
        # The others see the person come (before the first deal, whom the table still waits for) or back.
        back = self._presence(but=seat).send
        # A page with no seat token is a new one: it cannot hold a secret of the try in play.
        lost = self._np_lost(seat, conn) if token is None else Outcome([], [])
        state = [(conn, m) for m in self._state(seat)]
        return Outcome(lost.send + state + back + self._np_ready().send, lost.steps)

    def _check_seq(self, guest: _GuestSeat, seq: int) -> None:
        if seq < guest.next_seq:
            raise ReplayedMessageError(f"Message {seq} was already received (the next is {guest.next_seq}).")
        if seq > guest.next_seq:
            raise OutOfOrderMessageError(f"Message {seq} came before message {guest.next_seq}.")

    def _state(self, seat: int) -> list:
        """Welcome, then everything the guest in ``seat`` needs to be where the table is."""
        guest = self.guests[seat]
        messages = [wire.write(self.game.id, "welcome", seat=seat, token=guest.token,
                               seq=guest.next_seq, **self._table())]
        deal = self._pending or self._played
        if deal is not None and deal.np_seat is not None and seat in deal.np.seats and not guest.joining:
            messages.append(self._np_deal_message(deal))      # the page replays it with its secret
        else:
            # A page back after its hold: the try it dealt in was aborted by it, as the others
            # were told (it checks the abort against the try it holds: said once).
            aborted = next((a for a in reversed(self.aborts) if seat in a[1]), None)
            if aborted is not None:
                messages.append(wire.write(self.game.id, "np-abort", deal=aborted[0], seats=aborted[1]))
        return messages


    # -- surviving a reload -----------------------------------------------------------

    def save(self) -> str:
        """The table as text for the host page's sessionStorage: the host page's secret of the
        deal in play and the deal's log, from which :meth:`restore` replays it, and the seats'
        chosen names and which guest seats a computer plays (Deal now, a hold over).

        It holds the host page's secret: it stays in the host's own tab.
        """
        return json.dumps({
            "v": VERSION, "game": self.game.id, "role": "host", "length": self.length, "clock": self.clock,
            "match_id": self.match_id,
            "guests": [[s, g.token, g.next_seq, g.left, g.away, g.name] for s, g in self.guests.items()],
            "host_name": self.host_name,
            "nopeek": self._np_save(),
        }, separators=(",", ":"))

    def _np_save(self) -> dict:
        """The no-peek deal in play as its page rebuilds it: its secret and the deal's log (it
        holds this page's secret: it stays in the host's own tab; the log holds the marks of
        the table's moves), the deals aborted, the guests named not fair this match."""
        deal = self._pending or self._played
        kept = None
        if deal is not None and deal.np_seat is not None:
            kept = {"deal": deal.number, "tries": deal.tries, "secret": deal.np.dealing.reveal(), "log": deal.log,
                    "pages": [deal.np.pages[s] for s in range(self.game.seats)], "aborted": deal.aborted}
        return {"deal": kept, "aborts": self.aborts, "named": sorted(self.named.items()),
                "number": deal.number if deal is not None else 1,
                "results": self._match.results[:deal.number - 1] if self.match is not None and deal is not None else []}

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None) -> Host:
        """The table again as :meth:`save` left it, with no guest connected: the deal in play
        is replayed from the host page's secret and the deal's log.

        Raises :class:`~.wire.CorruptSaveError` for text that :meth:`save` did not make, and
        :class:`~.wire.RemovedDealError` for a save of the old commit-and-reveal deal (one
        with no no-peek deal), which no page plays any more: either way nothing is made.
        """
        try:
            data = json.loads(saved)
            wire.check(isinstance(data, dict) and data.get("role") == "host", "not a host's save")
        except (ValueError, RecursionError, wire.ProtocolError) as e:
            raise CorruptSaveError(f"the saved table cannot be read ({e})") from None
        if data.get("nopeek") is None:
            raise wire.RemovedDealError(removed_deal())
        try:
            wire.check(data["v"] == VERSION, "another version")
            guests = wire.items(data["guests"], "guests")
            host = cls(wire.text(data["game"], "game"), wire.text(data["length"], "length"), rng,
                       [wire.whole(s, "seat") for s, *_ in guests],
                       wire.optional(wire.whole)(data["clock"], "clock"))
            host.match_id = wire.match_id(data["match_id"], "match_id")
            host.host_name = wire.optional(wire.player_name)(data.get("host_name"), "name")
            for s, token, next_seq, left, away, name in guests:
                host.guests[s].token = wire.token(token, "token")
                host.guests[s].next_seq = wire.whole(next_seq, "next_seq")
                host.guests[s].left = left is True
                host.guests[s].away = away is True
                host.guests[s].name = wire.optional(wire.player_name)(name, "name")
            host._np_restore(wire.obj(data["nopeek"], "nopeek"))
        except (PisheError, ValueError, TypeError, KeyError, RecursionError) as e:
            raise CorruptSaveError(f"the saved table cannot be read ({e})") from None
        return host

    def _np_restore(self, saved: dict) -> None:
        """The no-peek deal in play again, from the page's secret and the deal's log."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        self.aborts = [[wire.deal_number(n, "deal"), wire.seats(who, "seats")]
                       for n, who in wire.items(saved["aborts"], "aborts")]
        self.named = {wire.whole(s, "seat"): wire.whole(n, "named") for s, n in wire.items(saved["named"], "named")}
        kept = saved["deal"]
        number = wire.deal_number(saved["number"], "deal")
        self._earlier = wire.items(saved["results"], "results")
        self._pending = _HostDeal(number)
        if kept is None:
            return
        wire.check(wire.deal_number(kept["deal"], "deal") == number, "the deal numbers disagree")
        pages = wire.items(kept["pages"], "pages")
        wire.check(len(pages) == self.game.seats and all(p in (s, HOST_SEAT) for s, p in enumerate(pages)),
                   "each seat's page must be its own or the host's")
        deal = self._pending
        deal.tries, deal.aborted = wire.whole(kept["tries"], "tries"), wire.seats(kept["aborted"], "aborted")
        deal.log = [wire.obj(m, "message") for m in wire.items(kept["log"], "log")]
        deal.np_seat = NoPeekSeat(group(), self.game, np_match_id(self.match_id, deal.tries), number, HOST_SEAT,
                             dealer_of(self.game, number), dict(enumerate(pages)),
                             secret=wire.secret(kept["secret"], "secret"))
        replay_seat(deal.np, deal.log)
        if deal.np.dealt:
            self._np_after([])
        deal.told = len(deal.np.shown)
