"""Turkish stays right: no suffix glued to a placeholder (its vowel would have to agree with a
value nobody knows yet), one English id never stands for two things without a context, one
apostrophe, and the words the Turkish review settled stay settled."""

import re

from babel.messages.pofile import read_po

import catalogs

# A placeholder ({name}, <0/>, </0>) followed at once by letters, an apostrophe and letters,
# or a separate particle whose vowel agrees with the word before it.
_GLUED = re.compile(r"(\{[^{}]*\}|<\d+/>|</\d+>)(?:['’]?[^\W\d_]|\s+(?:d[ae]|t[ae]|m[iıuü]|ki)\b)")

# Ids whose Turkish glues a suffix to a tag, and why that is right for the only value it holds.
GLUED_ON_PURPOSE = {
    "This is İhaleli Batak (auction Batak), Turkey's favourite trick-taking game, for four players with thirteen "
    "cards each. In <0>Batak</0> every player plays for themselves; in <1>Eşli Batak</1> partners sit opposite "
    "and share their tricks.":
        "<0> and <1> are always the tabs' Turkish names, Batak and Eşli Batak: ’ta agrees with both",
    "With a clock, each move has its time limit, shown as a ring around the name of the player to move. When "
    "yours runs out the table moves for you: in the auction you pass, in play your lowest card that may be "
    "played; after three in a row the computer keeps playing for you until you press <0>Take over</0> or move "
    "yourself.":
        "<0> is always the button's own Turkish name, Devral: ’a agrees with it",
    "With a clock, each card has its time limit, shown as a ring around the name of the player to "
    "move. When yours runs out, the computer plays a card for you; after three in a row it keeps "
    "playing for you until you press <0>Take over</0> or play a card yourself.":
        "<0> is always the button's own Turkish name, Devral: ’a agrees with it",
    "This is Pişti (say \"pishti\"), Turkey's favourite fishing game, for four players in two teams: "
    "you and your partner, sitting opposite, against the two players on your left and right. For two "
    "players, choose <0>Pişti for two</0>.":
        "<0> is always the tab's Turkish name, İki kişilik Pişti: ’yi agrees with it",
    "This is Pişti (say \"pishti\"), Turkey's favourite fishing game, for two players as "
    "<0>pagat.com</0> describes it: the four-player game's rules, you against one opponent. For four "
    "players in two teams, choose <1>Pişti</1>.":
        "<0> is the site's name pagat.com (’da) and <1> the tab's name Pişti (’yi)",
    "This is Pishe Pasha as described on <0>pagat.com</0>, a two-player competitive patience, not the "
    "War-like game of chance that some books call by the same name.":
        "<0> is the site's name pagat.com: ’da agrees with it",
}

# English ids that mean two things in the page: each place must say which (msgctxt, or
# data-i18n-context in markup), or the id may appear in one file only.
AMBIGUOUS = {
    "Deck <0/>": "the deck's number in the match line (el) and the stock's count on the table (deste)",
    "Pile <0/>": "Pishe Pasha's pile (yığın) and Pişti's middle (yer)",
    "Deck": "a deck of a match (el) and the stock (deste)",
    "Pile": "Pishe Pasha's pile (yığın) and Pişti's middle (yer)",
    "Clock": "the time limit (süre), never a clock (saat)",
}

# Words the review settled: a wrong one must not come back.
_NOT_SAID = {
    r"\bsaat": "the time limit is süre",
    r"sayfadan sayfaya": "say: doğrudan tarayıcıdan tarayıcıya",
    r"\bkoltu": "a seat is yer",
    r"açılış kart": "the three face-down cards are kapalı kartlar",
    r"karşı takım": "the other team is rakip takım",
    r"\b(?:yükleyin|isteyin|yenileyin|basın|seçin)\b": "the page says sen",
}


def _turkish():
    for domain, (folder, _sources) in catalogs.domains().items():
        with open(catalogs.po_path(folder, "tr", domain), "rb") as f:
            yield domain, read_po(f, locale="tr", domain=domain)


def _strings(message) -> list:
    return list(message.string) if message.pluralizable else [message.string]


def _key(message) -> str:
    return message.id[0] if message.pluralizable else message.id


def test_no_suffix_is_glued_to_a_placeholder():
    glued = [(domain, _key(m), text) for domain, catalog in _turkish() for m in catalog if m.id
             for text in _strings(m) if _GLUED.search(text) and _key(m) not in GLUED_ON_PURPOSE]
    assert not glued, "reword so no suffix follows a placeholder, or list the id with its reason"


def test_the_glued_on_purpose_list_holds_only_live_ids():
    ids = {_key(m) for _, catalog in _turkish() for m in catalog if m.id}
    assert set(GLUED_ON_PURPOSE) <= ids


