#!/usr/bin/env python3
"""The gettext catalogs: extract the marked sentences, update the .po files, compile them (Babel).

    python catalogs.py update     extract every marked sentence and merge it into each .po file

One catalog for the table (``pishe/table/locale/<lang>/LC_MESSAGES/table.po``: the
sentences of ``pishe/*.py`` and ``pishe/table/``) and one inside each game's package
(``pishe/games/<game>/locale/<lang>/LC_MESSAGES/<game>.po``: its own sentences), so a
new game brings its own words. The English is the code's own text (the message ids);
a .po file exists for every other language. The build compiles them into the wheel
(:func:`compiled`); a source tree's Python reads the .po files through Babel itself.
The page's static words (index.html, pishe/table/page_text.py) are the table's.
"""

from __future__ import annotations

import io
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

from sitebuild.markup import game_file_words, game_markup, registered_games

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "pishe"
#: Languages with a catalog (English is the code's own).
LANGUAGES = ("tr",)
#: Modules never in a catalog (the command line's entry point, which words nothing).
NOT_TRANSLATED = {"__main__.py"}
#: The command line's modules (the table's and each game's): their words are not the page's.
COMMAND_LINE = "cli.py"


def domains() -> dict:
    """``{domain: (locale folder, [source files])}``: the table's and each game's."""
    games = PACKAGE / "games"
    found = {"table": (PACKAGE / "table" / "locale",
                       sorted(p for p in PACKAGE.glob("*.py") if p.name not in NOT_TRANSLATED)
                       + sorted(p for p in (PACKAGE / "table").rglob("*.py") if "__pycache__" not in p.parts))}
    for game in sorted(p for p in games.iterdir() if (p / "__init__.py").is_file()):
        found[game.name] = (game / "locale",
                            sorted(p for p in game.rglob("*.py") if "__pycache__" not in p.parts
                                   and p.name not in NOT_TRANSLATED))
    return found


def po_path(folder: Path, lang: str, domain: str) -> Path:
    """The .po file of ``domain`` in ``lang`` under the locale ``folder``."""
    return folder / lang / "LC_MESSAGES" / f"{domain}.po"


#: The page's static words: its markup (index.html with every game's markup written in by
#: the build, sitebuild/markup.py; a game's own words are those of its web/games/<game>/*.html)
#: and the lines its JavaScript words when Python cannot run.
PAGE_SCRIPTS = "web"
#: How Python marks a sentence besides gettext's own names: pishe.table.said's ``say(catalog,
#: message, …)`` and ``nsay(catalog, singular, plural, n, …)``, which keep it as data.
SAID_KEYWORDS = {"say": (2,), "nsay": (2, 3)}
#: How the page's scripts mark a static message: ``pageWord(message)`` (web/lang.js).
PAGE_KEYWORDS = {"pageWord": None}


class _Element:
    def __init__(self, tag: str, attrs: dict, line: int):
        self.tag, self.attrs, self.line = tag, attrs, line
        self.children: list[str | _Element] = []

    def text(self) -> str:
        """Its text, its children's included."""
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def kept(self) -> bool:
        """Whether web/lang.js leaves this child as it is: it holds markup, or a painter's data- attribute."""
        return any(not isinstance(c, str) for c in self.children) or any(k.startswith("data-") for k in self.attrs)

    def message(self) -> str:
        """Its content as one message: child elements ``<n>text</n>``, or ``<n/>`` when kept."""
        parts, n = [], 0
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            else:
                parts.append(f"<{n}/>" if child.kept() else f"<{n}>{child.text()}</{n}>")
                n += 1
        return _collapse("".join(parts))


class _Markup(HTMLParser):
    """A page's markup as a tree of :class:`_Element` (enough of HTML for our own pages)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = _Element("", {}, 0)
        self._open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = _Element(tag, {k: v or "" for k, v in attrs}, self.getpos()[0])
        self._open[-1].children.append(element)
        if tag not in self.VOID:
            self._open.append(element)

    def handle_startendtag(self, tag, attrs):
        self._open[-1].children.append(_Element(tag, {k: v or "" for k, v in attrs}, self.getpos()[0]))

    def handle_endtag(self, tag):
        for i in range(len(self._open) - 1, 0, -1):
            if self._open[i].tag == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        self._open[-1].children.append(data)

    def messages(self, element=None):
        """``(line, message, context)`` of each element marked ``data-i18n`` and each attribute
        named in an element's ``data-i18n-attr``, in document order."""
        element = element or self.root
        for child in element.children:
            if isinstance(child, str):
                continue
            context = child.attrs.get("data-i18n-context") or None
            if "data-i18n" in child.attrs:
                yield child.line, child.message(), context
            for name in child.attrs.get("data-i18n-attr", "").split():
                if child.attrs.get(name):
                    yield child.line, child.attrs[name], context
            yield from self.messages(child)


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _markup_messages(text: str, rel: str) -> list:
    parser = _Markup()
    parser.feed(text)
    return [(rel, line, message, context) for line, message, context in parser.messages()
            if "__PISHE_" not in message]


def _python_template(domain: str, sources: list):
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract

    catalog = Catalog(project="pishe", domain=domain)
    for path in sources:
        with open(path, "rb") as f:
            for lineno, message, comments, context in extract("python", f, {**DEFAULT_KEYWORDS, **SAID_KEYWORDS}):
                catalog.add(message, None, [(path.relative_to(ROOT).as_posix(), lineno)],
                            auto_comments=comments, context=context)
    return catalog


