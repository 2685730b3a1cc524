"""The page's language: gettext catalogs, the house's (the table's) and one in each game's package.

Every sentence a player reads is written in English in the code, marked with
``_()`` (or ``ngettext()`` for a count, ``N_()`` for a constant translated where it
is used), and looked up in the catalog of the package that words it: the table's
``pishe/table/locale/<lang>/LC_MESSAGES/table.mo`` (the words of ``pishe/*.py`` too: the
cards', the command line's), a game's
``pishe/games/<game>/locale/<lang>/LC_MESSAGES/<game>.mo``, so a new game brings its
own words. build.py compiles the ``.po`` files with Babel into the wheel; in a
source tree with no ``.mo`` (tests, the command line) Babel reads the ``.po`` itself.

The language is the page's own (:func:`set_language`): each page of a friends'
table words everything for its own player, so nothing on the wire depends on it.
The command line speaks its environment's (:func:`from_environment`) or ``--lang``'s.
:data:`PSEUDO` is a made-up language for layout tests: every sentence about 40% longer and accented.

This module is the package's, not the table's, so that the cards (:mod:`pishe.cards`) word
themselves without depending on the table; :mod:`pishe.table.lang` gives the table's modules
the same names.
"""

from __future__ import annotations

import gettext
import io
import re
# gettext imports struct only once it reads a .mo file: imported with this module, at the
# page's start-up, so that a standard library trimmed to what start-up imports still has it
# and the language switch works offline.
import struct  # noqa: F401
from pathlib import Path

from .errors import UnknownLanguageError

__all__ = ["LANGUAGES", "PSEUDO", "TABLE", "Catalog", "catalog", "set_language", "language", "from_environment",
           "upper", "lower", "named", "pseudo", "N_", "_", "ngettext", "catalog_named"]

#: The languages a page may speak, by code; the first is the code's own (English).
LANGUAGES = ("en", "tr")
#: The pseudo-language for layout tests (not a player's: no catalog, made from the English).
PSEUDO = "en-XA"

_language = "en"


def set_language(code: str) -> str:
    """Make ``code`` the language of every sentence worded from now on; returns it.
    Raises :class:`UnknownLanguageError` for any other code, changing nothing."""
    global _language
    if code not in LANGUAGES and code != PSEUDO:
        raise UnknownLanguageError(f"no such language: {str(code)[:20]!r}"
                                   f" (choose one of {', '.join(LANGUAGES)})")
    _language = code
    return code


def language() -> str:
    """The language sentences are worded in now."""
    return _language


