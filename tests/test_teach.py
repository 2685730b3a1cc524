"""What the table teaches a newcomer, in Python's words, from explicit positions: the goal,
the why-line as a reason, what a click on each pile does (from the legal actions), the
give's target, the card just given to you, the hints of the moment, and the log's words."""

from helpers import position
from pishe import seat_view
from pishe.games.pasha.view import GOAL, HINTS, blank_view, view_from_json
from pishe.cards import DECK
from pishe.games.pisti.deal import Deck
from pishe.games.pisti.view import GOAL as PISTI_GOAL, HINTS as PISTI_HINTS, TOUCH_HINTS as PISTI_TOUCH_HINTS
from pishe.games.pisti.view import seat_view as pisti_view
from pishe.table.game import get_game

PASHA = get_game("pishe-pasha")


def view(deal, seat=0):
    return seat_view(deal, seat).to_json()


def test_the_goal_is_said_on_the_table_before_the_first_move():
    data = blank_view(0, None, "Dealing…")
    assert data["goal"] == GOAL == "Be first to get rid of all your cards: onto the suit piles, or onto their pile."
    assert view(position(stocks=(["9D"], ["3H"]), foundations={"D": 0, "H": 0}))["goal"] == GOAL


def test_the_why_line_is_a_reason_and_a_give_says_onto_what():
    empty = view(position(stocks=(["9D"], ["3H"]), discards=([], ["8H"]), foundations={"D": 0, "H": 1}))
    assert empty["why"] == {"text": "Can't give: your pile is empty.", "kind": "problem"}
    far = view(position(stocks=(["9D"], ["3H"]), discards=(["5S"], ["3D"]), foundations={"D": 0, "H": 1, "S": 0}))
    assert far["why"]["text"] == "Can't give: your 5♠ is not one above or below their 3♦."
    near = view(position(stocks=(["9D"], ["3H"]), discards=(["JC"], ["10C"]), foundations={"C": 0, "D": 0, "H": 1}))
    assert near["why"] == {"text": "You may give your J♣ onto their 10♣.", "kind": "hint"}
    waiting = position(stocks=(["9D"], ["3H"]), discards=(["KD"], ["6D"]), foundations={"C": 0, "D": 0, "H": 1},
                       turned="7C")
    assert view(waiting)["why"]["text"] == "You may give your 7♣ onto their 6♦."


def test_clicks_on_the_piles_come_from_the_legal_actions():
    turn_only = view(position(stocks=(["9D"], ["3H"]), discards=(["5S"], ["3D"]),
                              foundations={"D": 0, "H": 1, "S": 0}))
    mine, theirs = turn_only["places"]
    assert mine["clicks"] == {"stock": "turn", "turned": None, "pile": None}
    assert theirs["clicks"] == {"stock": None, "turned": None, "pile": None}
    assert not theirs["target"] and not mine["target"]

    give = view(position(stocks=(["9D"], ["3H"]), discards=(["JC"], ["10C"]), foundations={"C": 0, "D": 0, "H": 1}))
    mine, theirs = give["places"]
    assert mine["clicks"] == {"stock": "turn", "turned": None, "pile": "give"}
    assert theirs["clicks"]["pile"] == "give" and theirs["target"] is True

    waiting = view(position(stocks=(["9D"], ["3H"]), discards=(["KD"], ["6D"]),
                            foundations={"C": 0, "D": 0, "H": 1}, turned="7C"))
    mine, theirs = waiting["places"]
    assert mine["clicks"] == {"stock": None, "turned": "give", "pile": "keep"}
    assert theirs["target"] is True

    # Not your turn: nothing of the table is a control, and nothing is a target.
    other = seat_view(position(stocks=(["9D"], ["3H"]), discards=(["JC"], ["10C"]),
                               foundations={"C": 0, "D": 0, "H": 1}), 1).to_json()
    for place in other["places"]:
        assert set(place["clicks"].values()) == {None} and not place["target"]


def test_every_clickable_pile_does_a_legal_action():
    deal = position(stocks=(["2H", "9D"], ["3H"]), discards=(["JC"], ["10C"]), foundations={"C": 0, "D": 0, "H": 0})
    for _ in range(6):
        if deal.over:
            break
        data = seat_view(deal, deal.turn).to_json()
        clicks = {a for place in data["places"] for a in place["clicks"].values()} - {None}
        assert clicks == set(data["legal"])
        deal.apply(data["legal"][0])


