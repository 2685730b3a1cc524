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

import copy
import json
import random
import secrets
from dataclasses import dataclass, field
from typing import Optional

from ...errors import DealNotOverError, MatchOverError, NotYourTurnError, PisheError
from ..game import get_game
from ..match import Match
from ..lang import TABLE, _
from .. import said
from ..said import of_error, say
from ..seating import Seating
from . import wire
from .nopeek_deal import dealer_of, np_match_id, replay_seat
from .wire import (HOST_SEAT, DEALING, PLAYING, DEAL_OVER, MATCH_OVER, MAX_GUEST_MESSAGE, VERSION,
                   CorruptSaveError, NotConnectedError, Outcome, OutOfOrderMessageError,
                   ReplayedMessageError, SeatTakenError, UnknownTokenError, WrongPhaseError, removed_deal)

__all__ = ["Host", "NotAGuestSeatError", "SeatLeftError", "computers_note", "friend_names", "timeout_action"]


class NotAGuestSeatError(wire.ProtocolError):
    """A call about a guest's seat named a seat that is not kept for a guest."""


class SeatLeftError(wire.ProtocolError):
    """A page that left its seat sent a message about it: a seat that left cannot act again."""


def friend_names(game, seat: int) -> Optional[list]:
    """The seats' names from ``seat``'s side at a friends' table: in a two-seat game "You"
    and "Friend"; in a larger one ``None``, the game's own (where each seat sits)."""
    if game.seats != 2:
        return None
    return [say(TABLE, "You") if s == seat else say(TABLE, "Friend") for s in range(2)]


def computers_note() -> str:
    """What a no-peek table says when computers sit with friends."""
    return _("The computers' cards are known to the host's page: it plays them. "
             "No page knows a card of a person's seat before that seat may show it.")


def timeout_action(view: Optional[dict]) -> Optional[str]:
    """The move the table makes for a person whose clock ran out: the first of the legal
    actions in that seat's own view, so that the seat's page can redo it and check it."""
    legal = view.get("legal") if isinstance(view, dict) else None
    return legal[0] if isinstance(legal, list) and legal and isinstance(legal[0], str) else None


@dataclass
class _HostDeal:
    """One deal's try on the host's side: the host page's seat of it and what happened in it."""

    number: int
    np: Optional[object] = None         # the host page's NoPeekSeat of this try
    tries: int = 0                      # tries of this deal aborted before this one
    aborted: list = field(default_factory=list)         # seats that left the last try of this deal
    actions: list = field(default_factory=list)         # [seat, action text, mark?]
    steps: list = field(default_factory=list)           # the host's shown steps: the dealing's, then one list per action
    log: list = field(default_factory=list)             # every page's message, in relay order
    told: int = 0                       # groups of the host's shown steps already worded


@dataclass
class _GuestSeat:
    """A seat kept for a guest: its token, its connection and where its messages are."""

    token: Optional[str] = None
    conn: Optional[object] = None        # None: no page connected now
    next_seq: int = 0
    away: bool = False                   # gone (or silent) longer than the hold, or never came and the
    #                                      host dealt without it: a computer plays the seat
    left: bool = False                   # left the table: a computer plays the seat for good
    joining: bool = False                # came while a computer plays the seat: theirs from the next deal
    name: Optional[str] = None           # the name its person chose (wire.player_name)


#: How the action log marks a move the table made for a person's seat (the guest's page
#: checks that every unmarked move of its seat is one it sent).
TIMEOUT, COMPUTER = "timeout", "computer"
#: The longest clock a table may run, in seconds per move.
LONGEST_CLOCK = 600


