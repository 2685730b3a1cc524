"""Playing against a friend: the host's and the guest's side of the table.

The host's page runs the one engine in a :class:`Host`; the guest's page runs
a :class:`Guest`, which sends intents and keeps what it is shown. Both are
plain objects that turn text messages into text messages, so the page only
carries strings between them and a data channel (and tests connect them in
memory). Every message is a JSON object
``{"v": 1, "game": "pishe-pasha", "type": …}``; ``docs/PROTOCOL.md`` lists
them all.

>>> host, guest = Host("one-deal"), Guest()
>>> for text in host.receive(guest.hello()).send:           # welcome, deal-commit
...     for reply in guest.receive(text).send:              # deal-seed
...         _ = host.receive(reply)                         # the deal starts
>>> host.phase, host.view()["match"]["length_name"]
('playing', 'One deal')

The guest is only ever sent its own seat's view and the steps of the deal
(all public), never a stock card; the deal is provably fair (see
:mod:`pishe.fair`), and a message the host cannot accept gets an ``error``
reply and changes nothing.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional

from .cards import Card
from .deal import ACTIONS, GIVE_STEP, HOME, KEPT, RECYCLE, SEATS, TO_CHOICE, TO_HOME, TO_PILE, \
    TURNED, WIN, Step
from .errors import DealNotOverError, InvalidCardError, InvalidMatchLengthError, MatchOverError, \
    PisheError, UnknownActionError
from .fair import DealVerificationError, InvalidSecretError, check_secret, commitment, \
    derive_stocks, new_secret, verify_deal
from .match import MATCH_LENGTH_NAMES, MATCH_LENGTHS, ONE_DEAL, Match
from .view import GAME, seat_view

__all__ = [
    "VERSION", "GAME", "MAX_GUEST_MESSAGE", "MAX_HOST_MESSAGE", "HOST_SEAT", "GUEST_SEAT",
    "DEALING", "PLAYING", "DEAL_OVER", "MATCH_OVER", "CONNECTING", "VERIFIED",
    "Host", "Guest", "Outcome", "step_to_json", "step_from_json", "error_code",
    "ProtocolError", "MessageTooLongError", "MalformedMessageError", "UnsupportedVersionError",
    "WrongGameError", "UnknownMessageTypeError", "ReplayedMessageError", "OutOfOrderMessageError",
    "NotConnectedError", "SeatTakenError", "UnknownTokenError", "WrongPhaseError",
    "CorruptSaveError",
]

#: The protocol version every message carries as ``"v"``.
VERSION = 1
#: The longest message a guest may send, in bytes of UTF-8 (checked before parsing).
MAX_GUEST_MESSAGE = 4096
#: The longest message a host may send (a whole deal's steps fit many times over).
MAX_HOST_MESSAGE = 1 << 20
#: The host's seat; the guest sits in the other one.
HOST_SEAT = 0
#: The guest's seat.
GUEST_SEAT = 1

#: Phases of a table. ``dealing``: the next deal waits for the guest's part of the shuffle.
DEALING = "dealing"
PLAYING = "playing"
DEAL_OVER = "deal-over"
MATCH_OVER = "match-over"
#: A guest's phase before the host has welcomed it.
CONNECTING = "connecting"

#: The guest's verification of a deal that passed every check.
VERIFIED = "verified"

_MAX_INT = 2 ** 53 - 1      # the largest integer a JavaScript number holds exactly
_TOKEN = re.compile(r"[0-9a-f]{32}")
_STEP_KINDS = (HOME, GIVE_STEP, TURNED, KEPT, RECYCLE, WIN)
_OUTCOMES = (TO_HOME, TO_PILE, TO_CHOICE)
_STEP_KEYS = {"seat", "kind", "card", "onto", "outcome", "count"}


# -- errors ---------------------------------------------------------------------------


class ProtocolError(PisheError):
    """A message that cannot be accepted; the message says why in plain words."""


class MessageTooLongError(ProtocolError):
    """A message longer than the limit, refused before it is parsed."""


class MalformedMessageError(ProtocolError, ValueError):
    """Not JSON, not an object, or a field missing, unknown or of the wrong kind."""


class UnsupportedVersionError(ProtocolError):
    """A message of another protocol version."""


class WrongGameError(ProtocolError):
    """A message about another game."""


class UnknownMessageTypeError(ProtocolError):
    """A message type this side does not accept."""


class ReplayedMessageError(ProtocolError):
    """A guest message whose ``seq`` was already used: a replay or a duplicate."""


class OutOfOrderMessageError(ProtocolError):
    """A guest message whose ``seq`` is ahead of the next one expected."""


class NotConnectedError(ProtocolError):
    """A message before the ``hello``/``welcome`` that opens the connection."""


class SeatTakenError(ProtocolError):
    """A new guest while the guest seat is held by a connected page."""


class UnknownTokenError(ProtocolError):
    """A seat token this table did not issue, or no longer honours."""


class WrongPhaseError(ProtocolError):
    """A message that does not fit what the table is doing (dealing, playing, between deals)."""


class CorruptSaveError(ProtocolError, ValueError):
    """Saved state that :meth:`Guest.restore` or :meth:`Host.restore` cannot read."""


def error_code(error: Exception) -> str:
    """The ``code`` of an error reply: the error's class name in kebab case.

    >>> error_code(ReplayedMessageError("x")), error_code(UnknownActionError("x"))
    ('replayed-message', 'unknown-action')
    """
    name = type(error).__name__.removesuffix("Error")
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


# -- results --------------------------------------------------------------------------


class Outcome(NamedTuple):
    """What one call on a :class:`Host` or :class:`Guest` produced.

    ``send``: messages to send to the other side, in order. ``steps``: the
    new steps of the deal in this seat's words, for the page to show and
    announce. ``error``: on the host, why it refused the guest's message; on
    the guest, the reason of the host's ``error`` reply; ``None`` otherwise.
    """

    send: list
    steps: list
    error: Optional[str] = None


# -- steps as JSON --------------------------------------------------------------------


def step_to_json(step: Step) -> dict:
    """A step as JSON data, cards in text form (``"10H"``), every key always present."""
    return {
        "seat": step.seat,
        "kind": step.kind,
        "card": str(step.card) if step.card is not None else None,
        "onto": str(step.onto) if step.onto is not None else None,
        "outcome": step.outcome,
        "count": step.count,
    }


def step_from_json(data) -> Step:
    """The step that :func:`step_to_json` made; raises :class:`MalformedMessageError`."""
    _check(isinstance(data, dict) and set(data) == _STEP_KEYS,
           "a step must be an object with seat, kind, card, onto, outcome and count")
    _check(data["kind"] in _STEP_KINDS, f"unknown step kind {_quote(data['kind'])}")
    _check(data["outcome"] is None or data["outcome"] in _OUTCOMES,
           f"unknown outcome {_quote(data['outcome'])}")
    try:
        card, onto = (None if data[k] is None else Card.parse(data[k]) for k in ("card", "onto"))
    except InvalidCardError as e:
        raise MalformedMessageError(str(e)) from None
    return Step(data["kind"], _seat(data["seat"], "seat"), card, onto, data["outcome"],
                _int(data["count"], "count"))


# -- reading and writing messages -----------------------------------------------------


def _check(condition: bool, reason: str) -> None:
    if not condition:
        raise MalformedMessageError(reason)


def _int(value, name: str, low: int = 0) -> int:
    _check(type(value) is int and low <= value <= _MAX_INT, f"{name} must be a whole number from {low}")
    return value


def _seat(value, name: str) -> int:
    _check(type(value) is int and value in SEATS, f"{name} must be a seat number")
    return value


def _text(value, name: str) -> str:
    _check(isinstance(value, str), f"{name} must be text")
    return value


def _token(value, name: str) -> Optional[str]:
    _check(value is None or (isinstance(value, str) and _TOKEN.fullmatch(value) is not None),
           f"{name} must be null or the seat token the host issued")
    return value


def _hex(value, name: str) -> str:
    try:
        return check_secret(value, name)
    except InvalidSecretError as e:
        raise MalformedMessageError(str(e)) from None


def _deal_number(value, name: str) -> int:
    return _int(value, name, 1)


def _have(value, name: str) -> Optional[dict]:
    """How far a resuming guest got: ``{"deal": n, "steps": k}`` (steps of deal n it holds)."""
    if value is None:
        return None
    _check(isinstance(value, dict) and set(value) == {"deal", "steps"},
           f"{name} must be null or an object with deal and steps")
    return {"deal": _deal_number(value["deal"], "deal"), "steps": _int(value["steps"], "steps")}


def _object(value, name: str) -> dict:
    _check(isinstance(value, dict), f"{name} must be an object")
    return value


def _optional(check: Callable) -> Callable:
    return lambda value, name: None if value is None else check(value, name)


def _no_duplicate_keys(pairs) -> dict:
    data = dict(pairs)
    _check(len(data) == len(pairs), "a key appears twice")
    return data


def _no_constant(name: str):
    raise MalformedMessageError(f"{name} is not a JSON number")


_ENVELOPE = ("v", "game", "type")


def _quote(value, limit: int = 40) -> str:
    """A peer's value, quoted and cut short, for an error's reason."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _parse(text, limit: int, types) -> dict:
    """The JSON object of a message of a known type and this version and game; else a ProtocolError."""
    if not isinstance(text, str):
        raise MalformedMessageError("a message must be text")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise MessageTooLongError(f"the message is longer than {limit} bytes")
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except MalformedMessageError:
        raise
    except (ValueError, RecursionError):     # JSONDecodeError, and nesting too deep
        raise MalformedMessageError("the message is not valid JSON") from None
    _check(isinstance(data, dict), "a message must be a JSON object")
    version = data.get("v")
    _check(type(version) is int, "the message lacks its protocol version (v)")
    if version != VERSION:
        raise UnsupportedVersionError(
            f"this page speaks version {VERSION} of the protocol, the message is version "
            f"{_quote(version)}: both pages need the same version of the game")
    if data.get("game") != GAME:
        raise WrongGameError(f"the message is not about {GAME} (game {_quote(data.get('game'))})")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in types:
        raise UnknownMessageTypeError(
            f"unknown message type {_quote(kind)}: expected one of {', '.join(types)}")
    return data