def test_an_ambiguous_id_says_which_meaning():
    # In one catalog: without a context, the id's places are all in one file.
    for domain, catalog in _turkish():
        for message in catalog:
            if message.id in AMBIGUOUS and message.context is None:
                files = {path for path, _line in message.locations}
                assert len(files) <= 1, (domain, message.id, AMBIGUOUS[message.id], files)


def test_one_id_and_context_means_one_thing_across_catalogs():
    # The same English in the table's catalog and a game's, with two translations, is two
    # meanings sharing one id: every game shows the table's words. Two games' catalogs may word
    # an id each its own way (a game's words come from its own catalog), and a game whose word
    # for a deal is not the table's (Batak says tur: el is its trick) words the deal's sentences so.
    found = dict(_turkish())
    table = {(m.id, m.context): m.string for m in found.pop("table") if m.id and not m.pluralizable}
    split = {}
    for domain, catalog in found.items():
        own = catalog.get("Deal")
        deal = own.string if own is not None and own.string != table[("Deal", None)] else None
        for message in catalog:
            key = (message.id, message.context)
            if message.id and not message.pluralizable and key in table and message.string != table[key] \
                    and not (deal and deal.lower() in message.string.lower()):
                split[key] = {"table": table[key], domain: message.string}
    assert not split, "give each meaning its own msgctxt (data-i18n-context in markup)"


def test_a_games_markup_words_come_from_its_own_catalog():
    words = catalogs.page_words("tr")
    assert words["stock\x04Deck <0/>"] == "Deste <0/>"
    assert words["Deck <0/>"] == "El <0/>"
    assert words["middle\x04Pile <0/>"] == "Yerde <0/>"
    assert words["Pile <0/>"] == "Yığın <0/>"
    assert words["round\x04Deal <0/>"] == "Tur <0/>" and words["round\x04Next deal"] == "Sonraki tur"
    assert words["Deal <0/>"] == "El <0/>" and words["Next deal"] == "Sonraki el"


def test_two_games_markup_words_mean_one_thing():
    # The page's words are one list (catalogs.page_words): an id and context in two games'
    # markup is one word there, so its two catalogs must agree, or one game says it with a
    # context (Batak's round is "tur", Pishe Pasha's deal "el").
    found = dict(_turkish())
    places: dict = {}
    for domain in found:
        if domain != "table":
            for _path, _line, message, context in catalogs.page_messages(domain):
                places.setdefault((message, context), set()).add(domain)
    split = {key: {domain: found[domain].get(key[0], context=key[1]).string for domain in domains}
             for key, domains in places.items() if len(domains) > 1}
    assert not {key: said for key, said in split.items() if len(set(said.values())) > 1}


def test_one_apostrophe():
    straight = [(domain, _key(m), text) for domain, catalog in _turkish() for m in catalog if m.id
                for text in _strings(m) if "'" in text]
    assert not straight, "Turkish suffixes take ’ (U+2019), as the rules texts do"


def test_the_settled_words_stay():
    found = [(domain, _key(m), text, why) for domain, catalog in _turkish() for m in catalog if m.id
             for text in _strings(m) for pattern, why in _NOT_SAID.items()
             if re.search(pattern, text, re.IGNORECASE)]
    assert not found


def test_a_seats_name_inside_a_sentence_is_in_small_letters():
    from pishe.table import lang, words

    lang.set_language("tr")
    try:
        assert words.match_score(["Sizin takım", "Rakip takım"], [5, 21], False) == \
            "Maç skoru: sizin takım 5, rakip takım 21."
        assert lang.named("Bilgisayar") == "bilgisayar" and lang.named("IRMAK") == "ırmak"
        assert words.waiting_for(["Eşin", "Sağdaki", "Soldaki"]) == "Eşin, sağdaki ve soldaki bekleniyor…"
    finally:
        lang.set_language("en")
    assert words.match_score(["You", "Computer"], [3, 0], False) == "Match score: You 3, Computer 0."
    assert words.waiting_for(["Right", "Left"]) == "Waiting for Right and Left…"


def test_an_abort_line_names_the_later_seats_in_small_letters_in_any_language_it_is_said_again():
    from pishe.table import lang, said
    from pishe.table.game import get_game
    from pishe.table.said_again import kept

    game = get_game("pisti")
    names = [said.seat_name(game, seat, 0, text) for seat, text in ((2, "Partner"), (3, "Left"))]
    line = said.deal_aborted(game, 1, names, 1)
    assert "Partner and Left left" in line
    lang.set_language("tr")
    try:
        again = kept(line.data)
        assert "Eşin ve soldaki" in again, again
        yours = kept(said.deal_aborted(game, 1, names[:1], 1, yours=True).data)
        assert "sen ve eşin" in yours, yours
    finally:
        lang.set_language("en")
    assert kept(line.data) == line
