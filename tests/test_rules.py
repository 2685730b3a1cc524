"""Scripted scenarios from explicit positions: one or more per rule of SPEC.md."""

import copy

import pytest

from helpers import pasha_match, position
from pishe import (
    BOTS, DECK, Card, Deal, DealOverError, GiveNotAllowedError, KeepNotAllowedError,
    NotYourTurnError, Step, TurnNotAllowedError, UnknownActionError, format_position, play_deal, seat_view,
)
from pishe.cards import parse_cards
from pishe.errors import DealNotOverError, InvalidMatchLengthError, MatchOverError


def cards(*texts):
    return parse_cards(list(texts))


def texts(steps, viewer=None):
    return [s.describe(viewer) for s in steps]


def tops(deal):
    return [str(d[-1]) if d else None for d in deal.discards]


# -- the first turn -------------------------------------------------------------------

def fresh_deal(top_of_stock_0, leader=0):
    """A new deal whose seat 0 stock ends (top) with these cards, bottom to top."""
    mine = cards(*top_of_stock_0)
    others = [c for c in DECK if c not in mine]
    return Deal.from_stocks([others[:26 - len(mine)] + mine, others[26 - len(mine):]], leader)


def test_first_turn_plays_aces_and_followers_home_until_a_card_does_not_fit():
    deal = fresh_deal(["9D", "5H", "2S", "AS"])     # bottom to top: the A♠ is turned first
    assert deal.legal_actions() == ("turn",)
    assert texts(deal.apply("turn", 0), 0) == ["You turn the A♠; it goes to its suit pile"]
    assert deal.turn == 0 and deal.foundations["S"] == 1
    assert texts(deal.apply("turn"), 0) == ["You turn the 2♠; it goes to its suit pile"]
    assert texts(deal.apply("turn"), 0) == ["You turn the 5♥; it goes on your pile"]
    assert tops(deal) == ["5H", None] and deal.turn == 1


def test_the_leader_moves_first():
    assert fresh_deal([], leader=1).turn == 1
    assert fresh_deal([], leader=0).turn == 0


# -- forced home and the give -----------------------------------------------------------

def test_give_then_forced_chain_home_from_the_new_top():
    deal = position(stocks=(["2H"], ["3H"]), discards=(["9C", "4C", "7D"], ["8H"]),
                    foundations={"C": 3, "D": 0, "H": 1})
    steps = deal.apply("give", 0)
    assert texts(steps, 0) == ["You give the 7♦ onto their 8♥", "Your 4♣ goes to its suit pile"]
    assert tops(deal) == ["9C", "7D"] and deal.foundations["C"] == 4
    assert deal.turn == 0, "a give does not end the turn"


def test_give_chains_a_run_while_each_new_top_is_a_neighbour():
    deal = position(stocks=(["2H"], ["3H"]), discards=(["JC", "8S", "7D"], ["8H"]),
                    foundations={"C": 0, "D": 0, "H": 1, "S": 0})
    deal.apply("give")
    assert deal.legal_actions() == ("give", "turn")       # the 8♠ goes on the 7♦
    deal.apply("give")
    assert tops(deal) == ["JC", "8S"]
    assert deal.legal_actions() == ("turn",)
    assert deal.give_problem() == "Can't give: your J♣ is not one above or below their 8♠."


def test_give_goes_either_way_one_rank_any_suit():
    for mine, theirs in (("7S", "8H"), ("9S", "8H")):
        deal = position(stocks=(["2H"], ["3H"]), discards=([mine], [theirs]),
                        foundations={"H": 1, "S": 0, "D": 0, "C": 0})
        assert "give" in deal.legal_actions()


def test_no_wrap_between_king_and_ace():
    deal = position(stocks=(["2H"], ["3H"]), discards=(["KS"], ["AC"]),
                    foundations={"H": 1, "S": 0, "C": 0, "D": 0}, turn=0)
    assert deal.legal_actions() == ("turn",)
    with pytest.raises(GiveNotAllowedError, match="not one above or below"):
        deal.apply("give")


@pytest.mark.parametrize("discards, reason", [
    (([], ["8H"]), "Can't give: your pile is empty."),
    ((["7S"], []), "Can't give: their pile is empty."),
    ((["5S"], ["8H"]), "Can't give: your 5♠ is not one above or below their 8♥."),
])
def test_reasons_a_give_is_impossible(discards, reason):
    deal = position(stocks=(["2H"], ["3H"]), discards=discards,
                    foundations={"H": 1, "S": 0, "C": 0, "D": 0})
    assert deal.give_problem() == reason
    assert seat_view(deal, 0).give_problem == reason
    assert seat_view(deal, 1).give_problem == "It is not your turn."