def _fields(data: dict, spec: dict) -> dict:
    """The fields of a parsed message, each checked by its ``spec`` entry; nothing else allowed."""
    kind = data["type"]
    for name in data:
        if name not in spec and name not in _ENVELOPE:
            raise MalformedMessageError(f"unknown field {_quote(name)} in a {kind} message")
    for name in spec:
        if name not in data:
            raise MalformedMessageError(f"a {kind} message needs {name!r}")
    return {name: check(data[name], name) for name, check in spec.items()}


def _write(kind: str, **fields) -> str:
    return json.dumps({"v": VERSION, "game": GAME, "type": kind, **fields}, separators=(",", ":"))


def _list(value, name: str) -> list:
    _check(isinstance(value, list), f"{name} must be a list")
    return value


def _action(value, name: str) -> str:
    _check(isinstance(value, str), f"{name} must be text")
    if value not in ACTIONS:
        raise UnknownActionError(f"unknown action {_quote(value)}: the actions are give, turn and keep")
    return value


# Guest -> host.
_GUEST_MESSAGES = {
    "hello": {"token": _token, "have": _have},
    "act": {"seq": _int, "action": _action},
    "deal-seed": {"seq": _int, "deal": _deal_number, "contribution": _hex},
    "next-deal": {"seq": _int, "deal": _deal_number},
}

