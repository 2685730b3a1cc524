"""What a guest's page holds of its table: the game and seat the host's welcome gave it, the
table as the host announced it, its ledger (what it must not forget across a reload), and its
check of each deal as it says it (:class:`GuestTable`, which :class:`~.guest.Guest` builds on)."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Optional

from ...errors import PisheError
from ..lang import TABLE, _, lower
from .. import said, said_again
from ..said import lowered, say
from . import wire
from .record import Record
from .wire import VERSION, CorruptSaveError, MalformedMessageError, NotConnectedError, WrongPhaseError

if TYPE_CHECKING:
    from ..game import Game
    from ..nopeek_seat import NoPeekSeat

__all__ = ["GuestTable", "HOST_NOT_FAIR_LIMIT"]

#: How many times in a match a guest's page finds the host not fair before it takes no new try
#: from it (a host that cheats on every try would have the deal dealt again for ever).
HOST_NOT_FAIR_LIMIT = 2

#: What a game's wording functions may raise on data that is not a step or view of theirs
#: (they check the data they read, not data they were never meant to read).
_UNREADABLE = (PisheError, KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)


class GuestTable:
    """A guest page's table as it stands: its seat, the host's table, its ledger, the numbered
    messages it writes, and its check of each deal (:attr:`verification`)."""

    def __init__(self, token: Optional[str] = None, rng: Optional[random.Random] = None,
                 ledger: Optional[str] = None):
        """A guest page, new or resuming the seat of ``token``."""
        self.token: Optional[str] = wire.token(token, "the seat token")
        self.rng = rng if rng is not None else random.SystemRandom()
        #: The game, once the host's welcome has named it.
        self.game: Optional[Game] = None
        #: The seat the host gave this page (``None`` until welcomed).
        self.seat: Optional[int] = None
        #: Seats, match length, target and clock as the host announced them (the seats
        #: as its latest message had them).
        self.table: Optional[dict] = None
        #: :data:`~.wire.VERIFIED`, a warning, or ``None`` before any deal has been checked.
        self.verification: Optional[str] = None
        #: The deal :attr:`verification` is about.
        self.verification_deal: Optional[int] = None
        self._seq: Optional[int] = None
        self._view: Optional[dict] = None
        self._view_language: Optional[str] = None   # the language self._view was worded in
        self._unfair = False                 # a warning that a deal was not fair is showing
        self._match_id: Optional[str] = None
        # Every try this page dealt in and that was never finished, in any match at this
        # table: [deal, seats named as the cause, or None for the host].
        self._aborts: list = []
        self._clock: Optional[list] = None    # [match id, seconds per move]: fixed for the match
        self._resuming = False               # said hello, and no message of a deal came since
        self._left = False                   # this page left the table
        # This page's NoPeekSeat of the deal in play, [deal, try, secret, done] (kept in its
        # ledger: with the host's log it rebuilds the deal after a reload), each finished
        # deal's points by team from its own engine, and the groups of steps worded.
        self._np: Optional[NoPeekSeat] = None
        self._np_key: Optional[list] = None
        self._np_rec: Optional[Record] = None     # this page's own record of the try it holds
        # The try another page's np-unfair stopped, [deal, try] and this page's seat of it, while
        # its secrets come (GuestDeal._np_check_claim); not kept across a reload.
        self._np_stopped: Optional[tuple] = None
        self._over = False                   # the match was over on this page's own engine
        # How often this page's own check found the host not fair in this match; at
        # HOST_NOT_FAIR_LIMIT it takes no new try from the host (_refusing: the deal number).
        self._host_named = 0
        self._refusing: Optional[int] = None
        self._np_results: dict = {}
        self._np_told = 0
        if ledger is not None:
            self._read_ledger(ledger)

    @property
    def _game(self) -> Game:
        """The game the host's welcome named."""
        if self.game is None:
            raise NotConnectedError(_("Wait for the host's welcome."))
        return self.game

    @property
    def _seat(self) -> int:
        """The seat the host's welcome gave this page."""
        if self.seat is None:
            raise NotConnectedError(_("Wait for the host's welcome."))
        return self.seat

    @property
    def _seat_np(self) -> NoPeekSeat:
        """This page's seat of the try in play."""
        if self._np is None or self._np_key is None:
            raise WrongPhaseError(_("The cards are not dealt yet."))
        return self._np

    @property
    def _key(self) -> list:
        """``[deal, try, secret, done]`` of the try this page holds."""
        if self._np_key is None:
            raise WrongPhaseError(_("The cards are not dealt yet."))
        return self._np_key

    @property
    def seq(self) -> Optional[int]:
        """The sequence number this page's next message to the host carries (``None``
        before the host's welcome)."""
        return self._seq

    def ledger(self) -> str:
        """What this page must not forget of the match, as short text for the page to keep in
        its tab (sessionStorage) after every call and pass to a new :class:`Guest` or
        :meth:`restore`: its secret of the try in play, the aborts it counted, the clock the
        match began with, each finished deal's points, and the warning it gave, if any. A
        page that joins afresh or reloads then still counts them and still says the match is
        not fair."""
        warning = [self.verification_deal, said.data_of([self.verification])[0]] if self._unfair else None
        return json.dumps({"v": VERSION, "match_id": self._match_id, "warning": warning,
                           "aborts": self._aborts, "clock": self._clock, "np": self._np_key,
                           "np_record": self._np_rec.data() if self._np_rec is not None else None,
                           "over": self._over, "host_named": self._host_named, "refusing": self._refusing,
                           "np_results": sorted(self._np_results.items())}, separators=(",", ":"))

    def _read_ledger(self, text: str) -> None:
        try:
            data = json.loads(text)
            wire.check(data["v"] == VERSION, "another version")
            match_id = wire.optional(wire.match_id)(data["match_id"], "match_id")
            warning = data["warning"]
            if warning is not None:
                warning = [wire.deal_number(warning[0], "deal"), said_again.kept(warning[1])]
            aborts = [[wire.deal_number(n, "deal"), wire.optional(wire.seats)(who, "who")]
                      for n, who in wire.items(data["aborts"], "aborts")]
            clock = data["clock"]
            if clock is not None:
                clock = [wire.match_id(clock[0], "match_id"), wire.optional(wire.whole)(clock[1], "clock")]
            np_key = data["np"]
            if np_key is not None:
                wire.check(isinstance(np_key, list) and len(np_key) == 4, "np")
                np_key = [wire.deal_number(np_key[0], "deal"), wire.whole(np_key[1], "tries"),
                          wire.secret(np_key[2], "secret"), np_key[3] is True or None]
            np_results = {wire.deal_number(n, "deal"): wire.items(points, "points")
                          for n, points in wire.items(data["np_results"], "np_results")}
            record = data.get("np_record")
            record = None if record is None or np_key is None else Record.of(record)
            host_named = wire.whole(data.get("host_named", 0), "host_named")
            refusing = wire.optional(wire.deal_number)(data.get("refusing"), "refusing")
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the page's ledger cannot be read ({error})").format(error=e)) from None
        self._np_key, self._np_results, self._np_rec = np_key, np_results, record
        self._over = data.get("over") is True
        self._host_named, self._refusing = host_named, refusing
        self._match_id, self._aborts, self._clock = match_id, aborts, clock
        if warning is not None:
            self._unfair = True
            self.verification_deal, self.verification = warning

    def _seat_flag(self, flag: str) -> bool:
        """Whether the host's table says ``flag`` (``away``, ``unfair``) of this page's seat."""
        seats, seat = (self.table or {}).get("seats") or [], self.seat
        return (seat is not None and seat < len(seats) and isinstance(seats[seat], dict)
                and seats[seat].get(flag) is True)

    def _view_deal(self) -> int:
        return self._view["match"]["deal"] if self._view is not None else 0

    def _deal_in_play(self) -> int:
        """The number of the deal this page holds a try of (1 before any)."""
        return self._np_key[0] if self._np_key else 1

    def _write(self, kind: str, **values) -> str:
        if self._seq is None or self.game is None:
            raise NotConnectedError(_("Wait for the host's welcome."))
        return wire.write(self.game.id, kind, **values)

    def _numbered(self, kind: str, **values) -> str:
        message = self._write(kind, seq=self._seq, **values)
        self._seq = (self._seq or 0) + 1
        return message

    def _seat_name(self, seat: int) -> str:
        """A seat's name as this page words it (its own view's names, never the host's)."""
        names = self._view.get("names") if self._view is not None else None
        name = names[seat] if isinstance(names, list) and seat < len(names) else None
        if isinstance(name, str) and name:
            return said.seat_name(self._game, seat, self._seat, name)
        return say(TABLE, "seat {seat}", seat=seat)

    def _words(self, start: int) -> list:
        """The words of the steps this page was shown from group ``start`` on."""
        try:
            return self._seat_np.words(start)
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    def _motions(self, groups: list) -> list:
        """The cards the steps in ``groups`` moved (read already by :meth:`_words`)."""
        try:
            return [move for group in groups if group is not None for shown in group
                    for move in self._game.motion(shown, self._seat)]
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None


    # -- its check of each deal -------------------------------------------------------

    def _abort(self, number: int, seats: Optional[list], reason: str) -> None:
        """A try this page dealt in was never finished: counted for good, and shown.
        ``reason`` is what the host did, said when no ``seats`` are named as having left."""
        self._aborts.append([number, seats])
        named = [self._seat_name(s) for s in seats or [] if s != self.seat]
        self._record(number, said.deal_aborted(self.game, number, named,
                                               len(self._aborts), reason, self.seat in (seats or [])))

    def _deal_word(self):
        """The game's word for a deal (Pişti's "Deck"), for the lines that begin with it."""
        return said.deal_word(self.game) if self.game is not None else say(TABLE, "Deal")

    def _not_fair(self, number: int, reason: str) -> str:
        reason = lowered(reason) if isinstance(reason, said.Said) else lower(reason[:1]) + reason[1:]
        return say(TABLE, "{deal} {number} is not fair: {reason}", deal=self._deal_word(), number=number, reason=reason)

    def _warn(self, number: int, reason: str) -> None:
        """Deal ``number`` was not fair: say so, and keep saying so for the match."""
        warning = self._not_fair(number, reason)
        if not self._unfair:
            self._unfair = True
            self.verification, self.verification_deal = warning, number

    def _host_not_fair(self, number: int) -> None:
        """This page's own check found the host not fair in deal ``number``: counted for the
        match; at :data:`HOST_NOT_FAIR_LIMIT` the page takes no new try from the host, and says
        so (in the game's word for a deal), for the player to leave the table."""
        self._host_named += 1
        if self._host_named < HOST_NOT_FAIR_LIMIT:
            return
        self._refusing = number
        self._unfair = True
        self.verification_deal = number
        self.verification = say(TABLE, "This page found the host not fair twice in this match: it takes no new "
                                       "{deal} from the host. You may leave the table.",
                                deal=lowered(self._deal_word()))

    def _record(self, number: int, verification: str) -> None:
        if not self._unfair:
            self.verification, self.verification_deal = verification, number
