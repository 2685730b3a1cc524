"""In the hand, Python's part (issue 22): the clock's last seconds in words, a timeout's
step read as the computer's choice (computer table, host, guest), the level on the table,
and the cards each step moves (an answer's ``moves``), which name no card a seat may not
see. The page's part is in test_motion_page.py."""

from __future__ import annotations

import json
import random

import pytest

import pishe.web as web
from pishe.table import lang, said, words
from pishe.table.game import get_game, names_card
from pishe.table.match import Match
from test_friend_seats import CLOCK, clocked, to_turn

#: The places each game's painter knows (web/games/<game>/paint.js's placeOf), by kind.
PLACES = {"pishe-pasha": {"stock", "pile", "turned", "suit"}, "pisti": {"deck", "pile", "hand", "team"},
          "pisti-2": {"deck", "pile", "hand", "team"}}
SOUNDS = {None, "lay", "capture", "pishti"}


@pytest.fixture
def turkish():
    lang.set_language("tr")
    yield
    lang.set_language("en")


def test_the_clock_words_its_last_seconds_and_warns_only_its_own_seat(turkish):
    clock = words.clock(2, 15, yours=False)
    assert clock["seat"] == 2 and clock["seconds"] == 15 and clock["warnings"] == []
    assert clock["left"][0] == "1 saniye kaldı" and clock["left"][9] == "10 saniye kaldı" and len(clock["left"]) == 10
    lang.set_language("en")
    clock = words.clock(0, 15)
    assert clock["warnings"] == [10, 5] and clock["label"] == "Clock: 15 seconds a card"
    assert clock["left"][:2] == ["1 second left", "2 seconds left"]


def test_a_timeout_reads_as_the_computers_choice_and_the_level_is_named():
    answer = json.loads(web.new_match("51", 3, "pisti", 15, "greedy"))
    assert answer["settings"]["level_line"] == "Level: Medium"
    while answer["view"]["turn"] != 0:
        answer = json.loads(web.computer_step())
    hand = {c["code"]: c["label"] for c in answer["view"]["hand"]}
    answer = json.loads(web.timeout())
    played = answer["moves"][0]
    assert played["from"] == "hand:0" and played["card"]["code"] in hand
    assert answer["steps"][0].startswith(f"Time ran out: the computer plays your {hand[played['card']['code']]}")
    kept = answer["said"][0]                            # the line's data, to say it again
    answer = json.loads(web.computer_step())
    assert not any("Time ran out" in line for line in answer["steps"])
    lang.set_language("tr")
    try:
        assert json.loads(web.current())["settings"]["level_line"] == "Seviye: Orta"
        assert said.again(kept).startswith("Süre doldu: bilgisayar senin yerine ")
    finally:
        lang.set_language("en")


def test_a_friends_timeout_reads_so_on_the_host_and_on_the_guests_own_page():
    table, time = clocked([1, 2, 3], seed=5)
    host, page = table.host, table.page(2)
    heard = []
    receive = page.receive
    page.receive = lambda text: heard.append(receive(text)) or heard[-1]
    to_turn(table, 2)
    heard.clear()
    time.now += CLOCK
    outcome = host.timeout()
    table.deliver(outcome.send)
    assert outcome.steps[0].endswith("(time ran out: the computer's choice)") and outcome.moves
    mine = [o for o in heard if o.steps]
    assert mine[0].steps[0].startswith("Time ran out: the computer plays your ")
    assert mine[0].moves[0]["from"] == "hand:2"


@pytest.mark.parametrize("game_id", sorted(PLACES))
def test_every_move_names_a_place_of_the_painter_and_no_card_hidden_from_its_seat(game_id):
    game = get_game(game_id)
    rng = random.Random(22)
    for _ in range(3):
        match = Match(game, None, rng)
        deal = match.deal
        while not deal.over:
            steps = deal.apply(rng.choice(deal.legal_actions()), deal.turn)
            for seat in range(game.seats):
                moves = game.motions(steps, seat)
                assert not names_card(moves, {str(c) for c in game.hidden_cards(deal, seat)})
                for move in moves:
                    assert {move["from"].split(":")[0], move["to"].split(":")[0]} <= PLACES[game_id]
                    assert move["sound"] in SOUNDS and isinstance(move["sweep"], bool)
                    assert move["card"] is None or set(move["card"]) >= {"code", "rank", "suit", "label"}