# Host -> guest.
_HOST_MESSAGES = {
    "welcome": {"seat": _seat, "token": _token, "seq": _int, "seats": _list,
                "length": _text, "length_name": _text, "target": _optional(_int)},
    "deal-commit": {"deal": _deal_number, "commitment": _hex},
    "view": {"deal": _deal_number, "view": _object, "from": _int, "steps": _list,
             "fair": _object},
    "deal-reveal": {"deal": _deal_number, "seed": _hex},
    "error": {"reason": _text, "code": _text, "ref": _optional(_int), "next_seq": _optional(_int)},
}


# -- the host -------------------------------------------------------------------------


@dataclass
class _HostDeal:
    """One deal's fair-deal secrets and its public steps, on the host's side."""

    number: int
    seed: str
    commitment: str
    contributions: Optional[list] = None
    log: list = field(default_factory=list)
    actions: list = field(default_factory=list)     # [seat, action] pairs: the deal replays from them

    @classmethod
    def new(cls, number: int, rng: random.Random) -> _HostDeal:
        seed = new_secret(rng)
        return cls(number, seed, commitment(seed))

    def to_json(self) -> dict:
        return {"number": self.number, "seed": self.seed, "contributions": self.contributions,
                "actions": self.actions}

    @classmethod
    def from_json(cls, data: dict) -> _HostDeal:
        seed = _hex(data["seed"], "seed")
        contributions = _optional(_list)(data["contributions"], "contributions")
        deal = cls(_deal_number(data["number"], "deal"), seed, commitment(seed),
                   None if contributions is None else [_hex(c, "contribution") for c in contributions])
        deal.actions = [[_seat(seat, "seat"), _text(action, "action")]
                        for seat, action in _list(data["actions"], "actions")]
        return deal