def test_forced_home_at_the_start_of_a_turn():
    # Seat 1's 5♣ fits once seat 0 turns the 4♣ home; it goes home when seat 1's turn starts.
    deal = position(stocks=(["9D", "4C"], ["JD"]), discards=(["QS"], ["5C"]),
                    foundations={"C": 3, "D": 0, "S": 0})
    deal.apply("turn")                    # 4♣ home
    steps = deal.apply("turn")            # 9♦ to pile, ends the turn
    assert texts(steps, 0) == ["You turn the 9♦; it goes on your pile", "Their 5♣ goes to its suit pile"]
    assert deal.turn == 1 and deal.foundations["C"] == 5
    assert texts(deal.this_turn, 1) == ["Your 5♣ goes to its suit pile"]


def seven_of_clubs_next():
    """Seat 0 turns the 7♣ next: it does not fit, and it neighbours seat 1's 6♦."""
    return position(stocks=(["2H", "7C"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0})


# -- turning a card ---------------------------------------------------------------------

def test_turned_card_that_fits_goes_home_even_if_it_could_be_given():
    deal = position(stocks=(["2H", "5C"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 4, "H": 1, "D": 0})
    steps = deal.apply("turn")
    assert texts(steps, 0) == ["You turn the 5♣; it goes to its suit pile"]
    assert deal.turned is None and deal.turn == 0


def test_turned_neighbour_waits_for_give_or_keep():
    deal = seven_of_clubs_next()
    steps = deal.apply("turn")
    assert texts(steps, 0) == ["You turn the 7♣; you may give it or keep it"]
    assert deal.legal_actions() == ("give", "keep")
    assert str(seat_view(deal, 1).turned) == "7C", "a turned card is public"
    with pytest.raises(TurnNotAllowedError):
        deal.apply("turn")


def test_giving_a_turned_card_continues_the_turn():
    deal = seven_of_clubs_next()
    deal.apply("turn")
    steps = deal.apply("give")
    assert texts(steps, 0) == ["You give the 7♣ onto their 6♦"]
    assert deal.turn == 0 and deal.legal_actions() == ("turn",)
    assert tops(deal) == ["KD", "7C"]


def test_keep_ends_the_turn():
    deal = seven_of_clubs_next()
    deal.apply("turn")
    steps = deal.apply("keep")
    assert texts(steps, 0) == ["You keep the 7♣ on your pile"]
    assert texts(steps, 1) == ["They keep the 7♣ on their pile"]
    assert deal.turn == 1 and tops(deal) == ["7C", "6D"]
    assert texts(deal.last_turn(0), 0) == ["You turn the 7♣; you may give it or keep it", "You keep the 7♣ on your pile"]


def test_keeping_carries_the_next_turns_forced_steps():
    # Seat 0's 5♣ goes home, so seat 1's 6♣ fits: it goes home when seat 1's turn starts.
    deal = position(stocks=(["9D", "7C", "5C"], ["JD"]), discards=(["KD"], ["6C"]),
                    foundations={"C": 4, "D": 0})
    assert texts(deal.turn_while_forced(), 0) == ["You turn the 5♣; it goes to its suit pile",
                                                  "You turn the 7♣; you may give it or keep it"]
    steps = deal.apply("keep", 0)
    assert steps == [Step("keep", 0, Card.parse("7C")), Step("home", 1, Card.parse("6C"))]
    assert deal.turn == 1 and deal.foundations["C"] == 6 and tops(deal) == ["7C", None]
    assert deal.this_turn == steps[1:] and deal.last_turn(0)[-1] == steps[0]


def test_a_card_that_neither_fits_nor_neighbours_lands_on_your_pile_and_ends_the_turn():
    deal = position(stocks=(["2H", "QC"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0})
    steps = deal.apply("turn")
    assert texts(steps, 0) == ["You turn the Q♣; it goes on your pile"]
    assert texts(steps, 1) == ["They turn the Q♣; it goes on their pile"]
    assert deal.turn == 1


# -- empty stock ------------------------------------------------------------------------

def test_recycling_turns_the_discard_pile_over_oldest_card_on_top():
    deal = position(stocks=([], ["3H"]), discards=(["9S", "5C", "QD"], ["JH"]),
                    foundations={"C": 0, "H": 1, "D": 0, "S": 0})
    steps = deal.apply("turn")
    assert texts(steps, 0) == [
        "Your stock is empty: your pile (3 cards) turns over as your stock",
        "You turn the 9♠; it goes on your pile"]
    assert [str(c) for c in deal.stocks[0]] == ["QD", "5C"]     # the 5♣ is turned next
    assert [str(c) for c in deal.discards[0]] == ["9S"]


def test_a_recycle_hides_the_last_turns_steps_that_name_the_cards_back_in_the_stock():
    # Seat 0 keeps the Q♦, then turns its pile (K♦ Q♦) over as its stock: its last turn named
    # the Q♦, a stock card again, so no view may show those steps; seat 1's last turn stays.
    deal = position(stocks=(["QD"], ["4S", "QS"]), discards=(["KD"], ["JC"]),
                    foundations={"C": 0, "H": 1, "D": 0, "S": 0})
    deal.apply("turn")
    deal.apply("keep")
    before = seat_view(deal, 1)
    assert texts(deal.apply("turn"), 0) == ["They turn the Q♠; it goes on their pile"]
    assert texts(deal.turn_while_forced(), 0) == [
        "Your stock is empty: your pile (2 cards) turns over as your stock",
        "You turn the K♦; you may give it or keep it"]
    assert deal.last_turn(0) == [] and seat_view(deal, 1).other_last_turn == ()
    assert texts(deal.last_turn(1), 0) == ["They turn the Q♠; it goes on their pile"]
    # A view made before the recycle is a value: it still shows what it showed.
    assert texts(before.other_last_turn, 1) == ["They turn the Q♦; they may give it or keep it",
                                                "They keep the Q♦ on their pile"]
    deal.apply("give")
    assert deal.last_turn(0) == [], "hidden until the seat's turn ends"


def test_no_recycling_until_a_card_must_be_turned():
    deal = position(stocks=([], ["3H"]), discards=(["9S", "5C", "7D"], ["8H"]),
                    foundations={"C": 0, "H": 1, "D": 0, "S": 0})
    assert deal.legal_actions() == ("give", "turn")
    deal.apply("give")
    assert deal.stocks[0] == [] and tops(deal) == ["5C", "7D"]


# -- winning and scoring ----------------------------------------------------------------

def test_winning_by_giving_away_the_last_card():
    deal = position(stocks=([], ["3H", "4H"]), discards=(["7D"], ["9C", "8H"]),
                    foundations={"H": 1, "D": 0, "C": 0})
    steps = deal.apply("give")
    assert deal.winner == 0
    # Seat 1 holds every card but the A♥ and the spades on the suit piles.
    assert deal.points(1) == 52 - 1 - 13 == steps[-1].count
    assert texts(steps, 0)[-1] == f"You win the deal: {deal.points(1)} points"
    assert deal.legal_actions() == ()
    with pytest.raises(DealOverError):
        deal.apply("turn")


def test_winning_mid_turn_by_playing_the_last_card_home():
    deal = position(stocks=(["KS"], ["3H"]), discards=([], ["9C"]),
                    foundations={"S": 12, "H": 1, "C": 0, "D": 13})
    steps = deal.apply("turn")
    assert texts(steps, 0) == ["You turn the K♠; it goes to its suit pile", f"You win the deal: {deal.points(1)} points"]
    assert deal.winner == 0


def test_scoring_counts_the_losers_stock_and_discard_pile():
    deal = position(stocks=(["KS"], ["3H", "5H"]), discards=([], ["9C", "JC", "QC"]),
                    foundations={"S": 12, "H": 2, "C": 8, "D": 13})
    # Seat 1 holds 3H 5H … (rest: 4H 6H..KH, 10C KC) plus its discards.
    match_points = deal.points(1)
    deal.apply("turn")
    assert deal.winner == 0
    assert match_points == len(deal.stocks[1]) + len(deal.discards[1]) == 2 + 3 + 9 + 2


def test_a_run_of_forced_turns_stops_at_the_first_choice():
    deal = seven_of_clubs_next()
    steps = deal.turn_while_forced()
    assert texts(steps, 0) == ["You turn the 7♣; you may give it or keep it"]
    assert deal.legal_actions() == ("give", "keep")
    assert deal.turn_while_forced() == [], "a choice is the bot's: nothing is turned"


def test_a_run_of_forced_turns_crosses_turns_as_one_turn_at_a_time_would():
    deal = position(stocks=(["2H", "QC"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0})
    one_by_one = copy.deepcopy(deal)
    steps = deal.turn_while_forced()
    assert texts(steps) == [
        "Seat 0: You turn the Q♣; it goes on your pile",
        "Seat 1: You turn the 3♥; it goes on your pile",
        "Seat 0: You turn the 2♥; it goes to its suit pile",
        "Seat 0: Your stock is empty: your pile (2 cards) turns over as your stock",
        "Seat 0: You turn the K♦; it goes on your pile",
        "Seat 1: Your 3♥ goes to its suit pile",
        "Seat 1: You turn the K♥; it goes on your pile",
        "Seat 0: You turn the Q♣; you may give it or keep it",
    ]
    steps_one_by_one = []
    while one_by_one.legal_actions() == ("turn",):
        steps_one_by_one += one_by_one.apply("turn")
    assert steps == steps_one_by_one and snapshot(deal) == snapshot(one_by_one)


def test_a_run_of_forced_turns_refuses_a_finished_deal():
    deal = position(stocks=(["2H", "QC"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0})
    play_deal(deal, [BOTS["always-give"]] * 2)
    with pytest.raises(DealOverError):
        deal.turn_while_forced()


# -- illegal actions change nothing -----------------------------------------------------

def snapshot(deal):
    return copy.deepcopy((format_position(deal), deal.winner, texts(deal.this_turn), texts(deal.last_turn(0)),
                          texts(deal.last_turn(1))))


@pytest.mark.parametrize("action, seat, error", [
    ("give", None, GiveNotAllowedError),
    ("keep", None, KeepNotAllowedError),
    ("turn", 1, NotYourTurnError),
    ("pass", None, UnknownActionError),
    ("", None, UnknownActionError),
])
def test_illegal_actions_raise_named_errors_and_change_nothing(action, seat, error):
    deal = position(stocks=(["2H", "QC"], ["3H"]), discards=(["KD"], ["6D"]),
                    foundations={"C": 0, "H": 1, "D": 0})
    before = snapshot(deal)
    with pytest.raises(error):
        deal.apply(action, seat)
    assert snapshot(deal) == before


def test_an_illegal_choice_in_a_whole_deal_raises_and_leaves_the_deal_at_that_choice():
    deal = fresh_deal(["5H", "9D", "7S"])       # the 7♠ lands on your pile; then their turn
    chosen = []

    def keep_always(seat):
        chosen.append((seat, deal.legal_actions(), format_position(deal)))
        return "keep"

    with pytest.raises(KeepNotAllowedError):
        deal.play(keep_always)
    seat, legal, where = chosen[-1]
    assert "keep" not in legal and (seat, format_position(deal)) == (deal.turn, where)


# -- matches ----------------------------------------------------------------------------

def test_dealer_alternates_and_seat_0_leads_deal_1():
    import random
    match = pasha_match("first-to-100", random.Random(5))
    seen = []
    while True:
        seen.append((match.deal_number, match.dealer, match.deal.turn if not match.deal.this_turn else None))
        play_deal(match, [BOTS["always-give"]] * 2)
        if match.over:
            break
        match.next_deal()
    assert [(n, d) for n, d, _ in seen[:3]] == [(1, 1), (2, 0), (3, 1)]
    assert [lead for _, _, lead in seen[:2]] == [0, 1]


@pytest.mark.parametrize("length, target", [("first-to-50", 50), ("first-to-100", 100)])
def test_match_ends_when_a_seat_reaches_the_target(length, target):
    import random
    match = pasha_match(length, random.Random(11))
    while True:
        before = list(match.scores)
        play_deal(match, [BOTS["always-give"], BOTS["never-give"]])
        assert max(before) < target
        if match.over:
            break
        with pytest.raises(DealNotOverError):
            pasha_match(length, random.Random(1)).next_deal()
        match.next_deal()
    assert max(match.scores) >= target and match.winner == match.scores.index(max(match.scores))
    with pytest.raises(MatchOverError):
        match.next_deal()


def test_one_deal_match_ends_after_one_deal():
    import random
    match = pasha_match("one-deal", random.Random(2))
    play_deal(match, [BOTS["always-give"]] * 2)
    assert match.over and match.scores[match.winner] == match.results[0][match.winner] > 0
    assert seat_view(match, 0).to_json()["match"]["next_deal"] is False


def test_unknown_match_length_is_refused():
    with pytest.raises(InvalidMatchLengthError):
        pasha_match("first-to-7")


def test_card_values():
    assert Card.parse("10h") is Card(10, "H")
