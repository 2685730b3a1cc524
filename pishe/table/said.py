"""Sentences kept as data: said once in the page's language of the moment, said again in another.

The live region's lines (the steps, the news of a deal, the status when the turn comes to
you) and a guest's check of a deal are worded when they happen. Each is a :class:`Said`: its
words, and its data, which the page keeps beside the line (a guest keeps its check's in its
save); after a switch of language :func:`~.said_again.again` words the data anew, by the one
function that made the line (in :mod:`.said_again`, above the games and the table's words
that this module's users are). A line's data is JSON, one of:

- a text: said as it is (a line of another page's, an error's own text);
- ``{"m": message, "d": catalog, "a": {name: value}}``, with ``"p": plural, "n": count``
  for a count: a catalog's message and its values, each a number, a text that is no
  sentence (a card's "7♦") or a line's data; ``"lower": true`` starts it with a small letter;
- ``{"cat": [line, …]}``: lines said one after another;
- ``{"step": shown, "game": id, "seat": seat}``: a step as that seat was shown it
  (:meth:`~pishe.table.game.Game.describe`), with ``"timeout": true`` the first step of a
  move made when a clock ran out (:meth:`~pishe.table.game.Game.describe_timeout`);
- ``{"name": seat, "game": id, "seat": own}``: a seat's name at a friends' table, as the
  page of seat ``own`` names it;
- ``{"about": "status" | "dealt" | "score", "game": id, "view": view, "names": [line, …] | None}``:
  what a view says of itself, of its deal being dealt or of the match score after its deal,
  the view made anew in the page's language first (:meth:`~pishe.table.game.Game.reword`,
  with the seats' names it was made with).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from .lang import N_, TABLE, Catalog, lower, named

__all__ = ["Said", "say", "nsay", "lowered", "cat", "steps", "seat_name", "names_data", "of_error", "data_of",
           "TECHNICAL", "deal_word", "deal_aborted"]


class Said(str):
    """A sentence in the page's language that keeps :attr:`data`, how it was made."""

    data: Any

    def __new__(cls, text: str, data: Any) -> "Said":
        said = super().__new__(cls, text)
        said.data = data
        return said

    def __getnewargs__(self):
        return str(self), self.data


def _value(value) -> Any:
    return value.data if isinstance(value, Said) else value


def say(words: Catalog, message: str, **values) -> Said:
    """``message`` of the catalog ``words`` with ``values`` (numbers, texts, :class:`Said`)."""
    data = {"m": message, "d": words.domain, "a": {k: _value(v) for k, v in values.items()}}
    return Said(words.gettext(message).format(**values), data)


def nsay(words: Catalog, singular: str, plural: str, n: int, **values) -> Said:
    """As :func:`say`, the form for ``n`` by the language's plural rule (``values`` name ``n`` too)."""
    data = {"m": singular, "p": plural, "n": n, "d": words.domain, "a": {k: _value(v) for k, v in values.items()}}
    return Said(words.ngettext(singular, plural, n).format(**values), data)


def lowered(line: Said) -> Said:
    """``line`` starting with a small letter (a sentence said inside another)."""
    data = {**line.data, "lower": True} if isinstance(line.data, dict) else line.data
    return Said(lower(line[:1]) + line[1:], data)


def cat(*lines) -> Said:
    """``lines`` (:class:`Said` or texts) said one after another."""
    return Said("".join(lines), {"cat": [_value(line) for line in lines]})


def steps(game, shown: Sequence, seat: int, timed_out=()) -> list:
    """Each step of ``shown`` (as :meth:`~pishe.table.game.Game.show_step` showed it to
    ``seat``) in words, as a :class:`Said`; those at the indexes ``timed_out`` are the first
    steps of moves the table made when a clock ran out
    (:meth:`~pishe.table.game.Game.describe_timeout`)."""
    return [Said(game.describe_timeout(data, seat), {"step": data, "game": game.id, "seat": seat, "timeout": True})
            if n in timed_out else Said(game.describe(data, seat), {"step": data, "game": game.id, "seat": seat})
            for n, data in enumerate(shown)]


