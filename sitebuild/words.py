"""The words the build writes into the site, worded in Python (pishe/table/words.py and the
gettext catalogs): the page's static words in each language, the app's manifest in each
language, the loading line's and the start failures' words the page shows before Python runs."""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path

import catalogs
from sitebuild.common import ROOT


def write_page_words(folder: Path) -> None:
    """web/lang/<code>.js: the page's static words in each language but English (and the
    pseudo-language's, for layout tests), from the catalogs (catalogs.py: page_words), as a
    classic script that web/first-words.js loads before it shows <body> (the page in that
    language from its first paint): ``self.pisheWordsIn[code] = {message: translation}``."""
    from pishe.table.lang import PSEUDO

    folder.mkdir(parents=True, exist_ok=True)
    for code in (*catalogs.LANGUAGES, PSEUDO):
        words = json.dumps(catalogs.page_words(code), ensure_ascii=False, separators=(",", ":"))
        (folder / f"{code}.js").write_text(
            f"(self.pisheWordsIn = self.pisheWordsIn || {{}})[{json.dumps(code)}] = {words};\n", encoding="utf-8")


def tab_titles(games: list) -> dict[str, dict[str, str]]:
    """Each game's tab titles (``computer_title``, ``friends_title``) in each language but
    English, ``{code: {English: translation}}``, from the catalogs: web/first-words.js words
    the tab with them at once, while the page's words (web/lang/<code>.js) are on their way."""
    found = {}
    for code in catalogs.LANGUAGES:
        words = catalogs.page_words(code)
        found[code] = {title: words[title] for game in games for title in (game.computer_title, game.friends_title)
                       if title in words}
    return found


def pseudo_language() -> str:
    """The pseudo-language's code (pishe/table/lang.py), whose words the build writes too."""
    from pishe.table.lang import PSEUDO
    return PSEUDO


def loading_words() -> dict[str, str]:
    """The loading line's words by start-up milestone, from pishe/table/words.py:
    the page shows them before Python runs."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # this repository's pishe, as a script sees it
    from pishe.table.words import LOADING
    return dict(LOADING)


def write_manifest(path: Path) -> None:
    """The app's manifest with its words (pishe/table/words.py's MANIFEST): the English, and each
    other language's in its "translations" member, from the catalogs; and beside it each other
    language's own (manifest.<code>.webmanifest, its words on top: a browser that ignores
    "translations" installs a Turkish page under its Turkish name; web/first-words.js links it)."""
    from pishe.table import lang
    from pishe.table.words import MANIFEST

    manifest = json.loads(path.read_text(encoding="utf-8"))
    before = lang.language()
    try:
        translations = {}
        for code in lang.LANGUAGES[1:]:
            lang.set_language(code)
            translations[code] = {key: lang.TABLE.gettext(words) for key, words in MANIFEST.items()}
    finally:
        lang.set_language(before)
    manifest.update(MANIFEST, translations=translations)
    path.write_text(json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    for code, words in translations.items():
        own = {key: value for key, value in manifest.items() if key != "translations"}
        own.update(words, lang=code)
        path.with_name(f"{path.stem}.{code}{path.suffix}").write_text(
            json.dumps(own, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def start_failed_markup() -> str:
    """Why the game could not start, by cause (pishe/table/words.py's START_FAILED), as
    index.html's data-start-failures template holds it: a static message each, which
    web/first-words.js puts in the page's language like every other (Python cannot run then)."""
    from pishe.table.words import START_FAILED
    return "".join(f'<p data-cause="{cause}" data-i18n>{html.escape(words)}</p>'
                   for cause, words in START_FAILED.items())
