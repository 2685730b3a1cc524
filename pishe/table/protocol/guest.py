"""The guest's side of a friends' table: intents out, its own seat's view and steps in.

A :class:`Guest` keeps what its seat was shown of each deal (the moves, which
are public, the steps as the host showed them to this seat, and a fingerprint
of every board: :mod:`.audit` holds that record and the checks) and, once the
host reveals the deal's seed, replays the deal with the game's own rules to
check that the deck was the one fixed before any part of the shuffle was seen
and that every step and board it was shown is that deal's.

It trusts the host with nothing it can check itself. It commits to a fresh part
of the shuffle and reveals it only once every seat's commitment is fixed, and
keeps count of every shuffle it revealed a part to that was never dealt (an
abort, shown; :meth:`Guest.ledger`, kept by the page in its tab after every
call, carries the count across reloads and matches). Every move of its own seat
must be one it asked for, or one the table made for it that this page saw
coming (its clock had run out, and then the first legal move of its own view;
or it was away, or on autopilot). A gap in the moves, a deal dealt without its
part, a seed never revealed, a changed clock, a board changed after the check:
each reads "Deal N is not fair: …". Every sentence it shows is its own: steps
and views are worded from their data (whose numbers must be numbers) and the
host's refusals by their code, never with the host's text.
"""

from __future__ import annotations

import copy
import json
import random
import time
from typing import Callable, Optional

from ...errors import PisheError
from ..lang import N_, TABLE, _, lower
from .. import said
from ..said import lowered, of_error, say
from ..fair import board_digest, new_secret, part_commitment
from ..game import get_game, is_game
from . import audit, wire
from .audit import DealRecord
from ..seating import TIMEOUTS_TO_AUTOPILOT
from .host import COMPUTER, TIMEOUT, friend_names, timeout_action
from .nopeek_deal import dealer_of, np_match_id, replay_seat
from .wire import (CONNECTING, DEAL_OVER, DEALING, MATCH_OVER, MAX_HOST_MESSAGE, PLAYING, VERIFIED,
                   VERSION, CorruptSaveError, MalformedMessageError, NotConnectedError, Outcome,
                   UnknownTokenError, WrongPhaseError)

__all__ = ["Guest", "CLOCK_SLACK", "REFUSALS"]

#: Seconds by which a move the host marks as this seat's clock running out may come
#: early, as this page measured it (the two pages' clocks and the channel's delay differ).
CLOCK_SLACK = 2.0

#: The guest's own sentence for each refusal the host may answer, by the error's code
#: (the host's own words are never shown: a host could print anything in them).
REFUSALS = {
    "not-your-turn": N_("It is not your turn."),
    "unknown-action": N_("The host does not know that move."),
    "illegal-action": N_("That move is not allowed now."),
    "deal-over": N_("The deal is over."),
    "deal-not-over": N_("The deal is still being played."),
    "match-over": N_("The match is over."),
    "wrong-phase": N_("The table is not ready for that yet."),
    "part-mismatch": N_("The host says your part of the shuffle is not the one you committed to."),
    "replayed-message": N_("The host had that message already."),
    "out-of-order-message": N_("A message of yours reached the host out of order."),
    "not-connected": N_("The host does not count this page as connected: say hello again."),
    "seat-taken": N_("Every seat for a friend is taken."),
    "unknown-token": N_("The host does not know this page's seat: joining the table afresh."),
    "message-too-long": N_("A message of yours was too long for the host."),
    "message-too-deep": N_("A message of yours was too deeply nested for the host."),
    "malformed-message": N_("The host could not read a message of yours."),
    "unsupported-version": N_("The host's page runs another version of the game: both pages need the same."),
    "wrong-game": N_("The host's table plays another game."),
    "unknown-message-type": N_("The host does not know a message of yours."),
}
_REFUSED = N_("The host refused a message of yours.")
#: What a game's wording functions may raise on data that is not a step or view of theirs
#: (they check the data they read, not data they were never meant to read).
_UNREADABLE = (PisheError, KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)