class Host:
    """The host's side of a table: the one engine, and the messages to and from the guests.

    ``game_id`` is the game (``"pishe-pasha"``, ``"pisti"``), ``length`` its
    match length (the game's default if ``None``), ``guest_seats`` the seats
    kept for friends (every seat but the host's in a two-seat game; the rest
    are played by the game's computer). ``rng`` draws the seeds and the seat
    tokens (the system's cryptographic source unless a seeded generator is
    given, for tests). A deal is dealt no-peek once every guest seat has a page.
    """

    #: The seat the host plays.
    seat = HOST_SEAT

    def __init__(self, game_id: str = "pishe-pasha", length: Optional[str] = None,
                 rng: Optional[random.Random] = None, guest_seats=None, clock: Optional[int] = None):
        """Open a table for a match of ``game_id`` of ``length``, with ``clock`` seconds per
        move for the people at it (``None``: no clock), dealt no-peek: no page, this one
        included, knows a card its seats may not see (docs/PROTOCOL.md, "No-peek dealing")."""
        self.game = get_game(game_id)
        self.length = self.game.default_length if length is None else length
        self._check_settings(self.length, clock)
        seats = range(1, self.game.seats) if guest_seats is None else guest_seats
        if not seats or any(type(s) is not int or not 0 < s < self.game.seats for s in seats):
            raise ValueError(f"guest seats must be seats 1 to {self.game.seats - 1}")
        #: This match's id in the welcome: a guest's page binds its parts of the shuffle to it.
        #: Not drawn from ``rng``, which fixes the seeds and tokens that tests replay.
        self.match_id = secrets.token_hex(16)
        self.rng = rng if rng is not None else random.SystemRandom()
        #: The match, once its first deal is dealt.
        self.match: Optional[Match] = None
        self.guests: dict[int, _GuestSeat] = {s: _GuestSeat() for s in sorted(set(seats))}
        #: The name the host chose for its seat (:meth:`set_name`), or ``None``.
        self.host_name: Optional[str] = None
        #: Who plays each seat now and whose clock runs (the policy the computer table uses too).
        self.seating = Seating([HOST_SEAT, *self.guests], clock)
        self._bots: dict = {}
        #: The deals aborted by pages gone with their keys, ``[deal, seats]``.
        self.aborts: list = []
        # The host's view as it was at the last step where every card it may see was open (shown
        # while a card it may see now is still opening: a view is never made from stand-ins),
        # and that step's (moves, cards known).
        self._np_shown: Optional[dict] = None
        self._np_shown_at: Optional[tuple] = None
        self._earlier: list = []        # restored: the points of the deals before the one in play
        self._played: Optional[_HostDeal] = None                 # the deal in self.match.deal
        self._pending: Optional[_HostDeal] = _HostDeal(1)

    def _check_settings(self, length, clock) -> None:
        """Raise unless ``length`` is one of the game's match lengths (the game's
        InvalidMatchLengthError, naming them) and ``clock`` 1 to LONGEST_CLOCK seconds or ``None``
        (ValueError)."""
        if not isinstance(length, str) or length not in self.game.lengths:
            Match(self.game, length)      # raises InvalidMatchLengthError, naming the lengths
        if clock is not None and (type(clock) is not int or not 0 < clock <= LONGEST_CLOCK):
            raise ValueError(f"the clock must be 1 to {LONGEST_CLOCK} seconds per move, or none")

    # -- what the page shows ----------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether every guest seat has a connected page."""
        return all(g.conn is not None for g in self.guests.values())

    @property
    def _deal_done(self) -> bool:
        """Whether the deal in play is over: its last move played and the host page's end
        check done (the scores need every card)."""
        return self.match.deal.over and self._played.np.outcome is not None

    @property
    def phase(self) -> str:
        """``dealing``, ``playing``, ``deal-over`` or ``match-over``."""
        if self._pending is not None:
            return DEALING
        if not self._deal_done:
            return PLAYING
        return MATCH_OVER if self.match.over else DEAL_OVER

    def names(self, seat: int) -> Optional[list]:
        """The seats' names from ``seat``'s side (see :func:`friend_names`)."""
        return friend_names(self.game, seat)

    def view(self, seat: int = HOST_SEAT) -> Optional[dict]:
        """``seat``'s view as JSON data (``None`` until the first deal is dealt). The view
        of the host's page stays as it was while a card it may see now is still opening
        (its engine holds a stand-in there: never shown), ``None`` before the first; another
        seat's is ``None`` until the host's page may see every card that seat may."""
        if self.match is None:
            return None
        if not self._played.np.partial.settled(seat):
            shown = self._np_shown if seat == HOST_SEAT else None
            return None if shown is None else {**shown, "legal": []}   # no move until it is known
        return self.game.view(self.match, seat, self.names(seat)).to_json()

    def status(self) -> dict:
        """The table for the host's page: phase, deal number, match length, who is connected,
        ``waiting_for``, the people's seats the table waits on now (see :meth:`waiting_for`),
        and ``moves``, how many moves the deal in play has had (the page's silence hold
        starts again on each)."""
        return {"game": self.game.id, "seat": self.seat, "phase": self.phase,
                "deal": (self._pending or self._played).number, "waiting_for": self.waiting_for(),
                "moves": len(self._played.actions) if self._pending is None else 0, **self._table(),
                **self._np_status()}

    def waiting_for(self) -> list:
        """The guests' seats the table waits on, in seat order: while a deal is dealt, the
        friends whose page has not come, then those whose commitment has not, then the one
        whose shuffle or lock is due; in play, the guest to move, unless a computer plays its
        seat, and the friends whose key for a card the host's page may see now (or whose
        secret, once the deal is over) has not come. Empty when nothing waits on a guest."""
        pending = self._pending
        if pending is not None:
            here = [s for s, g in self.guests.items() if not (g.away or g.left)]
            return self._np_waiting_for(pending, here)
        if self._deal_done:
            return []
        keys = [s for s in self._played.np.awaited() if s in self.guests]
        if self.match.deal.over:
            return keys
        turn = self.match.deal.turn
        mover = [turn] if turn in self.guests and not self._played_by_computer(turn) else []
        return sorted(set(mover + keys))

    def seats(self) -> list:
        """Who sits where: each seat's ``role`` (``host``, ``guest`` or ``computer``), whether
        its page is ``connected``, and for a person's seat whether a computer plays it now
        (``autopilot`` after three timeouts, ``away`` after the hold, ``left`` for good)."""
        out = []
        for s in range(self.game.seats):
            guest = self.guests.get(s)
            out.append({"seat": s, "role": "host" if s == HOST_SEAT else "guest" if guest else "computer",
                        "connected": s == HOST_SEAT or (guest is not None and guest.conn is not None),
                        "autopilot": self.seating.autopilot(s),
                        "away": guest is not None and guest.away, "left": guest is not None and guest.left,
                        "name": self.host_name if s == HOST_SEAT else guest.name if guest else None})
        return out

    def _table(self) -> dict:
        length = self.game.lengths[self.length]
        return {"seats": self.seats(), "length": self.length, "length_name": length.name,
                "target": length.target, "clock": self.clock, "match_id": self.match_id}

    # -- the host's own moves ---------------------------------------------------------

    def act(self, action) -> Outcome:
        """The host's action, in its text form (``give``, ``7H``).

        Raises :class:`~.wire.WrongPhaseError` while the cards are not dealt, and
        the game's :class:`~pishe.errors.IllegalActionError` for a move the
        rules do not allow now; either way nothing changes.
        """
        self._check_playing()
        return self._play(self.seat, action)

    @property
    def actions(self) -> list:
        """The deal in play's actions so far, each ``[seat, action text]`` and the mark of a
        move the table made for a person's seat (a copy: read only)."""
        return [list(a) for a in self._played.actions] if self._played is not None else []

    @property
    def deal_steps(self) -> list:
        """The deal in play's steps: the dealing's, then one list per action (a copy)."""
        return [list(group) for group in self._played.steps] if self._played is not None else []

    @property
    def np_try(self) -> Optional[dict]:
        """The no-peek deal's try in play or being dealt, as its ``np-deal`` message says it:
        ``{"deal", "tries", "pages"}`` (``pages[s]``: the page that sees for seat *s*, 0 the
        host's), or ``None`` (no try begun)."""
        deal = self._pending or self._played
        return None if deal is None or deal.np is None else self._np_try_of(deal)

    def _np_try_of(self, deal: _HostDeal) -> dict:
        return {"deal": deal.number, "tries": deal.tries, "pages": [deal.np.pages[s] for s in range(self.game.seats)]}

    @property
    def dealing(self) -> Optional[_HostDeal]:
        """The deal in play's record (``number``, ``tries``, ``actions``, ``steps``, ``log``;
        ``None`` before the first deal is dealt): a copy, so reading it changes nothing."""
        return copy.deepcopy(self._played)

    @property
    def clock(self) -> Optional[int]:
        """Seconds per move for the people at the table, or ``None``."""
        return self.seating.clock

    def computer_seat(self) -> Optional[int]:
        """The seat to move if a computer plays it now (no person sits there, or its person
        is on autopilot, away or gone), else ``None``."""
        if self._pending is not None or self._deal_done:
            return None
        seat = self.match.deal.turn
        if not self._played.np.partial.settled(seat):
            return None             # its cards are still opening (no-peek): the table waits on their keys
        return seat if self._played_by_computer(seat) else None

    def _played_by_computer(self, seat: int) -> bool:
        if seat != HOST_SEAT and not self._np_hosts(seat):
            return False            # a person's page plays its own seat, timeouts included
        return self.seating.by_computer(seat, self._absent(seat))

    def _absent(self, seat: int) -> bool:
        guest = self.guests.get(seat)
        return guest is not None and (guest.away or guest.left)

    def clock_seat(self) -> Optional[int]:
        """The seat whose clock runs now: a person's, on their turn, at a table with a clock
        (the host's own only: a guest's page runs its own seat's clock)."""
        if self._pending is not None or self._deal_done:
            return None
        seat = self.match.deal.turn
        if seat != HOST_SEAT:
            return None
        return seat if self.seating.clock_runs(seat, self._absent(seat)) else None

    def computer_step(self) -> Outcome:
        """One move of the computer whose turn it is (marked in the log when it plays a person's seat)."""
        seat = self.computer_seat()
        if seat is None:
            raise NotYourTurnError(_("It is not a computer's turn."))
        person = seat == HOST_SEAT or seat in self.guests
        return self._play(seat, self._computer_action(seat), COMPUTER if person else None)

    def timeout(self) -> Outcome:
        """The clock of the person to move ran out: the computer's move for their seat,
        marked as the table's; after three in a row a computer keeps the seat until they
        take over or play a card themselves."""
        seat = self.clock_seat() if self.match is not None else None
        if seat is None and self.match is not None:
            return Outcome([], [])       # a friend's page plays its own seat's timeout (Guest.timeout)
        if seat is None:
            raise WrongPhaseError(_("No clock is running."))
        outcome = self._play(seat, timeout_action(self.view(seat)), TIMEOUT)
        self.seating.timed_out(seat)
        return outcome

    def take_over(self, seat: int = HOST_SEAT) -> None:
        """The person at ``seat`` plays it again (after their timeouts)."""
        self.seating.take_over(seat)

    def hold_over(self, seat: int) -> Outcome:
        """The hold of guest ``seat``'s lost connection ran out: a computer plays it until
        the guest is back. Nothing changes for a seat whose page is connected."""
        guest = self.guests.get(seat)
        if guest is None:
            raise NotAGuestSeatError(_("Seat {seat} is not kept for a friend.").format(seat=seat))
        if guest.conn is not None or guest.away:
            return Outcome([], [])
        guest.away = True
        return self._seat_given_up()

    def set_name(self, name: Optional[str]) -> Outcome:
        """The name the host gives its own seat (``None``: none), checked as
        :func:`~.wire.player_name`; every guest is told who sits where."""
        self.host_name = wire.optional(wire.player_name)(name, "name")
        return self._presence()

    def play_again(self, length: Optional[str] = None, clock: Optional[int] = None) -> Outcome:
        """Once the match is over, a new match of the same game with the same friends in the
        same seats: of ``length`` with ``clock`` seconds per move (``None``: no clock), the
        host's settings changed during the match, or with ``length`` ``None`` the same length
        and clock. Every connected guest is welcomed to it (a new match id, the welcome
        naming its length and clock) and the first deal is dealt with it.
        Raises :class:`~.wire.WrongPhaseError` before the match is over, and as
        :meth:`__init__` does for a length or clock that is not one; either way nothing changes."""
        if self._pending is not None or not self.match.over:
            raise WrongPhaseError(_("The match is not over."))
        if length is None:
            length, clock = self.length, self.seating.clock
        self._check_settings(length, clock)
        self.length = length
        self.match_id = secrets.token_hex(16)
        self.match, self._played, self._bots = None, None, {}
        self.seating = Seating([HOST_SEAT, *self.guests], clock)
        self._pending = _HostDeal(1)
        for guest in self.guests.values():
            guest.joining = False
            guest.away = guest.away and guest.conn is None      # who is here plays
        welcomes = [(g.conn, m) for s, g in self.guests.items() if g.conn is not None for m in self._state(s)]
        return Outcome(welcomes + self._np_ready().send, [])

    def deal_now(self) -> Outcome:
        """Deal the deal being dealt now, with a computer in every guest seat whose friend is
        not here (never came, or lost): those seats are the computer's until their friend
        comes, from the next deal (:meth:`_hello`). Raises :class:`~.wire.WrongPhaseError`
        when no deal is being dealt."""
        if self._pending is None:
            raise WrongPhaseError(_("No deal is being dealt."))
        for guest in self.guests.values():
            if guest.conn is None and not guest.left:
                guest.away = True
        return self._seat_given_up()

    def silent(self, seat: int) -> Outcome:
        """Guest ``seat``'s page is connected but has not answered for its hold (no part of
        the shuffle, no move): a computer plays it until it acts again. Nothing changes for
        a seat the table is not waiting on."""
        guest = self.guests.get(seat)
        if guest is None:
            raise NotAGuestSeatError(_("Seat {seat} is not kept for a friend.").format(seat=seat))
        if seat not in self.waiting_for():
            return Outcome([], [])
        guest.away = True
        return self._seat_given_up()

    def _computer_action(self, seat: int) -> str:
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.game.new_bot(self.game.computer, seat, random.Random(self.rng.getrandbits(64)))
        return self.game.action_text(bot.choose(self.game.view(self.match, seat)))

    def next_deal(self) -> Outcome:
        """Start dealing the next deal: every page at the table is sent its first try."""
        self._check_between_deals()
        return self._start_next_deal()

    def _start_next_deal(self) -> Outcome:
        """A new deal; a friend who came while a computer played their seat takes it now."""
        for guest in self.guests.values():
            if guest.joining and guest.conn is not None:
                guest.away = guest.joining = False
        self._pending = _HostDeal(self._played.number + 1)
        return self._np_ready()

    def disconnect(self, conn=1) -> None:
        """Connection ``conn`` closed: keep everything; its guest resumes by saying hello again."""
        for guest in self.guests.values():
            if guest.conn == conn:
                guest.conn = None

    # -- the guests' messages ---------------------------------------------------------

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
                outcome = self._np_receive(seat, values["deal"], values["message"])
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
        # after its page went, its computer in the seat).
        joining = ((token is None or self._np_hosts(seat)) and self.guests[seat].away
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

    def _check_playing(self) -> None:
        if self._pending is not None:
            raise WrongPhaseError(_("The cards are not dealt yet."))

    def _check_between_deals(self, finished: Optional[int] = None) -> None:
        if self._pending is not None:
            raise WrongPhaseError(_("Deal {number} is already being dealt.").format(number=self._pending.number))
        if not self._deal_done:
            raise DealNotOverError(_("The deal is still being played."))
        if self.match.over:
            raise MatchOverError(_("The match is over."))
        if finished is not None and finished != self._played.number:
            raise WrongPhaseError(_("Deal {number} is not the deal that just ended (deal {ended}).").format(
                number=finished, ended=self._played.number))

    # -- messages to the guests -------------------------------------------------------

    def _play(self, seat: int, text, mark: Optional[str] = None) -> Outcome:
        """Apply and record an action (``mark``: the table's move for a person's seat, see
        :data:`TIMEOUT`); tell the guests who are here."""
        return self._np_move(seat, text, mark)

    def _seat_given_up(self) -> Outcome:
        """A guest is away or gone: the deal it held up is dealt now (every view says who
        sits where), or else the others are told who sits where."""
        if self._pending is None and self._played is not None and not self._deal_done:
            gone = [s for s in self._played.np.seats if s != HOST_SEAT and self._absent(s)]
            if gone:
                aborted = self._np_abort(gone)
                return Outcome(self._presence().send + aborted.send, aborted.steps)
        dealt = self._np_ready()
        return dealt if dealt.send else self._presence()

    def _presence(self, but: Optional[int] = None) -> Outcome:
        """Tell the connected guests (but ``but``) who sits where now."""
        table = wire.write(self.game.id, "table", seats=self.seats())
        return Outcome([(g.conn, table) for s, g in self.guests.items() if g.conn is not None and s != but], [])

    def _state(self, seat: int) -> list:
        """Welcome, then everything the guest in ``seat`` needs to be where the table is."""
        guest = self.guests[seat]
        messages = [wire.write(self.game.id, "welcome", seat=seat, token=guest.token,
                               seq=guest.next_seq, **self._table())]
        deal = self._pending or self._played
        if deal is not None and deal.np is not None and seat in deal.np.seats:
            messages.append(self._np_deal_message(deal))      # the page replays it with its secret
        else:
            # A page back after its hold: the try it dealt in was aborted by it, as the others
            # were told (it checks the abort against the try it holds: said once).
            aborted = next((a for a in reversed(self.aborts) if seat in a[1]), None)
            if aborted is not None:
                messages.append(wire.write(self.game.id, "np-abort", deal=aborted[0], seats=aborted[1]))
        return messages

    # -- no-peek dealing ----------------------------------------------------------------

    def _np_waiting_for(self, pending: _HostDeal, here: list) -> list:
        """While a no-peek deal is dealt: the friends whose page has not come, then those whose
        commitment has not, then the one whose shuffle or lock is due."""
        np = pending.np
        if np is None:
            return [s for s in here if self.guests[s].conn is None]
        record = np.dealing.record
        if len(record.commitments) < len(np.seats):
            return [s for s in np.seats if s != HOST_SEAT and s not in record.commitments]
        for done in (record.shuffled, record.locked):
            due = next((s for s in np.seats if s not in done), None)
            if due is not None:
                return [due] if due != HOST_SEAT else []
        return []

    def _np_hosts(self, seat: int) -> bool:
        """Whether the host's page sees for ``seat`` in the deal in play (no-peek)."""
        np = self._played.np if self._played is not None else None
        return np is not None and np.pages.get(seat) == HOST_SEAT

    def _np_ready(self) -> Outcome:
        """Move a no-peek deal being dealt on: it begins once every friend at the table has a
        page connected; a page gone before the deck was dealt leaves that try, and the deal
        begins again without it (its seat is then the host page's computer's)."""
        pending = self._pending
        if pending is None:
            return Outcome([], [])
        here = [s for s, g in self.guests.items() if not (g.away or g.left)]
        if pending.np is not None:
            gone = [s for s in pending.np.seats if s != HOST_SEAT and s not in here]
            return self._np_begin(pending.number, pending.tries + 1, gone) if gone else Outcome([], [])
        if any(self.guests[s].conn is None for s in here):
            return Outcome([], [])
        return self._np_begin(pending.number, pending.tries, pending.aborted)

    def _np_begin(self, number: int, tries: int, aborted: list) -> Outcome:
        """Try ``tries`` of deal ``number``: every page at the table deals; the seats of
        friends not here are the host page's (its computer plays them). The host's page alone
        deals it at once."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        here = {s for s, g in self.guests.items() if not (g.away or g.left)}
        pages = {s: s if s == HOST_SEAT or s in here else HOST_SEAT for s in range(self.game.seats)}
        deal = self._pending = _HostDeal(number, tries=tries, aborted=list(aborted))
        deal.np = NoPeekSeat(group(), self.game, np_match_id(self.match_id, tries), number, HOST_SEAT,
                             dealer_of(self.game, number), pages, rng=self.rng)
        start = self._np_deal_message(deal)
        send = [(self.guests[s].conn, start) for s in deal.np.seats if s != HOST_SEAT and self.guests[s].conn is not None]
        return self._np_after(send + self._np_relay(deal.np.start()))

    def _np_deal_message(self, deal: _HostDeal) -> str:
        return wire.write(self.game.id, "np-deal", log=deal.log, **self._np_try_of(deal))

    def _np_relay(self, messages: list) -> list:
        """Each page's message to every other page of the deal (masked keys too: only their
        receiver can read them), kept in the deal's log; this page's answers are taken in by
        the caller."""
        deal = self._pending or self._played
        send = []
        for message in messages:
            deal.log.append(message)
            text = wire.write(self.game.id, "np", deal=deal.number, message=message)
            send += [(g.conn, text) for s, g in self.guests.items()
                     if g.conn is not None and s != message["seat"] and s in deal.np.seats]
        return send

    def _np_receive(self, seat: int, number: int, message: dict) -> Outcome:
        """A guest page's message of the no-peek deal: the host's page takes it in as every page
        does (its own engine checks a move), relays it, and sends its own answers."""
        deal = self._pending or self._played
        if deal is None or deal.np is None or deal.number != number:
            raise WrongPhaseError(_("No deal is waiting for that message."))
        if message.get("seat") != seat or seat not in deal.np.seats:
            raise wire.MalformedMessageError("A page sends its own seat's messages only.")
        self.guests[seat].away = False        # a silent page that answers has its seat back
        send = self._np_relay([message])
        send += self._np_relay(deal.np.receive(message))
        return self._np_after(send)

    def _np_move(self, seat: int, text, mark: Optional[str]) -> Outcome:
        """A move the host's page makes (its own seat's, or a computer's at a seat it sees for)."""
        deal = self._played
        if self.match.deal.turn != seat or not self._np_hosts(seat) and seat != HOST_SEAT:
            raise NotYourTurnError(_("It is not your turn."))
        send = self._np_relay(deal.np.act(self.game.action_text(self.game.parse_action(text)), mark))
        if mark is None:
            self.seating.played(seat)
        return self._np_after(send)

    def _np_after(self, send: list) -> Outcome:
        """Bring the host's match to what its page knows now: the deck dealt, the moves made
        (with their marks), the cards opened; the host's words for the steps it was newly
        shown, and the cards they moved."""
        deal = self._pending or self._played
        np = deal.np
        if self._pending is not None and np.dealt and np.outcome is None:
            deck = np.partial.deck()
            if self.match is None:
                # A host page restored between deals knows the earlier deals by their points.
                self.match, self._earlier = Match.resume(self.game, self.length, self._earlier, deck), []
                if self.match.deal_number != deal.number:
                    raise CorruptSaveError("the deal numbers disagree")
            elif self.match.deal_number != deal.number:
                self.match.next_deal(deck=deck)
            self._played, self._pending, self._bots = deal, None, {}
            self._np_shown = self._np_shown_at = None
        if self._played is deal:
            try:
                self.match.deal = np.partial.state
                at = (len(np.partial.actions), len(np.partial.known))
                if at != self._np_shown_at and np.partial.settled(HOST_SEAT):
                    self._np_shown = self.game.view(self.match, HOST_SEAT, self.names(HOST_SEAT)).to_json()
                    self._np_shown_at = at
            except PisheError:
                pass                # a move its cards make impossible: the deal is not fair (np.outcome)
            deal.actions = [list(a) for a in np.partial.actions]
            deal.steps = np.shown
        words = np.words(deal.told)
        moves = [move for group in np.shown[deal.told:] for shown in group
                 for move in self.game.motion(shown, self.seat)]
        deal.told = len(np.shown)
        return Outcome(send, words, moves=moves)

    def _np_lost(self, seat: int, conn) -> Outcome:
        """Friend ``seat`` comes back on a new page (``conn``), without the secret its old page
        dealt the try in play with: that try is aborted by it at once, named, and dealt again
        with the new page (which is sent the new try after its welcome)."""
        deal = self._pending or self._played
        np = deal.np if deal is not None else None
        if (np is None or np.outcome is not None or seat not in np.seats
                or not any(m.get("seat") == seat for m in deal.log)):
            return Outcome([], [])
        if deal is self._played:
            begun = self._np_abort([seat])
        else:
            begun = self._np_begin(deal.number, deal.tries + 1, [seat])
        return Outcome([(c, t) for c, t in begun.send if c != conn], begun.steps)

    def _np_abort(self, gone: list) -> Outcome:
        """Pages ``gone`` for good mid-deal took their keys: the deal ends aborted by them, named,
        on every page, and is dealt again with the host page's computer in their seats."""
        deal = self._played
        deal.np.abort(gone)
        message = wire.write(self.game.id, "np-abort", deal=deal.number, seats=sorted(gone))
        send = [(g.conn, message) for s, g in self.guests.items()
                if g.conn is not None and s in deal.np.seats and s not in gone]
        self.aborts.append([deal.number, sorted(gone)])
        begun = self._np_begin(deal.number, deal.tries + 1, sorted(gone))
        return Outcome(send + begun.send, begun.steps)

    def _np_status(self) -> dict:
        """The no-peek table's own lines: the host page's check of the deal in play (or, until
        it is done, its try aborted last), the deals aborted, and whether computers sit with
        friends (their cards are this page's)."""
        from ..nopeek import DealAbortedError

        np = self._played.np if self._played is not None else None
        outcome = np.outcome if np is not None else None
        if outcome is None and self.aborts and self._played is not None and self.aborts[-1][0] == self._played.number:
            outcome = DealAbortedError(self.aborts[-1][1])
        computers = any(s != HOST_SEAT and (s not in self.guests or self._absent(s)) for s in range(self.game.seats))
        return {"verification": None if outcome is None else self._np_verdict(outcome),
                "verification_deal": self._played.number if outcome is not None else None,
                "aborts": len(self.aborts),
                "computers_note": computers_note() if computers else None}

    def _np_verdict(self, outcome) -> str:
        """The host page's check of the deal in play, as a guest's page words its own."""
        from ..nopeek import DealAbortedError

        if isinstance(outcome, str):
            return outcome
        names = self.view(HOST_SEAT)["names"]

        def name(seat: int):
            return said.seat_name(self.game, seat, HOST_SEAT, names[seat])

        if isinstance(outcome, DealAbortedError):
            return said.deal_aborted(self.game, self._played.number, [name(s) for s in outcome.seats], len(self.aborts))
        reason = of_error(outcome)
        if getattr(outcome, "seat", None) is not None:
            reason = say(TABLE, "{reason} (seat: {seat})", reason=reason.rstrip("."), seat=name(outcome.seat))
        return reason

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
        the table's moves), the deals aborted."""
        deal = self._pending or self._played
        kept = None
        if deal is not None and deal.np is not None:
            kept = {"deal": deal.number, "tries": deal.tries, "secret": deal.np.dealing.reveal(), "log": deal.log,
                    "pages": [deal.np.pages[s] for s in range(self.game.seats)], "aborted": deal.aborted}
        return {"deal": kept, "aborts": self.aborts, "number": deal.number if deal is not None else 1,
                "results": self.match.results[:deal.number - 1] if self.match is not None and deal is not None else []}

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

        self.aborts = [[wire.deal_number(n, "deal"), wire.seats(who, "seats")] for n, who in wire.items(saved["aborts"], "aborts")]
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
        deal.np = NoPeekSeat(group(), self.game, np_match_id(self.match_id, deal.tries), number, HOST_SEAT,
                             dealer_of(self.game, number), dict(enumerate(pages)),
                             secret=wire.secret(kept["secret"], "secret"))
        replay_seat(deal.np, deal.log)
        if deal.np.dealt:
            self._np_after([])
        deal.told = len(deal.np.shown)
