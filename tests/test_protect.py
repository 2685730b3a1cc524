"""What the page needs to protect a match and to announce a deal, from Python: whether a
match is in progress (Match.in_progress, the computer table's ``in_progress``) and the
live region's ``news`` (a deal dealt, its result, the match score)."""

from __future__ import annotations

import json
import random

import pytest

import pishe.web as web
from pishe.errors import IllegalActionError
from pishe.table import words
from pishe.table.game import get_game
from pishe.table.match import Match


def call(name: str, *args) -> dict:
    answer = json.loads(getattr(web, name)(*args))
    assert "error" not in answer, answer
    return answer


def play_to_deal_end(answer: dict) -> dict:
    """Your seat plays its first legal action, the computers theirs, until the deal ends."""
    while not answer["view"]["match"]["next_deal"] and not answer["view"]["match"]["over"]:
        answer = call("computer_step") if answer["computer_moves"] else call("act", answer["view"]["legal"][0])
    return answer


@pytest.mark.parametrize("game", ["pishe-pasha", "pisti"])
def test_a_match_is_in_progress_from_its_first_move_until_it_is_over(game):
    match = Match(get_game(game), None, random.Random(3))
    assert not match.in_progress                       # dealt, nothing played: nothing to lose
    with pytest.raises(IllegalActionError):
        match.apply("keep" if game == "pishe-pasha" else "XX", match.deal.turn)
    assert not match.in_progress                       # a refused move is no move
    while not match.over:
        if match.deal.over:
            match.next_deal()
            assert match.in_progress                   # a later deal is on
        else:
            match.apply(match.deal.legal_actions()[0], match.deal.turn)
            assert match.in_progress == (not match.over)
    assert not match.in_progress


def test_a_resumed_match_past_its_first_deal_is_in_progress():
    game = get_game("pishe-pasha")
    deal = Match(game).deal  # any deal's 52 cards will do
    cards = [c for stock in deal.stocks for c in stock]
    assert Match.resume(game, "first-to-50", [[10, 0]], cards).in_progress


def test_the_computer_table_says_when_a_match_is_in_progress_and_what_to_announce():
    answer = call("new_match", "first-to-50", 2)
    assert answer["in_progress"] is False
    assert answer["news"] == ["Deal 1 is dealt. Dealer: Computer."]
    answer = call("act", "turn")
    assert answer["in_progress"] is True and answer["news"] == []
    assert call("current")["news"] == []               # news is told once
    answer = play_to_deal_end(answer)
    view = answer["view"]
    scores = view["match"]["scores"]
    assert answer["news"] == [view["status"], f"Match score: You {scores[0]}, Computer {scores[1]}."]
    assert answer["in_progress"] is True               # first to 50: the match goes on
    answer = call("next_deal")
    assert answer["news"] == ["Deal 2 is dealt. Dealer: You."] and answer["in_progress"] is True


def test_a_finished_match_is_not_in_progress_and_says_its_final_score():
    answer = play_to_deal_end(call("new_match", "one-deal", 2))
    scores = answer["view"]["match"]["scores"]
    assert answer["in_progress"] is False
    assert answer["news"][-1] == f"Match over. Final score: You {scores[0]}, Computer {scores[1]}."


def test_pisti_news_names_decks_and_teams():
    answer = call("new_match", "101", 13, "pisti")
    assert answer["news"] == ["Deck 1 is dealt. Dealer: Left."]
    answer = play_to_deal_end(answer)
    mine, theirs = answer["view"]["match"]["scores"]
    assert answer["news"] == [answer["view"]["status"], f"Match score: Your team {mine}, Their team {theirs}."]


def test_the_confirmation_is_worded_in_python():
    for key in ("leave_title", "leave_cancel", *(f"leave_{k}" for k in ("new_match", "invite", "game")),
                *(f"leave_ok_{k}" for k in ("new_match", "invite", "game"))):
        assert words.PAGE[key]
    assert words.dealt("Deck", 3, "Right") == "Deck 3 is dealt. Dealer: Right."
    assert words.match_score(["You", "Computer"], [3, 0], True) == "Match over. Final score: You 3, Computer 0."
