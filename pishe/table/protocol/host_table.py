"""What the host's side of a friends' table holds: the match, the seats kept for guests, and
the deal being dealt or in play (:class:`HostTable`, which :class:`~.host.Host` builds on)."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from ...errors import DealNotOverError, MatchOverError
from ..game import get_game
from ..match import Match
from ..lang import _
from ..seating import Seating
from .common import friend_names
from .wire import HOST_SEAT, DEALING, PLAYING, DEAL_OVER, MATCH_OVER, WrongPhaseError

if TYPE_CHECKING:
    from ..nopeek_seat import NoPeekSeat

__all__ = ["HostTable", "LONGEST_CLOCK", "NAMED_TWICE"]


@dataclass
class _HostDeal:
    """One deal's try on the host's side: the host page's seat of it and what happened in it."""

    number: int
    np_seat: Optional[NoPeekSeat] = None    # the host page's seat of this try, once begun
    tries: int = 0                      # tries of this deal aborted before this one
    aborted: list = field(default_factory=list)         # seats that left the last try of this deal
    actions: list = field(default_factory=list)         # [seat, action text, mark?]
    steps: list = field(default_factory=list)           # the host's shown steps: the dealing's, then one per action
    log: list = field(default_factory=list)             # every page's message, in relay order
    told: int = 0                       # groups of the host's shown steps already worded

    @property
    def np(self) -> NoPeekSeat:
        """The host page's seat of this try (:class:`WrongPhaseError` before it begins)."""
        if self.np_seat is None:
            raise WrongPhaseError(_("No deal is waiting for that message."))
        return self.np_seat


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


#: The longest clock a table may run, in seconds per move.
LONGEST_CLOCK = 600
#: How many times the host's page finds a guest's page not fair before a computer plays its seat.
NAMED_TWICE = 2


class HostTable:
    """The host's table as it stands: the game and its settings, the guests' seats, who plays
    each seat, and the deal being dealt or in play, with the phase they make.

    ``game_id`` is the game (``"pishe-pasha"``, ``"pisti"``), ``length`` its
    match length (the game's default if ``None``), ``guest_seats`` the seats
    kept for friends (every seat but the host's in a two-seat game; the rest
    are played by the game's computer). ``rng`` draws the seeds and the seat
    tokens (the system's cryptographic source unless a seeded generator is
    given, for tests).
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
        #: The deals aborted by pages gone with their keys, ``[deal, seats]``, and the tries
        #: stopped as not fair mid-deal, ``[deal, []]``: every try dealt again, counted.
        self.aborts: list = []
        #: How often the host's own page found each guest's page not fair this match (named
        #: alone: its message came straight from that page); at :data:`NAMED_TWICE` a computer
        #: plays that seat for the rest of the match.
        self.named: dict = {}
        # The last try stopped as not fair: [deal number, aborts counted then, its _HostDeal],
        # whose line the host's page shows until the deal's next try is checked; and the tries
        # stopped whose pages' secrets are still to come (to name who did not do what it
        # committed to), by (deal, try).
        self._stopped: Optional[list] = None
        self._unchecked: dict = {}
        # The guest whose np-unfair stopped each of those tries (by deal, try), its claim to be
        # checked on the try's secrets (DealDriver._np_claim).
        self._claims: dict = {}
        # The last claim found to have no cause: [deal number, the NotFairError naming its sender].
        self._refuted: Optional[list] = None
        # The host's view as it was at the last step where every card it may see was open (shown
        # while a card it may see now is still opening: a view is never made from stand-ins),
        # and that step's (moves, cards known).
        self._np_shown: Optional[dict] = None
        self._np_shown_at: Optional[tuple] = None
        self._earlier: list = []        # restored: the points of the deals before the one in play
        self._played: Optional[_HostDeal] = None                 # the deal in self._match.deal
        self._pending: Optional[_HostDeal] = _HostDeal(1)

    def _check_settings(self, length, clock) -> None:
        """Raise unless ``length`` is one of the game's match lengths (the game's
        InvalidMatchLengthError, naming them) and ``clock`` 1 to LONGEST_CLOCK seconds or ``None``
        (ValueError)."""
        if not isinstance(length, str) or length not in self.game.lengths:
            Match(self.game, length)      # raises InvalidMatchLengthError, naming the lengths
        if clock is not None and (type(clock) is not int or not 0 < clock <= LONGEST_CLOCK):
            raise ValueError(f"the clock must be 1 to {LONGEST_CLOCK} seconds per move, or none")

    @property
    def _deal(self) -> _HostDeal:
        """The deal being dealt, or else the deal in play."""
        deal = self._pending or self._played
        if deal is None:
            raise WrongPhaseError(_("No deal is being dealt."))
        return deal

    @property
    def _in_play(self) -> _HostDeal:
        """The deal in play (dealt: its match is :attr:`_match`'s deal)."""
        if self._played is None:
            raise WrongPhaseError(_("The cards are not dealt yet."))
        return self._played

    @property
    def _match(self) -> Match:
        """The match, once its first deal is dealt."""
        if self.match is None:
            raise WrongPhaseError(_("The cards are not dealt yet."))
        return self.match

    @property
    def connected(self) -> bool:
        """Whether every guest seat has a connected page."""
        return all(g.conn is not None for g in self.guests.values())

    @property
    def _deal_done(self) -> bool:
        """Whether the deal in play is over: its last move played and the host page's end
        check done (the scores need every card)."""
        return self._match.deal.over and self._in_play.np.outcome is not None

    @property
    def phase(self) -> str:
        """``dealing``, ``playing``, ``deal-over`` or ``match-over``."""
        if self._pending is not None:
            return DEALING
        if not self._deal_done:
            return PLAYING
        return MATCH_OVER if self._match.over else DEAL_OVER

    def names(self, seat: int) -> Optional[list]:
        """The seats' names from ``seat``'s side (see :func:`friend_names`)."""
        return friend_names(self.game, seat)

    @property
    def clock(self) -> Optional[int]:
        """Seconds per move for the people at the table, or ``None``."""
        return self.seating.clock

    def _np_hosts(self, seat: int) -> bool:
        """Whether the host's page sees for ``seat`` in the deal in play (no-peek)."""
        np = self._in_play.np_seat if self._played is not None else None
        return np is not None and np.pages.get(seat) == HOST_SEAT

    def _played_by_computer(self, seat: int) -> bool:
        if seat != HOST_SEAT and not self._np_hosts(seat):
            return False            # a person's page plays its own seat, timeouts included
        return self.seating.by_computer(seat, self._absent(seat))

    def _absent(self, seat: int) -> bool:
        """Whether a computer plays guest ``seat`` for its person: away, left, or its page found
        not fair twice this match by the host's page."""
        guest = self.guests.get(seat)
        return guest is not None and (guest.away or guest.left or self.named.get(seat, 0) >= NAMED_TWICE)

    def _check_playing(self) -> None:
        if self._pending is not None:
            raise WrongPhaseError(_("The cards are not dealt yet."))

    def _check_between_deals(self, finished: Optional[int] = None) -> None:
        if self._pending is not None:
            raise WrongPhaseError(_("Deal {number} is already being dealt.").format(number=self._pending.number))
        if not self._deal_done:
            raise DealNotOverError(_("The deal is still being played."))
        if self._match.over:
            raise MatchOverError(_("The match is over."))
        if finished is not None and finished != self._in_play.number:
            raise WrongPhaseError(_("Deal {number} is not the deal that just ended (deal {ended}).").format(
                number=finished, ended=self._in_play.number))
