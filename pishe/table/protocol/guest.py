"""The guest's side of a friends' table: its own seat of the no-peek deal, and its page's lines.

A :class:`Guest` holds its seat of each deal's try (a
:class:`~pishe.table.nopeek_seat.NoPeekSeat`): it shuffles and locks the deck with the other
pages, opens only the cards its seat may see (every page's key for them), makes its moves
on its own engine with their keys, and makes its own view from what it knows. At the end of
the deal every page's secret is revealed and the page checks the whole deal: "Deal N
verified", or "Deal N is not fair: …" naming who broke it, which stays for the match. A
try that a page leaves with its keys is aborted, named, counted and dealt again; the count
(:meth:`Guest.ledger`, kept by the page in its tab after every call) carries across reloads
and matches. Every sentence it shows is its own: steps and views are worded from its own
engine and the host's refusals by their code, never with the host's text.
"""

from __future__ import annotations

import json
import random
from typing import Optional

from ...errors import PisheError
from ..lang import N_, TABLE, _, lower
from .. import said
from ..said import lowered, of_error, say
from ..game import get_game, is_game
from . import wire
from .host import TIMEOUT, friend_names, timeout_action
from .nopeek_deal import dealer_of, np_match_id, replay_seat
from .wire import (CONNECTING, DEAL_OVER, DEALING, MATCH_OVER, MAX_HOST_MESSAGE, PLAYING, VERIFIED,
                   VERSION, CorruptSaveError, MalformedMessageError, NotConnectedError, Outcome,
                   UnknownTokenError, WrongPhaseError)

