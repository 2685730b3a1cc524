"""Pişti (SPEC-PISHTI.md): scripted scenarios from explicit decks for every rule,
invariants over random decks, views, step display and words, the command-line parts."""

from __future__ import annotations

import json
import random

import pytest

from pishe.cards import DECK, Card
from pishe.errors import (
    DealOverError, IllegalActionError, NotYourTurnError, PisheError, UnknownActionError, UnknownBotError,
)
from pishe.games.pisti import GAME, CardNotInHandError, Deck, InvalidDeckError
from pishe.games.pisti.cli import play_deck, play_out, tournament
from pishe.games.pisti.deal import (
    CAPTURE, COUNT, LEFTOVER, OPENING, PACKET, PISHTI, PLAY, UNDER, sort_cards,
)
from pishe.games.pisti.view import seat_view, show_step
from pishe.table.game import Game, Length

C = Card.parse


def cards(*texts):
    return [C(t) for t in texts]


def deck_for(face_down, up, packets=(), jacks=()):
    """A deck (bottom to top) whose deal gives ``face_down`` (3) and ``up`` to the middle,
    with ``jacks`` turned up first and sent under, then ``packets`` (4 cards each) in
    the order they are dealt; every other card follows in DECK order."""
    order = list(face_down) + list(jacks) + [up] + [c for p in packets for c in p]
    rest = [str(c) for c in DECK if str(c) not in order]
    order += rest
    assert len(set(order)) == 52
    return [C(t) for t in reversed(order)]


def snapshot(deck: Deck):
    return (deck.turn, deck.over, [list(h) for h in deck.hands], list(deck.stock), list(deck.pile),
            [list(t) for t in deck.taken], [list(p) for p in deck.pishti],
            [list(p) for p in deck.jack_pishti], deck.opening_team, deck.last_capture,
            deck.played, list(deck.seen), list(deck.log), list(deck.marks))


def random_deck(rng):
    cards_ = list(DECK)
    rng.shuffle(cards_)
    return cards_


def play_randomly(deck, rng):
    steps = []
    while not deck.over:
        legal = deck.legal_actions()
        steps += deck.apply(legal[rng.randrange(len(legal))], deck.turn)
    return steps


def kinds(steps):
    return [s.kind for s in steps]


class StandInMatch:
    """The attributes a view reads from the table's match."""

    def __init__(self, deal, deal_number=1, scores=(0, 0), over=False, winner=None, length="101"):
        self.game = GAME
        self.deal = deal
        self.deal_number = deal_number
        self.dealer = deal.dealer
        self.scores = list(scores)
        self.over = over
        self.winner = winner
        self.length = length
        self.target = GAME.lengths[length].target


# -- the game object --------------------------------------------------------------------

def test_game_object():
    assert isinstance(GAME, Game)
    assert (GAME.id, GAME.name, GAME.seats, GAME.teams, GAME.first_dealer) == (
        "pisti", "Pişti", 4, ((0, 2), (1, 3)), 3)
    assert list(GAME.lengths) == ["101", "51", "151"]
    assert GAME.default_length == "101"
    assert GAME.lengths["101"] == Length("First to 101", 101, 99)
    assert GAME.lengths["51"] == Length("First to 51", 51, 99)
    assert GAME.lengths["151"] == Length("First to 151", 151, 99)
    assert set(GAME.bots) == {"random", "easy", "greedy", "skipper", "sampler"}
    assert GAME.computer == "sampler"
    assert [[s for s in range(4) if s in team] for team in GAME.teams] == [[0, 2], [1, 3]]
    bot = GAME.new_bot("greedy", 1, random.Random(1))
    assert hasattr(bot, "choose")
    with pytest.raises(UnknownBotError):
        GAME.new_bot("nobody", 0)


def test_parse_action_and_text():
    assert GAME.parse_action("7H") is C("7H")
    assert GAME.parse_action("10d") is C("10D")
    assert GAME.action_text(C("10D")) == "10D"
    for bad in ("1S", "7X", "", 7, None, "give"):
        with pytest.raises(UnknownActionError):
            GAME.parse_action(bad)


def test_get_game_finds_pisti():
    from pishe.table.game import get_game
    assert get_game("pisti") is GAME


# -- the deal -----------------------------------------------------------------------------

