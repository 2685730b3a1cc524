#!/usr/bin/env python3
"""The gettext catalogs: extract the marked sentences, update the .po files, compile them (Babel).

    python catalogs.py update     extract every marked sentence and merge it into each .po file

One catalog for the table (``pishe/table/locale/<lang>/LC_MESSAGES/table.po``: the
sentences of ``pishe/*.py`` and ``pishe/table/``) and one inside each game's package
(``pishe/games/<game>/locale/<lang>/LC_MESSAGES/<game>.po``: its own sentences), so a
new game brings its own words. The English is the code's own text (the message ids);
a .po file exists for every other language. build.py compiles them into the wheel
(:func:`compiled`); a source tree's Python reads the .po files through Babel itself.
The page's static words (index.html, pishe/table/page_text.py) are the table's.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "pishe"
#: Languages with a catalog (English is the code's own).
LANGUAGES = ("tr",)
#: Modules never in a catalog: the command line stays English.
NOT_TRANSLATED = {"cli.py", "__main__.py"}


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
    return folder / lang / "LC_MESSAGES" / f"{domain}.po"


def template(domain: str, sources: list):
    """A Babel catalog of every sentence marked in ``sources`` (``_``, ``ngettext``, ``N_``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import DEFAULT_KEYWORDS, extract

    catalog = Catalog(project="pishe", domain=domain)
    for path in sources:
        with open(path, "rb") as f:
            for lineno, message, comments, context in extract("python", f, DEFAULT_KEYWORDS):
                catalog.add(message, None, [(path.relative_to(ROOT).as_posix(), lineno)],
                            auto_comments=comments, context=context)
    return catalog


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
    """``{path in the wheel: .mo bytes}`` for every .po file of the package."""
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
            data = io.BytesIO()
            write_mo(data, catalog)
            files[path.with_suffix(".mo").relative_to(ROOT).as_posix()] = data.getvalue()
    return files


def main(argv: list) -> int:
    if argv != ["update"]:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    for path in update():
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
