"""In the hand, Python's part (issue 22): the clock's last seconds in words, a timeout's
step read as the computer's choice (computer table, host, guest), the level on the table,
and the cards each step moves (an answer's ``moves``), which name no card a seat may not
see, per kind of step. The page's part is in test_pisti_page.py (motion)."""

from __future__ import annotations

import json
import random

import pytest

import pishe.web as web
from pishe.table import lang, said_again, words
from pishe.table.game import get_game, names_card
from pishe.table.match import Match
from helpers import position
from test_friend_seats import CLOCK, clocked, to_turn
from test_pisti import C, late_deck, scripted

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
        assert said_again.again(kept).startswith("Süre doldu: bilgisayar senin yerine ")
    finally:
        lang.set_language("en")


def test_a_friends_timeout_reads_so_on_the_host_and_on_the_guests_own_page():
    """Only the friend's page knows its cards: it makes the table's move when its clock runs
    out, marked, and every page words it as the computer's choice."""
    table, time = clocked([1, 2, 3], seed=5)
    host, page = table.host, table.page(2)
    to_turn(table, 2)
    heard = {seat: [] for seat in (0, 1, 2)}     # each page's outcomes from here on, the host's as 0

    def recording(receive, outcomes):
        return lambda *message: outcomes.append(receive(*message)) or outcomes[-1]
    host.receive = recording(host.receive, heard[0])
    for seat in (1, 2):
        table.page(seat).receive = recording(table.page(seat).receive, heard[seat])
    time.now += CLOCK
    assert host.timeout().send == []            # the host's page does not play a friend's seat
    mine = page.timeout()
    for text in mine.send:
        table.send(table.conn_of(2), text)
    assert host.actions[-1][0] == 2 and host.actions[-1][2:] == ["timeout"]
    # A card that takes the pile's first closed cards shows once the pages' keys for them
    # come in, so a page's line may come with those keys rather than with the move.
    lines = {seat: [line for o in outcomes for line in o.steps] for seat, outcomes in heard.items()}
    assert (mine.steps + lines[2])[0].startswith("Time ran out: the computer plays your ")
    assert [m for o in [mine] + heard[2] for m in o.moves][0]["from"] == "hand:2"
    assert [m for o in heard[0] for m in o.moves]
    for seat in (0, 1):
        assert lines[seat][0].endswith("(time ran out: the computer's choice)")


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


def moved(game_id: str, steps, seat: int = 0) -> list:
    """The cards ``steps`` move as ``seat`` sees them: (from, to, sweep, sound, card code)."""
    return [(m["from"], m["to"], m["sweep"], m["sound"], m["card"] and m["card"]["code"])
            for m in get_game(game_id).motions(steps, seat)]


def pasha_seven_of_clubs_next():
    """Seat 0 turns the 7♣ next: it does not fit, and it neighbours seat 1's 6♦ (give or keep)."""
    return position(stocks=(["2H", "7C"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0})


def test_each_kind_of_step_moves_its_card_from_where_it_was_to_where_it_goes():
    """One scripted step of each kind, from explicit positions, and the motion the page gets:
    Pishe Pasha's turn, give, keep, discard, home (turned or forced) and recycle; Pişti's
    play, capture and pişti (the pile swept to the capturing team), the leftover sweep and
    a new hand's packets (face down to every seat)."""
    deal = pasha_seven_of_clubs_next()
    assert moved("pishe-pasha", deal.apply("turn")) == [("stock:0", "turned:0", False, "lay", "7C")]
    # A given card moves from where the page draws it (here the turned card): the pile's place names the seat.
    assert moved("pishe-pasha", deal.apply("give"), 1) == [("pile:0", "pile:1", False, "lay", "7C")]
    deal = pasha_seven_of_clubs_next()
    deal.apply("turn")
    assert moved("pishe-pasha", deal.apply("keep")) == [("turned:0", "pile:0", False, "lay", "7C")]
    deal = position(stocks=(["2H", "QC"], ["3H"]), discards=(["KD"], ["6D"]), foundations={"C": 0, "H": 1, "D": 0})
    assert moved("pishe-pasha", deal.apply("turn")) == [("stock:0", "pile:0", False, "lay", "QC")]
    deal = position(stocks=(["2H", "5C"], ["3H"]), discards=(["KD"], ["6D"]), foundations={"C": 4, "H": 1, "D": 0})
    assert moved("pishe-pasha", deal.apply("turn")) == [("stock:0", "suit:C", False, "lay", "5C")]
    deal = position(stocks=(["2H"], ["3H"]), discards=(["9C", "4C", "7D"], ["8H"]), foundations={"C": 3, "D": 0, "H": 1})
    assert moved("pishe-pasha", deal.apply("give")) == [("pile:0", "pile:1", False, "lay", "7D"),
                                                        ("pile:0", "suit:C", False, "lay", "4C")]
    deal = position(stocks=([], ["3H"]), discards=(["9S", "5C", "QD"], ["JH"]), foundations={"C": 0, "H": 1, "D": 0, "S": 0})
    assert moved("pishe-pasha", deal.apply("turn")) == [("pile:0", "stock:0", True, None, None),
                                                        ("stock:0", "pile:0", False, "lay", "9S")]

    deck = scripted()                                   # the 5♦ face up on three face-down cards
    steps = deck.apply(C("5H"), 0)
    for seat in (0, 1):                                 # either team sees the capture alike
        assert moved("pisti", steps, seat) == [("hand:0", "pile", False, "lay", "5H"),
                                               ("pile", "team:0", True, "capture", "5H")]
    assert moved("pisti", deck.apply(C("7S"), 1)) == [("hand:1", "pile", False, "lay", "7S")]
    assert moved("pisti", deck.apply(C("7D"), 2), 3) == [("hand:2", "pile", False, "lay", "7D"),
                                                         ("pile", "team:0", True, "pishti", "7D")]
    while deck.played < 16:                             # the first hands played out: a new hand
        steps = deck.apply(deck.legal_actions()[0], deck.turn)
    assert moved("pisti", steps, 1)[1:] == [("deck", f"hand:{s}", False, None, None) for s in range(4)]
    deck = late_deck(pile=["4C", "5C"], hands=[[], [], ["7S"], ["9H"]], last_capture=1)
    deck.apply(C("7S"), 2)
    assert moved("pisti", deck.apply(C("9H"), 3)) == [("hand:3", "pile", False, "lay", "9H"),
                                                      ("pile", "team:1", True, None, None)]