class Host:
    """The host's side of a table against a friend: the one engine, and the messages.

    ``length`` is the match length (``"one-deal"``, ``"first-to-50"``,
    ``"first-to-100"``); ``rng`` draws the seeds and the seat token (the
    system's cryptographic source unless a seeded generator is given, for
    tests). The first deal waits for the guest's part of the shuffle.

    Calls that the page makes (:meth:`receive`, :meth:`act`,
    :meth:`next_deal`) return an :class:`Outcome`: the messages to send to the
    guest (none while it is away) and the new steps in the host's words. The
    host's own painting layer gets :meth:`view` and :meth:`status`.
    """

    #: The seat the host plays.
    seat = HOST_SEAT

    def __init__(self, length: str = ONE_DEAL, rng: Optional[random.Random] = None):
        """Open a table for a match of ``length``."""
        if length not in MATCH_LENGTHS:
            raise InvalidMatchLengthError(
                f"unknown match length {length!r}: choose one of {', '.join(MATCH_LENGTHS)}")
        self.length = length
        self.rng = rng if rng is not None else random.SystemRandom()
        #: The match, once its first deal is dealt.
        self.match: Optional[Match] = None
        #: Whether a guest page is connected (welcomed and not since disconnected).
        self.connected = False
        self._token: Optional[str] = None
        self._next_seq = 0
        self._played: Optional[_HostDeal] = None              # the deal in self.match.deal
        self._pending: Optional[_HostDeal] = _HostDeal.new(1, self.rng)   # waiting to be dealt
        self._sent = 0                                        # steps of _played sent to the guest

    # -- what the page shows ----------------------------------------------------------

    @property
    def phase(self) -> str:
        """``dealing``, ``playing``, ``deal-over`` or ``match-over``."""
        if self._pending is not None:
            return DEALING
        if not self.match.deal.over:
            return PLAYING
        return MATCH_OVER if self.match.over else DEAL_OVER

    def view(self) -> Optional[dict]:
        """The host seat's view as JSON data (``None`` until the first deal is dealt)."""
        return seat_view(self.match, self.seat).to_json() if self.match is not None else None

    def status(self) -> dict:
        """The table for the host's page: phase, deal number, match length, who is connected."""
        return {"game": GAME, "seat": self.seat, "phase": self.phase,
                "deal": (self._pending or self._played).number, **self._table()}

    def _table(self) -> dict:
        return {
            "seats": [{"seat": HOST_SEAT, "role": "host", "connected": True},
                      {"seat": GUEST_SEAT, "role": "guest", "connected": self.connected}],
            "length": self.length,
            "length_name": MATCH_LENGTH_NAMES[self.length],
            "target": MATCH_LENGTHS[self.length],
        }

    # -- the host's own moves ---------------------------------------------------------

    def act(self, action: str) -> Outcome:
        """The host's action (``give``, ``turn`` or ``keep``).

        Raises :class:`WrongPhaseError` while the cards are not dealt, and the
        engine's :class:`~pishe.errors.IllegalActionError` for a move the rules
        do not allow now; either way nothing changes.
        """
        self._check_playing()
        return self._play(self.seat, action)

    def next_deal(self) -> Outcome:
        """Start dealing the next deal: the guest is sent the commitment to a new seed."""
        self._check_between_deals()
        return Outcome(self._outbox(self._begin_next_deal()), [])

    def disconnect(self) -> None:
        """The data channel closed: keep everything, send nothing until the guest says hello again."""
        self.connected = False

    # -- the guest's messages ---------------------------------------------------------

    def receive(self, text) -> Outcome:
        """Handle one message from the guest; never raises for anything the guest sends.

        A message that is refused changes nothing and is answered by one
        ``error`` message, whose reason is also in :attr:`Outcome.error`.
        """
        seq = None
        try:
            data = _parse(text, MAX_GUEST_MESSAGE, _GUEST_MESSAGES)
            kind = data["type"]
            if kind == "hello":
                fields = _fields(data, _GUEST_MESSAGES[kind])
                return self._hello(fields["token"], fields["have"])
            seq = _int(data.get("seq"), "seq")     # a replay is named as such before anything else
            self._check_seq(seq)
            fields = _fields(data, _GUEST_MESSAGES[kind])
            if kind == "act":
                self._check_playing()
                outcome = self._play(GUEST_SEAT, fields["action"])
            elif kind == "deal-seed":
                outcome = self._deal(fields["deal"], fields["contribution"])
            else:
                self._check_between_deals(fields["deal"])
                outcome = Outcome([self._begin_next_deal()], [])
        except PisheError as e:
            reason = _sentence(e)
            return Outcome([_write("error", reason=reason, code=error_code(e), ref=seq,
                                   next_seq=self._next_seq)], [], reason)
        self._next_seq += 1
        return outcome

    def _hello(self, token: Optional[str], have: Optional[dict]) -> Outcome:
        if token is None:
            if self.connected:
                raise SeatTakenError("The guest seat is taken by a page that is still connected.")
            self._token = self.rng.randbytes(16).hex()
        elif token != self._token:
            raise UnknownTokenError("This table did not issue that seat token, or another page "
                                    "has taken the seat since.")
        self.connected = True
        return Outcome(self._state(have), [])

    def _check_seq(self, seq: int) -> None:
        if not self.connected:
            raise NotConnectedError("Say hello first: the connection is not open.")
        if seq < self._next_seq:
            raise ReplayedMessageError(f"Message {seq} was already received (the next is {self._next_seq}).")
        if seq > self._next_seq:
            raise OutOfOrderMessageError(f"Message {seq} came before message {self._next_seq}.")

    def _check_playing(self) -> None:
        if self._pending is not None:
            raise WrongPhaseError("The cards are not dealt yet: the deal waits for the guest's "
                                  "part of the shuffle.")

    def _check_between_deals(self, finished: Optional[int] = None) -> None:
        if self._pending is not None:
            raise WrongPhaseError(f"Deal {self._pending.number} is already being dealt.")
        if not self.match.deal.over:
            raise DealNotOverError("The deal is still being played.")
        if self.match.over:
            raise MatchOverError("The match is over.")
        if finished is not None and finished != self._played.number:
            raise WrongPhaseError(f"Deal {finished} is not the deal that just ended "
                                  f"(deal {self._played.number}).")

    def _begin_next_deal(self) -> str:
        """A new seed for the next deal; returns the message committing to it."""
        self._pending = _HostDeal.new(self._played.number + 1, self.rng)
        return self._commit_message()

    def _deal(self, number: int, contribution: str) -> Outcome:
        pending = self._pending
        if pending is None:
            raise WrongPhaseError("No deal is waiting for your part of the shuffle.")
        if number != pending.number:
            raise WrongPhaseError(f"Deal {pending.number} is being dealt, not deal {number}.")
        stocks = derive_stocks(pending.seed, [contribution])
        if self.match is None:
            self.match = Match(self.length, stocks=stocks)
        else:
            self.match.next_deal(stocks=stocks)
        pending.contributions = [contribution]
        self._played, self._pending, self._sent = pending, None, 0
        return Outcome([self._view_message()], [])

    # -- messages to the guest --------------------------------------------------------

    def _play(self, seat: int, action: str) -> Outcome:
        """Apply and record an action; tell the guest if it is here."""
        steps = self.match.apply(action, seat)
        self._played.actions.append([seat, action])
        self._played.log.extend(steps)
        send = []
        if self.connected:
            send.append(self._view_message())
            if self.match.deal.over:
                send.append(self._reveal_message())
        return Outcome(send, [s.describe(self.seat) for s in steps])

    def _outbox(self, message: str) -> list:
        return [message] if self.connected else []

    def _state(self, have: Optional[dict]) -> list:
        """Welcome, then everything the guest needs to be where the table is."""
        messages = [_write("welcome", seat=GUEST_SEAT, token=self._token, seq=self._next_seq,
                           **self._table())]
        if self._played is not None:
            self._sent = self._resume_point(have)
            messages.append(self._view_message())
            if self.match.deal.over:
                messages.append(self._reveal_message())
        if self._pending is not None:
            messages.append(self._commit_message())
        return messages

    def _resume_point(self, have: Optional[dict]) -> int:
        """Which step of the deal to resend from, for a guest that holds ``have``.

        Only the steps it lacks, and none at all that name a card now back in
        a stock (a discard pile turned over since): no message ever names a
        stock card. A guest left with a gap cannot check that deal, and says so.
        """
        log = self._played.log
        if have is None or have["deal"] != self._played.number or have["steps"] > len(log):
            return len(log)
        stocks = set(self.match.deal.stocks[0]) | set(self.match.deal.stocks[1])
        if any(s.card in stocks or s.onto in stocks for s in log[have["steps"]:]):
            return len(log)
        return have["steps"]

    def _commit_message(self) -> str:
        return _write("deal-commit", deal=self._pending.number, commitment=self._pending.commitment)

    def _view_message(self) -> str:
        played = self._played
        start, self._sent = self._sent, len(played.log)
        return _write("view", deal=played.number, view=seat_view(self.match, GUEST_SEAT).to_json(),
                      steps=[step_to_json(s) for s in played.log[start:]],
                      fair={"commitment": played.commitment, "contributions": played.contributions},
                      **{"from": start})

    def _reveal_message(self) -> str:
        return _write("deal-reveal", deal=self._played.number, seed=self._played.seed)

    # -- surviving a reload -----------------------------------------------------------

    def save(self) -> str:
        """The table as text for the host page's sessionStorage: the seeds, the guest's
        parts of the shuffle and the actions, from which :meth:`restore` replays it.

        It holds the host's secrets (the seeds): it stays in the host's own tab.
        """
        match = self.match
        return json.dumps({
            "v": VERSION, "game": GAME, "role": "host", "length": self.length,
            "token": self._token, "next_seq": self._next_seq,
            "results": match.results[:match.deal_number - 1] if match is not None else [],
            "played": self._played.to_json() if self._played is not None else None,
            "pending": self._pending.to_json() if self._pending is not None else None,
        }, separators=(",", ":"))

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None) -> Host:
        """The table again as :meth:`save` left it, with no guest connected: the deal
        in play is replayed from its seed, the guest's part and the actions.

        Raises :class:`CorruptSaveError` for text that :meth:`save` did not make.
        """
        try:
            data = json.loads(saved)
            _check(data["v"] == VERSION and data["game"] == GAME and data["role"] == "host",
                   "another version")
            host = cls(_text(data["length"], "length"), rng)
            host._token = _optional(_token)(data["token"], "token")
            host._next_seq = _int(data["next_seq"], "next_seq")
            played = data["played"]
            pending = data["pending"]
            host._pending = _HostDeal.from_json(pending) if pending is not None else None
            if played is not None:
                deal = _HostDeal.from_json(played)
                stocks = derive_stocks(deal.seed, deal.contributions)
                host.match = Match.resume(host.length, _list(data["results"], "results"), stocks)
                _check(host.match.deal_number == deal.number, "the deal numbers disagree")
                for seat, action in deal.actions:
                    deal.log.extend(host.match.apply(action, seat))
                host._played, host._sent = deal, len(deal.log)
            _check(host._played is not None or host._pending is not None, "no deal")
        except (PisheError, ValueError, TypeError, KeyError, RecursionError) as e:
            raise CorruptSaveError(f"the saved table cannot be read ({e})") from None
        return host


