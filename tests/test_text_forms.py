"""Round trips of the card and position text forms, and their errors."""

import json
import random

import pytest

from pishe import BOTS, DECK, Card, Deal, InvalidCardError, InvalidPositionError, format_position, parse_position
from pishe.games.pasha.play import bot_step


def test_every_card_round_trips_through_its_text_form():
    assert len(DECK) == len(set(DECK)) == 52
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card
    assert [str(Card.parse(t)) for t in ("AS", "10H", "KD", "2C")] == ["AS", "10H", "KD", "2C"]
    assert [Card.parse(t).display() for t in ("AS", "10H", "QD", "JC")] == ["A♠", "10♥", "Q♦", "J♣"]


@pytest.mark.parametrize("text", ["1S", "AX", "11H", "", "A", "10", "S10", "♠A", 7, None, ["AS"]])
def test_bad_card_text_is_refused_by_name(text):
    with pytest.raises(InvalidCardError):
        Card.parse(text)


def test_positions_round_trip_through_json_along_random_deals():
    rng = random.Random(3)
    for _ in range(200):
        deal = Deal.shuffled(rng)
        while not deal.over:
            data = format_position(deal)
            again = parse_position(json.loads(json.dumps(data)))
            assert format_position(again) == data
            assert again.legal_actions() == deal.legal_actions()
            bot_step(deal, BOTS["hold-king"])


def good():
    deal = Deal.shuffled(random.Random(1))
    deal.apply("turn")
    return format_position(deal)


@pytest.mark.parametrize("change, message", [
    (lambda p: p["stocks"][0].pop(), "missing"),
    (lambda p: p["stocks"][0].append(p["stocks"][1][0]), "twice"),
    (lambda p: p["stocks"][0].append("ZZ"), "not a card"),
    (lambda p: p.update(turn=2), "turn must be"),
    (lambda p: p.update(turn=True), "turn must be"),
    (lambda p: p["foundations"].update(C=14), "foundations|suit piles"),
    (lambda p: p["foundations"].pop("C"), "foundations"),
    (lambda p: p.update(extra=1), "unknown keys"),
    (lambda p: p.pop("discards"), "lacks"),
    (lambda p: p.update(stocks="AS"), "two piles"),
    (lambda p: p.update(turned=p["stocks"][0][-1]), "twice"),
])
def test_impossible_positions_are_refused_with_the_reason(change, message):
    data = good()
    change(data)
    with pytest.raises(InvalidPositionError, match=message):
        parse_position(data)


def test_a_turned_card_must_be_one_that_could_wait_for_give_or_keep():
    data = {"stocks": [["2H"], ["3H"]], "discards": [["KD"], ["6D"]],
            "foundations": {"C": 13, "D": 0, "H": 1, "S": 13}, "turned": "QD", "turn": 0}
    rest = [str(c) for c in DECK if c.suit in "DH" and str(c) not in {"2H", "3H", "KD", "6D", "QD", "AH"}]
    data["stocks"][1] = rest + data["stocks"][1]
    with pytest.raises(InvalidPositionError, match="could not be waiting"):
        parse_position(data)
    data["turned"], data["discards"][0] = "KD", ["QD"]
    with pytest.raises(InvalidPositionError, match="could not be waiting"):
        parse_position(data)
