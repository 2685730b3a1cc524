"""Who sits where at the host's table and what its page shows: the seats with their
presence (away, left, named), the clocks and the computers that take seats, the views and
the status."""

from __future__ import annotations

import copy
import random
from typing import Optional

from ...errors import NotYourTurnError
from ..lang import TABLE, _
from .. import said
from ..said import say
from . import wire
from .common import COMPUTER, TIMEOUT, computers_note, timeout_action
from .host_deal import DealDriver
from .host_table import NAMED_TWICE, _HostDeal
from .wire import HOST_SEAT, Outcome, WrongPhaseError

__all__ = ["HostSeats", "NotAGuestSeatError"]


class NotAGuestSeatError(wire.ProtocolError):
    """A call about a guest's seat named a seat that is not kept for a guest."""


class HostSeats(DealDriver):
    """The host's table with its seats, presence, clocks and computers, and what it shows."""

    # -- what the page shows ----------------------------------------------------------

    def view(self, seat: int = HOST_SEAT) -> Optional[dict]:
        """``seat``'s view as JSON data (``None`` until the first deal is dealt). The view
        of the host's page stays as it was while a card it may see now is still opening
        (its engine holds a stand-in there: never shown), ``None`` before the first; another
        seat's is ``None`` until the host's page may see every card that seat may."""
        if self.match is None:
            return None
        if not self._in_play.np.partial.settled(seat):
            shown = self._np_shown if seat == HOST_SEAT else None
            return None if shown is None else {**shown, "legal": []}   # no move until it is known
        return self.game.view(self.match, seat, self.names(seat)).to_json()

    def status(self) -> dict:
        """The table for the host's page: phase, deal number, match length, who is connected,
        ``waiting_for``, the people's seats the table waits on now (see :meth:`waiting_for`),
        and ``moves``, how many moves the deal in play has had (the page's silence hold
        starts again on each)."""
        return {"game": self.game.id, "seat": self.seat, "phase": self.phase,
                "deal": self._deal.number, "waiting_for": self.waiting_for(),
                "moves": len(self._in_play.actions) if self._pending is None else 0, **self._table(),
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
        if self._deal_done or self._in_play.np.outcome is not None:
            return []               # a deal found not fair mid-deal waits on nobody: no seat is blamed
        keys = [s for s in self._in_play.np.awaited() if s in self.guests]
        if self._match.deal.over:
            return keys
        turn = self._match.deal.turn
        mover = [turn] if turn in self.guests and not self._played_by_computer(turn) else []
        return sorted(set(mover + keys))

    def seats(self) -> list:
        """Who sits where: each seat's ``role`` (``host``, ``guest`` or ``computer``), whether
        its page is ``connected``, and for a person's seat whether a computer plays it now
        (``autopilot`` after three timeouts, ``away`` after the hold, ``left`` for good, ``unfair``
        for the rest of the match once the host's page found its page not fair twice)."""
        out = []
        for s in range(self.game.seats):
            guest = self.guests.get(s)
            out.append({"seat": s, "role": "host" if s == HOST_SEAT else "guest" if guest else "computer",
                        "connected": s == HOST_SEAT or (guest is not None and guest.conn is not None),
                        "autopilot": self.seating.autopilot(s),
                        "away": guest is not None and guest.away, "left": guest is not None and guest.left,
                        "unfair": guest is not None and self._unfair(s),
                        "name": self.host_name if s == HOST_SEAT else guest.name if guest else None})
        return out

    def _table(self) -> dict:
        length = self.game.lengths[self.length]
        return {"seats": self.seats(), "length": self.length, "length_name": length.name,
                "target": length.target, "clock": self.clock, "match_id": self.match_id}

    @property
    def actions(self) -> list:
        """The deal in play's actions so far, each ``[seat, action text]`` and the mark of a
        move the table made for a person's seat (a copy: read only)."""
        return [list(a) for a in self._in_play.actions] if self._played is not None else []

    @property
    def deal_steps(self) -> list:
        """The deal in play's steps: the dealing's, then one list per action (a copy)."""
        return [list(group) for group in self._in_play.steps] if self._played is not None else []

    @property
    def np_try(self) -> Optional[dict]:
        """The no-peek deal's try in play or being dealt, as its ``np-deal`` message says it:
        ``{"deal", "tries", "pages"}`` (``pages[s]``: the page that sees for seat *s*, 0 the
        host's), or ``None`` (no try begun)."""
        deal = self._pending or self._played
        return None if deal is None or deal.np_seat is None else self._np_try_of(deal)

    @property
    def dealing(self) -> Optional[_HostDeal]:
        """The deal in play's record (``number``, ``tries``, ``actions``, ``steps``, ``log``;
        ``None`` before the first deal is dealt): a copy, so reading it changes nothing."""
        return copy.deepcopy(self._played)

    def _np_status(self) -> dict:
        """The no-peek table's own lines: the host page's check of the deal in play (or, until
        it is done, its try aborted or stopped last), the deals aborted, whether computers sit
        with friends (their cards are this page's), and ``check_code``, the table check code of
        the try being dealt or in play (``None`` before every page's keys came)."""
        from ..nopeek import DealAbortedError, NotFairError

        np = self._in_play.np_seat if self._played is not None else None
        outcome = np.outcome if np is not None else None
        number = self._in_play.number if self._played is not None else None
        if outcome is None and self._stopped is not None and self._stopped[:2] == [number, len(self.aborts)]:
            outcome = self._stopped[2].np.outcome
        elif outcome is None and self.aborts and self.aborts[-1][0] == number:
            outcome = DealAbortedError(self.aborts[-1][1])
        if self._refuted is not None and self._refuted[0] == number and not isinstance(outcome, NotFairError):
            outcome = self._refuted[1]      # a page stopped this deal with no cause: said for the deal
        deal = self._pending or self._played
        code = deal.np_seat.check_code if deal is not None and deal.np_seat is not None else None
        computers = any(s != HOST_SEAT and (s not in self.guests or self._absent(s)) for s in range(self.game.seats))
        return {"verification": None if outcome is None else self._np_verdict(outcome),
                "verification_deal": self._in_play.number if outcome is not None else None,
                "aborts": len(self.aborts),
                "computers_note": computers_note() if computers else None, "check_code": code}

    def _np_verdict(self, outcome) -> str:
        """The host page's check of the deal in play, as a guest's page words its own."""
        from ..nopeek import DealAbortedError
        from ..nopeek_seat import DealStoppedError

        if isinstance(outcome, str):
            return outcome
        # The seats' names as a view names them, from the game alone (the host's view is None
        # while its first cards are still opening).
        names = self.game.blank_view(HOST_SEAT, self.names(HOST_SEAT), "")["names"]

        def name(seat: int):
            return said.seat_name(self.game, seat, HOST_SEAT, names[seat])

        if isinstance(outcome, DealAbortedError):
            named = [name(s) for s in outcome.seats]
            return said.deal_aborted(self.game, self._in_play.number, named, len(self.aborts))
        if isinstance(outcome, DealStoppedError) and outcome.host:
            return say(TABLE, "{seat}'s page found the host changed what it relays", seat=name(outcome.by))
        if isinstance(outcome, DealStoppedError):
            return said.deal_aborted(self.game, self._in_play.number, [], len(self.aborts),
                                     say(TABLE, "{seat}'s page found it not fair", seat=name(outcome.by)))
        return said.named_reason(outcome, name)


    # -- seats, presence and clocks ---------------------------------------------------

    def computer_seat(self) -> Optional[int]:
        """The seat to move if a computer plays it now (no person sits there, or its person
        is on autopilot, away or gone), else ``None``."""
        if self._pending is not None or self._deal_done:
            return None
        seat = self._match.deal.turn
        if not self._in_play.np.partial.settled(seat):
            return None             # its cards are still opening (no-peek): the table waits on their keys
        return seat if self._played_by_computer(seat) else None

    def clock_seat(self) -> Optional[int]:
        """The seat whose clock runs now: a person's, on their turn, at a table with a clock
        (the host's own only: a guest's page runs its own seat's clock)."""
        if self._pending is not None or self._deal_done:
            return None
        seat = self._match.deal.turn
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
            rng = random.Random(self.rng.getrandbits(64))
            bot = self._bots[seat] = self.game.new_bot(self.game.computer, seat, rng)
        return self.game.action_text(bot.choose(self.game.view(self.match, seat)))

    def _play(self, seat: int, text, mark: Optional[str] = None) -> Outcome:
        """Apply and record an action (``mark``: the table's move for a person's seat, see
        :data:`TIMEOUT`); tell the guests who are here."""
        return self._np_move(seat, text, mark)

    def _seat_given_up(self) -> Outcome:
        """A guest is away or gone: the deal it held up is dealt now (every view says who
        sits where), or else the others are told who sits where."""
        if self._pending is None and self._played is not None and not self._deal_done:
            gone = [s for s in self._in_play.np.seats if s != HOST_SEAT and self._absent(s)]
            if gone:
                aborted = self._np_abort(gone)
                return Outcome(self._presence().send + aborted.send, aborted.steps)
        dealt = self._np_ready()
        return dealt if dealt.send else self._presence()

    def _np_begin(self, number: int, tries: int, aborted: list) -> Outcome:
        """A try begins (:meth:`~.host_deal.DealDriver._np_begin`); while a computer plays a seat
        whose page was found not fair twice, every page is first told who sits where."""
        begun = super()._np_begin(number, tries, aborted)
        if not any(self._unfair(s) for s in self.guests):
            return begun
        return Outcome(self._presence().send + begun.send, begun.steps, moves=begun.moves)

    def _unfair(self, seat: int) -> bool:
        """Whether a computer plays guest ``seat`` for the rest of the match because the host's
        page found its page not fair twice: named twice, and out of the try being dealt or in
        play (a page named twice mid-try plays that try on)."""
        deal = self._pending or self._played
        np = deal.np_seat if deal is not None else None
        return self.named.get(seat, 0) >= NAMED_TWICE and (np is None or seat not in np.seats)

    def _presence(self, but: Optional[int] = None) -> Outcome:
        """Tell the connected guests (but ``but``) who sits where now."""
        table = wire.write(self.game.id, "table", seats=self.seats())
        return Outcome([(g.conn, table) for s, g in self.guests.items() if g.conn is not None and s != but], [])
