"""The game's own catalog (its package's locale folder): ``_`` and ``ngettext`` for its modules."""

from ...lang import N_, catalog

__all__ = ["WORDS", "N_", "_", "ngettext"]

#: The game's words in the page's language (pishe/games/batak/locale/<lang>/LC_MESSAGES/batak.po).
WORDS = catalog(__file__, "batak")
_ = WORDS.gettext
ngettext = WORDS.ngettext
