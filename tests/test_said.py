"""Lines already said follow a switch of language (pishe.table.said, pishe.table.said_again):
the live region's lines of the computer table and a guest's check of a deal are kept as
data, and said again in the new language exactly as that language would have said them at
the time."""

from __future__ import annotations

import json

import pytest

import pishe.web as web
from pishe.table import lang
from pishe.table.protocol import Guest
from pishe.table.protocol.wire import write
from pishe.table.said_again import again
from test_cheating_host import welcome_of
from test_table_protocol import seated


@pytest.fixture
def english():
    yield
    lang.set_language("en")


def call(name: str, *args) -> dict:
    answer = json.loads(getattr(web, name)(*args))
    assert "error" not in answer, answer
    return answer


def said_in(language: str, game: str, seed: int) -> tuple:
    """A match of ``game`` from ``seed`` played in ``language`` past its first deal: every line
    the live region says (steps, news, the status when the turn comes to you), as texts and data."""
    lang.set_language(language)
    answer, texts, data, last_turn = call("new_match", None, seed, game), [], [], None
    while True:
        view = answer["view"]
        your_turn = view["turn"] == view["seat"] and view["turn"] != last_turn
        last_turn = view["turn"]
        texts += [*answer["steps"], *answer["news"], *([view["status"]] if your_turn else [])]
        data += [*answer["said"], *([{"about": "status", "game": game, "view": view,
                                      "names": answer["said_names"]}] if your_turn else [])]
        if view["match"]["deal"] > 1 or view["match"]["over"]:
            return texts, data
        if view["match"]["next_deal"]:
            answer = call("next_deal")
        else:
            answer = call("computer_step") if answer["computer_moves"] else call("act", view["legal"][-1])


@pytest.mark.parametrize("game", ["pishe-pasha", "pisti-2", "pisti"])
def test_the_live_regions_lines_are_said_again_as_the_new_language_says_them(game, english):
    english_texts, data = said_in("en", game, 11)
    turkish_texts, _data = said_in("tr", game, 11)
    assert len(data) == len(english_texts) > 10 and english_texts != turkish_texts
    assert any("dealt" in line for line in english_texts) and any("score" in line for line in english_texts)
    lang.set_language("tr")
    assert call("say_again", data)["lines"] == turkish_texts
    lang.set_language("en")
    assert call("say_again", data)["lines"] == english_texts
    # Data that is no line (a damaged tab) is left as it was: None, nothing else changes.
    assert call("say_again", [data[0], {"about": "status"}, {"m": 3}, "plain"])["lines"] == [
        english_texts[0], None, None, "plain"]


def test_a_guests_check_of_a_deal_follows_the_language_through_its_save(english):
    """The abort and not-fair lines are learnt in English, read in Turkish after the switch,
    kept as data in the save and the ledger; a save of before (the line as text) still restores."""
    table = seated("pisti", [1, 2, 3], 6, "151")
    page = table.page(1)
    page.receive(write("pisti", "np-abort", deal=1, seats=[1]))       # on a live connection: the host's doing
    aborted = "Deck 1 was stopped: the host began it again (stopped and dealt again at this table: 1)."
    assert page.status()["verification"] == aborted
    page.receive(json.dumps({**welcome_of(table, 1), "clock": 5}))
    unfair = "Deck 1 is not fair: the host changed the clock in the middle of the match."
    assert page.status()["verification"] == unfair
    lang.set_language("tr")
    turkish = page.status()["verification"]
    assert turkish.startswith("El 1 adil değil: ") and turkish != unfair
    saved, ledger = page.save(), page.ledger()
    assert Guest.restore(saved).status()["verification"] == turkish
    assert Guest(ledger=ledger).status()["verification"] == turkish
    lang.set_language("en")
    assert Guest.restore(saved, ledger=ledger).status()["verification"] == unfair
    # A save made before lines were kept as data holds the line as text: it is read as it is.
    old = json.loads(saved)
    old["verification"] = unfair
    assert Guest.restore(json.dumps(old)).status()["verification"] == unfair


def test_a_seat_named_in_an_abort_is_named_in_the_new_language(english):
    """The seats named as having left with their keys are names of this page's own side."""
    table = seated("pisti", [1, 2, 3], 7, "151")
    page = table.page(1)
    page.receive(write("pisti", "np-abort", deal=1, seats=[0, 2]))
    english_line = page.status()["verification"]
    assert english_line.startswith("Deck 1 was stopped: Left and Right left before")
    lang.set_language("tr")
    turkish_line = page.status()["verification"]
    assert again(page.verification.data) == turkish_line and turkish_line.startswith("El 1 durduruldu: ")
    assert "Left" not in turkish_line and "Right" not in turkish_line


@pytest.mark.parametrize("message, english_words, turkish", [
    ("not json", "the message is damaged, or not one of this game's.", "mesaj bozuk ya da bu oyunun mesajı değil."),
    ('{"v": 1, "game": "pisti", "type": "welcome"}', "the two pages have different versions of the game: reload both.",
     "iki sayfada oyunun farklı sürümleri var: ikisini de yenile."),
    ("[" * 100 + "]" * 100, "the message nests too deeply.", "mesajın iç içe yapısı çok derin."),
])
def test_a_technical_error_reads_in_the_players_words(message, english_words, turkish, english):
    """A broken peer's message is refused by its cause, in the page's language; its own
    (a developer's) text stays in the answer's detail."""
    web.guest_open()
    for code, words in (("en", english_words), ("tr", turkish)):
        lang.set_language(code)
        answer = json.loads(web.guest_receive(message))
        assert answer["error"] == words and answer["detail"] and answer["detail"] != words
    lang.set_language("en")
    call("new_match", None, 1)
    answer = json.loads(web.act("queen"))                           # no such move: a broken page's
    assert answer["error"] == "that is not a move of this game." and "queen" in answer["detail"]
