"""Pişti for two (pagat's two-player game), a variant of the Pişti package: the same rules,
two seats, six rounds of packets of four, the dealer alternating, the non-dealer leading,
the last card never a pişti, 16 points a deck plus piştis; its views, words and command line.
(The conformance tests over every registered game, tests/test_games.py, run over it too.)"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from pishe.cards import DECK, Card
from pishe.errors import NotYourTurnError
from pishe.games.pisti.deal import CAPTURE, PACKET, PISHTI, Deck, InvalidDeckError
from pishe.table.game import find_game, get_game
from pishe.table.match import Match, shuffled_deck

TWO = get_game("pisti-2")
C = Card.parse


def run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "pishe", *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_one_package_two_variants():
    four = get_game("pisti")
    assert TWO is find_game("pisti", {"seats": 2}) and four is find_game("pisti", {}) is find_game("pisti", {"seats": 4})
    assert TWO.package == four.package == "pisti" and TWO.family_id == "pisti"
    assert (TWO.seats, TWO.teams, TWO.first_dealer, TWO.name) == (2, ((0,), (1,)), 1, "Pişti for two")
    assert TWO.lengths == four.lengths and TWO.bots == four.bots and TWO.refusals == four.refusals


def test_six_rounds_of_four_cards_each_the_non_dealer_leading():
    rng = random.Random(5)
    for dealer in (0, 1):
        deck = TWO.new_deal(shuffled_deck(rng), dealer)
        assert deck.turn == 1 - dealer and [len(h) for h in deck.hands] == [4, 4]
        assert len(deck.stock) == 52 - 4 - 8 and len(TWO.deal_steps(deck)) == len(deck.sent_under) + 3
        rounds, leaders = 1, []
        while not deck.over:
            leaders.append(deck.turn)
            steps = deck.apply(deck.legal_actions()[0], deck.turn)
            packets = [s for s in steps if s.kind == PACKET]
            if packets:
                rounds += 1
                assert [p.seat for p in packets] == [1 - dealer, dealer] and all(len(p.cards) == 4 for p in packets)
        assert rounds == 6 and deck.played == 48 and leaders[:2] == [1 - dealer, dealer]
        with pytest.raises(NotYourTurnError):
            TWO.new_deal(shuffled_deck(rng), dealer).apply(C("2C"), dealer)


def test_the_dealer_alternates_over_a_match():
    match = Match(TWO, "51", random.Random(3))
    dealers = []
    while not match.over:
        dealers.append(match.dealer)
        assert match.deal.turn == 1 - match.dealer
        while not match.deal.over:
            match.apply(match.deal.legal_actions()[-1], match.deal.turn)
        if not match.over:
            match.next_deal()
    assert len(dealers) > 1 and dealers == [(1 + n) % 2 for n in range(len(dealers))]


def test_sixteen_points_a_deck_plus_pishtis():
    rng = random.Random(8)
    for _ in range(200):
        deck = TWO.new_deal(shuffled_deck(rng), rng.randrange(2))
        while not deck.over:
            legal = deck.legal_actions()
            deck.apply(legal[rng.randrange(len(legal))], deck.turn)
        base = 13 if len(deck.taken[0]) == 26 else 16     # most cards: nobody at 26 each
        pishtis = sum(10 * len(p) for p in deck.pishti) + sum(20 * len(p) for p in deck.jack_pishti)
        assert sum(deck.team_points()) == base + pishtis
        assert sum(len(t) for t in deck.taken) == 52


def test_the_last_card_never_makes_a_pisti():
    rest = [c for c in DECK if str(c) not in ("7S", "7H", "7C", "9H")]
    last = Deck.hypothetical(dealer=1, turn=0, hands=[[C("7S")], [C("7H")]], stock=[], pile=[],
                             face_down=tuple(rest[:3]), up=rest[3], sent_under=[],
                             taken=[rest[:22] + [C("7C")], rest[22:] + [C("9H")]], pishti=[[], []],
                             jack_pishti=[[], []], opening_team=0, last_capture=0, played=46, seen=[0] * 14)
    last.check()
    before = last.copy()
    last.apply(C("7S"), 0)
    assert last.apply(C("7H"), 1)[0].kind == CAPTURE and last.pishti == [[], []] and last.over
    before.pile.append(C("7C"))          # the 47th card on a single card of its rank is a pişti
    before.taken[0].remove(C("7C"))
    assert before.apply(C("7S"), 0)[0].kind == PISHTI


def test_a_seats_view_and_words_are_for_two():
    match = Match(TWO, None, random.Random(4))
    view = TWO.view(match, 0).to_json()
    assert view["game"] == "pisti-2" and view["seats"] == 2 and view["names"] == ["You", "Opponent"]
    assert view["teams"] == [[0], [1]] and view["team_names"] == ["You", "Opponent"]
    assert len(view["places"]) == 2 and len(view["hand_counts"]) == 2
    assert "your team" not in view["goal"] and "your team" not in (view["hint"] or {}).get("text", "")
    other = TWO.view(match, 1, ["Friend", "You"]).to_json()
    assert other["team_names"] == ["Friend", "You"]
    while not match.deal.over:
        match.apply(match.deal.legal_actions()[0], match.deal.turn)
    view = TWO.view(match, 0).to_json()
    assert view["status"].startswith("The deck is over: you ") and "Opponent" in view["status"]
    assert view["deck_result"]["teams"] == ["You", "Opponent"]
    words = TWO.words(match.deal.log, 0)
    assert words[-1].startswith("The deck is counted: you ") and ", Opponent " in words[-1]
    assert not any("team" in w.lower() for w in words)
    leftover = [w for w in words if "the last" in w]
    assert leftover and (leftover[0].startswith("You take ") or leftover[0].startswith("Opponent takes "))
    # A view of one variant is not the other's.
    with pytest.raises(ValueError):
        get_game("pisti").reword(view)


def test_play_out_with_two_seats_answers_two_element_lists():
    deck = [str(c) for c in shuffled_deck(random.Random(6))]
    lines = [{"game": "pisti", "seats": 2, "deck": deck, "dealer": 1, "bots": ["greedy", "sampler"]},
             {"game": "pisti", "seats": 2, "deck": deck, "dealer": 0, "plays": []},
             {"game": "pisti", "seats": 2, "deck": deck, "dealer": 1, "bots": ["greedy"] * 4},
             {"game": "pisti", "seats": 3, "deck": deck, "dealer": 1, "plays": []}]
    out = run("play-out", stdin="".join(json.dumps(line) + "\n" for line in lines))
    whole, start, four_bots, three = (json.loads(line) for line in out.stdout.splitlines())
    assert out.returncode == 1
    assert whole["over"] and len(whole["points"]) == len(whole["cards"]) == len(whole["pishti"]) == 2
    assert sum(whole["cards"]) == 52 and len([s for s in whole["steps"] if "plays" in s]) == 48
    assert whole["steps"][-1].startswith("The deck is counted: team 0 ")
    assert start["turn"] == 1 and start["over"] is False and start["points"] is None
    assert "2 bot names" in four_bots["error"] and "no variant" in three["error"]


def test_tournament_for_two_prints_the_four_seat_keys():
    four = json.loads(run("tournament", "--game", "pisti", "greedy", "random", "--decks", "4", "--seed", "2",
                          "--json").stdout)
    out = run("tournament", "--game", "pisti", "--seats", "2", "greedy", "random", "--decks", "40", "--seed", "2",
              "--json")
    assert out.returncode == 0, out.stderr
    two = json.loads(out.stdout)
    assert set(two) == set(four) and two["game"] == "pisti-2" and two["decks"] == 40
    assert len(two["points"]) == len(two["pishti"]) == 2 and two["ci95"][0] <= two["gain"] <= two["ci95"][1]
    assert two["points"][0] > two["points"][1]          # greedy beats random
    bad = run("tournament", "--game", "pisti", "--seats", "3", "greedy", "random", "--decks", "4")
    assert bad.returncode == 2 and "no variant" in bad.stderr


def test_a_bad_seat_count_or_dealer_is_refused():
    with pytest.raises(InvalidDeckError):
        Deck.deal(list(DECK), 2, seats=2)
    with pytest.raises(InvalidDeckError):
        Deck.deal(list(DECK), 0, seats=3)


@pytest.mark.parametrize("page,section,not_played", [("rules-pisti.md", "## Pişti for two", "## Not played here"),
                                                     ("rules-pisti.tr.md", "## İki kişilik Pişti",
                                                      "## Burada oynanmayanlar")])
def test_both_rules_pages_teach_pisti_for_two_and_no_longer_list_it_as_not_played(page, section, not_played):
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / page).read_text(encoding="utf-8")
    assert section in text and "--seats 2" in text.split(section)[1]
    unplayed = text.split(not_played)[1].lower()
    assert "two-player" not in unplayed and "for two" not in unplayed and "iki kişilik" not in unplayed