def test_opening_three_down_one_up():
    deck = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D"), 3)
    assert deck.pile == cards("2C", "3C", "4C", "5D")
    assert deck.face_down == tuple(cards("2C", "3C", "4C"))
    assert deck.up is C("5D")
    assert deck.sent_under == []
    assert deck.log[0] == (OPENING, 3, None, C("5D"), 4, 0, tuple(cards("2C", "3C", "4C")))
    assert len(deck.stock) == 52 - 4 - 16


def test_jack_turned_up_goes_to_the_bottom():
    deck = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D", jacks=["JH"]), 3)
    assert deck.pile == cards("2C", "3C", "4C", "5D")
    assert deck.sent_under == [C("JH")]
    assert deck.stock[0] is C("JH")
    assert kinds(deck.log[:2]) == [UNDER, OPENING]
    assert deck.log[0].card is C("JH")
    assert deck.seen[11] == 0 and deck.seen[5] == 1
    # The jack is the last card dealt: in the dealer's third packet.
    steps = play_randomly(deck, random.Random(3))
    packets = [s for s in deck.log if s.kind == PACKET]
    assert len(packets) == 12 and packets[-1].seat == 3
    assert C("JH") in packets[-1].cards
    assert C("JH") not in [c for p in packets[:-1] for c in p.cards]
    assert steps


def test_jacks_turned_up_repeatedly():
    deck = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D", jacks=["JH", "JS", "JC"]), 0)
    assert deck.sent_under == cards("JH", "JS", "JC")
    assert deck.stock[:3] == cards("JC", "JS", "JH")
    assert deck.pile[-1] is C("5D")
    assert kinds(deck.log[:4]) == [UNDER, UNDER, UNDER, OPENING]
    play_randomly(deck, random.Random(4))
    last = [s for s in deck.log if s.kind == PACKET][-1]
    assert last.seat == 0 and set(cards("JH", "JS", "JC")) <= set(last.cards)


def test_packets_from_dealer_plus_one_and_first_player():
    packets = [["AC", "AD", "AH", "AS"], ["2D", "2H", "2S", "3D"], ["6C", "6D", "6H", "6S"],
               ["7C", "7D", "7H", "7S"]]
    for dealer in range(4):
        deck = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D", packets), dealer)
        for i, packet in enumerate(packets):
            assert deck.hands[(dealer + 1 + i) % 4] == sort_cards(cards(*packet))
        assert deck.turn == (dealer + 1) % 4
        assert [s.seat for s in deck.log if s.kind == PACKET] == [(dealer + 1 + i) % 4 for i in range(4)]


def test_hand_and_legal_in_card_order():
    deck = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D", [["KS", "AS", "AC", "10H"]]), 3)
    assert [str(c) for c in deck.legal_actions()] == ["AC", "AS", "10H", "KS"]


def test_three_rounds_of_packets():
    deck = GAME.new_deal(random_deck(random.Random(5)), 2)
    counts = []
    rng = random.Random(6)
    while not deck.over:
        if deck.played % 16 == 0:
            counts.append((deck.played, len(deck.stock), [len(h) for h in deck.hands]))
        legal = deck.legal_actions()
        deck.apply(legal[rng.randrange(len(legal))], deck.turn)
    assert counts == [(0, 32, [4] * 4), (16, 16, [4] * 4), (32, 0, [4] * 4)]
    assert deck.played == 48
    assert [s.seat for s in deck.log if s.kind == PACKET] == [3, 0, 1, 2] * 3


# -- playing cards ---------------------------------------------------------------------------
#
# Dealer 3: seat 0 gets the first packet and leads.

ROUND = [["5H", "7H", "9C", "QC"],     # seat 0
         ["7S", "8C", "8D", "JD"],     # seat 1
         ["7D", "JC", "9D", "QD"],     # seat 2
         ["8H", "9H", "JS", "KC"]]     # seat 3


def scripted(face_down=("2C", "3C", "4C"), up="5D", packets=ROUND, dealer=3):
    return GAME.new_deal(deck_for(list(face_down), up, packets), dealer)


def test_same_rank_captures_the_opening_pile_and_is_no_pisti():
    deck = scripted()
    steps = deck.apply(C("5H"), 0)
    assert steps == [(CAPTURE, 0, 0, C("5H"), 5, 0, tuple(cards("2C", "3C", "4C")))]
    assert deck.pile == [] and deck.taken[0] == cards("2C", "3C", "4C", "5D", "5H")
    assert deck.pishti == [[], []] and deck.opening_team == 0 and deck.last_capture == 0
    assert deck.turn == 1


