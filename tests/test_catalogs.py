"""The gettext catalogs: every marked sentence translated, placeholders kept, plurals whole,
and the language machinery (Turkish views, casing, the pseudo-language, no "1 cards")."""

import json
import re
import string

import pytest
from babel.messages.pofile import read_po

import catalogs
from pishe import web
from pishe.errors import UnknownLanguageError
from pishe.table import lang

_FIELDS = string.Formatter()


def _placeholders(text: str) -> set:
    return {name for _, name, _, _ in _FIELDS.parse(text) if name is not None}


def _catalogs():
    for domain, (folder, sources) in catalogs.domains().items():
        for code in catalogs.LANGUAGES:
            path = catalogs.po_path(folder, code, domain)
            with open(path, "rb") as f:
                yield domain, code, sources, read_po(f, locale=code, domain=domain)


def test_every_domain_has_a_catalog_for_every_language():
    found = {(domain, code) for domain, code, _, _ in _catalogs()}
    assert found >= {("table", "tr"), ("pasha", "tr"), ("pisti", "tr")}


@pytest.mark.parametrize("domain,code,sources,catalog", list(_catalogs()),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_every_message_is_translated_with_the_same_placeholders(domain, code, sources, catalog):
    # The catalog holds exactly what the code marks today (python catalogs.py update).
    marked = {m.id for m in catalogs.template(domain, sources) if m.id}
    assert {m.id for m in catalog if m.id} == marked, "run: python catalogs.py update"
    plurals = catalog.num_plurals
    for message in catalog:
        if not message.id:
            continue
        assert "fuzzy" not in message.flags, message.id
        if message.pluralizable:
            forms = message.string
            assert len(forms) == plurals and all(forms), message.id
            wanted = _placeholders(message.id[0]) | _placeholders(message.id[1])
            for form in forms:
                assert _placeholders(form) == wanted, (message.id, form)
        else:
            assert message.string, message.id
            assert _placeholders(message.string) == _placeholders(message.id), (message.id, message.string)


@pytest.fixture
def turkish():
    lang.set_language("tr")
    yield
    lang.set_language("en")


def test_turkish_views_and_page_words(turkish):
    view = json.loads(web.new_match(seed=3, game="pisti"))["view"]
    assert view["status"] == "Sıra sende: bir kart at."
    assert view["team_names"] == ["Sizin takım", "Rakip takım"]
    assert view["hand"][0]["play_label"].endswith(" at")
    assert view["match"]["length_name"] == "101 puana kadar"
    view = json.loads(web.new_match(seed=3))["view"]
    assert view["places"][1]["name"] == "Bilgisayar"
    assert view["places"][0]["stock_label"] == "Desten: 26 kart"
    words = json.loads(web.page_words())
    assert words["language"] == "tr" and words["words"]["leave_cancel"] == "Oynamaya devam et"
    # A failure, by the key of its cause (web/core/rtc.js names it), in the page's frame for it.
    said = words["words"]
    assert said["link_broken"].replace("{reason}", said["why_not_a_code"]) == \
        "Bu davet bağlantısı çalışmıyor: bu oyunun bir daveti değil. Arkadaşından yenisini iste."
    from pishe.table.words import PAGE
    assert all(said[key] != PAGE[key] for key in PAGE if key.startswith("why_"))


def test_a_language_switch_mid_match_rewords_the_same_table():
    try:
        first = json.loads(web.new_match(seed=5, game="pisti"))["view"]
        json.loads(web.act(first["legal"][0]))
        english = json.loads(web.current())["view"]
        assert json.loads(web.set_language("tr"))["language"] == "tr"
        turkish = json.loads(web.current())["view"]
        assert turkish["hand"] == [{**c, "name": turkish["hand"][i]["name"],
                                    "play_label": turkish["hand"][i]["play_label"]}
                                   for i, c in enumerate(english["hand"])]
        assert turkish["since_last_turn_steps"] == english["since_last_turn_steps"]
        assert turkish["status"] != english["status"] and turkish["places"] != english["places"]
    finally:
        lang.set_language("en")
    assert json.loads(web.current())["view"]["places"] == english["places"]


def test_an_unknown_language_changes_nothing():
    assert "error" in json.loads(web.set_language("xx"))
    with pytest.raises(UnknownLanguageError):
        lang.set_language("TR")                   # codes are never case-folded
    assert lang.language() == "en"


def test_counts_of_one_are_never_plural():
    from pishe.games.pasha.deal import RECYCLE, Step
    from pishe.games.pisti.view import describe

    assert Step(RECYCLE, 1, None, None, None, 1).describe(0) == (
        "Their stock is empty: their pile (1 card) turns over as their stock")
    assert describe({"kind": "leftover", "team": 0, "count": 1}, 0) == "Your team takes the last 1 card"


def test_turkish_casing(turkish):
    assert lang.upper("pişti sinek iki") == "PİŞTİ SİNEK İKİ"
    assert lang.lower("IRMAK İZMİR") == "ırmak izmir"
    lang.set_language("en")
    assert lang.upper("pişti") == "PIŞTI"


def test_pseudo_language_is_longer_accented_and_keeps_placeholders():
    text = lang.pseudo("Your pile: {card} on top, {cards}")
    assert "{card}" in text and "{cards}" in text and "ö" in text
    assert len(text) >= 1.35 * len("Your pile: {card} on top, {cards}") - 10
    assert all(len(w) <= 12 for w in re.split(r"\s", text))


def test_switching_language_imports_nothing_start_up_did_not(tmp_path):
    """The page's wheel (its compiled catalogs, no Babel): once pishe.web is imported, as at
    the page's start-up, speaking Turkish or the pseudo-language imports no other module, so
    a standard library trimmed to what start-up imports has everything the switch needs."""
    import subprocess
    import sys
    import zipfile

    from sitebuild.wheel import build_pishe_wheel

    with zipfile.ZipFile(build_pishe_wheel(tmp_path / "wheel")) as wheel:
        wheel.extractall(tmp_path / "site")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); import pishe.web as w; before = set(sys.modules)\n"
        "for code in ('tr', 'en-XA', 'en'):\n"
        "    w.set_language(code); w.new_match(seed=1, game='pisti'); w.act(w.json.loads(w.current())['view']['legal'][0])\n"
        "    w.new_match(seed=1); w.page_words()\n"
        "print(sorted(m for m in set(sys.modules) - before if not m.startswith('pishe')))")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", script, str(tmp_path / "site")],
                         capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert out.strip() == "[]"


def test_pisti_hard_is_said_to_read_the_others_plays_in_both_languages(turkish):
    # The level note build.py writes under the page's level radios (data-i18n: this catalog's words).
    from pishe.games.pisti import PistiGame
    from pishe.games.pisti.words import WORDS

    for game, english, said in ((PistiGame(4), "the others' plays reveal", "kartlardan ötekilerin elini"),
                                (PistiGame(2), "your plays reveal", "senin attığın kartlardan elini")):
        assert english in game.levels_note
        assert said in WORDS.gettext(game.levels_note) and "tahmin eder" in WORDS.gettext(game.levels_note)