def _sentence(error: Exception) -> str:
    text = str(error)
    return text[:1].upper() + text[1:] if text else error_code(error).replace("-", " ").capitalize()


# -- the guest ------------------------------------------------------------------------


@dataclass
class _GuestDeal:
    """What the guest knows of one deal: enough to check it once the seed is revealed."""

    number: int
    commitment: str
    contribution: str
    late: bool = False               # first seen already dealt: its contribution is not known to be ours
    dealt: bool = False              # a view of it has come
    leader: Optional[int] = None
    steps: list = field(default_factory=list)
    problem: Optional[str] = None    # the first thing found wrong with it
    checked: bool = False

    def to_json(self) -> dict:
        return {"number": self.number, "commitment": self.commitment,
                "contribution": self.contribution, "late": self.late, "dealt": self.dealt,
                "leader": self.leader,
                "steps": [step_to_json(s) for s in self.steps], "problem": self.problem,
                "checked": self.checked}

    @classmethod
    def from_json(cls, data: dict) -> _GuestDeal:
        return cls(_deal_number(data["number"], "number"), _hex(data["commitment"], "commitment"),
                   _hex(data["contribution"], "contribution"), bool(data["late"]), bool(data["dealt"]),
                   _optional(_seat)(data["leader"], "leader"),
                   [step_from_json(s) for s in _list(data["steps"], "steps")],
                   _optional(_text)(data["problem"], "problem"), bool(data["checked"]))