def test_other_rank_stays_on_the_pile():
    deck = scripted()
    assert deck.apply(C("7H"), 0) == [(PLAY, 0, 0, C("7H"), 5, 0, ())]
    assert deck.pile[-1] is C("7H") and len(deck.pile) == 5 and deck.taken == [[], []]


def test_jack_captures_any_pile():
    deck = scripted()
    deck.apply(C("7H"), 0)
    steps = deck.apply(C("JD"), 1)
    assert steps[0].kind == CAPTURE and steps[0].count == 6 and steps[0].team == 1
    assert steps[0].cards == tuple(cards("2C", "3C", "4C"))
    assert len(deck.taken[1]) == 6 and deck.pile == [] and deck.opening_team == 1


def test_jack_on_empty_table_starts_a_pile_and_jack_pisti():
    deck = scripted()
    deck.apply(C("5H"), 0)                 # takes the opening pile
    assert deck.apply(C("JD"), 1) == [(PLAY, 1, 1, C("JD"), 1, 0, ())]
    assert deck.pile == [C("JD")]
    steps = deck.apply(C("JC"), 2)
    assert steps == [(PISHTI, 2, 0, C("JC"), 2, 20, ())]
    assert deck.jack_pishti == [[C("JC")], []] and deck.pishti == [[], []]
    assert deck.taken[0][-2:] == cards("JD", "JC")


def test_pisti_single_card_by_same_rank():
    deck = scripted()
    deck.apply(C("5H"), 0)
    deck.apply(C("7S"), 1)                 # a single card on the empty table
    steps = deck.apply(C("7D"), 2)
    assert steps == [(PISHTI, 2, 0, C("7D"), 2, 10, ())]
    assert deck.pishti == [[C("7D")], []] and deck.last_capture == 0
    assert GAME.describe(GAME.show_step(steps[0], 0), 0) == "Partner plays the 7♦: pişti! 10 points"
    assert GAME.describe(GAME.show_step(steps[0], 2), 2) == "You play the 7♦: pişti! 10 points"


def test_single_non_jack_taken_by_jack_is_plain():
    deck = scripted()
    deck.apply(C("5H"), 0)
    deck.apply(C("7S"), 1)
    steps = deck.apply(C("JC"), 2)
    assert steps == [(CAPTURE, 2, 0, C("JC"), 2, 0, ())]
    assert deck.pishti == [[], []] and deck.jack_pishti == [[], []]


def test_first_capture_is_never_a_pisti():
    # The up card is matched at once: the pile holds four cards, so a plain capture.
    deck = scripted(up="5D")
    assert deck.apply(C("5H"), 0)[0].kind == CAPTURE


