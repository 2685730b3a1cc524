"""The messages between pages: their envelope, their fields, and the errors that refuse them.

Every message is a JSON object ``{"v": 4, "game": <game id>, "type": …}``
plus the fields of its type; ``docs/PROTOCOL.md`` lists them all. This
module reads and writes them for any game; :mod:`.host` and :mod:`.guest`
decide what they mean.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Callable, NamedTuple, Optional, Sequence

from ...errors import PisheError
from ..fair import InvalidSecretError, check_secret
from ..lang import _, upper

__all__ = [
    "VERSION", "MAX_GUEST_MESSAGE", "MAX_HOST_MESSAGE", "MAX_DEPTH", "HOST_SEAT",
    "DEALING", "PLAYING", "DEAL_OVER", "MATCH_OVER", "CONNECTING", "VERIFIED",
    "Outcome", "error_code",
    "ProtocolError", "MessageTooLongError", "MessageTooDeepError", "MalformedMessageError", "UnsupportedVersionError",
    "WrongGameError", "UnknownMessageTypeError", "ReplayedMessageError", "OutOfOrderMessageError",
    "NotConnectedError", "SeatTakenError", "UnknownTokenError", "WrongPhaseError",
    "RemovedDealError", "LogFullError", "CorruptSaveError", "REMOVED_MESSAGES",
]

#: The protocol version every message carries as ``"v"``.
VERSION = 6
#: The longest message a guest may send, in bytes of UTF-8 (checked before parsing).
MAX_GUEST_MESSAGE = 4096
#: The longest message a host may send (a whole deal's steps fit many times over).
MAX_HOST_MESSAGE = 1 << 20
#: The deepest nesting of brackets a message may have, checked before parsing: the
#: deepest message the pages make nests 6 deep, and a parser in the browser's Pyodide
#: dies (a JavaScript stack overflow, not an exception) on a few thousand.
MAX_DEPTH = 16
#: The host's seat; guests sit in the others.
HOST_SEAT = 0

#: Phases of a table. ``dealing``: the next deal is being dealt by the pages.
DEALING = "dealing"
PLAYING = "playing"
DEAL_OVER = "deal-over"
MATCH_OVER = "match-over"
#: A guest's phase before the host has welcomed it.
CONNECTING = "connecting"

#: The guest's verification of a deal that passed every check.
VERIFIED = "verified"

MAX_INT = 2 ** 53 - 1      # the largest integer a JavaScript number holds exactly
_TOKEN = re.compile(r"[0-9a-f]{32}")
# A JSON string, unrolled (runs of plain characters, then one escape at a time): ~3x faster
# than an alternation tried at every character, on a view of a few kilobytes.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}
ENVELOPE = ("v", "game", "type")


# -- errors ---------------------------------------------------------------------------


class ProtocolError(PisheError):
    """A message that cannot be accepted; the message says why in plain words."""


class MessageTooLongError(ProtocolError):
    """A message longer than the limit, refused before it is parsed."""


class MessageTooDeepError(ProtocolError):
    """A message whose brackets nest deeper than :data:`MAX_DEPTH`, refused before it is parsed."""


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
    """A new guest while every guest seat is held by a connected page."""


class UnknownTokenError(ProtocolError):
    """A seat token this table did not issue, or no longer honours."""


class WrongPhaseError(ProtocolError):
    """A message that does not fit what the table is doing (dealing, playing, between deals)."""


class RemovedDealError(ProtocolError):
    """A message or save of the commit-and-reveal deal, which no page deals any more: every
    table deals no-peek, and a second way to deal would be a way back to the weaker one."""


class LogFullError(ProtocolError):
    """A page sent more of a try's messages than the game's size allows (its record's cap)."""


class CorruptSaveError(ProtocolError, ValueError):
    """Saved state that a ``restore`` cannot read."""


def error_code(error: Exception) -> str:
    """The ``code`` of an error reply: the error's class name in kebab case.

    >>> error_code(ReplayedMessageError("x"))
    'replayed-message'
    """
    name = type(error).__name__.removesuffix("Error")
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def sentence(error: Exception) -> str:
    """An error's message as a sentence for the other page: its first letter a capital by the
    language's rules (Turkish "iki" → "İki"); with no message, its code, an identifier, in English."""
    text = str(error)
    return upper(text[:1]) + text[1:] if text else error_code(error).replace("-", " ").capitalize()


class Outcome(NamedTuple):
    """What one call on a host or a guest produced.

    ``send``: messages to send, in order; on the host each is ``(connection,
    text)``, on the guest plain text (a guest has one connection).
    ``steps``: the new steps in this seat's words, for the page to show and
    announce. ``error``: on the host, why it refused a guest's message; on the
    guest, the reason of the host's ``error`` reply; ``None`` otherwise.
    ``moves``: the cards the new steps moved, for the page to show them travelling
    (:meth:`pishe.table.game.Game.motions`).
    """

    send: list
    steps: list
    error: Optional[str] = None
    moves: Sequence = ()


# -- fields ---------------------------------------------------------------------------


def check(condition: bool, reason: str) -> None:
    """Raise :class:`MalformedMessageError` with ``reason`` unless ``condition``."""
    if not condition:
        raise MalformedMessageError(reason)


def quote(value, limit: int = 40) -> str:
    """A peer's value, quoted and cut short, for an error's reason."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def whole(value, name: str, low: int = 0) -> int:
    """A whole number from ``low`` that JavaScript holds exactly."""
    check(type(value) is int and low <= value <= MAX_INT, f"{name} must be a whole number from {low}")
    return value


def deal_number(value, name: str) -> int:
    """A deal number (from 1)."""
    return whole(value, name, 1)


def text(value, name: str) -> str:
    """Any text."""
    check(isinstance(value, str), f"{name} must be text")
    return value


def token(value, name: str) -> Optional[str]:
    """``None`` or a seat token (32 hex digits)."""
    check(value is None or (isinstance(value, str) and _TOKEN.fullmatch(value) is not None),
          f"{name} must be null or the seat token the host issued")
    return value


def match_id(value, name: str) -> str:
    """A match's id: 32 hex digits, as the host draws it."""
    check(isinstance(value, str) and _TOKEN.fullmatch(value) is not None, f"{name} must be 32 hex digits")
    return value


def secret(value, name: str) -> str:
    """A seed, commitment or contribution: 64 lowercase hex digits."""
    try:
        return check_secret(value, name)
    except InvalidSecretError as e:
        raise MalformedMessageError(str(e)) from None


def obj(value, name: str) -> dict:
    """A JSON object."""
    check(isinstance(value, dict), f"{name} must be an object")
    return value


def items(value, name: str) -> list:
    """A JSON list."""
    check(isinstance(value, list), f"{name} must be a list")
    return value


_SEAT_KEYS = {"seat": int, "role": str, "connected": bool, "autopilot": bool, "away": bool, "left": bool,
              "unfair": bool}
_ROLES = ("host", "guest", "computer")


#: The longest name a player may give their seat, in characters.
MAX_NAME = 20


def player_name(value, name: str) -> str:
    """A name a player chose for their seat: 1 to :data:`MAX_NAME` printable characters
    (letters of any language, spaces inside), no space at either end. Player text: a page
    shows it only as text, in a seat's name places, never in its own sentences."""
    check(isinstance(value, str) and 0 < len(value) <= MAX_NAME and value == value.strip()
          and value.isprintable(), f"{name} must be 1 to {MAX_NAME} printable characters, "
                                   "with no space at either end")
    return value


def _chosen_name(seat: dict) -> bool:
    try:
        return seat["name"] is None or player_name(seat["name"], "name") is not None
    except ProtocolError:
        return False


def seat_list(value, name: str) -> list:
    """Who sits where (see :meth:`.host.Host.seats`): one object a seat, in seat order, and
    the name its player chose (``null`` for none)."""
    check(isinstance(value, list) and all(
        isinstance(s, dict) and set(s) == {*_SEAT_KEYS, "name"} and s["seat"] == i
        and all(type(s[k]) is kind for k, kind in _SEAT_KEYS.items()) and s["role"] in _ROLES
        and _chosen_name(s)
        for i, s in enumerate(value)),
        f"{name} must list the seats in order, each with {', '.join(_SEAT_KEYS)}, name")
    return value


def seats(value, name: str) -> list:
    """A list of seat numbers (whole numbers below 16), each at most once."""
    check(isinstance(value, list) and all(type(s) is int and 0 <= s < 16 for s in value)
          and len(set(value)) == len(value), f"{name} must list seat numbers")
    return value


def optional(checker: Callable) -> Callable:
    """``checker``, letting ``None`` through."""
    return lambda value, name: None if value is None else checker(value, name)


def _no_duplicate_keys(pairs) -> dict:
    data = dict(pairs)
    check(len(data) == len(pairs), "a key appears twice")
    return data


def _no_constant(name: str):
    raise MalformedMessageError(f"{name} is not a JSON number")


def _depth(message: str) -> int:
    """How deep the brackets of ``message`` nest outside its strings (regular expressions
    and C-level iteration: a loop in Python over every bracket of a view cost more than
    parsing it). With no backslash before a quote, every quote opens or closes a string,
    for the parser too, and what lies outside strings is every other piece between quotes
    (found in half the time the string pattern takes)."""
    outside = "".join(message.split('"')[::2]) if '\\"' not in message else _STRING.sub("", message)
    brackets = _NOT_BRACKET.sub("", outside)
    return max(accumulate(map(_NESTING.__getitem__, brackets), initial=0))


def parse(message, limit: int, types: dict, game_id: Optional[str]) -> dict:
    """The JSON object of a message of a known type, this version and ``game_id``
    (any game when ``None``); else a :class:`ProtocolError`."""
    if not isinstance(message, str):
        raise MalformedMessageError("a message must be text")
    if len(message) > limit or len(message.encode("utf-8", "surrogatepass")) > limit:
        raise MessageTooLongError(f"the message is longer than {limit} bytes")
    if _depth(message) > MAX_DEPTH:
        raise MessageTooDeepError(f"the message nests more than {MAX_DEPTH} brackets deep")
    try:
        data = json.loads(message, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except MalformedMessageError:
        raise
    except (ValueError, RecursionError):     # JSONDecodeError, and nesting too deep
        raise MalformedMessageError("the message is not valid JSON") from None
    check(isinstance(data, dict), "a message must be a JSON object")
    version = data.get("v")
    check(type(version) is int, "the message lacks its protocol version (v)")
    if version != VERSION:
        raise UnsupportedVersionError(
            f"this page speaks version {VERSION} of the protocol, the message is version "
            f"{quote(version)}: both pages need the same version of the game")
    if game_id is not None and data.get("game") != game_id:
        raise WrongGameError(f"the message is not about {game_id} (game {quote(data.get('game'))})")
    kind = data.get("type")
    if kind in REMOVED_MESSAGES:
        raise RemovedDealError(removed_deal())
    if not isinstance(kind, str) or kind not in types:
        raise UnknownMessageTypeError(
            f"unknown message type {quote(kind)}: expected one of {', '.join(types)}")
    return data


def fields(data: dict, spec: dict) -> dict:
    """The fields of a parsed message, each checked by its ``spec`` entry; nothing else allowed."""
    kind = data["type"]
    for name in data:
        if name not in spec and name not in ENVELOPE:
            raise MalformedMessageError(f"unknown field {quote(name)} in a {kind} message")
    for name in spec:
        if name not in data:
            raise MalformedMessageError(f"a {kind} message needs {name!r}")
    return {name: checker(data[name], name) for name, checker in spec.items()}


def write(game_id: str, kind: str, **values) -> str:
    """A message of ``kind`` about ``game_id`` as compact JSON text."""
    return json.dumps({"v": VERSION, "game": game_id, "type": kind, **values}, separators=(",", ":"))


def action_text(value, name: str) -> str:
    """An action's text (which game's action it is, the game says)."""
    check(isinstance(value, str) and 0 < len(value) <= 16, f"{name} must be an action's text")
    return value


#: The messages of the commit-and-reveal deal that no page deals any more (version 3 and
#: before): refused by name, changing nothing (:class:`RemovedDealError`).
REMOVED_MESSAGES = ("act", "deal-part", "deal-seed", "deal-commit", "deal-parts", "view", "deal-reveal")


def removed_deal() -> str:
    """The sentence that refuses a message, link or save of the removed commit-and-reveal deal."""
    return _("This table deals no-peek only: the old way to deal (commit and reveal), in which "
             "the host's page saw every card, is no longer played. Nothing changed.")


#: A message's fields, each with the function that checks it and returns its value.
Spec = dict[str, Callable[..., Any]]

# Guest -> host.
GUEST_MESSAGES: dict[str, Spec] = {
    "hello": {"token": token},
    "next-deal": {"seq": whole, "deal": deal_number},
    # The person is back at a seat a computer was playing for them.
    "take-over": {"seq": whole},
    # The person leaves the table: a computer plays the seat for good.
    "leave": {"seq": whole},
    # The name the person gives their seat (null: none).
    "name": {"seq": whole, "name": optional(player_name)},
    # A no-peek deal's message of this page's, for try ``tries`` of the deal (docs/PROTOCOL.md,
    # "No-peek dealing"): a message of a try that ended is dropped, never taken into the next.
    "np": {"seq": whole, "deal": deal_number, "tries": whole, "message": obj},
}

# Host -> guest.
HOST_MESSAGES: dict[str, Spec] = {
    "welcome": {"seat": whole, "token": token, "seq": whole, "seats": seat_list, "length": text,
                "length_name": text, "target": optional(whole), "clock": optional(whole), "match_id": match_id},
    # No-peek dealing: a deal (or a new try of it) begins, with the page that sees for each
    # seat and every page's message so far (to a page coming back); every page's message,
    # relayed; a deal aborted by pages gone with their keys; who sits where (a guest makes its
    # own views: the host cannot, it does not know them).
    "np-deal": {"deal": deal_number, "pages": items, "tries": whole, "log": items},
    "np": {"deal": deal_number, "tries": whole, "message": obj},
    "np-abort": {"deal": deal_number, "seats": seats},
    "table": {"seats": seat_list},
    "error": {"reason": text, "code": text, "ref": optional(whole), "next_seq": optional(whole)},
}