def page_messages(domain: str | None = None) -> list:
    """``[(path, line, message, context)]``: the page's static messages, the table's
    (``domain`` "table": index.html's own, the build's, the scripts' ``pageWord`` calls) or
    a game's (its web/games/<game>/*.html, with the pieces they hold), or every one the page shows (``domain`` None)."""
    from babel.messages.extract import extract

    games: dict[str, list] = {name: [] for name in domains() if name != "table"}
    for name in games:
        for path in sorted((ROOT / "web" / "games" / name).glob("*.html")):
            games[name] += _markup_messages(game_file_words(path), path.relative_to(ROOT).as_posix())
    if domain in games:
        return games[domain]
    page = game_markup((ROOT / "index.html").read_text(encoding="utf-8"), registered_games())
    found = _markup_messages(page, "index.html")
    for path in sorted((ROOT / PAGE_SCRIPTS).rglob("*.js")):
        with open(path, "rb") as f:
            for line, message, _comments, context in extract("javascript", f, PAGE_KEYWORDS):
                found.append((path.relative_to(ROOT).as_posix(), line, message, context))
    if domain is None:
        return found
    # The table's: what no game's markup or Python has (the build writes a game's level names in).
    theirs = {(m[2], m[3]) for messages in games.values() for m in messages}
    for name, (_folder, sources) in domains().items():
        if name != "table":
            theirs |= {(m.id, m.context) for m in _python_template(name, sources) if m.id}
    return [m for m in found if (m[2], m[3]) not in theirs]


def template(domain: str, sources: list):
    """A Babel catalog of every sentence marked in ``sources`` (``_``, ``ngettext``, ``N_``)
    and of the domain's static words on the page (:func:`page_messages`)."""
    catalog = _python_template(domain, sources)
    for rel, line, message, context in page_messages(domain):
        catalog.add(message, None, [(rel, line)], context=context)
    return catalog


def page_words(lang: str) -> dict:
    """The page's static words in ``lang`` (``{message: translation}``, a message with a
    context keyed ``context\x04message``, as gettext does): web/lang/<lang>.js, made by
    the build (sitebuild/words.py). The pseudo-language's are made from the English."""
    from babel.messages.pofile import read_po

    sys.path.insert(0, str(ROOT))
    from pishe.table.lang import PSEUDO, pseudo
    from pishe.table.words import LOADING, START_FAILED

    wanted = {(message, context) for _, _, message, context in page_messages()}
    wanted |= {(message, None) for message in (*LOADING.values(), *START_FAILED.values())}
    if lang == PSEUDO:
        # A shortcut key stays a key.
        translated = {key: key[0] if key[1] == "key" else pseudo(key[0]) for key in wanted}
    else:
        # A game's markup words come from that game's catalog alone (the same English may mean
        # another thing in another game); the rest from the table's catalog first, then each game's.
        found = {}
        for domain, (folder, _) in domains().items():
            with open(po_path(folder, lang, domain), "rb") as f:
                found[domain] = read_po(f, locale=lang, domain=domain)
        own: dict[tuple[str, str | None], list] = {}
        for domain in found:
            if domain != "table":
                for _, _, message, context in page_messages(domain):
                    own.setdefault((message, context), []).append(found[domain])
        translated = {}
        for message, context in wanted:
            catalogs = own.get((message, context)) or found.values()
            entry = next((e for e in (c.get(message, context=context) for c in catalogs) if e is not None and e.string),
                         None)
            if entry is not None:
                translated[message, context] = entry.string
    return {(f"{context}\x04{message}" if context else message): text
            for (message, context), text in sorted(translated.items(), key=lambda kv: (kv[0][1] or "", kv[0][0]))}


def update() -> list:
    """Merge each domain's marked sentences into its .po files (new ones untranslated,
    gone ones dropped); returns the files written."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    written = []
    for domain, (folder, sources) in domains().items():
        pot = template(domain, sources)
        for lang in LANGUAGES:
            path = po_path(folder, lang, domain)
            if path.is_file():
                with open(path, "rb") as f:
                    catalog = read_po(f, locale=lang, domain=domain)
            else:
                catalog = Catalog(locale=lang, domain=domain, project="pishe")
            catalog.update(pot, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as f:
                write_po(f, catalog, width=100, omit_header=False, sort_output=False, include_previous=False)
            written.append(path)
    return written


def compiled() -> dict:
    """``{path in the wheel: .mo bytes}`` for every .po file of the package, without the
    messages only the page's markup and scripts have (web/lang/<code>.js holds those), nor
    those only the command line says (:data:`COMMAND_LINE`): the wheel is the page's, and a
    source tree's command line reads the .po files."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    files = {}
    for domain, (folder, _sources) in domains().items():
        for lang in LANGUAGES:
            path = po_path(folder, lang, domain)
            if not path.is_file():
                continue
            with open(path, "rb") as f:
                catalog = read_po(f, locale=lang, domain=domain)
            # The page's static words go to web/lang/ (page_words): Python never says them.
            for message in list(catalog):
                if message.id and message.locations and not any(
                        f.endswith(".py") and not f.endswith(COMMAND_LINE) for f, _ in message.locations):
                    catalog.delete(message.id, context=message.context)
            data = io.BytesIO()
            write_mo(data, catalog)
            files[path.with_suffix(".mo").relative_to(ROOT).as_posix()] = data.getvalue()
    return files


def main(argv: list) -> int:
    """The command line (``python catalogs.py update``): 0 once the .po files are written, 2 for anything else."""
    if argv != ["update"]:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    for path in update():
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