def test_the_card_the_other_seat_gave_you_is_flagged_until_your_pile_changes():
    # Seat 1 gives its Q♦ onto your K♦, then turns the 8♣ onto its own pile.
    deal = position(stocks=(["9D", "5S"], ["8C"]), discards=(["KD"], ["QD"]),
                    foundations={"C": 0, "D": 0, "H": 13, "S": 0}, turn=1)
    deal.apply("give")
    during = view(deal)["places"][0]
    assert during["given"] is True
    assert during["pile_label"] == "Your pile: Q♦ on top, just given to you, 2 cards"
    deal.apply("turn")
    assert deal.turn == 0
    mine = view(deal)["places"][0]
    assert mine["given"] is True, "still flagged on your turn, from their last turn"
    assert view(deal, 1)["places"][1]["given"] is False, "their own pile holds nothing given to them"
    deal.apply("turn")           # your 5♠ lands on your pile: the Q♦ is no longer the top
    assert view(deal)["places"][0]["given"] is False


def test_hints_name_the_moment_they_apply_to():
    def hint(deal):
        data = view(deal)
        return data["hint"] and data["hint"]["key"]

    assert hint(position(stocks=(["9D"], ["3H"]), discards=(["5S"], ["3D"]),
                         foundations={"D": 0, "H": 1, "S": 0})) == "turn"
    assert hint(position(stocks=(["9D"], ["3H"]), discards=(["JC"], ["10C"]),
                         foundations={"C": 0, "D": 0, "H": 1})) == "give"
    assert hint(position(stocks=(["9D"], ["3H"]), discards=(["KD"], ["6D"]),
                         foundations={"C": 0, "D": 0, "H": 1}, turned="7C")) == "give_or_keep"
    assert hint(position(stocks=([], ["3H"]), discards=(["9S", "5C"], ["JH"]),
                         foundations={"C": 0, "H": 1, "S": 0})) == "recycle"
    assert hint(position(stocks=(["9D"], ["3H"]), discards=(["5S"], ["3D"]),
                         foundations={"D": 0, "H": 1, "S": 0}, turn=1)) is None
    data = view(position(stocks=(["9D"], ["3H"]), discards=(["JC"], ["10C"]), foundations={"C": 0, "D": 0, "H": 1}))
    assert data["hint"]["text"] == HINTS["give"]


def test_the_log_reads_as_what_happened_with_one_name_per_pile():
    deal = position(stocks=(["QC", "AS"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0, "S": 0})
    deal.apply("turn")
    deal.apply("turn")
    assert [s.describe(0) for s in deal.last_turn(0)] == ["You turn the A♠; it goes to its suit pile",
                                                         "You turn the Q♣; it goes on your pile"]
    theirs = view(deal, 1)
    assert theirs["other_last_turn"]["steps"] == ["They turn the A♠; it goes to its suit pile",
                                                  "They turn the Q♣; it goes on their pile"]
    assert theirs["suit_piles"][3]["label"] == "Spades suit pile: A♠ on top, 1 card"


def test_the_words_survive_a_round_trip_through_json():
    for deal in (position(stocks=(["9D", "5S"], ["8C"]), discards=(["KD"], ["QD"]),
                          foundations={"C": 0, "D": 0, "H": 13, "S": 0}, turn=1),
                 position(stocks=(["9D"], ["3H"]), discards=(["KD"], ["6D"]),
                          foundations={"C": 0, "D": 0, "H": 1}, turned="7C")):
        for _ in range(2):
            for seat in (0, 1):
                data = view(deal, seat)
                assert view_from_json(PASHA, data).to_json() == data
            if not deal.over:
                deal.apply(deal.legal_actions()[0])


def test_pisti_says_its_goal_and_its_first_hint():
    deck = Deck.deal(list(DECK), dealer=3)
    mine, other = pisti_view(deck, 0).to_json(), pisti_view(deck, 1).to_json()
    assert mine["goal"] == other["goal"] == PISTI_GOAL
    assert PISTI_GOAL.startswith("Take the pile with a card of the same rank, or a jack")
    # On a touch screen the page shows its "tap" words (web/games/hints.js).
    assert mine["hint"] == {"key": "play", "text": PISTI_HINTS["play"], "touch": PISTI_TOUCH_HINTS["play"]}
    assert "click" in mine["hint"]["text"] and "click" not in mine["hint"]["touch"] and "tap" in mine["hint"]["touch"]
    assert other["hint"] is None, "a hint only at your own turn"