def from_environment(environ=None) -> str:
    """The language a command line's environment (``os.environ`` if ``None``) asks for, read as
    GNU gettext reads it: ``LANGUAGE`` (a list: "de:tr"), unless the locale is "C", then the
    locale, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` ("tr_TR.UTF-8"). The first of
    :data:`LANGUAGES` named, else English."""
    import os

    environ = os.environ if environ is None else environ
    locale = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "C")
    asked = [locale]
    if environ.get("LANGUAGE") and locale not in ("C", "POSIX"):
        asked = environ["LANGUAGE"].split(":")
    for name in asked:
        code = re.split(r"[_.@-]", name, maxsplit=1)[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it: a constant, translated where used."""
    return message


def upper(text: str) -> str:
    """``text`` in capitals by the language's rules (Turkish: i → İ, ı → I). Display text only:
    identifiers, keys and protocol values are never cased by language."""
    if _language == "tr":
        text = text.replace("i", "İ").replace("ı", "I")
    return text.upper()


def lower(text: str) -> str:
    """``text`` in small letters by the language's rules (Turkish: I → ı, İ → i). Display text only."""
    if _language == "tr":
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def named(name: str) -> str:
    """A seat's or team's name ("Computer", "Your team") as said inside a sentence. Turkish
    writes these common nouns in small letters ("El bitti: sen 1, bilgisayar 15"); English
    capitalises them as the table's names."""
    return lower(name) if _language == "tr" else name


_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")
_ACCENTS = str.maketrans("aceinoruyACEINORUY", "àçéîñöŕûýÀÇÉÎÑÖŔÛÝ")


def pseudo(message: str) -> str:
    """``message`` in the pseudo-language: accented, about 40% longer, placeholders kept."""
    parts = _PLACEHOLDER.split(message)
    text = "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts))
    letters = sum(len(p) for i, p in enumerate(parts) if not i % 2)
    # The padding in words of five, so that a line may break as a translation's would.
    pad = "ẍ" * max(1, (letters * 2) // 5 - 1)
    return " ".join([text, *(pad[i:i + 5] for i in range(0, len(pad), 5))])


class Catalog:
    """One package's words in every language: ``gettext``, ``ngettext``, by the page's language.

    ``folder`` is the package's ``locale`` folder, ``domain`` its catalog's name; a message it
    lacks is looked up in ``fallback`` (a game's: the table's, which words "Deal")."""

    def __init__(self, folder: Path, domain: str, fallback: "Catalog | None" = None):
        self.folder, self.domain, self.fallback = Path(folder), domain, fallback
        self._loaded: dict = {}

    def _translations(self) -> gettext.NullTranslations:
        code = _language
        found = self._loaded.get(code)
        if found is None:
            found = self._loaded[code] = self._load(code)
            if self.fallback is not None:
                found.add_fallback(self.fallback._translations())
        return found

    def _load(self, code: str) -> gettext.NullTranslations:
        base = self.folder / code / "LC_MESSAGES" / self.domain
        mo = base.with_suffix(".mo")
        if mo.is_file():
            with open(mo, "rb") as f:
                return gettext.GNUTranslations(f)
        po = base.with_suffix(".po")
        if po.is_file():
            # A source tree (tests, the command line): Babel compiles the catalog in memory.
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po

            with open(po, "rb") as f:
                catalog = read_po(f, locale=code)
            data = io.BytesIO()
            write_mo(data, catalog)
            data.seek(0)
            return gettext.GNUTranslations(data)
        return gettext.NullTranslations()

    def gettext(self, message: str) -> str:
        """``message`` in the page's language."""
        if _language == PSEUDO:
            return pseudo(message)
        return self._translations().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` of ``singular``/``plural`` in the page's language, by its plural rule."""
        if _language == PSEUDO:
            return pseudo(singular if n == 1 else plural)
        return self._translations().ngettext(singular, plural, n)


_CATALOGS: dict = {}


def _made(folder: Path, domain: str) -> Catalog:
    found = _CATALOGS.get((folder, domain))
    if found is None:
        found = _CATALOGS[folder, domain] = _CATALOGS[domain] = Catalog(folder, domain, _CATALOGS.get("table"))
    return found


def catalog(module_file: str, domain: str) -> Catalog:
    """The catalog ``domain`` of the package that holds the module whose ``__file__`` is
    ``module_file`` (its ``locale`` folder), made once."""
    return _made(Path(module_file).parent / "locale", domain)


def catalog_named(domain: str) -> Catalog:
    """The catalog called ``domain``: the table's, or a game package's (imported if it was not).
    Raises :class:`KeyError` for any other name."""
    found = _CATALOGS.get(domain)
    if found is None and domain.isidentifier():
        import importlib

        try:
            importlib.import_module(f"pishe.games.{domain}")
        except ImportError:
            pass
        found = _CATALOGS.get(domain)
    if not isinstance(found, Catalog):
        raise KeyError(f"no catalog {domain[:40]!r}")
    return found


#: The table's own words (pishe/table/locale), and those of pishe/*.py: their ``_`` and ``ngettext``.
TABLE = _made(Path(__file__).parent / "table" / "locale", "table")
_ = TABLE.gettext
ngettext = TABLE.ngettext
