"""Errors, named by their cause. Every one of them leaves the game as it was."""

__all__ = [
    "PisheError",
    "InvalidCardError",
    "InvalidPositionError",
    "IllegalActionError",
    "UnknownActionError",
    "NotYourTurnError",
    "GiveNotAllowedError",
    "KeepNotAllowedError",
    "TurnNotAllowedError",
    "DealOverError",
    "MatchOverError",
    "DealNotOverError",
    "UnknownBotError",
    "UnknownGameError",
    "InvalidStepError",
    "InvalidMatchLengthError",
    "UnknownLanguageError",
]


class PisheError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidCardError(PisheError, ValueError):
    """Text that is not a card (``"1S"``, ``"AX"``, ``7``)."""


class InvalidPositionError(PisheError, ValueError):
    """A position that cannot happen: cards missing or twice, a bad suit pile, a bad seat."""


class UnknownBotError(PisheError, ValueError):
    """A bot name that no bot has."""


class UnknownGameError(PisheError, ValueError):
    """A game id that no game has."""


class InvalidStepError(PisheError, ValueError):
    """A step, as a seat was shown it, that no step of the game reads as."""


class InvalidMatchLengthError(PisheError, ValueError):
    """A match length the game does not have."""


class IllegalActionError(PisheError):
    """An action the rules do not allow now. The message says why in plain words."""


class UnknownActionError(IllegalActionError, ValueError):
    """Not an action at all: only ``give``, ``turn`` and ``keep`` exist."""


class NotYourTurnError(IllegalActionError):
    """A seat acted while the other seat is to move."""


class GiveNotAllowedError(IllegalActionError):
    """A give that the rules forbid (the message gives the reason)."""


class KeepNotAllowedError(IllegalActionError):
    """Keep without a turned card that could be given."""


class TurnNotAllowedError(IllegalActionError):
    """Turning a card while a turned card waits for give or keep."""


class DealOverError(IllegalActionError):
    """An action after the deal has been won."""


class DealNotOverError(IllegalActionError):
    """Asking for the next deal while this one is still being played."""


class MatchOverError(IllegalActionError):
    """Asking for another deal after the match has been won."""


class UnknownLanguageError(PisheError, ValueError):
    """A language code the page does not speak (see :mod:`pishe.lang`)."""