__all__ = ["Guest", "REFUSALS"]

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
    "removed-deal": N_("The host's page refused a message of the old way to deal: this page deals no-peek only."),
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
    """The guest's side of a table: its own seat of every deal, its moves out, the others' in.

    ``token`` is the seat token of an earlier connection (kept by the page in
    sessionStorage) to resume that seat; ``rng`` draws this page's secrets (the
    system's cryptographic source unless given); ``ledger`` is :meth:`ledger`'s text
    as the page kept it, so that a page that joins afresh still counts the aborts,
    keeps its warning, and rebuilds the try in play from its secret. Send
    :meth:`hello` when the data channel opens, then pass every message received to
    :meth:`receive` and send what it returns. The game is the one the host's welcome names.

    At the end of each deal the page checks it: :attr:`verification` is then
    :data:`~.wire.VERIFIED` or a warning in plain words, for deal
    :attr:`verification_deal`. A warning that the deal was not fair ("Deal N is not
    fair: …") stays for the rest of the match.
    """

    def __init__(self, token: Optional[str] = None, rng: Optional[random.Random] = None,
                 ledger: Optional[str] = None):
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
        self._seq: Optional[int] = None
        self._view: Optional[dict] = None
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
        self._np = None
        self._np_key: Optional[list] = None
        self._np_results: dict = {}
        self._np_told = 0
        if ledger is not None:
            self._read_ledger(ledger)

    # -- what the page shows ----------------------------------------------------------

    def view(self) -> Optional[dict]:
        """This seat's view from this page's own engine (``None`` before the first deal).
        While this page sits the deal in play out (:meth:`sits_out`): its seat's place at
        the table, saying that it plays from the next deal."""
        if self.sits_out():
            deal = said.lowered(self._deal_word())
            return self.game.blank_view(self.seat, friend_names(self.game, self.seat), say(
                TABLE, "A computer plays your seat for now: you play when the next {deal} is dealt.", deal=deal))
        return self._view

    def sits_out(self) -> bool:
        """Whether a computer run by the host's page plays this seat in the deal in play, dealt
        without this page: it came mid-deal to a seat the host shows as the computer's, or
        the try it dealt in was aborted and no new one has come to it. No page can show it
        that deal's board: only the host's page knows the seat's cards."""
        from ..nopeek import DealAbortedError

        if self.game is None or self.seat is None or self._seq is None:
            return False
        if self._np is not None:
            return isinstance(self._np.outcome, DealAbortedError)
        seats = (self.table or {}).get("seats") or []
        away = self.seat < len(seats) and isinstance(seats[self.seat], dict) and seats[self.seat].get("away") is True
        # A page that never dealt with this host (no key) and has no board sits out.
        return away and (self._np_key is not None or self._view is None)

    @property
    def seq(self) -> Optional[int]:
        """The sequence number this page's next message to the host carries (``None``
        before the host's welcome)."""
        return self._seq

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
        if self._view is None:
            return DEALING
        match = self._view["match"]
        if match.get("over"):
            return MATCH_OVER
        return DEAL_OVER if self._view.get("turn") is None else PLAYING

    def status(self) -> dict:
        """The table for the guest's page: game, seat, phase, deal, match length, the deal
        check, the aborts counted, and whether computers sit with friends."""
        return {"game": self.game.id if self.game else None, "seat": self.seat, "phase": self.phase,
                "deal": self._np_key[0] if self._np_key else None, **(self.table or {}),
                "verification": said.now(self.verification), "verification_deal": self.verification_deal,
                "aborts": len(self._aborts),
                "computers_note": self._computers_note() if self._np is not None else None}

    def _computers_note(self) -> Optional[str]:
        """The table's sentence when computers sit with friends (their cards are the host
        page's: the deal's try says which seats' page is the host's), or ``None``."""
        from .host import computers_note

        seats = (self.table or {}).get("seats") or []
        computers = any(s.get("role") == "computer" or s.get("away") or s.get("left") for s in seats)
        computers = computers or any(s != page for s, page in self._np.pages.items() if page == 0)
        return computers_note() if computers else None

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
                           "np_results": sorted(self._np_results.items())}, separators=(",", ":"))

    def _read_ledger(self, text: str) -> None:
        try:
            data = json.loads(text)
            wire.check(data["v"] == VERSION, "another version")
            match_id = wire.optional(wire.match_id)(data["match_id"], "match_id")
            warning = data["warning"]
            if warning is not None:
                warning = [wire.deal_number(warning[0], "deal"), said.kept(warning[1])]
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
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the page's ledger cannot be read ({error})").format(error=e)) from None
        self._np_key, self._np_results = np_key, np_results
        self._match_id, self._aborts, self._clock = match_id, aborts, clock
        if warning is not None:
            self._unfair = True
            self.verification_deal, self.verification = warning

    def _view_deal(self) -> int:
        return self._view["match"]["deal"]

    def _deal_in_play(self) -> int:
        """The number of the deal this page holds a try of (1 before any)."""
        return self._np_key[0] if self._np_key else 1

    # -- messages to the host ---------------------------------------------------------

    def _write(self, kind: str, **values) -> str:
        if self._seq is None or self.game is None:
            raise NotConnectedError(_("Wait for the host's welcome."))
        return wire.write(self.game.id, kind, **values)

    def hello(self) -> str:
        """The message that opens (or reopens) the connection, with the seat token if any.
        Before a welcome the game is not known yet; the hello names the game of the table
        this page last sat at."""
        self._resuming = True
        return self._hello()

    def _hello(self) -> str:
        game_id = self.game.id if self.game else None
        return json.dumps({"v": VERSION, "game": game_id, "type": "hello", "token": self.token},
                          separators=(",", ":"))

    def next_deal(self) -> str:
        """The message asking the host to deal the next deal (once this one is over)."""
        if self._view is None:
            raise WrongPhaseError(_("No deal has been played yet."))
        return self._numbered("next-deal", deal=self._view_deal())

    def take_over(self) -> str:
        """The message saying this person plays their seat again (a computer was playing it)."""
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
        the host should never send, a :class:`~.wire.RemovedDealError` for one of the
        old commit-and-reveal deal. A problem with the fairness of a deal is not an
        exception: it shows in :attr:`verification`.
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
        if kind == "np-deal":
            return self._np_deal(values)
        if kind == "np":
            return self._np_take(values["deal"], values["message"])
        if kind == "np-abort":
            return self._np_aborted(values["deal"], values["seats"])
        wire.check(len(values["seats"]) == self.game.seats, "the table must list every seat")
        self.table = {**(self.table or {}), "seats": values["seats"]}
        return Outcome([], [])

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
            self._warn(self._deal_in_play(), say(TABLE, "the host changed the clock in the middle of the match."))
            values = {**values, "clock": self._clock[1]}      # the match's clock stays the one it began with
        self._clock = [values["match_id"], values["clock"]]
        self.game = game
        self.token, self.seat, self._seq = values["token"], values["seat"], values["seq"]
        # The length's name in this page's words, not the host's.
        self.table = {**{key: values[key] for key in ("seats", "length", "target", "clock")},
                      "length_name": length.name}
        return Outcome([], [])

    def _new_match(self, match_id: str) -> None:
        """Another match at the table: its deals are another's. A try of the old one that this
        page dealt in and that never ended is an abort by the host (counted for good: a new
        match wipes nothing of it)."""
        key = self._np_key
        if key is not None and key[3] is None and self._match_id is not None and self.game is not None:
            self._abort(key[0], None, say(TABLE, "the host started another match"))
        self._match_id, self._view = match_id, None
        self._np, self._np_key, self._np_results = None, None, {}

    def _error(self, values: dict) -> Outcome:
        send = []
        if values["next_seq"] is not None and self._seq is not None:
            self._seq = values["next_seq"]
        if values["code"] == wire.error_code(UnknownTokenError()) and self.token is not None:
            # A table that does not know our token: join it afresh. What this page gave and
            # saw of the match stays: a host cannot wipe it by refusing a token.
            if not self._resuming:
                # Only a page back from away can have lost its seat to another page: on a
                # live connection a refused token is the host's way to ask everything again.
                self._warn(self._deal_in_play(), say(TABLE, "the host refused this page's seat token "
                                                     "while it was connected."))
            self.token = None
            send.append(self._hello())
        code = values["code"]
        if self.game is not None and code in self.game.refusals:
            # A refusal for a cause of the game's own, in the game's words.
            return Outcome(send, [], self.game.word(self.game.refusals[code]))
        return Outcome(send, [], _(REFUSALS.get(code, _REFUSED)))

    def _abort(self, number: int, seats: Optional[list], reason: str) -> None:
        """A try this page dealt in was never finished: counted for good, and shown.
        ``reason`` is what the host did, said when no ``seats`` are named as having left."""
        self._aborts.append([number, seats])
        self._record(number, said.deal_aborted(self.game, number, [self._seat_name(s) for s in seats or [] if s != self.seat],
                                               len(self._aborts), reason, self.seat in (seats or [])))

    def _seat_name(self, seat: int) -> str:
        """A seat's name as this page words it (its own view's names, never the host's)."""
        names = self._view.get("names") if self._view is not None else None
        name = names[seat] if isinstance(names, list) and seat < len(names) else None
        if isinstance(name, str) and name:
            return said.seat_name(self.game, seat, self.seat, name)
        return say(TABLE, "seat {seat}", seat=seat)

    def _words(self, start: int) -> list:
        """The words of the steps this page was shown from group ``start`` on."""
        try:
            return self._np.words(start)
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    def _motions(self, groups: list) -> list:
        """The cards the steps in ``groups`` moved (read already by :meth:`_words`)."""
        try:
            return [move for group in groups if group is not None for shown in group
                    for move in self.game.motion(shown, self.seat)]
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    # -- the deal ---------------------------------------------------------------------

    def move(self, action: str) -> Outcome:
        """This person's move (its text form), with its keys, made and checked on this page's
        own engine: raises the game's refusal, or :class:`~.wire.WrongPhaseError` before the
        cards are dealt, changing nothing."""
        if self._np is None or not self._np.dealt:
            raise WrongPhaseError(_("The cards are not dealt yet."))
        return self._np_out(self._np.act(self.game.action_text(self.game.parse_action(action))))

    def timeout(self) -> Outcome:
        """The clock of the person to move ran out on this page. Only this page knows its
        seat's cards, so when that person is this page's it makes the table's move for them:
        the first legal move of its own view, as the host's page does for its own seat, marked
        so that every page words it as the table's move. Otherwise nothing (the host's page times its own seat out)."""
        action = timeout_action(self._view) if self._view is not None and self._view.get("turn") == self.seat else None
        if self._np is None or action is None or not self._np.dealt:
            return Outcome([], [])
        return self._np_out(self._np.act(action, TIMEOUT))

    def _np_deal(self, values: dict) -> Outcome:
        """A no-peek deal (or a new try of it) begins, or comes again with its log to a page
        coming back: this page deals its part, or rebuilds its seat from its kept secret."""
        from ..group import group
        from ..nopeek_seat import NoPeekSeat

        self._resuming = False
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
        seats = [s for s in seats if s != self.seat or self._resuming]
        if self._np is not None:
            self._np.abort(seats)
            return self._np_out([])
        key[3] = True
        self._np_record(number, DealAbortedError(seats))
        return Outcome([], [])

    def _np_take(self, number: int, message: dict) -> Outcome:
        self._resuming = False
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
        words, moves = self._words(self._np_told), self._motions(np.shown[self._np_told:])
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
            self._warn(number, reason)

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
                           "ledger": self.ledger(), "left": self._left}, separators=(",", ":"))

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None, ledger: Optional[str] = None) -> Guest:
        """A guest page again as :meth:`save` left it; send :meth:`hello` to resume.
        ``ledger`` (:meth:`ledger`'s text, newer than the save's when the page kept it
        after every call) is as for :class:`Guest`.

        Raises :class:`~.wire.CorruptSaveError` for text that :meth:`save` did not make.
        """
        try:
            data = json.loads(saved)
            wire.check(data["v"] == VERSION, "another version")
            guest = cls(data["token"], rng, None)
            game_id = data["game"]
            guest.game = None if game_id is None else get_game(game_id)
            guest.seat = wire.optional(wire.whole)(data["seat"], "seat")
            guest.table = wire.optional(wire.obj)(data["table"], "table")
            guest._view = wire.optional(wire.obj)(data["view"], "view")
            guest.verification = None if data["verification"] is None else said.kept(data["verification"])
            guest.verification_deal = wire.optional(wire.deal_number)(data["verification_deal"], "deal")
            guest._unfair = data["unfair"] is True
            guest._left = data["left"] is True
            # Last: the page's ledger is newer than its save, and its warning stays.
            guest._read_ledger(ledger or data["ledger"])
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the saved guest state cannot be read ({error})").format(error=e)) from None
        return guest