def seat_name(game, seat: int, own: int, text: str) -> Said:
    """``text``, the name of ``seat`` as the page of seat ``own`` at a friends' table names it."""
    return Said(text, {"name": seat, "game": game.id, "seat": own})


def named_inside(name):
    """A seat's name said inside a sentence (:func:`pishe.lang.named`: Turkish writes it in small
    letters), kept so when the line is said again in another language; a line of names (a
    :func:`say` of several) is its own."""
    if isinstance(name, Said) and isinstance(name.data, dict) and "name" in name.data:
        return Said(named(name), {**name.data, "named": True})
    return name


def names_data(names: Optional[Sequence]) -> Optional[list]:
    """The data of the seats' names a view was made with (``None``: the game's own)."""
    return None if names is None else [_value(name) for name in names]


#: What a player reads for an error whose own text is a developer's (technical English: a
#: broken peer's message, a card, position, deck or step that cannot be), by the error's
#: class name; every other error this package raises says itself in the player's words.
TECHNICAL = {
    "MessageTooLongError": N_("the message is too long."),
    "MessageTooDeepError": N_("the message nests too deeply."),
    "MalformedMessageError": N_("the message is damaged, or not one of this game's."),
    "UnsupportedVersionError": N_("the two pages have different versions of the game: reload both."),
    "WrongGameError": N_("the message is about another game."),
    "UnknownMessageTypeError": N_("this version of the game does not know that message."),
    "ReplayedMessageError": N_("that message came twice."),
    "OutOfOrderMessageError": N_("that message came out of order."),
    "UnknownTokenError": N_("this table does not know that seat."),
    "InvalidSecretError": N_("a part of the shuffle is damaged."),
    "InvalidCardError": N_("that is not a card."),
    "InvalidPositionError": N_("those cards cannot be a position of the game."),
    "InvalidDeckError": N_("that is not a deck of the 52 cards."),
    "InvalidStepError": N_("a step of the game cannot be read."),
    "UnknownActionError": N_("that is not a move of this game."),
    "UnknownGameError": N_("this page does not have that game."),
    "InvalidMatchLengthError": N_("the game has no such match length."),
}


def deal_word(game) -> Said:
    """What players of ``game`` call one deal (Pişti's "Deck"), as a line's part: worded
    again in the page's language, as the rest of the line is."""
    return say(game.catalog, game.deal_name)


def deal_aborted(game, number: int, names: Sequence, aborts: int, reason=None, yours: bool = False) -> Said:
    """The line for deal ``number`` of ``game`` (in the game's word for a deal: Pişti's
    "Deck 2 was aborted"), aborted by the seats named ``names`` and, if ``yours``,
    by the reader's own (its page was gone past its hold), or, with none named, for
    ``reason``; with the count of ``aborts`` at this table: never unseen."""
    who = None
    for n, name in enumerate(names):
        # Inside the sentence a seat's name is a common noun (Turkish: "Eşin ve soldaki").
        name = name if n == 0 and not yours else named_inside(name)
        who = name if who is None else say(TABLE, "{names} and {name}", names=who, name=name)
    if yours:
        reason = (say(TABLE, "you and {seats} were gone before it was over", seats=who) if who
                  else say(TABLE, "your page was gone before it was over"))
    elif who:
        reason = say(TABLE, "{seats} left before it was over", seats=who)
    return cat(say(TABLE, "{deal} {number} was stopped: {reason}", deal=deal_word(game), number=number,
                   reason=reason), " ",
               say(TABLE, "(stopped and dealt again at this table: {aborts})", aborts=aborts), ".")


def of_error(error: Exception) -> str:
    """What a player reads for ``error``: the :class:`Said` it was raised with, its class's
    sentence when its own text is technical (:data:`TECHNICAL`), else its own text."""
    if len(error.args) == 1 and isinstance(error.args[0], Said):
        return error.args[0]
    technical = next((TECHNICAL[c.__name__] for c in type(error).__mro__ if c.__name__ in TECHNICAL), None)
    return say(TABLE, technical) if technical else str(error)


def data_of(lines: Sequence) -> list:
    """The data of each of ``lines`` (a text without any is its own)."""
    return [_value(line) for line in lines]
