"""The guest's side of a friends' table: intents out, its own seat's view and steps in.

A :class:`Guest` keeps what its seat was shown of each deal (the moves, which
are public, and the steps as the host showed them to this seat) and, once the
host reveals the deal's seed, replays the deal with the game's own rules to
check that the deck was the one fixed before this page sent its part of the
shuffle (:func:`pishe.table.fair.verify_deal`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Optional

from ...errors import PisheError
from ..fair import DealVerificationError, new_secret, verify_deal
from ..game import GAME_IDS, get_game
from . import wire
from .wire import (CONNECTING, DEAL_OVER, DEALING, MATCH_OVER, MAX_HOST_MESSAGE, PLAYING, VERIFIED,
                   VERSION, CorruptSaveError, MalformedMessageError, NotConnectedError, Outcome,
                   UnknownTokenError, WrongPhaseError)

__all__ = ["Guest"]


@dataclass
class _GuestDeal:
    """What the guest knows of one deal: enough to check it once the seed is revealed."""

    number: int
    commitment: str
    contribution: str
    late: bool = False               # first seen already under way: it cannot be checked
    dealt: bool = False              # a view of it has come
    dealer: Optional[int] = None
    contributions: Optional[list] = None
    actions: list = field(default_factory=list)    # [seat, action text]
    shown: list = field(default_factory=list)      # the dealing's steps, then one list per action
    problem: Optional[str] = None    # the first thing found wrong with it
    checked: bool = False

    def to_json(self) -> dict:
        return {"number": self.number, "commitment": self.commitment,
                "contribution": self.contribution, "late": self.late, "dealt": self.dealt,
                "dealer": self.dealer, "contributions": self.contributions, "actions": self.actions,
                "shown": self.shown, "problem": self.problem, "checked": self.checked}

    @classmethod
    def from_json(cls, data: dict) -> _GuestDeal:
        return cls(wire.deal_number(data["number"], "number"), wire.secret(data["commitment"], "commitment"),
                   wire.secret(data["contribution"], "contribution"), bool(data["late"]),
                   bool(data["dealt"]), wire.optional(wire.whole)(data["dealer"], "dealer"),
                   wire.optional(wire.items)(data["contributions"], "contributions"),
                   wire.items(data["actions"], "actions"), wire.items(data["shown"], "shown"),
                   wire.optional(wire.text)(data["problem"], "problem"), bool(data["checked"]))


class Guest:
    """The guest's side of a table: intents out, its own seat's view and the steps it may see in.

    ``token`` is the seat token of an earlier connection (kept by the page in
    sessionStorage) to resume that seat; ``rng`` draws this page's parts of
    the shuffle (the system's cryptographic source unless given). Send
    :meth:`hello` when the data channel opens, then pass every message
    received to :meth:`receive` and send what it returns. The game is the
    one the host's welcome names.

    After each deal the host reveals its seed and the guest checks the deal:
    :attr:`verification` is then :data:`~.wire.VERIFIED` or a warning in plain
    words, for deal :attr:`verification_deal`.
    """

    def __init__(self, token: Optional[str] = None, rng: Optional[random.Random] = None):
        """A guest page, new or resuming the seat of ``token``."""
        self.token: Optional[str] = wire.token(token, "the seat token")
        self.rng = rng if rng is not None else random.SystemRandom()
        #: The game, once the host's welcome has named it.
        self.game = None
        #: The seat the host gave this page (``None`` until welcomed).
        self.seat: Optional[int] = None
        #: Seats, match length and target as the host announced them in its welcome.
        self.table: Optional[dict] = None
        #: :data:`~.wire.VERIFIED`, a warning, or ``None`` before any deal has been checked.
        self.verification: Optional[str] = None
        #: The deal :attr:`verification` is about.
        self.verification_deal: Optional[int] = None
        self._seq: Optional[int] = None
        self._view: Optional[dict] = None
        self._deals: dict[int, _GuestDeal] = {}

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
        """The table for the guest's page: game, seat, phase, match length, the deal check."""
        return {"game": self.game.id if self.game else None, "seat": self.seat, "phase": self.phase,
                "deal": max(self._deals, default=None), **(self.table or {}),
                "verification": self.verification, "verification_deal": self.verification_deal}

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
        """
        followed = [d for d in self._deals.values() if d.dealt and not d.late]
        latest = max(followed, key=lambda d: d.number, default=None)
        have = None if latest is None else {"deal": latest.number, "actions": len(latest.actions)}
        game_id = self.game.id if self.game else None
        return json.dumps({"v": VERSION, "game": game_id, "type": "hello", "token": self.token,
                           "have": have}, separators=(",", ":"))

    def intent(self, action: str) -> str:
        """The message asking for ``action`` (its text form: ``give``, ``7H``).

        The host decides whether it is legal; send one intent and wait for
        the reply before the next.
        """
        message = self.draft_intent(action)
        self._seq += 1
        return message

    def draft_intent(self, action: str) -> str:
        """The message :meth:`intent` would make now, without counting it (nothing changes).

        A page can make it ahead of a click and send it at once; it then
        calls :meth:`intent`, which makes the same message and counts it.
        """
        if self.game is None:
            raise NotConnectedError("Wait for the host's welcome.")
        text = self.game.action_text(self.game.parse_action(action))
        return self._write("act", seq=self._seq, action=text)

    def next_deal(self) -> str:
        """The message asking the host to deal the next deal (once this one is over)."""
        if self._view is None:
            raise WrongPhaseError("No deal has been played yet.")
        return self._numbered("next-deal", deal=self._view_deal())

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
        wire.check(game_id in GAME_IDS, f"the welcome names no game this page knows ({wire.quote(game_id)})")
        game = get_game(game_id)
        wire.check(values["token"] is not None, "the welcome lacks the seat token")
        wire.check(0 < values["seat"] < game.seats, "the welcome gives no guest seat")
        if self.game is not None and self.game.id != game_id:
            self._deals, self._view = {}, None      # another game at the table: its deals are another's
        self.game = game
        self.token, self.seat, self._seq = values["token"], values["seat"], values["seq"]
        self.table = {"seats": values["seats"], "length": values["length"],
                      "length_name": values["length_name"], "target": values["target"]}
        return Outcome([], [])

    def _error(self, values: dict) -> Outcome:
        send = []
        if values["next_seq"] is not None and self._seq is not None:
            self._seq = values["next_seq"]
        if values["code"] == wire.error_code(UnknownTokenError()) and self.token is not None:
            # A table that does not know us: join it afresh, forgetting the deals of the old one.
            self.token, self._deals, self._view = None, {}, None
            self.verification = self.verification_deal = None
            send.append(self.hello())
        return Outcome(send, [], values["reason"])

    def _commit(self, number: int, commitment_hex: str) -> Outcome:
        record = self._deals.get(number)
        if record is not None and record.dealt:
            self._warn(record, f"Deal {number}: the host asked for your part of the shuffle "
                               f"after dealing the cards.")
            return Outcome([], [])
        if record is None:
            record = _GuestDeal(number, commitment_hex, new_secret(self.rng))
        elif record.commitment != commitment_hex:
            self._warn(record, f"Deal {number}: the host changed its commitment after making it.")
        previous = self._deals.get(number - 1)
        if previous is not None and previous.dealt and not previous.checked:
            self._warn(previous, f"Deal {number - 1}: the host started the next deal without "
                                 f"revealing its seed, so the deal cannot be checked.")
        self._keep(record)
        # Always the first contribution made for this deal: asking again gains the host nothing.
        return Outcome([self._numbered("deal-seed", deal=number, contribution=record.contribution)], [])

    def _words(self, groups: list) -> list:
        try:
            return [self.game.describe(shown, self.seat) for group in groups for shown in group]
        except PisheError as e:
            raise MalformedMessageError(f"a step the host sent cannot be read: {e}") from None

    def _receive_view(self, values: dict) -> Outcome:
        game, seat = self.game, self.seat
        number, start, view, fair = values["deal"], values["from"], values["view"], values["fair"]
        actions = [self._action(a) for a in values["actions"]]
        steps = [wire.items(group, "steps") for group in values["steps"]]
        dealt = values["dealt"]
        wire.check(len(steps) == len(actions), "a view needs one list of steps per move")
        wire.check(set(fair) == {"commitment", "contributions"}, "fair must give commitment and contributions")
        fair_commitment = wire.secret(fair["commitment"], "commitment")
        contributions = [wire.secret(c, "contribution") for c in wire.items(fair["contributions"], "contributions")]
        match = wire.obj(view.get("match"), "the view's match")
        wire.check(view.get("seat") == seat, "the view is not of this page's seat")
        wire.check(match.get("deal") == number, "the view is of another deal")
        dealer = match.get("dealer")
        wire.check(type(dealer) is int and 0 <= dealer < game.seats, "the view's dealer must be a seat")
        words = self._words([dealt, *steps])
        record = self._deals.get(number)
        if record is None:
            record = _GuestDeal(number, fair_commitment, contributions[0] if contributions else "0" * 64,
                                late=True)
        if record.late or start > len(record.actions):
            # Moves this page never saw: the deal cannot be checked, but play goes on.
            record.late, record.dealer, record.dealt = True, dealer, True
            record.actions, record.shown = [], []
            self._keep(record)
            self._view = view
            return Outcome([], words)
        if fair_commitment != record.commitment or record.contribution not in contributions:
            self._warn(record, f"Deal {number}: the host dealt the cards without using your part "
                               f"of the shuffle or its commitment.")
        if start == 0:
            if record.shown and record.shown[0] != dealt:
                self._warn(record, f"Deal {number}: the host changed the account of the deal.")
            record.shown[:1] = [dealt]
        known = len(record.actions)
        if record.actions[start:] != actions[:known - start] or \
                record.shown[start + 1:] != steps[:known - start]:
            self._warn(record, f"Deal {number}: the host changed the account of moves it had sent.")
        # What was shown stays as it was shown; only new moves are added.
        record.actions.extend(actions[known - start:])
        record.shown.extend(steps[known - start:])
        record.dealer, record.dealt, record.contributions = dealer, True, contributions
        self._keep(record)
        self._view = view
        new_words = self._words([dealt] if start == 0 else []) + self._words(steps[known - start:])
        return Outcome([], new_words)

    def _action(self, value) -> list:
        wire.check(isinstance(value, list) and len(value) == 2, "a move is [seat, action]")
        seat, text = value
        wire.check(type(seat) is int and 0 <= seat < self.game.seats, "a move's seat must be a seat")
        try:
            action = self.game.parse_action(wire.action_text(text, "action"))
        except PisheError as e:
            raise MalformedMessageError(str(e)) from None
        return [seat, self.game.action_text(action)]

    def _reveal(self, number: int, seed: str) -> Outcome:
        record = self._deals.get(number)
        if record is None or record.dealer is None:
            self._record(number, f"Deal {number} could not be checked: this page did not see it played.")
        elif record.problem is not None:
            self._record(number, record.problem)
        elif record.late:
            self._record(number, f"Deal {number} could not be checked: this page did not see "
                                 f"all of it played.")
        else:
            try:
                verify_deal(self.game, record.commitment, seed, record.contributions, record.dealer,
                            record.actions, record.shown, self.seat)
                self._record(number, VERIFIED)
            except DealVerificationError as e:
                self._record(number, f"Deal {number} failed the fairness check: {e}")
        if record is not None:
            record.checked = True
        return Outcome([], [])

    def _keep(self, record: _GuestDeal) -> None:
        """Hold ``record`` and the deal before it; older ones are done with."""
        self._deals = {n: d for n, d in self._deals.items() if n >= record.number - 1}
        self._deals[record.number] = record

    def _warn(self, record: _GuestDeal, warning: str) -> None:
        if record.problem is None:
            record.problem = warning
        self._record(record.number, record.problem)

    def _record(self, number: int, verification: str) -> None:
        self.verification, self.verification_deal = verification, number

    # -- surviving a reload -----------------------------------------------------------

    def save(self) -> str:
        """Everything this page knows, as text for sessionStorage (nothing secret of the host's)."""
        return json.dumps({"v": VERSION, "game": self.game.id if self.game else None,
                           "token": self.token, "seat": self.seat,
                           "table": self.table, "view": self._view,
                           "verification": self.verification,
                           "verification_deal": self.verification_deal,
                           "deals": [d.to_json() for d in self._deals.values()]},
                          separators=(",", ":"))

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None) -> Guest:
        """A guest page again as :meth:`save` left it; send :meth:`hello` to resume.

        Raises :class:`~.wire.CorruptSaveError` for text that :meth:`save` did not make.
        """
        try:
            data = json.loads(saved)
            wire.check(data["v"] == VERSION, "another version")
            guest = cls(data["token"], rng)
            game_id = data["game"]
            guest.game = None if game_id is None else get_game(game_id)
            guest.seat = wire.optional(wire.whole)(data["seat"], "seat")
            guest.table = wire.optional(wire.obj)(data["table"], "table")
            guest._view = wire.optional(wire.obj)(data["view"], "view")
            guest.verification = wire.optional(wire.text)(data["verification"], "verification")
            guest.verification_deal = wire.optional(wire.deal_number)(data["verification_deal"], "deal")
            deals = [_GuestDeal.from_json(d) for d in wire.items(data["deals"], "deals")]
        except (PisheError, ValueError, TypeError, KeyError, RecursionError) as e:
            raise CorruptSaveError(f"the saved guest state cannot be read ({e})") from None
        guest._deals = {d.number: d for d in deals}
        return guest
