"""The position text form: a deal's state as JSON data, and back.

``{"stocks": [S0, S1], "discards": [D0, D1], "foundations": {"C": n, …},
"turn": seat}``, piles bottom to top, cards in text form, ``n`` the top rank
of that suit pile (0 = empty). A turned card waiting for give or keep is
``"turned": "8C"`` (absent otherwise). All 52 cards must be accounted for once.
"""

from __future__ import annotations

from ...cards import SUITS, parse_cards, Card
from .deal import Deal
from ...errors import InvalidCardError, InvalidPositionError

__all__ = ["parse_position", "format_position"]

_KEYS = {"stocks", "discards", "foundations", "turn", "turned"}


def parse_position(data) -> Deal:
    """A :class:`Deal` at the position ``data``; raises :class:`InvalidPositionError`.

    Forced moves due at the position (the mover's discard top fitting a suit
    pile, a win) are carried out at once and recorded as steps of this turn.
    """
    if not isinstance(data, dict):
        raise InvalidPositionError("a position must be a JSON object")
    unknown = set(data) - _KEYS
    if unknown:
        raise InvalidPositionError(f"unknown keys in the position: {', '.join(sorted(unknown))}")
    missing = _KEYS - {"turned"} - set(data)
    if missing:
        raise InvalidPositionError(f"the position lacks: {', '.join(sorted(missing))}")
    try:
        stocks = _two_piles(data["stocks"], "stocks")
        discards = _two_piles(data["discards"], "discards")
        turned = Card.parse(data["turned"]) if data.get("turned") is not None else None
    except InvalidCardError as e:
        raise InvalidPositionError(str(e)) from None
    foundations = data["foundations"]
    if not isinstance(foundations, dict) or set(foundations) != set(SUITS):
        raise InvalidPositionError("foundations must give a top rank for each of C, D, H, S")
    turn = data["turn"]
    if isinstance(turn, bool) or turn not in (0, 1):
        raise InvalidPositionError(f"turn must be seat 0 or 1, not {turn!r}")
    return Deal(stocks, discards, foundations, turn, turned)


def _two_piles(value, name: str) -> list:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidPositionError(f"{name} must be a list of two piles")
    return [parse_cards(pile) for pile in value]


def format_position(deal: Deal) -> dict:
    """The position of ``deal`` as JSON data (the inverse of :func:`parse_position`)."""
    data = {
        "stocks": [[str(c) for c in pile] for pile in deal.stocks],
        "discards": [[str(c) for c in pile] for pile in deal.discards],
        "foundations": dict(deal.foundations),
        "turn": deal.turn,
    }
    if deal.turned is not None:
        data["turned"] = str(deal.turned)
    return data