def late_deck(pile, hands, last_capture, played=46, turn=2, taken=None):
    """A hypothetical deck near its end, dealer 3 (every card accounted for)."""
    pile, hands = cards(*pile), [cards(*h) for h in hands]
    used = set(pile) | {c for h in hands for c in h}
    rest = [c for c in DECK if c not in used]
    taken = [rest[:len(rest) // 2], rest[len(rest) // 2:]] if taken is None else taken
    deck = Deck.hypothetical(dealer=3, turn=turn, hands=hands, stock=[], pile=pile,
                             face_down=tuple(rest[:3]), up=rest[3], sent_under=[], taken=taken,
                             pishti=[[], []], jack_pishti=[[], []], opening_team=0,
                             last_capture=last_capture, played=played, seen=[0] * 14)
    deck.check()
    return deck


def test_the_48th_card_never_makes_a_pisti():
    deck = late_deck(pile=[], hands=[[], [], ["7S"], ["7H"]], last_capture=0)
    deck.apply(C("7S"), 2)
    steps = deck.apply(C("7H"), 3)
    assert steps[0] == (CAPTURE, 3, 1, C("7H"), 2, 0, ())
    assert deck.pishti == [[], []] and deck.over
    # Nor a jack pişti.
    deck = late_deck(pile=[], hands=[[], [], ["JS"], ["JH"]], last_capture=0)
    deck.apply(C("JS"), 2)
    assert deck.apply(C("JH"), 3)[0].kind == CAPTURE and deck.jack_pishti == [[], []]
    # The 47th card still does.
    deck = late_deck(pile=["7C"], hands=[[], [], ["7S"], ["9H"]], last_capture=0)
    assert deck.apply(C("7S"), 2)[0].kind == PISHTI


def test_leftover_goes_to_the_last_capturing_team_and_the_deck_is_counted():
    deck = late_deck(pile=["4C", "5C"], hands=[[], [], ["7S"], ["9H"]], last_capture=1)
    deck.apply(C("7S"), 2)
    steps = deck.apply(C("9H"), 3)
    assert kinds(steps) == [PLAY, LEFTOVER, COUNT]
    assert steps[1] == (LEFTOVER, None, 1, None, 4, 0, ())
    assert deck.over and deck.turn is not None and deck.legal_actions() == ()
    assert deck.pile == [] and set(cards("4C", "5C", "7S", "9H")) <= set(deck.taken[1])
    assert steps[2].points == tuple(deck.team_points())
    assert GAME.describe(GAME.show_step(steps[1], 1), 1) == "Your team takes the last 4 cards"
    assert GAME.describe(GAME.show_step(steps[1], 0), 0) == "Their team takes the last 4 cards"


def counted(taken0, taken1, pishti=((), ()), jack_pishti=((), ())):
    """A deck counted with ``taken0`` and ``taken1`` taken: the last of ``taken0`` is the
    deck's 48th card, played by seat 0 onto an empty pile and left over to team 0."""
    *before, last = taken0
    deck = Deck.hypothetical(dealer=3, turn=0, hands=[[last], [], [], []], stock=[], pile=[],
                             face_down=(), up=None, sent_under=[], taken=[before, taken1],
                             pishti=[cards(*pishti[0]), cards(*pishti[1])],
                             jack_pishti=[cards(*jack_pishti[0]), cards(*jack_pishti[1])],
                             opening_team=0, last_capture=0, played=47, seen=[0] * 14)
    deck.apply(last, 0)
    assert deck.over
    return deck


def test_count_aces_jacks_two_clubs_ten_diamonds_most_cards():
    rest = [c for c in DECK if str(c) not in ("AC", "AD", "JC", "2C", "10D", "AH", "AS", "JD", "JH", "JS")]
    team0 = cards("AC", "AD", "JC", "2C", "10D") + rest[:22]      # 27 cards
    team1 = cards("AH", "AS", "JD", "JH", "JS") + rest[22:]       # 25 cards
    deck = counted(team0, team1)
    assert deck.team_points() == [2 + 1 + 2 + 3 + 3, 2 + 3]
    tally = deck.tally()
    assert tally[0] == {"cards": 27, "aces": 2, "jacks": 1, "two_clubs": 2, "ten_diamonds": 3,
                        "most_cards": 3, "pishti": 0, "jack_pishti": 0, "points": 11}
    assert tally[1]["points"] == 5 and tally[1]["most_cards"] == 0
    assert sum(deck.team_points()) == 16


def test_count_26_each_gives_nobody_most_cards_and_pisti_points():
    order = list(DECK)
    deck = counted(order[:26], order[26:], pishti=(("7C",), ("8D", "9H")), jack_pishti=(("JS",), ()))
    points = deck.team_points()
    assert sum(points) == 13 + 10 + 20 + 20
    tally = deck.tally()
    assert tally[0]["most_cards"] == tally[1]["most_cards"] == 0
    assert tally[0]["pishti"] == 10 and tally[0]["jack_pishti"] == 20 and tally[1]["pishti"] == 20
    assert [t["points"] for t in tally] == points


def test_deal_moves_on_with_the_dealer():
    shuffled = random_deck(random.Random(7))
    for dealer in range(4):
        deck = GAME.new_deal(shuffled, dealer)
        assert deck.dealer == dealer and deck.turn == (dealer + 1) % 4
        assert [s.seat for s in deck.log if s.kind == PACKET][0] == (dealer + 1) % 4


def test_match_deals_move_on():
    match_module = pytest.importorskip("pishe.table.match")
    match = match_module.Match(GAME, rng=random.Random(8))
    assert match.dealer == 3 and match.deal.turn == 0
    play_randomly(match.deal, random.Random(9))
    match.next_deal()
    assert match.dealer == 0 and match.deal.dealer == 0 and match.deal.turn == 1
    assert GAME.view(match, 2).to_json()["match"]["deal"] == 2


# -- illegal actions -------------------------------------------------------------------------

def test_illegal_actions_raise_named_errors_and_change_nothing():
    deck = scripted()
    before = snapshot(deck)
    with pytest.raises(CardNotInHandError):
        deck.apply(C("7S"), 0)              # seat 1's card
    with pytest.raises(NotYourTurnError):
        deck.apply(C("7S"), 1)
    with pytest.raises(UnknownActionError):
        deck.apply("7H", 0)                 # text, not a card
    assert snapshot(deck) == before
    assert issubclass(CardNotInHandError, IllegalActionError)
    late = late_deck(pile=[], hands=[[], [], ["7S"], ["9H"]], last_capture=0)
    late.apply(C("7S"))
    late.apply(C("9H"))
    before = snapshot(late)
    with pytest.raises(DealOverError):
        late.apply(C("9H"), 3)
    assert snapshot(late) == before


def test_bad_decks_and_dealers():
    good = list(DECK)
    for bad in (good[:51], good[:51] + good[:1], good + good[:1], ["AS"] * 52, "deck"):
        with pytest.raises(InvalidDeckError):
            GAME.new_deal(bad, 3)
    for dealer in (4, -1, None, True, "0"):
        with pytest.raises(InvalidDeckError):
            GAME.new_deal(good, dealer)
    assert issubclass(InvalidDeckError, PisheError)


# -- invariants over random decks --------------------------------------------------------------

def test_invariants_over_random_decks():
    rng = random.Random(10)
    for n in range(300):
        shuffled = random_deck(rng)
        deck = GAME.new_deal(shuffled, n % 4)
        deck.check()
        plays = []
        split = rng.randrange(48)
        while not deck.over:
            if len(plays) == split:
                halfway = deck.copy()
            legal = deck.legal_actions()
            assert legal == tuple(sort_cards(legal)) and legal
            card = legal[rng.randrange(len(legal))]
            if n % 10 == 0:
                # An illegal action raises and changes nothing.
                before = snapshot(deck)
                other = next(c for c in DECK if c not in legal)
                with pytest.raises(CardNotInHandError):
                    deck.apply(other, deck.turn)
                with pytest.raises(NotYourTurnError):
                    deck.apply(card, (deck.turn + 1) % 4)
                assert snapshot(deck) == before
            plays.append(card)
            deck.apply(card, deck.turn)
            deck.check()
        assert deck.played == len(plays) == 48
        assert sum(len(t) for t in deck.taken) == 52
        points = deck.team_points()
        assert sum(points) == sum(t["points"] for t in deck.tally())
        base = 16 if len(deck.taken[0]) != 26 else 13
        assert sum(points) == base + 10 * sum(map(len, deck.pishti)) + 20 * sum(map(len, deck.jack_pishti))
        # Determinism from deck, dealer and plays.
        again = GAME.new_deal(shuffled, n % 4)
        for card in plays:
            again.apply(card)
        assert again.log == deck.log and again.team_points() == points
        # A bot's play-out from the middle: the same rules, the same deck's end.
        rest = iter(plays[split + 1:])
        assert halfway.play_out(plays[split], lambda hand, top, count, seen: next(rest)) == tuple(points)
        assert (halfway.taken, halfway.pishti, halfway.jack_pishti) == (deck.taken, deck.pishti, deck.jack_pishti)
        assert halfway.over and halfway.log == [] and next(rest, None) is None


# -- views -------------------------------------------------------------------------------------

VIEW_KEYS = {"game", "seat", "seats", "names", "team", "teams", "team_names", "turn", "dealer", "hand",
             "hand_counts", "places", "deck_count", "pile", "sent_under", "taken", "opening", "legal", "status",
             "since_last_turn", "since_last_turn_steps", "tally", "deck_result", "match", "goal", "hint"}
MATCH_KEYS = {"length", "length_name", "target", "deal", "dealer", "scores", "over", "winner",
              "next_deal", "result"}


def test_view_json_shape():
    deck = scripted()
    view = GAME.view(StandInMatch(deck), 1)
    data = view.to_json()
    assert set(data) == VIEW_KEYS
    assert data["game"] == "pisti" and data["seat"] == 1 and data["seats"] == 4
    assert data["names"] == ["Left", "You", "Right", "Partner"]
    assert data["team"] == 1 and data["teams"] == [[0, 2], [1, 3]]
    assert data["team_names"] == ["Their team", "Your team"]
    assert data["turn"] == 0 and data["dealer"] == 3
    assert [c["code"] for c in data["hand"]] == ["7S", "8C", "8D", "JD"]
    assert data["hand"][0] == {**C("7S").to_json(), "play_label": "Play 7♠"}
    assert data["hand_counts"] == [4, 4, 4, 4] and data["deck_count"] == 32
    # Each seat's place in words, by seat number: Left (seat 0) is to play, Partner (3) deals.
    assert data["places"] == [
        {"name": "Left", "label": "Left holds 4 cards", "turn_flag": "To play", "dealer_flag": ""},
        {"name": "You", "label": "You hold 4 cards", "turn_flag": "", "dealer_flag": ""},
        {"name": "Right", "label": "Right holds 4 cards", "turn_flag": "", "dealer_flag": ""},
        {"name": "Partner", "label": "Partner holds 4 cards", "turn_flag": "", "dealer_flag": "Dealer"},
    ]
    assert data["pile"] == {"count": 4, "top": C("5D").to_json()}
    assert data["sent_under"] == [] and data["opening"] is None
    assert data["taken"] == [{"count": 0, "pishti": [], "jack_pishti": []}] * 2
    assert data["legal"] == [] and data["status"] == "Left to play."
    assert data["goal"].startswith("Take the pile") and data["hint"] is None
    assert data["since_last_turn"][0] == "Partner deals: 3 cards face down in the middle, the 5♦ face up on them"
    assert data["since_last_turn"][2] == "You get 4 cards: 7♠ 8♣ 8♦ J♦"
    assert data["since_last_turn"][1] == "Left gets 4 cards"
    assert data["deck_result"] is None
    assert set(data["match"]) == MATCH_KEYS
    assert data["match"] == {"length": "101", "length_name": "First to 101", "target": 101, "deal": 1,
                             "dealer": 3, "scores": [0, 0], "over": False, "winner": None,
                             "next_deal": False, "result": None}
    mover = GAME.view(StandInMatch(deck), 0).to_json()
    assert mover["legal"] == ["5H", "7H", "9C", "QC"] and mover["status"] == "Your turn: play a card."
    assert mover["places"][0]["turn_flag"] == "Your turn" and mover["places"][0]["label"] == "You hold 4 cards"
    named = GAME.view(StandInMatch(deck), 0, names=["Ada", "Bo", "Cy", "Di"]).to_json()
    assert named["names"] == ["Ada", "Bo", "Cy", "Di"]


def test_view_since_last_turn_and_opening_seen_by_the_capturing_team():
    deck = scripted()
    deck.apply(C("7H"), 0)
    deck.apply(C("JD"), 1)                  # team 1 takes the opening pile
    deck.apply(C("7D"), 2)
    deck.apply(C("8H"), 3)
    views = [GAME.view(StandInMatch(deck), s).to_json() for s in range(4)]
    assert views[0]["since_last_turn"] == ["Right plays the J♦ and takes 6 cards", "Partner plays the 7♦",
                                           "Left plays the 8♥"]
    assert views[1]["since_last_turn"] == ["Right plays the 7♦", "Partner plays the 8♥"]
    assert views[3]["since_last_turn"] == []
    assert views[0]["opening"] is None and views[2]["opening"] is None
    assert [c["code"] for c in views[1]["opening"]] == ["2C", "3C", "4C"]
    assert views[3]["opening"] == views[1]["opening"]
    capture = deck.log[-3]
    assert GAME.describe(GAME.show_step(capture, 3), 3) == \
        "Partner plays the J♦ and takes 6 cards, the face-down 2♣ 3♣ 4♣ among them"
    assert "opening" not in GAME.show_step(capture, 0) and "opening" not in GAME.show_step(capture, 2)
    assert views[0]["taken"][1]["count"] == 6 and views[0]["pile"] == {"count": 2, "top": C("8H").to_json()}
    assert views[0]["hand_counts"] == [3, 3, 3, 3]


def test_show_step_packets_and_opening():
    deck = scripted()
    packet = next(s for s in deck.log if s.kind == PACKET and s.seat == 2)
    assert GAME.show_step(packet, 2) == {"kind": "packet", "seat": 2, "count": 4,
                                         "cards": ["7D", "9D", "JC", "QD"]}
    assert GAME.show_step(packet, 1) == {"kind": "packet", "seat": 2, "count": 4}
    assert GAME.describe(GAME.show_step(packet, 1), 1) == "Right gets 4 cards"
    opening = deck.log[0]
    for seat in range(4):
        shown = GAME.show_step(opening, seat)
        assert shown == {"kind": "opening", "seat": 3, "card": "5D", "count": 4}
    assert GAME.describe(GAME.show_step(opening, 3), 3) == \
        "You deal: 3 cards face down in the middle, the 5♦ face up on them"
    deck2 = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D", jacks=["JH"]), 3)
    assert GAME.describe(GAME.show_step(deck2.log[0], 0), 0) == "The J♥ is turned up and goes under the deck"


def test_describe_words():
    deck = scripted()
    steps = deck.apply(C("7H"), 0)
    assert GAME.describe(GAME.show_step(steps[0], 0), 0) == "You play the 7♥"
    assert GAME.describe(GAME.show_step(steps[0], 3), 3) == "Right plays the 7♥"
    steps = deck.apply(C("JD"), 1)
    assert GAME.describe(GAME.show_step(steps[0], 0), 0) == "Right plays the J♦ and takes 6 cards"
    assert GAME.describe(GAME.show_step(steps[0], 3), 3).startswith("Partner plays the J♦ and takes 6 cards")


def test_view_at_deck_end_and_match_result():
    rng = random.Random(11)
    deck = GAME.new_deal(random_deck(rng), 3)
    play_randomly(deck, rng)
    points = deck.team_points()
    match = StandInMatch(deck, scores=points, over=False)
    data = GAME.view(match, 1).to_json()
    assert data["turn"] is None and data["legal"] == []
    result = data["deck_result"]
    # Seat 1's count, its own team first as its status line says them; points only, the
    # cards taken said in the most-cards row.
    cards = [len(deck.taken[1]), len(deck.taken[0])]
    assert [r["what"] for r in result["rows"]] == ["Aces", "Jacks", "2♣", "10♦",
                                                   f"Most cards ({cards[0]} to {cards[1]})",
                                                   "Pişti", "Jack pişti", "Points"]
    assert result["rows"][-1]["values"] == [str(points[1]), str(points[0])]
    assert result["teams"] == ["Your team", "Their team"]
    assert data["status"] == f"The deck is over: your team {points[1]}, their team {points[0]}."
    match = StandInMatch(deck, scores=[104, 87], over=True, winner=0)
    assert GAME.view(match, 0).to_json()["match"]["result"] == "Your team wins the match 104 to 87"
    assert GAME.view(match, 1).to_json()["status"] == "Their team wins the match 104 to 87."
    match = StandInMatch(deck, scores=[120, 120], over=True, winner=None)
    assert GAME.view(match, 0).to_json()["match"]["result"] == "The match is drawn at 120 to 120"
    match = StandInMatch(deck, scores=[20, 30])
    assert GAME.view(match, 0).to_json()["match"]["next_deal"] is True


def test_views_json_round_trip():
    rng = random.Random(12)
    for n in range(30):
        deck = GAME.new_deal(random_deck(rng), n % 4)
        while True:
            for seat in range(4):
                data = GAME.view(StandInMatch(deck), seat).to_json()
                text = json.dumps(data, ensure_ascii=False, sort_keys=True)
                assert json.dumps(json.loads(text), ensure_ascii=False, sort_keys=True) == text
                assert json.loads(text) == data
            if deck.over:
                break
            legal = deck.legal_actions()
            deck.apply(legal[rng.randrange(len(legal))])


def test_hidden_cards():
    deck = scripted()
    hidden = GAME.hidden_cards(deck, 0)
    assert set(deck.hands[0]).isdisjoint(hidden)
    assert set(deck.hands[1]) <= hidden and set(deck.stock) <= hidden
    assert set(deck.face_down) <= hidden and C("5D") not in hidden
    deck.apply(C("7H"), 0)
    deck.apply(C("JD"), 1)
    assert set(deck.face_down).isdisjoint(GAME.hidden_cards(deck, 3))
    assert set(deck.face_down) <= GAME.hidden_cards(deck, 0)
    jacks = GAME.new_deal(deck_for(["2C", "3C", "4C"], "5D", jacks=["JH"]), 3)
    assert C("JH") not in GAME.hidden_cards(jacks, 0)     # everyone saw it turned up


# -- command-line parts ---------------------------------------------------------------------------

def test_play_out_plays_and_errors():
    rng = random.Random(13)
    shuffled = random_deck(rng)
    deck = GAME.new_deal(shuffled, 1)
    plays = []
    while not deck.over:
        card = deck.legal_actions()[0]
        plays.append(str(card))
        deck.apply(card)
    texts = [str(c) for c in shuffled]
    answer = play_out(GAME, {"deck": texts, "dealer": 1, "plays": plays})
    assert answer["over"] and answer["points"] == deck.team_points()
    assert answer["cards"] == [len(t) for t in deck.taken]
    assert answer["pishti"] == [len(p) for p in deck.pishti]
    assert answer["jack_pishti"] == [len(p) for p in deck.jack_pishti]
    assert len(answer["steps"]) == len(deck.log)
    assert any(s.startswith("Seat 2: plays the ") for s in answer["steps"])
    part = play_out(GAME, {"deck": texts, "dealer": 1, "plays": plays[:5]})
    assert part["over"] is False and part["turn"] == (1 + 1 + 5) % 4 and part["points"] is None
    with pytest.raises(DealOverError):
        play_out(GAME, {"deck": texts, "dealer": 1, "plays": plays + plays[:1]})
    wrong = [c for c in texts if C(c) not in deck_hand(shuffled, 1)][0]
    with pytest.raises(CardNotInHandError, match="play 1"):
        play_out(GAME, {"deck": texts, "dealer": 1, "plays": [wrong]})
    for bad in (texts[:51], texts[:51] + texts[:1], texts[:51] + ["XX"]):
        with pytest.raises(InvalidDeckError):
            play_out(GAME, {"deck": bad, "dealer": 1, "plays": []})
    with pytest.raises(UnknownBotError):
        play_out(GAME, {"deck": texts, "dealer": 1, "bots": ["greedy", "x", "random", "greedy"]})
    with pytest.raises(PisheError):
        play_out(GAME, {"deck": texts, "dealer": 1})


def deck_hand(shuffled, dealer):
    return GAME.new_deal(shuffled, dealer).hands[(dealer + 1) % 4]


def test_play_out_with_bots():
    texts = [str(c) for c in random_deck(random.Random(14))]
    answer = play_out(GAME, {"deck": texts, "dealer": 3,
                            "bots": ["greedy", "random", "sampler", "greedy"]})
    assert answer["over"] and sum(answer["cards"]) == 52 and answer["turn"] is None
    again = play_out(GAME, {"deck": texts, "dealer": 3,
                           "bots": ["greedy", "random", "sampler", "greedy"]})
    assert again == answer


def test_tournament_smoke():
    result = tournament(GAME, "greedy", "random", 20, seed=1)
    assert set(result) >= {"game", "a", "b", "decks", "points", "pishti", "gain", "ci95"}
    assert result["game"] == "pisti" and result["decks"] == 20
    assert result["ci95"][0] <= result["gain"] <= result["ci95"][1]
    assert result == tournament(GAME, "greedy", "random", 20, seed=1)
    small = tournament(GAME, "sampler", "greedy", 2, seed=2)
    assert small["decks"] == 2 and sum(small["points"]) >= 26
    with pytest.raises(ValueError):
        tournament(GAME, "greedy", "random", 3)
    with pytest.raises(UnknownBotError):
        tournament(GAME, "greedy", "nobody", 2)


def test_play_deck_with_views():
    deck = GAME.new_deal(random_deck(random.Random(15)), 0)
    bots = [GAME.new_bot("random", s, random.Random(s)) for s in range(4)]
    steps = play_deck(deck, bots)
    assert deck.over and steps == deck.log[len(deck.log) - len(steps):]
    assert seat_view(deck, 0).turn is None
    assert show_step(deck.log[-1], 0)["kind"] == "count"


def test_a_whole_match_on_the_table_match():
    match_module = pytest.importorskip("pishe.table.match")
    match = match_module.Match(GAME, length="51", rng=random.Random(16))
    bots = [GAME.new_bot("greedy", s, random.Random(s)) for s in range(4)]
    decks = 0
    while True:
        while not match.deal.over:
            seat = match.deal.turn
            match.apply(bots[seat].choose(GAME.view(match, seat)), seat)
        decks += 1
        data = GAME.view(match, 0).to_json()
        assert data["match"]["scores"] == match.scores and data["match"]["deal"] == decks
        if match.over:
            break
        assert data["match"]["next_deal"] is True
        match.next_deal()
    assert max(match.scores) >= 51 and match.winner in (0, 1)
    assert data["match"]["result"].endswith(f"wins the match {max(match.scores)} to {min(match.scores)}")
    assert data["status"] == data["match"]["result"] + "."