class Guest:
    """The guest's side of a table: intents out, its own seat's view and the steps it may see in.

    ``token`` is the seat token of an earlier connection (kept by the page in
    sessionStorage) to resume that seat; ``rng`` draws this page's parts of
    the shuffle (the system's cryptographic source unless given);
    ``ledger`` is :meth:`ledger`'s text as the page kept it, so that a page
    that joins afresh still never gives a second part to a deal of the match,
    and knows the moves it asked for; ``clock`` tells the time in seconds for the moves the host says
    this seat's clock ran out on (:func:`time.monotonic` unless given, for
    tests). Send :meth:`hello` when the data channel opens, then pass every
    message received to :meth:`receive` and send what it returns. The game
    is the one the host's welcome names.

    After each deal the host reveals its seed and the guest checks the deal:
    :attr:`verification` is then :data:`~.wire.VERIFIED` or a warning in plain
    words, for deal :attr:`verification_deal`. A warning that the host cheated
    ("Deal N is not fair: …") stays for the rest of the match.
    """

    def __init__(self, token: Optional[str] = None, rng: Optional[random.Random] = None,
                 ledger: Optional[str] = None, clock: Callable[[], float] = time.monotonic):
        """A guest page, new or resuming the seat of ``token``."""
        self.token: Optional[str] = wire.token(token, "the seat token")
        self.rng = rng if rng is not None else random.SystemRandom()
        #: The game, once the host's welcome has named it.
        self.game = None
        #: The seat the host gave this page (``None`` until welcomed).
        self.seat: Optional[int] = None
        #: Seats, match length, target and clock as the host announced them (the seats
        #: as its latest message had them).
        self.table: Optional[dict] = None
        #: :data:`~.wire.VERIFIED`, a warning, or ``None`` before any deal has been checked.
        self.verification: Optional[str] = None
        #: The deal :attr:`verification` is about.
        self.verification_deal: Optional[int] = None
        self._now = clock
        self._seq: Optional[int] = None
        self._view: Optional[dict] = None
        self._deals: dict[int, DealRecord] = {}
        self._unfair = False                 # a warning that the host cheated is showing
        self._match_id: Optional[str] = None
        # Every part of the shuffle made in this match: deal -> [seat, commitment, part,
        # revealed (the deal's seed came), sent (this part was shown to the host), dealt (a
        # deal was dealt with it)].
        self._ledger: dict[int, list] = {}
        # Every shuffle this page showed its part to and that was never dealt, in any match
        # at this table: [deal, seats named as the cause, or None for the host].
        self._aborts: list = []
        self._clock: Optional[list] = None    # [match id, seconds per move]: fixed for the match
        self._results: Optional[list] = None  # each checked deal's points by team, while unbroken
        # The moves of the deal in play this page asked for and the host did not refuse:
        # [deal, [[seq, action], …]]. Its seat's k-th move (unless the table's) is the k-th.
        self._asked: list = [None, []]
        self._resuming = False               # this page said hello: the next state may skip moves
        self._turn_since: Optional[float] = None   # when the view giving this seat the turn came
        self._timeouts = 0                   # this seat's clock ran out so many times in a row
        self._taking_over = False            # asked to take the seat back; the host has not shown it yet
        self._left = False                   # this page left the table
        # No-peek dealing: this page's NoPeekSeat of the deal in play, [deal, try, secret]
        # (kept in its save: with the host's log it rebuilds the deal after a reload), each
        # finished deal's points by team from its own engine, and the groups of steps worded.
        self._np = None
        self._np_key: Optional[list] = None
        self._np_results: dict = {}
        self._np_told = 0
        self._np_back = False                # said hello, and no message of a deal came since
        if ledger is not None:
            self._read_ledger(ledger)

    # -- what the page shows ----------------------------------------------------------

    def view(self) -> Optional[dict]:
        """This seat's view as the host last sent it (``None`` before the first deal). At a
        no-peek table, while this page sits the deal in play out (:meth:`sits_out`): its
        seat's place at the table, saying that it plays from the next deal."""
        if self.sits_out():
            deal = said.lowered(self._deal_word())
            return self.game.blank_view(self.seat, friend_names(self.game, self.seat), say(
                TABLE, "A computer plays your seat for now: you play when the next {deal} is dealt.", deal=deal))
        return self._view

    def sits_out(self) -> bool:
        """Whether a computer run by the host's page plays this seat in the deal in play, dealt
        without this page (no-peek): it came mid-deal to a seat the host shows as the
        computer's, or the try it dealt in was aborted and no new one has come to it. No page
        can show it that deal's board: only the host's page knows the seat's cards."""
        from ..nopeek import DealAbortedError

        if self.game is None or self.seat is None or self._seq is None:
            return False
        if self._np is not None:
            return isinstance(self._np.outcome, DealAbortedError)
        seats = (self.table or {}).get("seats") or []
        away = self.seat < len(seats) and isinstance(seats[self.seat], dict) and seats[self.seat].get("away") is True
        # A page that never dealt with this host (no key) and was sent no board is at a no-peek table.
        return away and (self._np_key is not None or self._view is None)

    @property
    def seq(self) -> Optional[int]:
        """The sequence number this page's next message to the host carries (``None``
        before the host's welcome)."""
        return self._seq

    def deal_record(self, number: Optional[int] = None) -> Optional[DealRecord]:
        """What this page knows of deal ``number`` (by default the deal its view shows), as
        its audit keeps it (:class:`~.audit.DealRecord`), or ``None``: a copy, so reading it
        changes nothing."""
        if number is None:
            number = self._view_deal() if self._view is not None else None
        return copy.deepcopy(self._deals.get(number))

    @property
    def phase(self) -> str:
        """``connecting``, ``dealing``, ``playing``, ``deal-over`` or ``match-over``."""
        if self._seq is None:
            return CONNECTING
        if self.sits_out():
            return PLAYING              # the others play the deal: this page's seat is the computer's
        if self._np is not None and (not self._np.dealt or self._view is None
                                     or self._view_deal() != self._np_key[0]):
            return DEALING
        if self._view is None or max(self._deals, default=0) > self._view_deal():
            return DEALING
        match = self._view["match"]
        if match.get("over"):
            return MATCH_OVER
        return DEAL_OVER if self._view.get("turn") is None else PLAYING

    def status(self) -> dict:
        """The table for the guest's page: game, seat, phase, match length, the deal check.

        A deal shown over whose seed has not come reads as not fair: the host
        sends the seed with the deal's last move, so only a host hiding it
        leaves it so.
        """
        verification, deal = self.verification, self.verification_deal
        record = self._deals.get(self._view_deal()) if self._view is not None else None
        if (not self._unfair and record is not None and record.dealt and not record.checked
                and self.phase in (DEAL_OVER, MATCH_OVER)):
            verification, deal = self._not_fair(record.number, say(TABLE, "the host ended it without revealing "
                                                                  "the seed it committed to.")), record.number
        return {"game": self.game.id if self.game else None, "seat": self.seat, "phase": self.phase,
                "deal": self._np_key[0] if self._np_key else max(self._deals, default=None), **(self.table or {}),
                "verification": said.now(verification), "verification_deal": deal, "aborts": len(self._aborts),
                **({"computers_note": self._computers_note()} if self._np is not None else {})}

    def _computers_note(self) -> Optional[str]:
        """A no-peek table's sentence when computers sit with friends (their cards are the host
        page's: the deal's try says which seats' page is the host's), or ``None``."""
        from .host import computers_note

        seats = (self.table or {}).get("seats") or []
        computers = any(s.get("role") == "computer" or s.get("away") or s.get("left") for s in seats)
        computers = computers or any(s != page for s, page in self._np.pages.items() if page == 0)
        return computers_note() if computers else None

    def ledger(self) -> str:
        """What this page gave and asked for in the match (its parts of the shuffle, the
        moves it asked for in the deal in play) and the warning it gave, if any, as short
        text for the page to keep in its tab (sessionStorage) after every call and pass to
        a new :class:`Guest` or :meth:`restore`: a page that joins afresh or reloads then
        still never gives a second part to the same deal, knows its own moves, and still
        says the match is not fair."""
        warning = [self.verification_deal, said.data_of([self.verification])[0]] if self._unfair else None
        return json.dumps({"v": VERSION, "match_id": self._match_id, "asked": self._asked, "warning": warning,
                           "deals": [[n, *entry] for n, entry in sorted(self._ledger.items())],
                           "aborts": self._aborts, "clock": self._clock, "np": self._np_key,
                           "np_results": sorted(self._np_results.items())}, separators=(",", ":"))

    def _read_ledger(self, text: str) -> None:
        try:
            data = json.loads(text)
            wire.check(data["v"] == VERSION, "another version")
            match_id = wire.optional(wire.match_id)(data["match_id"], "match_id")
            deal, moves = wire.items(data["asked"], "asked")
            asked = [wire.optional(wire.deal_number)(deal, "deal"),
                     [[wire.whole(seq, "seq"), wire.action_text(action, "action")]
                      for seq, action in wire.items(moves, "asked")]]
            warning = data["warning"]
            if warning is not None:
                warning = [wire.deal_number(warning[0], "deal"), said.kept(warning[1])]
            ledger = {}
            for n, seat, commitment, part, revealed, sent, dealt in wire.items(data["deals"], "deals"):
                ledger[wire.deal_number(n, "deal")] = [wire.whole(seat, "seat"), wire.secret(commitment, "c"),
                                                       wire.secret(part, "part"), revealed is True,
                                                       sent is True, dealt is True]
            aborts = [[wire.deal_number(n, "deal"), wire.optional(wire.seats)(who, "who")]
                      for n, who in wire.items(data["aborts"], "aborts")]
            clock = data["clock"]
            if clock is not None:
                clock = [wire.match_id(clock[0], "match_id"), wire.optional(wire.whole)(clock[1], "clock")]
            np_key = data.get("np")
            if np_key is not None:
                wire.check(isinstance(np_key, list) and len(np_key) == 4, "np")
                np_key = [wire.deal_number(np_key[0], "deal"), wire.whole(np_key[1], "tries"),
                          wire.secret(np_key[2], "secret"), np_key[3] is True or None]
            np_results = {wire.deal_number(n, "deal"): wire.items(points, "points")
                          for n, points in wire.items(data.get("np_results", []), "np_results")}
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the page's ledger cannot be read ({error})").format(error=e)) from None
        self._np_key, self._np_results = np_key, np_results
        self._match_id, self._ledger, self._asked = match_id, ledger, asked
        self._aborts, self._clock = aborts, clock
        if warning is not None:
            self._unfair = True
            self.verification_deal, self.verification = warning

    def _view_deal(self) -> int:
        return self._view["match"]["deal"]

    # -- messages to the host ---------------------------------------------------------

    def _write(self, kind: str, **values) -> str:
        if self._seq is None or self.game is None:
            raise NotConnectedError(_("Wait for the host's welcome."))
        return wire.write(self.game.id, kind, **values)

    def hello(self) -> str:
        """The message that opens (or reopens) the connection, with the seat token if any.

        It says how many moves of the latest deal this page holds, so the
        host resends only the rest. Before a welcome the game is not known
        yet; the hello names the game of the table this page last sat at.
        Moves this page missed while it was away may be skipped in the answer
        (the deal then cannot be checked); on a live connection they may not.
        """
        self._resuming = self._np_back = True
        return self._hello()

    def _hello(self) -> str:
        followed = [d for d in self._deals.values() if d.dealt and not d.late]
        latest = max(followed, key=lambda d: d.number, default=None)
        have = None if latest is None else {"deal": latest.number, "actions": len(latest.actions)}
        game_id = self.game.id if self.game else None
        return json.dumps({"v": VERSION, "game": game_id, "type": "hello", "token": self.token,
                           "have": have}, separators=(",", ":"))

    def intent(self, action: str) -> str:
        """The message asking for ``action`` (its text form: ``give``, ``7H``).

        The host decides whether it is legal; send one intent and wait for
        the reply before the next. The guest remembers it: the move may only
        appear in the deal as asked, and in order.
        """
        if self.game is None:
            raise NotConnectedError(_("Wait for the host's welcome."))
        text = self.game.action_text(self.game.parse_action(action))
        message = self._write("act", seq=self._seq, action=text)
        deal = self._view_deal() if self._view is not None else None
        if self._asked[0] != deal:
            self._asked = [deal, []]
        self._asked[1].append([self._seq, json.loads(message)["action"]])
        self._seq += 1
        return message

    def next_deal(self) -> str:
        """The message asking the host to deal the next deal (once this one is over)."""
        if self._view is None:
            raise WrongPhaseError(_("No deal has been played yet."))
        return self._numbered("next-deal", deal=self._view_deal())

    def take_over(self) -> str:
        """The message saying this person plays their seat again (a computer was playing it).

        The count of timeouts starts again: once the host shows the seat taken back, a
        computer's move for it is the host's doing (unless three more timeouts come)."""
        self._timeouts, self._taking_over = 0, True
        return self._numbered("take-over")

    def name(self, name: Optional[str]) -> str:
        """The message giving this seat the name ``name`` (``None``: none), checked as
        :func:`~.wire.player_name`: raises :class:`~.wire.MalformedMessageError` for one
        that is not."""
        return self._numbered("name", name=wire.optional(wire.player_name)(name, "name"))

    def leave(self) -> str:
        """The message leaving the table: a computer plays this seat for good."""
        message = self._numbered("leave")
        self._left = True
        return message

    def _numbered(self, kind: str, **values) -> str:
        message = self._write(kind, seq=self._seq, **values)
        self._seq += 1
        return message

    # -- the host's messages ----------------------------------------------------------

    def receive(self, message) -> Outcome:
        """Handle one message from the host; returns the replies to send.

        Raises a :class:`~.wire.ProtocolError` (and changes nothing) for a message
        the host should never send. A problem with the fairness of a deal is
        not an exception: it shows in :attr:`verification`.
        """
        data = wire.parse(message, MAX_HOST_MESSAGE, wire.HOST_MESSAGES,
                          self.game.id if self.game else None)
        kind, values = data["type"], wire.fields(data, wire.HOST_MESSAGES[data["type"]])
        if kind == "welcome":
            return self._welcome(data.get("game"), values)
        if kind == "error":
            return self._error(values)
        if self._seq is None:
            raise NotConnectedError(_("The host sent a message before its welcome."))
        if kind == "deal-commit":
            return self._commit(values["deal"], values["commitment"], values["aborted"])
        if kind == "deal-parts":
            return self._parts(values["deal"], values["parts"])
        if kind == "view":
            return self._receive_view(values)
        if kind == "np-deal":
            return self._np_deal(values)
        if kind == "np":
            return self._np_take(values["deal"], values["message"])
        if kind == "np-abort":
            return self._np_aborted(values["deal"], values["seats"])
        if kind == "table":
            wire.check(len(values["seats"]) == self.game.seats, "the table must list every seat")
            self.table = {**(self.table or {}), "seats": values["seats"]}
            return Outcome([], [])
        return self._reveal(values["deal"], values["seed"])

    def _welcome(self, game_id, values: dict) -> Outcome:
        wire.check(is_game(game_id), f"the welcome names no game this page knows ({wire.quote(game_id)})")
        game = get_game(game_id)
        wire.check(values["token"] is not None, "the welcome lacks the seat token")
        wire.check(0 < values["seat"] < game.seats, "the welcome gives no guest seat")
        wire.check(len(values["seats"]) == game.seats, "the welcome must list every seat")
        length = game.lengths.get(values["length"])
        wire.check(length is not None and values["target"] == length.target,
                   f"the welcome names no match length of {game.name}")
        if values["match_id"] != self._match_id or (self.game is not None and self.game.id != game_id):
            self._new_match(values["match_id"])
        if self._clock is not None and self._clock[0] == values["match_id"] and self._clock[1] != values["clock"]:
            number = max([*self._ledger, *self._deals], default=1)
            self._warn(self._deals.get(number), number, say(TABLE, "the host changed the clock in the middle of the match."))
            values = {**values, "clock": self._clock[1]}      # the match's clock stays the one it began with
        self._clock = [values["match_id"], values["clock"]]
        self.game = game
        self.token, self.seat, self._seq = values["token"], values["seat"], values["seq"]
        # Intents the host never received were lost with the connection: they will not be played.
        self._asked[1] = [i for i in self._asked[1] if i[0] < self._seq]
        # The length's name in this page's words, not the host's.
        self.table = {**{key: values[key] for key in ("seats", "length", "target", "clock")},
                      "length_name": length.name}
        return Outcome([], [])

    def _new_match(self, match_id: str) -> None:
        """Another match at the table: its deals are another's, but a shuffle of the old one
        that this page showed its part to and that was never dealt is an abort (counted for
        good: a new match wipes nothing of it), and a deal it was dealt and never saw revealed
        is the host's leaving it."""
        for n, (*_given, revealed, sent, dealt) in sorted(self._ledger.items()):
            if sent and not dealt:
                self._abort(n, None, say(TABLE, "the host started another match"))
            elif dealt and not revealed and self._match_id is not None:
                self._warn(None, n, say(TABLE, "the host left it unfinished and started another match."))
        self._match_id, self._ledger, self._results = match_id, {}, []
        self._deals, self._view, self._asked = {}, None, [None, []]
        self._np, self._np_key, self._np_results = None, None, {}

    def _error(self, values: dict) -> Outcome:
        send = []
        if values["next_seq"] is not None and self._seq is not None:
            self._seq = values["next_seq"]
        # A refused intent will not be played (one already played stays: a refusal of a
        # message sent again cannot take it back).
        played = self._played_asked(self._deals.get(self._asked[0]))
        self._asked[1] = self._asked[1][:played] + [i for i in self._asked[1][played:] if i[0] != values["ref"]]
        if values["code"] == wire.error_code(UnknownTokenError()) and self.token is not None:
            # A table that does not know our token: join it afresh. What this page gave and
            # saw of the match stays: a host cannot wipe it by refusing a token.
            if not self._resuming:
                # Only a page back from away can have lost its seat to another page: on a
                # live connection a refused token is the host's way to ask everything again.
                number = max([*self._ledger, *self._deals], default=1)
                self._warn(self._deals.get(number), number, say(TABLE, "the host refused this page's seat token "
                                                              "while it was connected."))
            self.token = None
            send.append(self._hello())
        code = values["code"]
        if self.game is not None and code in self.game.refusals:
            # A refusal for a cause of the game's own, in the game's words.
            return Outcome(send, [], self.game.word(self.game.refusals[code]))
        return Outcome(send, [], _(REFUSALS.get(code, _REFUSED)))

    def _commit(self, number: int, commitment_hex: str, aborted: list) -> Outcome:
        """The host's commitment to its seed for deal ``number``: this page commits to a
        fresh part of its own. Before this page has shown its part nothing is lost by asking
        again (the host has seen nothing of it). A shuffle it showed its part to and that the
        host starts again is an **abort**, counted and shown (the host saw a deck it did not
        deal): the seats the host names as having left before revealing theirs, or the host."""
        record = self._deals.get(number)
        if record is not None and record.dealt:
            self._warn(record, number, say(TABLE, "the host asked for your part of the shuffle after dealing the cards."))
            return Outcome([], [])
        given = self._ledger.get(number)
        if given is not None and given[4]:
            seats = [s for s in aborted if s != self.seat and 0 <= s < self.game.seats] or None
            self._abort(number, seats, say(TABLE, "the host shuffled it again after seeing your part"))
        elif given is None:
            self._check_before(number)
        elif given[1] == commitment_hex and given[0] == self.seat:
            # The same commitment again (a message lost on the way): the same answer.
            return Outcome([self._part_message(number, given[2])], [])
        self._resuming = False
        part = new_secret(self.rng)
        self._ledger[number] = [self.seat, commitment_hex, part, False, False, False]
        self._keep(DealRecord(number, commitment_hex, part))
        return Outcome([self._part_message(number, part)], [])

    def _part_message(self, number: int, part: str) -> str:
        return self._numbered("deal-part", deal=number,
                              commitment=part_commitment(part, self.game.id, self._match_id, number, self.seat))

    def _parts(self, number: int, parts: list) -> Outcome:
        """Every seat's commitment to its part, fixed: this page reveals its part, unless the
        list leaves it out (it was away when the list was fixed) or is not one to reveal to."""
        given, record = self._ledger.get(number), self._deals.get(number)
        if given is None or record is None or record.dealt or given[1] != record.commitment:
            return Outcome([], [])           # not a shuffle this page committed to: nothing to reveal
        mine = part_commitment(given[2], self.game.id, self._match_id, number, self.seat)
        problem = audit.check_parts(self.table["seats"], self.seat, mine, parts)
        if problem is None and record.parts is not None and record.parts != parts:
            problem = say(TABLE, "the host changed the list of parts of the shuffle it had fixed.")
        if problem is not None:
            self._warn(record, number, problem)
            return Outcome([], [])
        record.parts = parts
        if [self.seat, mine] not in parts:
            if not self._resuming:
                self._warn(record, number, say(TABLE, "the host left your part of the shuffle out while you were "
                                             "connected."))
            return Outcome([], [])
        given[4] = record.sent = True
        return Outcome([self._numbered("deal-seed", deal=number, contribution=given[2])], [])

    def _abort(self, number: int, seats: Optional[list], reason: str) -> None:
        """A shuffle this page showed its part to was never dealt: counted for good, and shown.
        ``reason`` is what the host did, said when no ``seats`` are named as having left."""
        self._aborts.append([number, seats])
        given = self._ledger.get(number)
        if given is not None:
            given[4] = False
        self._record(number, said.deal_aborted(self.game, number, [self._seat_name(s) for s in seats or [] if s != self.seat],
                                               len(self._aborts), reason, self.seat in (seats or [])))

    def _seat_name(self, seat: int) -> str:
        """A seat's name as this page words it (its own view's names, never the host's)."""
        names = self._view.get("names") if self._view is not None else None
        name = names[seat] if isinstance(names, list) and seat < len(names) else None
        if isinstance(name, str) and name:
            return said.seat_name(self.game, seat, self.seat, name)
        return say(TABLE, "seat {seat}", seat=seat)

    def _check_before(self, number: int) -> None:
        """A new deal's commitment: the deals before it must have been revealed, and none skipped."""
        for n, (*_given, revealed, sent, dealt) in sorted(self._ledger.items()):
            record = self._deals.get(n)
            away = record is not None and record.late
            if n < number and sent and not dealt:
                self._abort(n, None, say(TABLE, "the host began deal {number} without dealing it", number=number))
            elif n < number and dealt and not revealed and not away:
                self._warn(record, n, say(TABLE, "the host began deal {number} without revealing the seed of "
                                        "deal {earlier}, so it cannot be checked.", number=number, earlier=n))
        known = max([*self._ledger, *self._deals], default=None)
        if known is not None and number != known + 1 and not self._resuming:
            self._warn(None, number, say(TABLE, "the host went from deal {known} to deal {number}.", known=known, number=number))

    def _words(self, groups: list, actions: list = ()) -> list:
        """The words of the steps in ``groups`` (``actions``: the moves they are the steps of,
        when they are: a move marked as made when its seat's time ran out reads so)."""
        timed_out = [len(a) > 2 and a[2] == TIMEOUT for a in actions]
        try:
            shown, first = [], set()
            for k, group in enumerate(groups):
                if group is not None:
                    if group and k < len(timed_out) and timed_out[k]:
                        first.add(len(shown))
                    shown.extend(group)
            return said.steps(self.game, shown, self.seat, first)
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    def _motions(self, groups: list) -> list:
        """The cards the steps in ``groups`` moved (read already by :meth:`_words`)."""
        try:
            return [move for group in groups if group is not None for shown in group
                    for move in self.game.motion(shown, self.seat)]
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    def _receive_view(self, values: dict) -> Outcome:
        game, seat = self.game, self.seat
        number, start, view, fair = values["deal"], values["from"], values["view"], values["fair"]
        actions = [self._action(a) for a in values["actions"]]
        # A move's steps are null when they were played while this page was away and name a
        # card it may not see now: the move is still replayed and checked at the reveal.
        steps = [wire.optional(wire.items)(group, "steps") for group in values["steps"]]
        dealt = values["dealt"]
        wire.check(len(steps) == len(actions), "a view needs one list of steps per move")
        wire.check(len(values["seats"]) == game.seats, "a view must list every seat")
        match = wire.obj(view.get("match"), "the view's match")
        wire.check(view.get("seat") == seat, "the view is not of this page's seat")
        wire.check(match.get("deal") == number, "the view is of another deal")
        dealer = match.get("dealer")
        wire.check(type(dealer) is int and 0 <= dealer < game.seats, "the view's dealer must be a seat")
        record = self._deals.get(number)
        probe = record or DealRecord(number, wire.secret(fair.get("commitment"), "commitment"), None)
        contributions, unfair = audit.check_fair(game.id, self._match_id, probe, seat, wire.obj(fair, "fair"))
        unreadable = audit.check_numbers(game, seat, view, [dealt, *steps])
        wire.check(unreadable is None, unreadable or "")
        words = self._words([dealt, *steps])
        try:
            # Every sentence and card label shown is this page's own, from the view's data.
            view = game.reword(view, friend_names(game, seat))
        except _UNREADABLE as e:
            raise MalformedMessageError(f"the view cannot be read ({wire.quote(str(e))})") from None
        resuming, self._resuming = self._resuming, False
        self.table = {**(self.table or {}), "seats": values["seats"]}
        if self._taking_over and not values["seats"][seat]["autopilot"]:
            self._taking_over = False          # the host shows the seat taken back
        if record is None:
            given = self._ledger.get(number)
            record = DealRecord(number, probe.commitment, None if given is None else given[2], late=True)
            if resuming:
                record.away = True             # dealt while this page was not at the table
            else:
                self._warn(record, number, say(TABLE, "the host dealt the cards without asking for your part "
                                             "of the shuffle."))
            for n, entry in self._ledger.items():
                if n < number:
                    entry[3] = True     # revealed while this page was away, if ever: none to wait for
        elif record.checked and not record.late:
            problem = audit.check_final_board(record, view, actions[len(record.actions) - start:])
            if problem is not None:
                self._warn(record, number, problem)
            self._view = view
            return Outcome([], [])
        if dealer != (game.first_dealer + number - 1) % game.seats:
            self._warn(record, number, say(TABLE, "the host has seat {dealer} deal it, and with it who leads: "
                                         "deal {number} is seat {should}'s to deal.",
                dealer=dealer, number=number, should=(game.first_dealer + number - 1) % game.seats))
        if not record.late and not record.dealt:
            given = self._ledger.get(number)
            if not record.sent:
                # Dealt without this page's part: it was away when the parts were fixed, or
                # the host left it out on a live connection.
                record.late = record.away = True
                if not resuming:
                    self._warn(record, number, say(TABLE, "the host dealt the cards without using your part of the "
                                                 "shuffle, while you were connected."))
            elif unfair is not None:
                self._warn(record, number, unfair)
            if given is not None:
                given[5] = True
        elif not record.late and unfair is not None:
            self._warn(record, number, unfair)
        if record.late or start > len(record.actions):
            if not record.late:
                self._warn(record, number, say(TABLE, "the host skipped moves it had not shown you."))
            # Moves this page never saw: the deal cannot be checked, but play goes on.
            record.late, record.dealer, record.dealt = True, dealer, True
            record.actions, record.shown, record.boards = [], [], []
            self._results = None
            self._keep(record)
            self._view = view
            self._note_turn(view, True)
            return Outcome([], words)
        if not resuming and any(group is None for group in steps):
            self._warn(record, number, say(TABLE, "the host hid the steps of moves played while you were connected."))
        if start == 0:
            if record.shown and record.shown[0] != dealt:
                self._warn(record, number, say(TABLE, "the host changed the account of the deal."))
            record.shown[:1] = [dealt]
        known = len(record.actions)
        if record.actions[start:] != actions[:known - start] or any(
                was is not None and now is not None and was != now
                for was, now in zip(record.shown[start + 1:], steps[:known - start])):
            self._warn(record, number, say(TABLE, "the host changed the account of moves it had sent."))
        new = actions[known - start:]
        self._check_own_moves(record, new, resuming)
        # What was shown stays as it was shown; only new moves are added.
        record.actions.extend(new)
        record.shown.extend(steps[known - start:])
        record.dealer, record.dealt, record.contributions = dealer, True, contributions
        if record.scores is None:
            record.scores = match.get("scores")
        board = [len(record.actions), board_digest(view)]
        if not record.boards or record.boards[-1] != board:
            record.boards.append(board)
        self._keep(record)
        self._view = view
        self._note_turn(view, bool(new))
        new_words = self._words([dealt] if start == 0 else []) + self._words(steps[known - start:], new)
        return Outcome([], new_words, moves=self._motions(steps[known - start:]))

    # -- no-peek dealing ----------------------------------------------------------------

    @property
    def nopeek(self) -> bool:
        """Whether this page deals no-peek (the host has begun such a deal with it)."""
        return self._np is not None

    def move(self, action: str) -> Outcome:
        """This person's move (its text form): at a no-peek table, the move with its keys, made
        and checked on this page's own engine (raises the game's refusal, changing nothing);
        else the intent (:meth:`intent`)."""
        if self._np is None:
            return Outcome([self.intent(action)], [])
        self._timeouts = 0
        return self._np_out(self._np.act(self.game.action_text(self.game.parse_action(action))))

    def timeout(self) -> Outcome:
        """The clock of the person to move ran out on this page. At a no-peek table only this
        page knows its seat's cards, so when that person is this page's it makes the table's
        move for them: the first legal move of its own view, as the host's page does at
        today's table. Otherwise nothing (the host's page times its own seat out)."""
        action = timeout_action(self._view) if self._view is not None and self._view.get("turn") == self.seat else None
        if self._np is None or action is None:
            return Outcome([], [])
        outcome = self.move(action)
        self._timeouts += 1
        return outcome

    def _np_deal(self, values: dict) -> Outcome:
        """A no-peek deal (or a new try of it) begins, or comes again with its log to a page
        coming back: this page deals its part, or rebuilds its seat from its kept secret."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        self._np_back = False
        game, number, tries = self.game, values["deal"], values["tries"]
        pages = values["pages"]
        wire.check(len(pages) == game.seats and all(type(p) is int for p in pages)
                   and all(p in (s, 0) for s, p in enumerate(pages)) and pages[self.seat] == self.seat,
                   "each seat's page must be its own or the host's, this seat this page's")
        log = [wire.obj(m, "message") for m in values["log"]]
        key = self._np_key
        same = key is not None and key[:2] == [number, tries]
        if same and key[3]:
            return Outcome([], [])             # checked already: nothing of it is left to do
        if self._np is not None and not same and self._np.outcome is None:
            self._np.abort([])             # begun again before its end: the host's doing
            self._np_end()
        if not same and any(m.get("seat") == self.seat for m in log):
            raise WrongPhaseError(_("This page lost its keys to deal {number}.").format(number=number))
        self._np = NoPeekSeat(group(), game, np_match_id(self._match_id, tries), number, self.seat,
                              dealer_of(game, number), dict(enumerate(pages)),
                              secret=key[2] if same else None, rng=self.rng)
        self._np_key = [number, tries, self._np.dealing.reveal(), None]
        self._np_told = 0
        return self._np_out(replay_seat(self._np, log))

    def _np_aborted(self, number: int, seats: list) -> Outcome:
        """Pages ``seats`` left the try this page holds of deal ``number`` with their keys: it ends
        aborted by them (said once). This page's own seat is named only when it comes back
        from away (its hold ran out: the host tells it as it told the others); on a live
        connection an abort in its name is the host's doing. A page restored since holds the
        try by its key alone."""
        from ..nopeek import DealAbortedError

        key = self._np_key
        if key is None or number != key[0] or key[3]:
            return Outcome([], [])
        seats = [s for s in seats if s != self.seat or self._np_back]
        if self._np is not None:
            self._np.abort(seats)
            return self._np_out([])
        key[3] = True
        self._np_record(number, DealAbortedError(seats))
        return Outcome([], [])

    def _np_take(self, number: int, message: dict) -> Outcome:
        self._np_back = False
        if self._np is None or number != self._np_key[0]:
            return Outcome([], [])             # of a try this page is not in: nothing to do
        return self._np_out(self._np.receive(message))

    #: Key shares a message at most: a guest's message stays under the host's size limit.
    _SHARES = 24

    def _np_out(self, messages: list) -> Outcome:
        """Send this page's messages (key shares in parts that fit a guest's message), and bring
        its own view, words and check to what it knows now."""
        send = []
        for message in messages:
            parts = [message]
            if message["type"] == "np-keys":
                shares = message["shares"]
                parts = [{**message, "shares": shares[i:i + self._SHARES]} for i in range(0, len(shares), self._SHARES)]
            send += [self._numbered("np", deal=self._np_key[0], message=part) for part in parts]
        words, moves = self._np_end()
        return Outcome(send, words, moves=moves)

    def _np_end(self) -> tuple[list, list]:
        """This page's view from its own engine, the words for the steps it was newly shown and
        the cards they moved, and its check once the deal is over."""
        np, number = self._np, self._np_key[0]
        try:
            state = np.partial.state if np.dealt else None
        except PisheError:
            state = None
        teams = len(self.game.teams)
        if state is not None:
            from ..match import Match

            results = [self._np_results.get(n, [0] * teams) for n in range(1, number)]
            match = Match.resume(self.game, self.table["length"], results, np.partial.deck())
            match.deal = state
            if np.partial.settled(self.seat):
                self._view = self.game.view(match, self.seat, friend_names(self.game, self.seat)).to_json()
            elif self._view is not None:
                # A card it may see is still opening (its engine holds a stand-in there: never
                # shown): the view stays as it was, with no move until the card is known.
                self._view = {**self._view, "legal": []}
            if state.over and np.outcome == VERIFIED:
                self._np_results[number] = list(state.team_points())
        new = np.shown[self._np_told:]
        words, moves = self._words(new), self._motions(new)
        self._np_told = len(np.shown)
        if np.outcome is not None and self._np_key[3] is None:
            self._np_key[3] = True              # checked: said once
            self._np_record(number, np.outcome)
        return words, moves

    def _np_record(self, number: int, outcome) -> None:
        from ..nopeek import DealAbortedError

        if outcome == VERIFIED:
            self._record(number, VERIFIED)
        elif isinstance(outcome, DealAbortedError):
            self._abort(number, list(outcome.seats) or None, say(TABLE, "the host began it again"))
        else:
            reason = of_error(outcome)
            if getattr(outcome, "seat", None) is not None:
                reason = say(TABLE, "{reason} (seat: {seat})", reason=reason.rstrip("."),
                             seat=self._seat_name(outcome.seat))
            self._warn(None, number, reason)

    def _check_own_moves(self, record: DealRecord, new: list, resuming: bool) -> None:
        """Each new move of this seat is one this page asked for, in order, or one the table
        made for it that this page saw coming: its clock had run out, or it was away (the
        move came as it came back), left the table, or saw its clock run out three times in
        a row (a computer then plays the seat until this person plays a card again)."""
        mine = self.table["seats"][self.seat]
        asked = self._asked[1] if self._asked[0] == record.number else []
        played = self._played_asked(record)
        for seat, text, *mark in new:
            if seat != self.seat:
                continue
            if not mark:
                if played < len(asked) and asked[played][1] == text:
                    played += 1
                    self._timeouts = 0
                else:
                    self._warn(record, record.number, say(TABLE, "the host played {move} for you, which you did not play.",
                        move=text))
            elif mark == [TIMEOUT]:
                clock = self.table.get("clock")
                ran_out = (clock is not None and self._turn_since is not None
                           and self._now() - self._turn_since >= clock - CLOCK_SLACK)
                if not ran_out:
                    self._warn(record, record.number, say(TABLE, "the host played {move} for you, saying your time "
                                                        "was up when it was not.", move=text))
                elif not resuming and text != timeout_action(self._view):
                    # The view that gave this seat the turn fixes the move made when time is up.
                    self._warn(record, record.number, say(TABLE, "the host played {move} for you when your time was "
                                                        "up, not {should}.",
                        move=text, should=timeout_action(self._view)))
                self._timeouts += 1
            elif not (resuming or self._left or ((self._timeouts >= TIMEOUTS_TO_AUTOPILOT or self._taking_over)
                                                 and mine["autopilot"])):
                self._warn(record, record.number, say(TABLE, "the host had a computer play {move} for you while "
                                                    "you were at the table.", move=text))

    def _played_asked(self, record: Optional[DealRecord]) -> int:
        """How many of this seat's moves in ``record`` are its own (the table's are marked)."""
        if record is None:
            return 0
        return sum(1 for seat, _text, *mark in record.actions if seat == self.seat and not mark)

    def _note_turn(self, view: dict, moved: bool) -> None:
        """When this seat's clock started: the view that gave it the turn (a new one after each move)."""
        if view.get("turn") != self.seat:
            self._turn_since = None
        elif moved or self._turn_since is None:
            self._turn_since = self._now()

    def _action(self, value) -> list:
        wire.check(isinstance(value, list) and len(value) in (2, 3), "a move is [seat, action] or "
                                                                     "[seat, action, mark]")
        seat, text, *mark = value
        wire.check(type(seat) is int and 0 <= seat < self.game.seats, "a move's seat must be a seat")
        wire.check(mark in ([], [TIMEOUT], [COMPUTER]), "a move's mark must be timeout or computer")
        try:
            action = self.game.parse_action(wire.action_text(text, "action"))
        except PisheError as e:
            raise MalformedMessageError(str(e)) from None
        return [seat, self.game.action_text(action), *mark]

    def _reveal(self, number: int, seed: str) -> Outcome:
        record = self._deals.get(number)
        given = self._ledger.get(number)
        if given is not None:
            given[3] = True
        if given is not None and given[4] and (record is None or not record.dealt):
            # A deal this page revealed its part to, revealed without being dealt: the host saw
            # its deck and did not deal it.
            self._abort(number, None, say(TABLE, "the host revealed it without dealing it"))
        elif record is None or record.dealer is None:
            self._record(number, say(TABLE, "{deal} {number} could not be checked: this page did not see it played.",
                                     deal=self._deal_word(), number=number))
        elif record.problem is not None:
            self._record(number, record.problem)
        elif record.away:
            self._record(number, say(TABLE, "{deal} {number} is not fair for this page: it was dealt without its part "
                                   "of the shuffle (this page was not at the table when the parts were fixed).",
                                     deal=self._deal_word(), number=number))
        elif record.late:
            self._record(number, say(TABLE, "{deal} {number} could not be checked: this page did not see all of it played.",
                                     deal=self._deal_word(), number=number))
        else:
            self._check(record, seed)
        if record is not None:
            record.checked = True
        return Outcome([], [])

    def _check(self, record: DealRecord, seed: str) -> None:
        """Replay the deal from the revealed seed: its steps and every board shown."""
        number, teams = record.number, len(self.game.teams)
        results = self._results
        if results is None or len(results) != number - 1:
            # No unbroken record of the match's earlier deals (this page came in late): the
            # scores as the deal began stand for them.
            scores = record.scores if record.scores is not None else [0] * teams
            results = [] if number == 1 else [list(scores)] + [[0] * teams] * (number - 2)
        table = {"length": self.table["length"], "results": results, "names": friend_names(self.game, self.seat)}
        try:
            state = audit.check_deal(self.game, record, seed, self.seat, table)
        except (PisheError, ValueError, TypeError) as e:
            self._warn(record, number, of_error(e) if isinstance(e, PisheError)
                       else say(TABLE, "the host's account of the deal does not hold together."))
            self._results = None
            return
        self._results = [*results, list(state.team_points())]
        self._record(number, VERIFIED)

    def _keep(self, record: DealRecord) -> None:
        """Hold ``record`` and the deal before it; older ones are done with (the parts given
        to every deal of the match stay in the ledger)."""
        self._deals = {n: d for n, d in self._deals.items() if n >= record.number - 1}
        self._deals[record.number] = record

    def _deal_word(self):
        """The game's word for a deal (Pişti's "Deck"), for the lines that begin with it."""
        return said.deal_word(self.game) if self.game is not None else say(TABLE, "Deal")

    def _not_fair(self, number: int, reason: str) -> str:
        reason = lowered(reason) if isinstance(reason, said.Said) else lower(reason[:1]) + reason[1:]
        return say(TABLE, "{deal} {number} is not fair: {reason}", deal=self._deal_word(), number=number, reason=reason)

    def _warn(self, record: Optional[DealRecord], number: int, reason: str) -> None:
        """The host cheated in deal ``number``: say so, and keep saying so for the match."""
        warning = self._not_fair(number, reason)
        if record is not None and record.problem is None:
            record.problem = warning
        if not self._unfair:
            self._unfair = True
            self.verification, self.verification_deal = warning, number

    def _record(self, number: int, verification: str) -> None:
        if not self._unfair:
            self.verification, self.verification_deal = verification, number

    # -- surviving a reload -----------------------------------------------------------

    def save(self) -> str:
        """Everything this page knows, as text for sessionStorage (nothing secret of the host's)."""
        return json.dumps({"v": VERSION, "game": self.game.id if self.game else None,
                           "token": self.token, "seat": self.seat,
                           "table": self.table, "view": self._view,
                           "verification": said.data_of([self.verification])[0],
                           "verification_deal": self.verification_deal, "unfair": self._unfair,
                           "ledger": self.ledger(), "results": self._results, "left": self._left, "timeouts": self._timeouts,
                           "taking_over": self._taking_over,
                           "deals": [d.to_json() for d in self._deals.values()]},
                          separators=(",", ":"))

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None, ledger: Optional[str] = None,
                clock: Callable[[], float] = time.monotonic) -> Guest:
        """A guest page again as :meth:`save` left it; send :meth:`hello` to resume.
        ``ledger`` (:meth:`ledger`'s text, newer than the save's when the page kept it
        after every call) and ``clock`` are as for :class:`Guest`.

        Raises :class:`~.wire.CorruptSaveError` for text that :meth:`save` did not make.
        """
        try:
            data = json.loads(saved)
            wire.check(data["v"] == VERSION, "another version")
            guest = cls(data["token"], rng, None, clock)
            game_id = data["game"]
            guest.game = None if game_id is None else get_game(game_id)
            guest.seat = wire.optional(wire.whole)(data["seat"], "seat")
            guest.table = wire.optional(wire.obj)(data["table"], "table")
            guest._view = wire.optional(wire.obj)(data["view"], "view")
            # The check's line as its data (a text in saves before lines were kept as data).
            guest.verification = None if data["verification"] is None else said.kept(data["verification"])
            guest.verification_deal = wire.optional(wire.deal_number)(data["verification_deal"], "deal")
            guest._unfair = data["unfair"] is True
            guest._results = wire.optional(wire.items)(data["results"], "results")
            guest._left, guest._timeouts = data["left"] is True, wire.whole(data["timeouts"], "timeouts")
            guest._taking_over = data["taking_over"] is True
            deals = [DealRecord.from_json(d) for d in wire.items(data["deals"], "deals")]
            # Last: the page's ledger is newer than its save, and its warning stays.
            guest._read_ledger(ledger or data["ledger"])
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the saved guest state cannot be read ({error})").format(error=e)) from None
        guest._deals = {d.number: d for d in deals}
        return guest
