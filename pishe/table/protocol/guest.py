"""The guest's side of a friends' table: intents out, its own seat's view and steps in.

A :class:`Guest` keeps what its seat was shown of each deal (the moves, which
are public, the steps as the host showed them to this seat, and a fingerprint
of every board) and, once the host reveals the deal's seed, replays the deal
with the game's own rules to check that the deck was the one fixed before
this page sent its part of the shuffle and that every step and board it was
shown is that deal's (:func:`pishe.table.fair.verify_deal`).

It trusts the host with nothing it can check itself. It gives one part of the
shuffle per deal of a match, to one commitment and for one seat, and
remembers it for the whole match (:meth:`Guest.ledger`, kept by the page in
its tab after every call), so a host cannot ask again until it likes the deck. Every move
of its own seat must be one it asked for, or one the table made for it that
this page saw coming (its clock had run out, or it was away). A gap in the
moves, a deal dealt without its part, a seed never revealed: on a live
connection each is the host's doing and reads "Deal N is not fair: …".
Every sentence it shows is its own: steps are worded from their data and the
host's refusals by their code, never with the host's text.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ...errors import PisheError
from ..fair import board_digest, new_secret, verify_deal
from ..game import get_game, is_game
from . import wire
from ..seating import TIMEOUTS_TO_AUTOPILOT
from .host import COMPUTER, TIMEOUT, friend_names
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
    "not-your-turn": "It is not your turn.",
    "unknown-action": "The host does not know that move.",
    "illegal-action": "That move is not allowed now.",
    "deal-over": "The deal is over.",
    "deal-not-over": "The deal is still being played.",
    "match-over": "The match is over.",
    "wrong-phase": "The table is not ready for that yet.",
    "replayed-message": "The host had that message already.",
    "out-of-order-message": "A message of yours reached the host out of order.",
    "not-connected": "The host does not count this page as connected: say hello again.",
    "seat-taken": "Every seat for a friend is taken.",
    "unknown-token": "The host does not know this page's seat: joining the table afresh.",
    "message-too-long": "A message of yours was too long for the host.",
    "message-too-deep": "A message of yours was too deeply nested for the host.",
    "malformed-message": "The host could not read a message of yours.",
    "unsupported-version": "The host's page runs another version of the game: both pages need the same.",
    "wrong-game": "The host's table plays another game.",
    "unknown-message-type": "The host does not know a message of yours.",
}
_REFUSED = "The host refused a message of yours."
#: What a game's wording functions may raise on data that is not a step or view of theirs
#: (they check the data they read, not data they were never meant to read).
_UNREADABLE = (PisheError, KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError)


@dataclass
class _GuestDeal:
    """What the guest knows of one deal: enough to check it once the seed is revealed."""

    number: int
    commitment: str
    contribution: Optional[str]      # None: this page gave no part of this deal's shuffle
    late: bool = False               # first seen already under way: it cannot be checked
    dealt: bool = False              # a view of it has come
    dealer: Optional[int] = None
    contributions: Optional[list] = None
    actions: list = field(default_factory=list)    # [seat, action text, mark if any]
    shown: list = field(default_factory=list)      # the dealing's steps, then one list per action
    boards: list = field(default_factory=list)     # [moves, board_digest] of every view shown
    scores: Optional[list] = None    # the match's scores as the deal began, as shown
    problem: Optional[str] = None    # the first thing found wrong with it
    checked: bool = False

    _FIELDS = ("number", "commitment", "contribution", "late", "dealt", "dealer", "contributions",
               "actions", "shown", "boards", "scores", "problem", "checked")

    def to_json(self) -> dict:
        return {name: getattr(self, name) for name in self._FIELDS}

    @classmethod
    def from_json(cls, data: dict) -> _GuestDeal:
        return cls(wire.deal_number(data["number"], "number"), wire.secret(data["commitment"], "commitment"),
                   wire.optional(wire.secret)(data["contribution"], "contribution"), bool(data["late"]),
                   bool(data["dealt"]), wire.optional(wire.whole)(data["dealer"], "dealer"),
                   wire.optional(wire.items)(data["contributions"], "contributions"),
                   wire.items(data["actions"], "actions"), wire.items(data["shown"], "shown"),
                   wire.items(data["boards"], "boards"), wire.optional(wire.items)(data["scores"], "scores"),
                   wire.optional(wire.text)(data["problem"], "problem"), bool(data["checked"]))


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
        self._deals: dict[int, _GuestDeal] = {}
        self._unfair = False                 # a warning that the host cheated is showing
        self._match_id: Optional[str] = None
        # Every part of the shuffle given in this match: deal -> [seat, commitment, part, revealed].
        self._ledger: dict[int, list] = {}
        self._results: Optional[list] = None  # each checked deal's points by team, while unbroken
        # The moves of the deal in play this page asked for and the host did not refuse:
        # [deal, [[seq, action], …]]. Its seat's k-th move (unless the table's) is the k-th.
        self._asked: list = [None, []]
        self._resuming = False               # this page said hello: the next state may skip moves
        self._turn_since: Optional[float] = None   # when the view giving this seat the turn came
        self._timeouts = 0                   # this seat's clock ran out so many times in a row
        self._left = False                   # this page left the table
        if ledger is not None:
            self._read_ledger(ledger)

    # -- what the page shows ----------------------------------------------------------

    def view(self) -> Optional[dict]:
        """This seat's view as the host last sent it (``None`` before the first deal)."""
        return self._view

    @property
    def phase(self) -> str:
        """``connecting``, ``dealing``, ``playing``, ``deal-over`` or ``match-over``."""
        if self._seq is None:
            return CONNECTING
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
            verification, deal = self._not_fair(record.number, "the host ended it without revealing "
                                                                "the seed it committed to."), record.number
        return {"game": self.game.id if self.game else None, "seat": self.seat, "phase": self.phase,
                "deal": max(self._deals, default=None), **(self.table or {}),
                "verification": verification, "verification_deal": deal}

    def ledger(self) -> str:
        """What this page gave and asked for in the match (its parts of the shuffle, the
        moves it asked for in the deal in play) and the warning it gave, if any, as short
        text for the page to keep in its tab (sessionStorage) after every call and pass to
        a new :class:`Guest` or :meth:`restore`: a page that joins afresh or reloads then
        still never gives a second part to the same deal, knows its own moves, and still
        says the match is not fair."""
        warning = [self.verification_deal, self.verification] if self._unfair else None
        return json.dumps({"v": VERSION, "match_id": self._match_id, "asked": self._asked, "warning": warning,
                           "deals": [[n, *entry] for n, entry in sorted(self._ledger.items())]},
                          separators=(",", ":"))

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
                warning = [wire.deal_number(warning[0], "deal"), wire.text(warning[1], "warning")]
            ledger = {}
            for n, seat, commitment, part, revealed in wire.items(data["deals"], "deals"):
                ledger[wire.deal_number(n, "deal")] = [wire.whole(seat, "seat"), wire.secret(commitment, "c"),
                                                       wire.secret(part, "part"), revealed is True]
        except (PisheError, ValueError, TypeError, KeyError, RecursionError) as e:
            raise CorruptSaveError(f"the page's ledger cannot be read ({e})") from None
        self._match_id, self._ledger, self._asked = match_id, ledger, asked
        if warning is not None:
            self._unfair = True
            self.verification_deal, self.verification = warning

    def _view_deal(self) -> int:
        return self._view["match"]["deal"]

    # -- messages to the host ---------------------------------------------------------

    def _write(self, kind: str, **values) -> str:
        if self._seq is None or self.game is None:
            raise NotConnectedError("Wait for the host's welcome.")
        return wire.write(self.game.id, kind, **values)

    def hello(self) -> str:
        """The message that opens (or reopens) the connection, with the seat token if any.

        It says how many moves of the latest deal this page holds, so the
        host resends only the rest. Before a welcome the game is not known
        yet; the hello names the game of the table this page last sat at.
        Moves this page missed while it was away may be skipped in the answer
        (the deal then cannot be checked); on a live connection they may not.
        """
        self._resuming = True
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
            raise NotConnectedError("Wait for the host's welcome.")
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
            raise WrongPhaseError("No deal has been played yet.")
        return self._numbered("next-deal", deal=self._view_deal())

    def take_over(self) -> str:
        """The message saying this person plays their seat again (a computer was playing it)."""
        return self._numbered("take-over")

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
            raise NotConnectedError("The host sent a message before its welcome.")
        if kind == "deal-commit":
            return self._commit(values["deal"], values["commitment"])
        if kind == "view":
            return self._receive_view(values)
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
        self.game = game
        self.token, self.seat, self._seq = values["token"], values["seat"], values["seq"]
        # Intents the host never received were lost with the connection: they will not be played.
        self._asked[1] = [i for i in self._asked[1] if i[0] < self._seq]
        # The length's name in this page's words, not the host's.
        self.table = {**{key: values[key] for key in ("seats", "length", "target", "clock")},
                      "length_name": length.name}
        return Outcome([], [])

    def _new_match(self, match_id: str) -> None:
        """Another match at the table: its deals are another's, but a deal of the old one
        that this page gave its part to and never saw revealed is the host's leaving it."""
        unrevealed = [n for n, (_, _, _, revealed) in self._ledger.items() if not revealed]
        if self._match_id is not None and unrevealed:
            self._warn(None, min(unrevealed), "the host left it unfinished and started another match.")
        self._match_id, self._ledger, self._results = match_id, {}, []
        self._deals, self._view, self._asked = {}, None, [None, []]

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
                self._warn(self._deals.get(number), number, "the host refused this page's seat token "
                                                            "while it was connected.")
            self.token = None
            send.append(self._hello())
        words = {**REFUSALS, **(self.game.refusals if self.game is not None else {})}
        return Outcome(send, [], words.get(values["code"], _REFUSED))

    def _commit(self, number: int, commitment_hex: str) -> Outcome:
        record = self._deals.get(number)
        if record is not None and record.dealt:
            self._warn(record, number, "the host asked for your part of the shuffle after dealing the cards.")
            return Outcome([], [])
        given = self._ledger.get(number)
        if given is not None:
            seat, committed, part, _ = given
            if committed != commitment_hex:
                self._warn(record, number, "the host asked for your part of the shuffle again, with "
                                           "another commitment: it could keep the deck it liked best.")
                return Outcome([], [])
            if seat != self.seat:
                self._warn(record, number, "the host asked for your part of the shuffle again, for "
                                           "another seat: it could keep the deck it liked best.")
                return Outcome([], [])
            if record is None:
                self._keep(_GuestDeal(number, commitment_hex, part))
            # The same part to the same commitment: asking again gains the host nothing.
            return Outcome([self._numbered("deal-seed", deal=number, contribution=part)], [])
        self._check_before(number)
        self._resuming = False
        part = new_secret(self.rng)
        self._ledger[number] = [self.seat, commitment_hex, part, False]
        self._keep(_GuestDeal(number, commitment_hex, part))
        return Outcome([self._numbered("deal-seed", deal=number, contribution=part)], [])

    def _check_before(self, number: int) -> None:
        """A new deal's commitment: the deals before it must have been revealed, and none skipped."""
        for n, (_, _, _, revealed) in sorted(self._ledger.items()):
            record = self._deals.get(n)
            away = record is not None and record.late
            if n < number and not revealed and not away:
                self._warn(record, n, f"the host began deal {number} without revealing the seed of "
                                      f"deal {n}, so it cannot be checked.")
        known = max([*self._ledger, *self._deals], default=None)
        if known is not None and number != known + 1 and not self._resuming:
            self._warn(None, number, f"the host went from deal {known} to deal {number}.")

    def _words(self, groups: list) -> list:
        try:
            return [self.game.describe(shown, self.seat) for group in groups for shown in group]
        except _UNREADABLE as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    def _receive_view(self, values: dict) -> Outcome:
        game, seat = self.game, self.seat
        number, start, view, fair = values["deal"], values["from"], values["view"], values["fair"]
        actions = [self._action(a) for a in values["actions"]]
        steps = [wire.items(group, "steps") for group in values["steps"]]
        dealt = values["dealt"]
        wire.check(len(steps) == len(actions), "a view needs one list of steps per move")
        wire.check(set(fair) == {"commitment", "contributions"}, "fair must give commitment and contributions")
        wire.check(len(values["seats"]) == game.seats, "a view must list every seat")
        fair_commitment = wire.secret(fair["commitment"], "commitment")
        contributions = [wire.secret(c, "contribution") for c in wire.items(fair["contributions"], "contributions")]
        match = wire.obj(view.get("match"), "the view's match")
        wire.check(view.get("seat") == seat, "the view is not of this page's seat")
        wire.check(match.get("deal") == number, "the view is of another deal")
        dealer = match.get("dealer")
        wire.check(type(dealer) is int and 0 <= dealer < game.seats, "the view's dealer must be a seat")
        words = self._words([dealt, *steps])
        try:
            # Every sentence and card label shown is this page's own, from the view's data.
            view = game.reword(view, friend_names(game, seat))
        except _UNREADABLE as e:
            raise MalformedMessageError(f"the view cannot be read ({wire.quote(str(e))})") from None
        resuming, self._resuming = self._resuming, False
        record = self._deals.get(number)
        if record is None:
            given = self._ledger.get(number)
            record = _GuestDeal(number, fair_commitment, None if given is None else given[2], late=True)
            if not resuming:
                self._warn(record, number, "the host dealt the cards without asking for your part "
                                           "of the shuffle.")
            for n, entry in self._ledger.items():
                if n < number:
                    entry[3] = True     # revealed while this page was away, if ever: none to wait for
        if dealer != (game.first_dealer + number - 1) % game.seats:
            self._warn(record, number, f"the host has seat {dealer} deal it, and with it who leads: "
                                       f"deal {number} is seat {(game.first_dealer + number - 1) % game.seats}'s "
                                       f"to deal.")
        if record.contribution is not None and not record.late and (
                fair_commitment != record.commitment or record.contribution not in contributions):
            if resuming and not record.dealt:
                # Back from away: its part may have been lost on the way, and the host does
                # not wait past the hold. It cannot tell; the deal cannot be checked.
                record.late = True
            else:
                self._warn(record, number, "the host dealt the cards without using your part of the "
                                           "shuffle or its commitment.")
        self.table = {**(self.table or {}), "seats": values["seats"]}
        if record.late or start > len(record.actions):
            if not resuming and not record.late:
                self._warn(record, number, "the host skipped moves it had not shown you, while you "
                                           "were connected.")
            # Moves this page never saw: the deal cannot be checked, but play goes on.
            record.late, record.dealer, record.dealt = True, dealer, True
            record.actions, record.shown, record.boards = [], [], []
            self._results = None
            self._keep(record)
            self._view = view
            self._note_turn(view, True)
            return Outcome([], words)
        if start == 0:
            if record.shown and record.shown[0] != dealt:
                self._warn(record, number, "the host changed the account of the deal.")
            record.shown[:1] = [dealt]
        known = len(record.actions)
        if record.actions[start:] != actions[:known - start] or \
                record.shown[start + 1:] != steps[:known - start]:
            self._warn(record, number, "the host changed the account of moves it had sent.")
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
        new_words = self._words([dealt] if start == 0 else []) + self._words(steps[known - start:])
        return Outcome([], new_words)

    def _check_own_moves(self, record: _GuestDeal, new: list, resuming: bool) -> None:
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
                    self._warn(record, record.number, f"the host played {text} for you, which you did not play.")
            elif mark == [TIMEOUT]:
                clock = self.table.get("clock")
                ran_out = (clock is not None and self._turn_since is not None
                           and self._now() - self._turn_since >= clock - CLOCK_SLACK)
                if not ran_out:
                    self._warn(record, record.number, f"the host played {text} for you, saying your time "
                                                      f"was up when it was not.")
                self._timeouts += 1
            elif not (resuming or self._left or (self._timeouts >= TIMEOUTS_TO_AUTOPILOT and mine["autopilot"])):
                self._warn(record, record.number, f"the host had a computer play {text} for you while "
                                                  f"you were at the table.")

    def _played_asked(self, record: Optional[_GuestDeal]) -> int:
        """How many of this seat's moves in ``record`` are its own (the table's are marked)."""
        if record is None:
            return 0
        return sum(1 for seat, _, *mark in record.actions if seat == self.seat and not mark)

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
        if record is None or record.dealer is None:
            self._record(number, f"Deal {number} could not be checked: this page did not see it played.")
        elif record.problem is not None:
            self._record(number, record.problem)
        elif record.late:
            self._record(number, f"Deal {number} could not be checked: this page did not see "
                                 f"all of it played.")
        else:
            self._check(record, seed)
        if record is not None:
            record.checked = True
        return Outcome([], [])

    def _check(self, record: _GuestDeal, seed: str) -> None:
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
            state = verify_deal(self.game, record.commitment, seed, record.contributions, record.dealer,
                                record.actions, record.shown, self.seat, record.boards, table)
        except (PisheError, ValueError, TypeError) as e:
            self._warn(record, number, str(e))
            self._results = None
            return
        self._results = [*results, list(state.team_points())]
        self._record(number, VERIFIED)

    def _keep(self, record: _GuestDeal) -> None:
        """Hold ``record`` and the deal before it; older ones are done with (the parts given
        to every deal of the match stay in the ledger)."""
        self._deals = {n: d for n, d in self._deals.items() if n >= record.number - 1}
        self._deals[record.number] = record

    @staticmethod
    def _not_fair(number: int, reason: str) -> str:
        return f"Deal {number} is not fair: {reason[:1].lower()}{reason[1:]}"

    def _warn(self, record: Optional[_GuestDeal], number: int, reason: str) -> None:
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
                           "verification": self.verification,
                           "verification_deal": self.verification_deal, "unfair": self._unfair,
                           "ledger": self.ledger(), "results": self._results, "left": self._left, "timeouts": self._timeouts,
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
            guest.verification = wire.optional(wire.text)(data["verification"], "verification")
            guest.verification_deal = wire.optional(wire.deal_number)(data["verification_deal"], "deal")
            guest._unfair = data["unfair"] is True
            guest._results = wire.optional(wire.items)(data["results"], "results")
            guest._left, guest._timeouts = data["left"] is True, wire.whole(data["timeouts"], "timeouts")
            deals = [_GuestDeal.from_json(d) for d in wire.items(data["deals"], "deals")]
            # Last: the page's ledger is newer than its save, and its warning stays.
            guest._read_ledger(ledger or data["ledger"])
        except (PisheError, ValueError, TypeError, KeyError, RecursionError) as e:
            raise CorruptSaveError(f"the saved guest state cannot be read ({e})") from None
        guest._deals = {d.number: d for d in deals}
        return guest