class Guest:
    """The guest's side of a table: intents out, its own seat's view and the deal's steps in.

    ``token`` is the seat token of an earlier connection (kept by the page in
    sessionStorage) to resume that seat; ``rng`` draws this page's parts of
    the shuffle (the system's cryptographic source unless given). Send
    :meth:`hello` when the data channel opens, then pass every message
    received to :meth:`receive` and send what it returns.

    After each deal the host reveals its seed and the guest checks the deal:
    :attr:`verification` is then :data:`VERIFIED` or a warning in plain
    words, for deal :attr:`verification_deal`.
    """

    def __init__(self, token: Optional[str] = None, rng: Optional[random.Random] = None):
        """A guest page, new or resuming the seat of ``token``."""
        self.token: Optional[str] = _token(token, "the seat token")
        self.rng = rng if rng is not None else random.SystemRandom()
        #: The seat the host gave this page (``None`` until welcomed).
        self.seat: Optional[int] = None
        #: Seats, match length and target as the host announced them in its welcome.
        self.table: Optional[dict] = None
        #: :data:`VERIFIED`, a warning, or ``None`` before any deal has been checked.
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
        return DEAL_OVER if self._view.get("deal_result") else PLAYING

    def status(self) -> dict:
        """The table for the guest's page: seat, phase, match length, the deal check."""
        return {"game": GAME, "seat": self.seat, "phase": self.phase,
                "deal": max(self._deals, default=None), **(self.table or {}),
                "verification": self.verification, "verification_deal": self.verification_deal}

    def _view_deal(self) -> int:
        return self._view["match"]["deal"]

    # -- messages to the host ---------------------------------------------------------

    def hello(self) -> str:
        """The message that opens (or reopens) the connection, with the seat token if any.

        It says how many steps of the latest deal this page holds, so the
        host resends only the rest.
        """
        followed = [d for d in self._deals.values() if d.dealt and not d.late]
        latest = max(followed, key=lambda d: d.number, default=None)
        have = None if latest is None else {"deal": latest.number, "steps": len(latest.steps)}
        return _write("hello", token=self.token, have=have)

    def intent(self, action: str) -> str:
        """The message asking for ``action`` (``give``, ``turn`` or ``keep``).

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
        if action not in ACTIONS:
            raise UnknownActionError(f"unknown action {action!r}: the actions are give, turn and keep")
        if self._seq is None:
            raise NotConnectedError("Wait for the host's welcome.")
        return _write("act", seq=self._seq, action=action)

    def next_deal(self) -> str:
        """The message asking the host to deal the next deal (once this one is over)."""
        if self._view is None:
            raise WrongPhaseError("No deal has been played yet.")
        return self._numbered("next-deal", deal=self._view_deal())

    def _numbered(self, kind: str, **fields) -> str:
        if self._seq is None:
            raise NotConnectedError("Wait for the host's welcome.")
        message = _write(kind, seq=self._seq, **fields)
        self._seq += 1
        return message

    # -- the host's messages ----------------------------------------------------------

    def receive(self, text) -> Outcome:
        """Handle one message from the host; returns the replies to send.

        Raises a :class:`ProtocolError` (and changes nothing) for a message
        the host should never send. A problem with the fairness of a deal is
        not an exception: it shows in :attr:`verification`.
        """
        data = _parse(text, MAX_HOST_MESSAGE, _HOST_MESSAGES)
        kind, fields = data["type"], _fields(data, _HOST_MESSAGES[data["type"]])
        if kind == "welcome":
            return self._welcome(fields)
        if kind == "error":
            return self._error(fields)
        if self._seq is None:
            raise NotConnectedError("The host sent a message before its welcome.")
        if kind == "deal-commit":
            return self._commit(fields["deal"], fields["commitment"])
        if kind == "view":
            return self._receive_view(fields)
        return self._reveal(fields["deal"], fields["seed"])

    def _welcome(self, fields: dict) -> Outcome:
        _check(fields["token"] is not None, "the welcome lacks the seat token")
        self.token, self.seat, self._seq = fields["token"], fields["seat"], fields["seq"]
        self.table = {"seats": fields["seats"], "length": fields["length"],
                      "length_name": fields["length_name"], "target": fields["target"]}
        return Outcome([], [])

    def _error(self, fields: dict) -> Outcome:
        send = []
        if fields["next_seq"] is not None and self._seq is not None:
            self._seq = fields["next_seq"]
        if fields["code"] == error_code(UnknownTokenError()) and self.token is not None:
            # A table that does not know us: join it afresh, forgetting the deals of the old one.
            self.token, self._deals, self._view = None, {}, None
            self.verification = self.verification_deal = None
            send.append(self.hello())
        return Outcome(send, [], fields["reason"])

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

    def _receive_view(self, fields: dict) -> Outcome:
        number, start, view, fair = fields["deal"], fields["from"], fields["view"], fields["fair"]
        steps = [step_from_json(s) for s in fields["steps"]]
        _check(set(fair) == {"commitment", "contributions"}, "fair must give commitment and contributions")
        fair_commitment = _hex(fair["commitment"], "commitment")
        contributions = [_hex(c, "contribution") for c in _list(fair["contributions"], "contributions")]
        match = _object(view.get("match"), "the view's match")
        _check(view.get("seat") == self.seat, "the view is not of this page's seat")
        _check(match.get("deal") == number, "the view is of another deal")
        leader = _seat(match.get("leader"), "the view's leader")
        record = self._deals.get(number)
        if record is None:
            _check(len(contributions) == 1, "a deal has one contribution from the guest")
            record = _GuestDeal(number, fair_commitment, contributions[0], late=True)
        if record.late or start > len(record.steps):
            # Steps this page never saw: the deal cannot be checked, but play goes on.
            record.late, record.leader, record.dealt, record.steps = True, leader, True, []
            self._keep(record)
            self._view = view
            return Outcome([], [s.describe(self.seat) for s in steps])
        if (record.commitment, [record.contribution]) != (fair_commitment, contributions):
            self._warn(record, f"Deal {number}: the host dealt the cards without using your part "
                               f"of the shuffle or its commitment.")
        known = record.steps
        overlap = known[start:start + len(steps)]
        if overlap != steps[:len(overlap)] or start + len(steps) < len(known):
            self._warn(record, f"Deal {number}: the host changed the account of steps it had sent.")
        new = steps[len(known) - start:]
        known.extend(new)                        # what was shown stays as it was shown
        record.leader, record.dealt = leader, True
        self._keep(record)
        self._view = view
        return Outcome([], [s.describe(self.seat) for s in new])

    def _reveal(self, number: int, seed: str) -> Outcome:
        record = self._deals.get(number)
        if record is None or record.leader is None:
            self._record(number, f"Deal {number} could not be checked: this page did not see it played.")
        elif record.problem is not None:
            self._record(number, record.problem)
        elif record.late:
            self._record(number, f"Deal {number} could not be checked: this page did not see "
                                 f"all of it played.")
        else:
            try:
                verify_deal(record.commitment, seed, [record.contribution], record.leader,
                            record.steps, self.seat)
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
        return json.dumps({"v": VERSION, "game": GAME, "token": self.token, "seat": self.seat,
                           "table": self.table, "view": self._view,
                           "verification": self.verification,
                           "verification_deal": self.verification_deal,
                           "deals": [d.to_json() for d in self._deals.values()]},
                          separators=(",", ":"))

    @classmethod
    def restore(cls, saved: str, rng: Optional[random.Random] = None) -> Guest:
        """A guest page again as :meth:`save` left it; send :meth:`hello` to resume.

        Raises :class:`CorruptSaveError` for text that :meth:`save` did not make.
        """
        try:
            data = json.loads(saved)
            _check(data["v"] == VERSION and data["game"] == GAME, "another version")
            guest = cls(data["token"], rng)
            guest.seat = _optional(_seat)(data["seat"], "seat")
            guest.table = _optional(_object)(data["table"], "table")
            guest._view = _optional(_object)(data["view"], "view")
            guest.verification = _optional(_text)(data["verification"], "verification")
            guest.verification_deal = _optional(_deal_number)(data["verification_deal"], "deal")
            deals = [_GuestDeal.from_json(d) for d in _list(data["deals"], "deals")]
        except (ValueError, TypeError, KeyError, RecursionError) as e:
            raise CorruptSaveError(f"the saved guest state cannot be read ({e})") from None
        guest._deals = {d.number: d for d in deals}
        return guest
